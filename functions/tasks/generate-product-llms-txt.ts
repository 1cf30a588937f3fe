import { refreshProductFiles } from '../app/daily/products';
import { dailyTask } from './daily-task';

/** Daily 1b: the product llms files of the current catalogue, saved as a site part (not deployed). */
export const handler = dailyTask('1b-files', (container, input) => refreshProductFiles(container, input.org_slug));
