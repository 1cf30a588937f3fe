import { finishEdgeRollout } from '../app/edge/rollout';
import { readyContainer } from '../container';
import { lambdaTask } from '../invocation';

/** The edge rollout's last task: stores the spec's response for the route (D20) and lets go of the lease. */
export const handler = lambdaTask(async (event: { execution_id: string }): Promise<Record<string, unknown>> => {
  const response = await finishEdgeRollout(await readyContainer(), event.execution_id);
  const { total, successful, failed } = response.distributions;
  // The execution's output: the counts (the failure details stay in the stored response).
  return { execution_id: event.execution_id, status: response.status, edge_function_arn: response.edge_function_arn, published: response.published, total, successful, failed };
});
