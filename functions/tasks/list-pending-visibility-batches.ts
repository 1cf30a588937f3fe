import { listPendingVisibilityBatches } from '../app/visibility/batches';
import { readyContainer } from '../container';
import { visibilityEnginesOf } from '../engines/visibility';
import { visibilityBatchesOf } from '../engines/visibility-batches';
import { workflowObjectsOf } from '../engines/workflow-objects';
import { lambdaTask } from '../invocation';

/** Sends the shards a failed child left incomplete; the businesses whose vendor batches are not in yet, as the collecting Map's item list. */
export const handler = lambdaTask(async (event: { run_date: string; execution_id: string }) => {
  const container = await readyContainer();
  return listPendingVisibilityBatches(container, visibilityBatchesOf(container), visibilityEnginesOf(container), workflowObjectsOf(container), event);
});
