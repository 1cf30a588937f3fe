/**
 * Product variants: the store's `/products.json` variants → catalogue variants, and the
 * figures every renderer states from them (price range, which options are sold out).
 *
 * Design: a product keeps one `CatalogVariant` per store variant (option values, price,
 * compare-at price, availability, SKU, GTIN from a valid barcode). `price`/`available` on the
 * product stay as derived summaries for older consumers; every renderer of prices and stock
 * reads the variants through the helpers here, so ranges and partly sold-out products are
 * stated the same way in data.json, llms.txt, the product files and the product pages.
 */
import type { CatalogProduct, CatalogVariant } from '../site/types';

/** The fields of one `/products.json` variant that the service reads. */
export interface StorefrontVariant {
  id?: number | string | null;
  title?: string | null;
  option1?: string | null;
  option2?: string | null;
  option3?: string | null;
  price?: string | number | null;
  compare_at_price?: string | number | null;
  available?: boolean | null;
  sku?: string | null;
  barcode?: string | null;
}

/** `/products.json` gives `{name, values}` objects; the `.js` endpoints give plain names. */
export type StorefrontOption = { name?: string | null } | string;

/** Shopify's title of the only variant of a product without options. */
const DEFAULT_TITLE = /^default(?: title)?$/i;

function clean(value: unknown): string {
  return typeof value === 'string' ? value.replace(/\s+/g, ' ').trim() : typeof value === 'number' ? String(value) : '';
}

/** `"48.00"` → 48; null when not a plain non-negative decimal. */
export function decimalValue(price: string | null | undefined): number | null {
  if (price == null) return null;
  const cleaned = price.trim().replace(/,/g, '');
  if (!/^\d+(?:\.\d+)?$/.test(cleaned)) return null;
  const value = Number(cleaned);
  return Number.isFinite(value) ? value : null;
}

function priceString(price: string | number | null | undefined): string | null {
  if (price == null) return null;
  const text = String(price).trim();
  return decimalValue(text) === null ? null : text;
}

/** A barcode that is a GTIN-8, -12 (UPC), -13 (EAN) or -14 with a correct check digit; else null. */
export function gtinOf(barcode: string | null | undefined): string | null {
  const digits = clean(barcode).replace(/[\s-]/g, '');
  if (!/^(?:\d{8}|\d{12}|\d{13}|\d{14})$/.test(digits) || /^0+$/.test(digits)) return null;
  const body = digits.slice(0, -1);
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    const d = Number(body[body.length - 1 - i]);
    sum += i % 2 === 0 ? d * 3 : d;
  }
  return (10 - (sum % 10)) % 10 === Number(digits[digits.length - 1]) ? digits : null;
}

export function optionNamesOf(options: readonly StorefrontOption[] | null | undefined): string[] {
  const names = (options ?? []).map((o) => clean(typeof o === 'string' ? o : o?.name));
  // A product without options lists one option "Title" with the value "Default Title".
  return names.length === 1 && /^title$/i.test(names[0] as string) ? [] : names.filter(Boolean);
}

export function toCatalogVariant(v: StorefrontVariant): CatalogVariant {
  const options = [v.option1, v.option2, v.option3].map(clean).filter((o) => o && !DEFAULT_TITLE.test(o));
  const title = clean(v.title);
  const sku = clean(v.sku);
  return {
    id: v.id == null || clean(v.id) === '' ? null : clean(v.id),
    title: options.length ? options.join(' / ') : DEFAULT_TITLE.test(title) ? '' : title,
    options: options.length ? options : title && !DEFAULT_TITLE.test(title) ? [title] : [],
    price: priceString(v.price),
    compareAtPrice: priceString(v.compare_at_price),
    // Shopify omits nothing here, but a missing flag is not a sold-out statement.
    available: v.available !== false,
    sku: sku || null,
    gtin: gtinOf(v.barcode),
  };
}

/**
 * The product-level summaries older consumers read: the lowest price among available
 * variants (among all when none is), its compare-at price, and whether any can be bought.
 */
export function variantSummary(variants: readonly CatalogVariant[]): { price: string | null; compareAtPrice: string | null; available: boolean } {
  const priced = variants.filter((v) => decimalValue(v.price) !== null);
  const pool = priced.some((v) => v.available) ? priced.filter((v) => v.available) : priced;
  let best: CatalogVariant | undefined;
  for (const v of pool) if (!best || (decimalValue(v.price) as number) < (decimalValue(best.price) as number)) best = v;
  return {
    price: best?.price ?? null,
    compareAtPrice: best?.compareAtPrice ?? null,
    available: variants.length === 0 ? true : variants.some((v) => v.available),
  };
}

/** The variants of a product; a legacy entry without them reads as one variant from its summaries. */
export function variantsOf(product: CatalogProduct): CatalogVariant[] {
  if (product.variants && product.variants.length) return product.variants;
  return [{ id: null, title: '', options: [], price: product.price, compareAtPrice: product.compareAtPrice, available: product.available, sku: null, gtin: null }];
}

/** True when the product has real options (more than one variant, or a named one). */
/** More than one variant to choose from; a single variant, named or not ("8 oz"), is the product itself. */
export function hasOptions(product: CatalogProduct): boolean {
  return variantsOf(product).length > 1;
}

export interface PriceSpan {
  /** Lowest and highest price over the priced variants, as the store wrote them. */
  low: string;
  high: string;
  lowValue: number;
  highValue: number;
  /** Variants with a usable price. */
  count: number;
}

/** Min and max over the priced variants (every variant, sold out or not); null when none is priced. */
export function priceSpan(product: CatalogProduct): PriceSpan | null {
  let span: PriceSpan | null = null;
  for (const v of variantsOf(product)) {
    const value = decimalValue(v.price);
    if (value === null || v.price === null) continue;
    if (!span) {
      span = { low: v.price.trim(), high: v.price.trim(), lowValue: value, highValue: value, count: 1 };
      continue;
    }
    span.count++;
    if (value < span.lowValue) Object.assign(span, { low: v.price.trim(), lowValue: value });
    if (value > span.highValue) Object.assign(span, { high: v.price.trim(), highValue: value });
  }
  return span;
}

/**
 * What is sold out, in the fewest words: an option value all of whose variants are sold out
 * is named alone ("Matte Black"); other sold-out variants by their full title
 * ("Cork / 6 mm"). Empty when everything is available or nothing is.
 */
export function soldOutLabels(product: CatalogProduct): string[] {
  const variants = variantsOf(product);
  const soldOut = variants.filter((v) => !v.available);
  if (soldOut.length === 0 || soldOut.length === variants.length) return [];
  const labels: string[] = [];
  const covered = new Set<CatalogVariant>();
  const dimensions = Math.max(0, ...variants.map((v) => v.options.length));
  if (dimensions > 1) {
    for (let d = 0; d < dimensions; d++) {
      const values = [...new Set(soldOut.map((v) => v.options[d]).filter((x): x is string => Boolean(x)))];
      for (const value of values) {
        const withValue = variants.filter((v) => v.options[d] === value);
        if (withValue.length > 1 && withValue.every((v) => !v.available)) {
          labels.push(value);
          withValue.forEach((v) => covered.add(v));
        }
      }
    }
  }
  for (const v of soldOut) if (!covered.has(v)) labels.push(v.title || 'Default');
  return labels;
}
