import { publishArticlesAndTimestamps } from '../app/articles/daily';
import { dailyTask } from './daily-task';

/** Daily 2a: one combined deploy of the day's articles with every page's check date refreshed. */
export const handler = dailyTask('2a', (container, input) => publishArticlesAndTimestamps(container, input));
