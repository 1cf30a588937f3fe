import { recordEdgeRolloutFailure } from '../app/edge/rollout';
import { readyContainer } from '../container';
import { lambdaTask } from '../invocation';

/** The Catch of the edge rollout's tasks: stores an error response with the reason and lets go of the lease. */
export const handler = lambdaTask(async (event: { execution_id: string; error?: { Error?: string; Cause?: string } }): Promise<Record<string, unknown>> => {
  const { http_status } = await recordEdgeRolloutFailure(await readyContainer(), event.execution_id, event.error);
  return { execution_id: event.execution_id, http_status, status: 'error' };
});
