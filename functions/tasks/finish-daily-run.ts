import { finishDailyRun } from '../app/daily/execution';
import { readyContainer } from '../container';
import { lambdaTask } from '../invocation';

/** Closes the daily-schedule execution (succeeded, or failed with the error that stopped the fan-out). */
export const handler = lambdaTask(async (event: { execution_id: string; error?: { Error?: string; Cause?: string } }) => finishDailyRun(await readyContainer(), event));
