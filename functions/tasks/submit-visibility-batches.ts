import { submitVisibilityBatches } from '../app/visibility/batches';
import { readyContainer } from '../container';
import { visibilityEnginesOf } from '../engines/visibility';
import { visibilityBatchesOf } from '../engines/visibility-batches';
import { lambdaTask } from '../invocation';

/** After a Map child's businesses: their queued checks go to each batch platform's vendor as one batch. */
export const handler = lambdaTask(async (event: { run_date: string; execution_id: string; items: Array<{ org_slug: string }> }) => {
  const container = await readyContainer();
  return submitVisibilityBatches(container, visibilityBatchesOf(container), visibilityEnginesOf(container), { run_date: event.run_date, execution_id: event.execution_id, org_slugs: event.items.map((i) => i.org_slug) });
});
