/**
 * What every route that runs a workflow shares (D20): the wait of a POST and its `Prefer`
 * override, the execution id of a read-back path, and the answer as an HTTP result.
 *
 * A POST waits up to 20 s for its execution (`WORKFLOW_WAIT_MS`). A client may ask for less
 * with the standard `Prefer` header (RFC 7240): `Prefer: respond-async` answers 202 at once,
 * `Prefer: wait=5` waits at most 5 s; `Preference-Applied` says which was honoured.
 */
import * as z from 'zod/mini';
import { EXECUTION_ID, WORKFLOW_WAIT_MS } from '../app/workflow-results';
import type { ApiResult } from './endpoint';

/** The 202 of a workflow route (D20): still running; `status_url` (also the `Location` header) reads it back. */
export const runningResponse = z.object({
  status: z.literal('running'),
  execution_id: z.string(),
  status_url: z.string().check(z.describe('GET it for the result: 202 while running, then the operation\'s answer (also the Location header)')),
}).check(z.meta({ id: 'WorkflowRunning' }));

/**
 * The success contract of a route answering a workflow's outcome (a POST that waits, or its
 * `GET .../{execution_id}` read-back): the operation's finished body (`finished`, which
 * `workflowAnswer` gives the `execution_id`), or the running 202.
 */
export const workflowResponse = <T extends z.ZodMiniType>(finished: T) => z.union([finished, runningResponse]);

/** `{execution_id}` of a read-back path: the ids this service makes (app/workflow-results.ts). */
export const executionIdPath = z.object({ execution_id: z.string().check(z.regex(EXECUTION_ID, 'must be an execution id')) });

/** The wait budget of this request: the default, or less when `Prefer` asks for it. */
export function waitBudget(headers: Record<string, string | undefined>): { budgetMs: number; applied: string | null } {
  const prefer = (headers.prefer ?? headers.Prefer ?? '').toLowerCase();
  const tokens = prefer.split(/[,;]/).map((t) => t.trim()).filter(Boolean);
  if (tokens.includes('respond-async')) return { budgetMs: 0, applied: 'respond-async' };
  const wait = tokens.map((t) => /^wait\s*=\s*(\d{1,6})$/.exec(t)).find(Boolean);
  if (wait) {
    const ms = Math.min(Number(wait[1]) * 1000, WORKFLOW_WAIT_MS);
    return { budgetMs: ms, applied: `wait=${ms / 1000}` };
  }
  return { budgetMs: WORKFLOW_WAIT_MS, applied: null };
}

/** The HTTP result of a D20 answer (any workflow's): 202 carries `Location: <status_url>`. */
export function toApiResult(answer: { statusCode: number; body: object }, applied: string | null = null): ApiResult {
  const statusUrl = (answer.body as { status_url?: unknown }).status_url;
  return {
    statusCode: answer.statusCode,
    body: answer.body,
    headers: {
      ...(applied ? { 'Preference-Applied': applied } : {}),
      ...(answer.statusCode === 202 && typeof statusUrl === 'string' ? { Location: statusUrl } : {}),
    },
  };
}
