import { commitProducts } from '../app/daily/products';
import { dailyTask } from './daily-task';

/** Daily 1b, last: products_hash and products_snapshot move to today's catalogue. */
export const handler = dailyTask('1b-commit', (container, input) => commitProducts(container, input.org_slug));
