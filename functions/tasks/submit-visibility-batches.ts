import { submitVisibilityBatches, type ArrivingItem } from '../app/visibility/batches';
import { readyContainer } from '../container';
import { visibilityEnginesOf } from '../engines/visibility';
import { visibilityBatchesOf } from '../engines/visibility-batches';
import { lambdaTask } from '../invocation';

/** After a Map child's businesses: they arrive in their shards; a shard they complete goes to each batch platform's vendor as one batch. */
export const handler = lambdaTask(async (event: { run_date: string; execution_id: string; items: ArrivingItem[] }) => {
  const container = await readyContainer();
  return submitVisibilityBatches(container, visibilityBatchesOf(container), visibilityEnginesOf(container), event);
});
