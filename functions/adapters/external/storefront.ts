/**
 * The hosted store platform's public storefront endpoints (`/products.json`,
 * `/collections.json`), always through the guarded client. Store responses are
 * untrusted: bounded and schema-checked.
 */
import * as z from 'zod/mini';
import { UpstreamError } from '../../core/errors';
import type { StorefrontProduct } from '../../core/products/catalog';
import { currencyFromHtml, currencyFromJson } from '../../core/products/currency';
import type { HttpFetcher, ProductListing, Storefront, StoreCollection } from '../../ports';

const optionalText = z.optional(z.nullable(z.string()));
const variantSchema = z.looseObject({
  price: z.optional(z.nullable(z.union([z.string(), z.number()]))),
  compare_at_price: z.optional(z.nullable(z.union([z.string(), z.number()]))),
  available: z.optional(z.nullable(z.boolean())),
});
const productSchema = z.looseObject({
  id: z.optional(z.union([z.number(), z.string()])),
  handle: z.string().check(z.minLength(1)),
  title: z.string(),
  body_html: optionalText,
  product_type: optionalText,
  vendor: optionalText,
  tags: z.optional(z.nullable(z.union([z.array(z.string()), z.string()]))),
  updated_at: optionalText,
  variants: z.optional(z.nullable(z.array(variantSchema))),
  images: z.optional(z.nullable(z.array(z.looseObject({ src: optionalText })))),
});
const productPageSchema = z.object({ products: z.array(productSchema) });
const collectionSchema = z.looseObject({ handle: z.string().check(z.minLength(1)), title: z.string(), description: optionalText, body_html: optionalText });
const collectionPageSchema = z.object({ collections: z.array(collectionSchema) });

/** The platform serves at most 250 per page and refuses page × limit above 25,000. */
export const MAX_PAGE_SIZE = 250;
export const MAX_PAGE_TIMES_LIMIT = 25_000;

async function fetchJsonPage<T>(fetchUrl: HttpFetcher, url: string, schema: z.ZodMiniType<T>, what: string): Promise<T> {
  const res = await fetchUrl(url, { headers: { accept: 'application/json' } });
  if (res.status !== 200) throw new UpstreamError(`${what} answered HTTP ${res.status}`);
  const parsed = schema.safeParse(res.json());
  if (!parsed.success) throw new UpstreamError(`${what} is not a ${what.includes('collections') ? 'collection' : 'product'} listing`);
  return parsed.data;
}

/** Every product, page by page (de-duplicated by id and handle), within the platform's ceiling. */
export async function fetchAllProducts(fetchUrl: HttpFetcher, origin: string, maxPages = MAX_PAGE_TIMES_LIMIT / MAX_PAGE_SIZE): Promise<ProductListing> {
  const seen = new Set<string>();
  const products: StorefrontProduct[] = [];
  let page = 1;
  for (; page <= maxPages; page++) {
    const { products: batch } = await fetchJsonPage(fetchUrl, `${origin}/products.json?limit=${MAX_PAGE_SIZE}&page=${page}`, productPageSchema, `${origin}/products.json`);
    for (const p of batch) {
      const key = `${p.id ?? ''}|${p.handle}`;
      if (seen.has(key)) continue;
      seen.add(key);
      products.push(p as StorefrontProduct);
    }
    if (batch.length < MAX_PAGE_SIZE) return { products, truncated: false, pagesFetched: page };
  }
  return { products, truncated: true, pagesFetched: page - 1 };
}

export async function fetchCollections(fetchUrl: HttpFetcher, origin: string, maxPages = 20): Promise<StoreCollection[]> {
  const out: StoreCollection[] = [];
  for (let page = 1; page <= maxPages; page++) {
    const { collections } = await fetchJsonPage(fetchUrl, `${origin}/collections.json?limit=${MAX_PAGE_SIZE}&page=${page}`, collectionPageSchema, `${origin}/collections.json`);
    out.push(...collections.map((c) => ({ handle: c.handle, title: c.title, descriptionHtml: c.description ?? c.body_html ?? '' })));
    if (collections.length < MAX_PAGE_SIZE) break;
  }
  return out;
}

async function fetchOptional(fetchUrl: HttpFetcher, url: string, accept: string): Promise<string | null> {
  try {
    const res = await fetchUrl(url, { headers: { accept }, maxBytes: 2 * 1024 * 1024 });
    return res.status === 200 ? res.text() : null;
  } catch {
    // Blocked, unreachable or too large: this signal is absent, the next one is tried.
    return null;
  }
}

function parseJson(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * The currency the store states for its prices, in the order documented in
 * core/products/currency.ts: `/cart.js`, the home page (then `productPath`'s page), `/meta.json`.
 * Null when none names an ISO 4217 code; never a default.
 */
export async function fetchStoreCurrency(fetchUrl: HttpFetcher, origin: string, productPath?: string): Promise<string | null> {
  const base = origin.replace(/\/+$/, '');
  const fromCart = currencyFromJson(parseJson(await fetchOptional(fetchUrl, `${base}/cart.js`, 'application/json')));
  if (fromCart) return fromCart;
  const pages = [`${base}/`, ...(productPath ? [`${base}${productPath.startsWith('/') ? '' : '/'}${productPath}`] : [])];
  for (const page of pages) {
    const html = await fetchOptional(fetchUrl, page, 'text/html');
    const fromHtml = html === null ? null : currencyFromHtml(html);
    if (fromHtml) return fromHtml;
  }
  return currencyFromJson(parseJson(await fetchOptional(fetchUrl, `${base}/meta.json`, 'application/json')));
}

/** The storefront port over the guarded client. */
export function createStorefront(fetchUrl: HttpFetcher): Storefront {
  return {
    listProducts: (origin, maxPages) => fetchAllProducts(fetchUrl, origin, maxPages),
    listCollections: (origin) => fetchCollections(fetchUrl, origin),
    storeCurrency: (origin, productPath) => fetchStoreCurrency(fetchUrl, origin, productPath),
  };
}
