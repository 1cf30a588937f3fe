/**
 * POST /api/cron/generate-prompts (KEY) `{business_id, url, product_id, product_name}`:
 * regenerates the prompts of one product (10 new ones by default, `prompt_count` to change it)
 * from the given website, exactly as the manual regenerate-prompts does for a product. The
 * product must be an entity of the business (404 otherwise); `product_name` names it only
 * when neither its catalogue entry nor its entity has a name. Same D20 answer: the response
 * when done within 20 s, else 202 and `GET /api/cron/generate-prompts/{execution_id}`.
 */
import { awaitPromptRegeneration, startPromptRegeneration } from '../../app/prompts/regenerate-run';
import { endpoint } from '../../http/endpoint';
import { generateRequest } from '../manual-trigger/regenerate-http';
import { regenerateResponse } from '../manual-trigger/regenerate-response';
import { toApiResult, waitBudget } from '../../http/workflow-http';
import { keyAuth } from '../../http/auth/key';

export const handler = endpoint('POST /api/cron/generate-prompts', { authenticator: keyAuth, body: generateRequest, response: regenerateResponse }, async ({ body, headers, container, route }) => {
  const { executionId } = await startPromptRegeneration(container, {
    orgSlug: body.business_id, url: body.url, productId: body.product_id, productName: body.product_name ?? null,
    count: body.prompt_count ?? null, trigger: 'cron',
  });
  const { budgetMs, applied } = waitBudget(headers);
  return toApiResult(await awaitPromptRegeneration(container, executionId, `${route.path}/${executionId}`, budgetMs), applied);
});
