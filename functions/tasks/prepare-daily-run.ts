import { prepareDailyRun, type PrepareInput } from '../app/daily/execution';
import { readyContainer } from '../container';
import { lambdaTask } from '../invocation';

/** Records the daily-schedule execution and sets up the fan-out (run date, first page). */
export const handler = lambdaTask(async (event: PrepareInput) => prepareDailyRun(await readyContainer(), event));
