/** GET /api/product-names?url= (D13): product names for the scanning UI. */
import * as z from 'zod/mini';
import { parseStoreUrl } from '../../core/store/store-url';
import { endpoint } from '../../http/endpoint';
import { count, requiredText } from '../../http/schemas';
import { publicAuth } from '../../http/auth';

const query = z.object({ url: requiredText('url', 2048) });
/** A public, unauthenticated call: bound the work one request can cause. */
const MAX_PAGES = 4;

export const handler = endpoint('GET /api/product-names', { authenticator: publicAuth,
  query,
  response: z.object({ product_names: z.array(z.string()).check(z.describe('distinct, trimmed, in store order')), total: count }),
}, async ({ query, container }) => {
  const origin = parseStoreUrl(query.url).origin;
  const { products } = await container.storefront.listProducts(origin, MAX_PAGES);
  const names = [...new Set(products.map((p) => p.title.trim()).filter(Boolean))];
  return { body: { product_names: names, total: names.length } };
});
