import { discoverNewProducts } from '../app/daily/products';
import { dailyTask } from './daily-task';

/** Daily 1b: products hash vs products_hash, new products become entities. */
export const handler = dailyTask('1b', (container, input) => discoverNewProducts(container, input.org_slug));
