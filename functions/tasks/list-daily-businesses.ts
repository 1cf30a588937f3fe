import { listDailyBusinesses, type DailyRunState } from '../app/daily/execution';
import { readyContainer } from '../container';

/** One page of businesses for the daily fan-out. */
export const handler = async (event: DailyRunState) => listDailyBusinesses(await readyContainer(), event);
