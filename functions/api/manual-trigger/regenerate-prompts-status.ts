/**
 * GET /api/manual-trigger/regenerate-prompts/{execution_id} and
 * GET /api/cron/generate-prompts/{execution_id} (KEY): a regenerate-prompts execution read
 * back (D20): its spec response (with the status the POST would have had) once finished,
 * 202 `{status:'running', ...}` while it runs, 404 for an id the workflow does not know.
 */
import { readPromptRegeneration } from '../../app/prompts/regenerate-run';
import { endpoint, routeOfEvent } from '../../http/endpoint';
import { executionIdPath, toApiResult } from '../../http/workflow-http';
import { regenerateResponse } from './regenerate-response';
import { keyAuth } from '../../http/auth/key';

export const handler = endpoint(routeOfEvent, { authenticator: keyAuth, path: executionIdPath, response: regenerateResponse }, async ({ path, container, route }) => {
  const statusUrl = route.path.replace('{execution_id}', path.execution_id);
  return toApiResult(await readPromptRegeneration(container, path.execution_id, statusUrl));
});
