import { promptNewProducts } from '../app/daily/products';
import { dailyTask } from './daily-task';

/** Daily 1b: 10 prompts per new product (D9). */
export const handler = dailyTask('1b-prompts', (container, input) => promptNewProducts(container, input.org_slug));
