import { settleFailedBatches, type MapRunOutput } from '../app/daily/business-list';
import { finishDailyRun } from '../app/daily/execution';
import { readyContainer } from '../container';
import { workflowObjectsOf } from '../engines/workflow-objects';
import { lambdaTask } from '../invocation';

interface FinishInput {
  execution_id: string;
  run_date?: string;
  /** The ProcessBusinesses Map run's output: where its ResultWriter put the child executions' results. */
  map_run?: MapRunOutput | null;
  error?: { Error?: string; Cause?: string };
}

/**
 * Closes the daily-schedule execution (succeeded, or failed with the error that stopped the
 * fan-out), after closing the businesses of any batch whose child execution failed outright.
 */
export const handler = lambdaTask(async (event: FinishInput) => {
  const container = await readyContainer();
  if (event.map_run && event.run_date) await settleFailedBatches(container, workflowObjectsOf(container), { execution_id: event.execution_id, run_date: event.run_date }, event.map_run);
  return finishDailyRun(container, event);
});
