import { analyzeVisibility } from '../app/visibility/analyze';
import { readyContainer } from '../container';
import { lambdaTask } from '../invocation';

/** Batch 2b on demand (the visibility-analysis workflow started by POST /api/cron/analyze-visibility). */
export const handler = lambdaTask(async (event: { org_slug: string; run_date: string; execution_id: string }): Promise<Record<string, unknown>> => {
  const container = await readyContainer();
  return { org_slug: event.org_slug, execution_id: event.execution_id, ...(await analyzeVisibility(container, event.org_slug, event.run_date)) };
});
