/**
 * POST /api/manual-trigger/regenerate-prompts (KEY) `{business_id, url, product_id?, prompt_count?}`:
 * scrapes the website (up to 5,000 pages) and adds `prompt_count` new prompts (default 50 for
 * the business, 10 for a product); existing and search-API prompts are kept, new ones untested.
 * Runs as a regenerate-prompts execution: the spec response when it finishes within 20 s,
 * else 202 `{status:'running', execution_id, status_url}` (D20).
 */
import { awaitPromptRegeneration, startPromptRegeneration } from '../../app/prompts/regenerate-run';
import { endpoint } from '../../http/endpoint';
import { regenerateRequest } from './regenerate-http';
import { regenerateResponse } from './regenerate-response';
import { toApiResult, waitBudget } from '../../http/workflow-http';
import { keyAuth } from '../../http/auth/key';

const ROUTE = 'POST /api/manual-trigger/regenerate-prompts';

export const handler = endpoint(ROUTE, { authenticator: keyAuth, body: regenerateRequest, response: regenerateResponse }, async ({ body, headers, container, route }) => {
  const { executionId } = await startPromptRegeneration(container, {
    orgSlug: body.business_id, url: body.url, productId: body.product_id ?? null, count: body.prompt_count ?? null, trigger: 'manual',
  });
  const { budgetMs, applied } = waitBudget(headers);
  return toApiResult(await awaitPromptRegeneration(container, executionId, `${route.path}/${executionId}`, budgetMs), applied);
});
