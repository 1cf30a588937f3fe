import { refreshCrawlerAddresses } from '../app/visits/crawler-addresses';
import { readyContainer } from '../container';
import { lambdaTask } from '../invocation';

/** Daily: the crawler vendors' published address lists, fetched and stored for visit verification (D193). */
export const handler = lambdaTask(async () => refreshCrawlerAddresses(await readyContainer()));
