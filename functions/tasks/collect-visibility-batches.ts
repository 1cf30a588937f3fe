import { collectVisibilityBatches, type PendingBatchItem } from '../app/visibility/batches';
import { readyContainer } from '../container';
import { visibilityEnginesOf } from '../engines/visibility';
import { visibilityBatchesOf } from '../engines/visibility-batches';
import { workflowObjectsOf } from '../engines/workflow-objects';
import { lambdaTask } from '../invocation';

/** A collecting Map child: its businesses' ended vendor batches judged into checks (their answers stored per business once), and each settled day scored. */
export const handler = lambdaTask(async (event: { run_date: string; execution_id: string; items: Array<Pick<PendingBatchItem, 'org_slug'> & Partial<PendingBatchItem>> }) => {
  const container = await readyContainer();
  return collectVisibilityBatches(container, visibilityBatchesOf(container), visibilityEnginesOf(container), workflowObjectsOf(container), {
    run_date: event.run_date,
    execution_id: event.execution_id,
    org_slugs: event.items.map((i) => i.org_slug),
    jobs_by_org: Object.fromEntries(event.items.map((i) => [i.org_slug, i.jobs ?? []])),
  });
});
