/**
 * The hosted store platform's public storefront endpoints (`/products.json`), always
 * through the guarded client. Store responses are untrusted: bounded and schema-checked.
 */
import * as z from 'zod/mini';
import { UpstreamError } from '../../core/errors';
import type { HttpFetcher } from './guarded-fetch';

const optionalText = z.optional(z.nullable(z.string()));
const productSchema = z.looseObject({
  id: z.optional(z.union([z.number(), z.string()])),
  handle: z.string().check(z.minLength(1)),
  title: z.string(),
  product_type: optionalText,
  vendor: optionalText,
  tags: z.optional(z.nullable(z.union([z.array(z.string()), z.string()]))),
  body_html: optionalText,
  updated_at: optionalText,
});
const pageSchema = z.object({ products: z.array(productSchema) });

export type StoreProduct = z.infer<typeof productSchema>;

/** The platform serves at most 250 per page. */
export const MAX_PAGE_SIZE = 250;

export async function fetchProductsPage(fetchUrl: HttpFetcher, origin: string, page: number, limit = MAX_PAGE_SIZE): Promise<StoreProduct[]> {
  const res = await fetchUrl(`${origin}/products.json?limit=${limit}&page=${page}`, { headers: { accept: 'application/json' } });
  if (res.status !== 200) throw new UpstreamError(`${origin}/products.json answered HTTP ${res.status}`);
  const parsed = pageSchema.safeParse(res.json());
  if (!parsed.success) throw new UpstreamError(`${origin}/products.json is not a product listing`);
  return parsed.data.products;
}

/** Every product, page by page, until an empty or short page or `maxPages`. */
export async function fetchAllProducts(fetchUrl: HttpFetcher, origin: string, maxPages = 100): Promise<StoreProduct[]> {
  const all: StoreProduct[] = [];
  for (let page = 1; page <= maxPages; page++) {
    const products = await fetchProductsPage(fetchUrl, origin, page);
    all.push(...products);
    if (products.length < MAX_PAGE_SIZE) break;
  }
  return all;
}
