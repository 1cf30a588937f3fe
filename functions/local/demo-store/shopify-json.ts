/**
 * Shopify's undocumented storefront JSON feeds (web-protocols.md §5): `/products.json`,
 * `/products/<handle>.json`, `/collections.json`, `/collections/<handle>/products.json`, with the
 * real field names, decimal-string prices, `limit` ≤ 250 and the page × limit ≤ 25,000 cap.
 */
import type { Collection, Product } from './catalogue';

export const DEFAULT_LIMIT = 30;
export const MAX_LIMIT = 250;
export const MAX_WINDOW = 25_000;

export interface JsonResult {
  status: number;
  body: unknown;
}

export function productJson(p: Product, origin: string) {
  return {
    id: p.id,
    title: p.title,
    handle: p.handle,
    body_html: p.bodyHtml,
    published_at: p.publishedAt,
    created_at: p.createdAt,
    updated_at: p.updatedAt,
    vendor: p.vendor,
    product_type: p.productType,
    tags: p.tags,
    variants: p.variants.map((v) => ({
      id: v.id,
      title: v.title,
      option1: v.title,
      option2: null,
      option3: null,
      sku: v.sku,
      requires_shipping: v.requiresShipping,
      taxable: v.requiresShipping,
      featured_image: null,
      available: v.available,
      price: v.price,
      grams: v.grams,
      compare_at_price: v.compareAtPrice,
      position: v.position,
      product_id: p.id,
      created_at: p.createdAt,
      updated_at: p.updatedAt,
    })),
    images: p.images.map((img) => ({
      id: img.id,
      created_at: p.createdAt,
      position: img.position,
      updated_at: p.updatedAt,
      product_id: p.id,
      variant_ids: [],
      src: `${origin}${img.path}`,
      width: img.width,
      height: img.height,
    })),
    options: [{ name: p.optionName, position: 1, values: [...new Set(p.variants.map((v) => v.title))] }],
  };
}

export function collectionJson(c: Collection, origin: string) {
  return {
    id: c.id,
    title: c.title,
    handle: c.handle,
    description: c.descriptionHtml,
    published_at: c.publishedAt,
    updated_at: c.updatedAt,
    image: c.image ? { id: c.image.id, created_at: c.publishedAt, src: `${origin}${c.image.path}`, alt: c.image.alt } : null,
    products_count: c.products.length,
  };
}

/** Shopify's paging: junk or out-of-range values fall back to defaults; limit is clamped to 250. */
export function paging(params: URLSearchParams): { limit: number; page: number } | { error: JsonResult } {
  const rawLimit = Number.parseInt(params.get('limit') ?? '', 10);
  const rawPage = Number.parseInt(params.get('page') ?? '', 10);
  const limit = Number.isFinite(rawLimit) && rawLimit > 0 ? Math.min(rawLimit, MAX_LIMIT) : DEFAULT_LIMIT;
  const page = Number.isFinite(rawPage) && rawPage > 0 ? rawPage : 1;
  if (page * limit > MAX_WINDOW) return { error: { status: 400, body: { errors: 'Page * Limit exceeds the 25000 limit.' } } };
  return { limit, page };
}

export function productsPage(products: Product[], params: URLSearchParams, origin: string): JsonResult {
  const p = paging(params);
  if ('error' in p) return p.error;
  const slice = products.slice((p.page - 1) * p.limit, p.page * p.limit);
  return { status: 200, body: { products: slice.map((x) => productJson(x, origin)) } };
}

export function collectionsPage(collections: Collection[], params: URLSearchParams, origin: string): JsonResult {
  const p = paging(params);
  if ('error' in p) return p.error;
  const slice = collections.slice((p.page - 1) * p.limit, p.page * p.limit);
  return { status: 200, body: { collections: slice.map((c) => collectionJson(c, origin)) } };
}
