/**
 * Product discovery rules: store products → catalogue entries, the `products_hash`
 * (MD5 of the sorted handles) and `products_snapshot` that the daily job compares.
 */
import { createHash } from 'node:crypto';
import { htmlToMarkdown } from '../text/markdown';
import type { CatalogProduct } from '../site/types';
import { normalizeCurrency } from './currency';
import { publicTags } from './tags';
import { optionNamesOf, toCatalogVariant, variantSummary, type StorefrontOption, type StorefrontVariant } from './variants';

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
  variants?: StorefrontVariant[] | null;
  options?: StorefrontOption[] | null;
  images?: Array<{ src?: string | null }> | null;
}

export interface ProductSnapshotItem {
  handle: string;
  name: string;
  url: string;
  updated_at: string | null;
}

const NAMED_ENTITIES: Record<string, string> = {
  nbsp: ' ', amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", rsquo: '\u2019', lsquo: '\u2018', rdquo: '\u201d',
  ldquo: '\u201c', ndash: '\u2013', mdash: '\u2014', hellip: '\u2026', deg: '\u00b0', times: '\u00d7', reg: '\u00ae',
  trade: '\u2122', copy: '\u00a9', bull: '\u2022', middot: '\u00b7', frac12: '\u00bd', eacute: '\u00e9', egrave: '\u00e8',
  uuml: '\u00fc', ouml: '\u00f6', auml: '\u00e4', szlig: '\u00df', ntilde: '\u00f1', shy: '',
};

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z][a-z0-9]*);/gi, (whole, name: string) => {
    const lower = name.toLowerCase();
    const code = lower.startsWith('#x') ? parseInt(lower.slice(2), 16) : lower.startsWith('#') ? parseInt(lower.slice(1), 10) : NaN;
    if (!Number.isNaN(code)) return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : whole;
    return NAMED_ENTITIES[lower] ?? NAMED_ENTITIES[name] ?? whole;
  });
}

/** Inline elements: their tags join words ("<b>yo</b>ga" is "yoga"), they never separate them. */
const INLINE_TAG = /<\/?(?:a|abbr|b|bdi|bdo|cite|code|data|dfn|em|font|i|kbd|mark|q|s|samp|small|span|strike|strong|sub|sup|time|u|var|wbr)\b[^>]*>/gi;
/** Block elements and line breaks: a line break. */
const BLOCK_TAG = /<\/?(?:address|article|aside|blockquote|br|dd|div|dl|dt|figcaption|figure|footer|h[1-6]|header|hr|li|main|nav|ol|p|pre|section|table|tbody|td|tfoot|th|thead|tr|ul)\b[^>]*>/gi;

/**
 * Plain text of store HTML: scripts, styles and comments removed, inline tags joined, block
 * tags as line breaks (list items and paragraphs on their own lines, blank lines collapsed),
 * entities decoded (named, decimal and hex), whitespace collapsed.
 */
export function htmlToText(html: string | null | undefined): string {
  if (!html) return '';
  return decodeEntities(
    html
      .replace(/<!--[\s\S]*?-->/g, '')
      .replace(/<(script|style|template|noscript|iframe)\b[^>]*>[\s\S]*?<\/\1>/gi, ' ')
      .replace(INLINE_TAG, '')
      .replace(BLOCK_TAG, '\n')
      .replace(/<[^>]+>/g, ' '),
  )
    .replace(/[\u00a0\u200b\ufeff]/g, (ch) => (ch === '\u00a0' ? ' ' : ''))
    .replace(/[ \t\r\f\v]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{2,}/g, '\n')
    .trim();
}

/** The slugified product identifier (`product_id`): the handle, normalized. */
export function productSlug(handle: string): string {
  return handle.trim().toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'product';
}

/**
 * One catalogue entry. `currency` is what the store states for its prices (see
 * core/products/currency.ts), null when it states none. Internal tags are dropped here, so
 * no consumer turns them into keywords.
 */
export function toCatalogProduct(p: StorefrontProduct, storeOrigin: string, currency: string | null = null): CatalogProduct {
  const variants = (p.variants ?? []).map(toCatalogVariant);
  const summary = variantSummary(variants);
  const tags = Array.isArray(p.tags) ? p.tags : (p.tags ?? '').split(',');
  return {
    productId: productSlug(p.handle),
    name: p.title.trim(),
    url: `${storeOrigin}/products/${encodeURIComponent(p.handle)}`,
    description: htmlToMarkdown(p.body_html),
    productType: p.product_type?.trim() ?? '',
    vendor: p.vendor?.trim() ?? '',
    tags: publicTags(tags),
    price: summary.price,
    compareAtPrice: summary.compareAtPrice,
    currency: normalizeCurrency(currency),
    available: summary.available,
    optionNames: optionNamesOf(p.options),
    variants,
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
