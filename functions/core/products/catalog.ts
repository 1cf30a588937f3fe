/**
 * Product discovery rules: store products → catalogue entries, the `products_hash`
 * (MD5 of the sorted handles) and `products_snapshot` that the daily job compares.
 */
import { createHash } from 'node:crypto';
import type { CatalogProduct } from '../site/types';

/** The fields of a storefront `/products.json` item that the service reads. */
export interface StorefrontProduct {
  id?: number | string;
  handle: string;
  title: string;
  body_html?: string | null;
  product_type?: string | null;
  vendor?: string | null;
  tags?: string[] | string | null;
  updated_at?: string | null;
  variants?: Array<{ price?: string | number | null; compare_at_price?: string | number | null; available?: boolean | null }> | null;
  images?: Array<{ src?: string | null }> | null;
}

export interface ProductSnapshotItem {
  handle: string;
  name: string;
  url: string;
  updated_at: string | null;
}

/** Plain text of store HTML: tags removed, entities decoded, whitespace collapsed. */
export function htmlToText(html: string | null | undefined): string {
  if (!html) return '';
  return html
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<br\s*\/?>|<\/(p|div|li|h[1-6])>/gi, '\n')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&#x27;/g, "'")
    .replace(/[ \t\r\f\v]+/g, ' ')
    .replace(/\s*\n\s*/g, '\n')
    .trim();
}

/** The slugified product identifier (`product_id`): the handle, normalized. */
export function productSlug(handle: string): string {
  return handle.trim().toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'product';
}

export function toCatalogProduct(p: StorefrontProduct, storeOrigin: string): CatalogProduct {
  const variants = p.variants ?? [];
  const priced = variants.find((v) => v.available && v.price != null) ?? variants.find((v) => v.price != null);
  const tags = Array.isArray(p.tags) ? p.tags : (p.tags ?? '').split(',').map((t) => t.trim()).filter(Boolean);
  return {
    productId: productSlug(p.handle),
    name: p.title.trim(),
    url: `${storeOrigin}/products/${encodeURIComponent(p.handle)}`,
    description: htmlToText(p.body_html),
    productType: p.product_type?.trim() ?? '',
    vendor: p.vendor?.trim() ?? '',
    tags,
    price: priced?.price != null ? String(priced.price) : null,
    compareAtPrice: priced?.compare_at_price != null ? String(priced.compare_at_price) : null,
    currency: null,
    available: variants.length === 0 ? true : variants.some((v) => v.available !== false),
    imageUrls: (p.images ?? []).map((i) => i.src).filter((s): s is string => Boolean(s)),
    updatedAt: p.updated_at ?? null,
  };
}

/** Spec: MD5 of the sorted product handles (joined by newlines, so no handle can merge with another). */
export function productsHash(handles: string[]): string {
  return createHash('md5').update([...handles].sort().join('\n')).digest('hex');
}

export function productsSnapshot(products: CatalogProduct[]): ProductSnapshotItem[] {
  return products
    .map((p) => ({ handle: p.productId, name: p.name, url: p.url, updated_at: p.updatedAt }))
    .sort((a, b) => (a.handle < b.handle ? -1 : a.handle > b.handle ? 1 : 0));
}

/** Products present now but absent from the previous snapshot. */
export function newProducts(previous: ProductSnapshotItem[] | null, current: CatalogProduct[]): CatalogProduct[] {
  const known = new Set((previous ?? []).map((p) => p.handle));
  return current.filter((p) => !known.has(p.productId));
}
