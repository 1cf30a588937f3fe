/** Figures computed from the product catalogue: price range, product types, vendors, categories. */
import type { CatalogProduct, StoreSnapshot } from '../site/types';
import { isCatchAllCollection } from './industry';
import { singularKey } from './text';
import { countLabels } from '../util/collections';
import { priceSpan } from '../products/variants';
import { isRealProductType } from '../products/kind';

export interface PriceRange {
  /** The currency of the range (the most common one), or null when products carry none. */
  currency: string | null;
  min: number;
  max: number;
  /** Products whose price entered the range. */
  count: number;
  cheapest: CatalogProduct;
  priciest: CatalogProduct;
}

export function parsePrice(price: string | null): number | null {
  if (price === null) return null;
  const trimmed = price.trim();
  if (!/^\d+(\.\d+)?$/.test(trimmed)) return null;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : null;
}

export function formatMoney(amount: number, currency: string | null): string {
  const value = amount.toFixed(2);
  return currency ? `${currency} ${value}` : value;
}

/** Min and max price over the products priced in the most common currency. */
export function priceRange(products: CatalogProduct[]): PriceRange | null {
  const byCurrency = new Map<string, Array<{ p: CatalogProduct; v: number; high: number }>>();
  const order: string[] = [];
  for (const p of products) {
    const v = parsePrice(p.price);
    if (v === null) continue;
    // Over the variants: a product priced 48.00–54.00 enters the range at both ends.
    const span = priceSpan(p);
    const key = p.currency?.trim().toUpperCase() ?? '';
    if (!byCurrency.has(key)) { byCurrency.set(key, []); order.push(key); }
    byCurrency.get(key)!.push({ p, v: span ? Math.min(v, span.lowValue) : v, high: span ? Math.max(v, span.highValue) : v });
  }
  let bestKey: string | null = null;
  for (const key of order) if (bestKey === null || byCurrency.get(key)!.length > byCurrency.get(bestKey)!.length) bestKey = key;
  if (bestKey === null) return null;
  const priced = byCurrency.get(bestKey)!;
  let cheapest = priced[0];
  let priciest = priced[0];
  for (const x of priced) {
    if (x.v < cheapest.v) cheapest = x;
    if (x.high > priciest.high) priciest = x;
  }
  return { currency: bestKey || null, min: cheapest.v, max: priciest.high, count: priced.length, cheapest: cheapest.p, priciest: priciest.p };
}

export function formatPriceRange(range: PriceRange): string {
  return range.min === range.max
    ? formatMoney(range.min, range.currency)
    : `${formatMoney(range.min, range.currency)} to ${formatMoney(range.max, range.currency)}`;
}

/**
 * Product types with their counts, most common first, ties alphabetical. A placeholder the
 * platform fills in ("normal", "Standard", "Default") is no type (core/products/kind.ts).
 */
export function productTypeCounts(products: CatalogProduct[]): Array<{ type: string; count: number }> {
  return countLabels(products, (p) => (isRealProductType(p.productType) ? p.productType : '')).map(({ label, count }) => ({ type: label, count }));
}

/** Vendors, most products first, ties alphabetical. */
export function vendorCounts(products: CatalogProduct[]): Array<{ vendor: string; count: number }> {
  return countLabels(products, (p) => p.vendor).map(({ label, count }) => ({ vendor: label, count }));
}

/** Real collections (catch-alls like `all` and `frontpage` excluded), snapshot order. */
export function realCollections(snapshot: StoreSnapshot) {
  return snapshot.collections.filter((c) => !isCatchAllCollection(c.handle, c.title));
}

/** Collection titles, then product types, de-duplicated ("Teas" and "Tea" are one). */
export function categoriesOf(snapshot: StoreSnapshot, max = 20): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const add = (label: string) => {
    const clean = label.trim();
    const key = singularKey(clean);
    if (!clean || !key || seen.has(key)) return;
    seen.add(key);
    out.push(clean);
  };
  for (const c of realCollections(snapshot)) add(c.title);
  for (const t of productTypeCounts(snapshot.products)) add(t.type);
  return out.slice(0, max);
}
