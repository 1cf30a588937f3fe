/**
 * POST /api/domain/update-edge-function (KEY, no body; D6, D20; issue 15): publishes a new
 * edge-function version when the code changed and moves every distribution not on the current
 * version to it, 10 at a time with 1 s between batches (the edge-rollout workflow). Answers
 * 200 with the spec's response when the rollout finishes within 20 s (less with `Prefer:
 * respond-async` / `Prefer: wait=<s>`), else 202 `{status:'running', execution_id, status_url}`
 * and `GET /api/domain/update-edge-function/{execution_id}` gives it later. Failed
 * distributions are in `failed_details` with `status` still `success`; calling again retries
 * exactly them. 409 while another rollout runs.
 */
import * as z from 'zod/mini';
import { awaitEdgeRollout, edgeRolloutStatusUrl, startEdgeRollout, type EdgeRolloutAnswer } from '../../app/edge/rollout-run';
import { endpoint, type ApiResult } from '../../http/endpoint';
import { waitBudget, workflowResponse } from '../../http/workflow-http';
import { keyAuth } from '../../http/auth/key';

/**
 * The success contract of the POST and its read-back: the spec's response once the rollout
 * finished (`status` stays `success` when distributions failed; `failed_details` names them),
 * plus what this call did and the execution's id; or the running 202.
 */
export const edgeRolloutResponse = workflowResponse(z.object({
  status: z.literal('success'),
  edge_function_arn: z.string(),
  published: z.boolean().check(z.describe('true when this call published a new version (the code changed)')),
  distributions: z.object({
    total: z.number(),
    successful: z.number(),
    failed: z.number(),
    failed_details: z.nullable(z.array(z.object({ distribution_id: z.string(), status: z.literal('error'), error: z.string() })))
      .check(z.describe('the distributions left on their version (a call again retries them); null when none failed')),
  }),
  batches: z.number().check(z.describe('batches of 10 the distributions were moved in')),
  execution_id: z.string(),
}).check(z.meta({ id: 'EdgeRollout' })));

export function toApiResult(answer: EdgeRolloutAnswer, applied: string | null = null): ApiResult {
  const url = answer.body.status_url;
  return {
    statusCode: answer.statusCode,
    body: answer.body,
    headers: {
      ...(applied ? { 'Preference-Applied': applied } : {}),
      ...((answer.statusCode === 202 || answer.statusCode === 409) && typeof url === 'string' ? { Location: url } : {}),
    },
  };
}

export const handler = endpoint('POST /api/domain/update-edge-function', { authenticator: keyAuth, response: edgeRolloutResponse }, async ({ headers, container }) => {
  const started = await startEdgeRollout(container);
  if ('refused' in started) return toApiResult(started.refused);
  const { budgetMs, applied } = waitBudget(headers);
  const answer = await awaitEdgeRollout(container, started.executionId, budgetMs);
  if (answer.statusCode === 202) answer.body.status_url = edgeRolloutStatusUrl(started.executionId);
  return toApiResult(answer, applied);
});
