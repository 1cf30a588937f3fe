import { prepareDailyRun, type PrepareInput } from '../app/daily/execution';
import { readyContainer } from '../container';

/** Records the daily-schedule execution and sets up the fan-out (run date, first page). */
export const handler = async (event: PrepareInput) => prepareDailyRun(await readyContainer(), event);
