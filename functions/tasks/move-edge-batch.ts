import { moveEdgeBatch } from '../app/edge/rollout';
import { readyContainer } from '../container';
import { lambdaTask } from '../invocation';

/** One batch (10) of the edge rollout: each distribution to the new version; failures keep their old one. */
export const handler = lambdaTask(async (event: { execution_id: string; batch: number }): Promise<{ batch: number; moved: number; failed: number }> =>
  moveEdgeBatch(await readyContainer(), event.execution_id, event.batch));
