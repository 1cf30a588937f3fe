import { listDailyBusinesses, type DailyRunState } from '../app/daily/execution';
import { readyContainer } from '../container';
import { lambdaTask } from '../invocation';

/** One page of businesses for the daily fan-out. */
export const handler = lambdaTask(async (event: DailyRunState) => listDailyBusinesses(await readyContainer(), event));
