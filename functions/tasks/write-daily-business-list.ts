import { writeDailyBusinessList } from '../app/daily/business-list';
import type { DailyRunState } from '../app/daily/execution';
import { readyContainer } from '../container';
import { workflowObjectsOf } from '../engines/workflow-objects';
import { lambdaTask } from '../invocation';

/** The day's businesses as the Distributed Map's item list (its ItemReader reads it from S3). */
export const handler = lambdaTask(async (event: DailyRunState) => {
  const container = await readyContainer();
  return writeDailyBusinessList(container, workflowObjectsOf(container), event);
});
