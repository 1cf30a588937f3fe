/**
 * The HTTP side of the edge-function rollout (issue 15; D20): `POST
 * /api/domain/update-edge-function` (KEY) takes the one-at-a-time lease, starts the
 * `edge-rollout` workflow and waits up to `WORKFLOW_WAIT_MS` for its response (200 with the
 * spec's body, which stays `status: 'success'` when some distributions failed), else answers
 * 202 `{status:'running', execution_id, status_url}`; `GET
 * /api/domain/update-edge-function/{execution_id}` reads it back.
 *
 * One rollout at a time: a second POST while one runs answers 409 with the running
 * execution's id and read-back URL. A lease whose execution has ended without letting go
 * (aborted, or never started) is taken over; one whose execution cannot be asked expires after
 * EDGE_ROLLOUT_LEASE_SECONDS.
 *
 * Light on purpose: the route bundles import this module, never the CDN engine, the Lambda or
 * CloudFront clients (the work happens in the workflow's tasks).
 */
import { randomUUID } from 'node:crypto';
import { EDGE_ROLLOUT_LEASE_SECONDS } from '../../core/constants';
import type { RolloutResponse } from '../../core/edge/rollout';
import type { Container } from '../../container';
import { edgeVersionsOf } from '../../engines/edge-versions';
import { createLogger } from '../../logger';
import { awaitWorkflowOutcome, workflowAnswer, workflowOutcome, type WorkflowOutcome } from '../workflow-results';

export const EDGE_ROLLOUT_WORKFLOW = 'edge-rollout' as const;
export const EDGE_ROLLOUT_PATH = '/api/domain/update-edge-function';
/** A lease held by an execution the engine does not know yet is left alone this long (it may be starting). */
export const UNKNOWN_HOLDER_GRACE_MS = 60_000;

const log = createLogger({ component: 'edge-rollout' });

/** The stored body: the spec's response, or an error. */
export type EdgeRolloutBody = RolloutResponse | { status: 'error'; error: string };

export interface EdgeRolloutAnswer {
  statusCode: number;
  body: Record<string, unknown>;
}

export const edgeRolloutStatusUrl = (executionId: string): string => `${EDGE_ROLLOUT_PATH}/${executionId}`;

/** Takes the lease and starts a rollout; a running one is the refusal (409). */
export async function startEdgeRollout(container: Container): Promise<{ executionId: string } | { refused: EdgeRolloutAnswer }> {
  const versions = edgeVersionsOf(container);
  const executionId = randomUUID();
  const now = container.clock.now();
  const expiresAt = new Date(now.getTime() + EDGE_ROLLOUT_LEASE_SECONDS * 1000);
  let acquired = await versions.acquireLease(executionId, now, expiresAt);
  for (let look = 0; !acquired && look < 2; look++) {
    const holder = await versions.lease();
    if (holder && !(await holderEnded(container, holder.executionId, holder.acquiredAt, now))) {
      return {
        refused: {
          statusCode: 409,
          body: {
            status: 'error',
            error: 'an edge-function rollout is already running; its result is at status_url',
            execution_id: holder.executionId,
            status_url: edgeRolloutStatusUrl(holder.executionId),
          },
        },
      };
    }
    acquired = await versions.acquireLease(executionId, now, expiresAt, holder?.executionId);
    if (acquired && holder) log.warn('edge rollout lease taken over from an execution that ended without letting go', { from: holder.executionId, execution_id: executionId });
  }
  if (!acquired) throw new Error('the edge-function rollout lease changed hands repeatedly; try again');
  try {
    await container.workflows.start(EDGE_ROLLOUT_WORKFLOW, executionId, { requested_at: now.toISOString() });
  } catch (err) {
    await versions.releaseLease(executionId);
    throw err;
  }
  return { executionId };
}

/** Whether the lease holder's execution has ended (or never started, past a grace period). */
async function holderEnded(container: Container, executionId: string, acquiredAt: string, now: Date): Promise<boolean> {
  if (!container.workflows.describe) return false;
  const described = await container.workflows.describe(EDGE_ROLLOUT_WORKFLOW, executionId);
  if (described) return described.status !== 'RUNNING';
  const since = now.getTime() - Date.parse(acquiredAt);
  return Number.isFinite(since) && since > UNKNOWN_HOLDER_GRACE_MS;
}

function answerOf(outcome: WorkflowOutcome<EdgeRolloutBody>, executionId: string): EdgeRolloutAnswer {
  return workflowAnswer(outcome, { workflow: EDGE_ROLLOUT_WORKFLOW, executionId, statusUrl: edgeRolloutStatusUrl(executionId) },
    (error) => ({ status: 'error', error }));
}

/** POST: waits up to `budgetMs` for the execution just started. */
export async function awaitEdgeRollout(container: Container, executionId: string, budgetMs: number): Promise<EdgeRolloutAnswer> {
  return answerOf(await awaitWorkflowOutcome<EdgeRolloutBody>(container, EDGE_ROLLOUT_WORKFLOW, executionId, { budgetMs, started: true }), executionId);
}

/** GET `/{execution_id}`: the response once stored, 202 while running, 404 when unknown. */
export async function readEdgeRollout(container: Container, executionId: string): Promise<EdgeRolloutAnswer> {
  return answerOf(await workflowOutcome<EdgeRolloutBody>(container, EDGE_ROLLOUT_WORKFLOW, executionId), executionId);
}
