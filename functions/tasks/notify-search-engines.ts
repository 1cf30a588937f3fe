import { notifySearchEngines } from '../app/daily/notify-search-engines';
import { dailyTask } from './daily-task';

/** Daily 3: one IndexNow submission of the day's changed URLs and new articles; the sitemap to the console when verified. */
export const handler = dailyTask('3', (container, input, run) => notifySearchEngines(container, input, run));
