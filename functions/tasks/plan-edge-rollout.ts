import { planEdgeRollout, type RolloutState } from '../app/edge/rollout';
import { readyContainer } from '../container';
import { lambdaTask } from '../invocation';

/**
 * The edge-rollout workflow's first task (POST /api/domain/update-edge-function): publishes a
 * new edge-function version only when the code changed, and plans the distributions to move.
 */
export const handler = lambdaTask(async (event: { execution_id: string }): Promise<RolloutState> =>
  planEdgeRollout(await readyContainer(), event.execution_id));
