/**
 * How prices, currencies and stock are stated in every file of the AI site, from the product's
 * variants (core/products/variants.ts). One module, so data.json, llms.txt, the product files
 * and the product pages can never disagree:
 *
 * - money: `USD 48.00` (the ISO code first, the amount as the store wrote it); without a
 *   currency stated by the store, the bare amount (no currency is ever assumed);
 * - a price range over the variants: `USD 48.00–54.00`; one price with a higher compare-at
 *   price: `USD 48.00 (was USD 60.00)`;
 * - stock: `In stock`, `Out of stock`, or `In stock (Matte Black: sold out; Cork / 6 mm: sold out)`
 *   when only some variants can be bought (an option value all of whose variants are sold
 *   out is named alone);
 * - per-variant lines for the product file and page: `Matte Black / 6 mm: USD 54.00, sold out, SKU YM-6-MB, GTIN 0123456789012`.
 */
import { normalizeCurrency } from '../products/currency';
import { decimalValue, hasOptions, priceSpan, soldOutLabels, variantsOf } from '../products/variants';
import { escapeHtml, oneLine } from './html';
import type { CatalogProduct, CatalogVariant } from './types';

/** Sold-out labels named in one stock statement before "and N more". */
export const MAX_SOLD_OUT_LABELS = 10;

/** The product's ISO 4217 currency, or null when the store did not state one. */
export function currencyOf(product: CatalogProduct): string | null {
  return normalizeCurrency(product.currency);
}

/** `USD 48.00`, or `48.00` without a stated currency. */
export function money(amount: string, currency: string | null): string {
  return currency ? `${currency} ${amount.trim()}` : amount.trim();
}

function wasText(price: string | null, compare: string | null, currency: string | null): string {
  const now = decimalValue(price);
  const was = decimalValue(compare);
  return now !== null && was !== null && compare !== null && was > now ? ` (was ${money(compare, currency)})` : '';
}

/**
 * `USD 48.00`, `USD 48.00 (was USD 60.00)`, `USD 48.00–54.00`, or null without any priced
 * variant. A range covers every variant, sold out or not (the per-variant lines say which).
 */
export function priceStatement(product: CatalogProduct): string | null {
  const span = priceSpan(product);
  if (!span) return null;
  const currency = currencyOf(product);
  if (span.lowValue !== span.highValue) return `${money(span.low, currency)}–${span.high}`;
  const variants = variantsOf(product).filter((v) => decimalValue(v.price) === span.lowValue);
  // One price: "was" only when every variant at that price shows the same higher compare-at price.
  const compares = new Set(variants.map((v) => v.compareAtPrice?.trim() ?? ''));
  const compare = compares.size === 1 ? (variants[0] as CatalogVariant).compareAtPrice : null;
  return `${money(span.low, currency)}${wasText(span.low, compare, currency)}`;
}

/** `In stock`, `Out of stock`, or `In stock (Matte Black: sold out; …)`. */
export function stockStatement(product: CatalogProduct): string {
  if (!product.available || variantsOf(product).every((v) => !v.available)) return 'Out of stock';
  const labels = soldOutLabels(product);
  if (labels.length === 0) return 'In stock';
  const named = labels.slice(0, MAX_SOLD_OUT_LABELS).map((l) => `${oneLine(l)}: sold out`);
  const more = labels.length - named.length;
  return `In stock (${named.join('; ')}${more > 0 ? `; ${more} more options sold out` : ''})`;
}

/** The stock statement for a list note: the first word lower-cased, option names kept as written. */
export function stockNote(product: CatalogProduct): string {
  return asNote(stockStatement(product));
}

/** A stock statement as a note: its first word lower-cased, option names kept as written. */
export function asNote(statement: string): string {
  return statement.charAt(0).toLowerCase() + statement.slice(1);
}

/** `Matte Black / 6 mm: USD 54.00 (was USD 60.00), sold out, SKU YM-6-MB, GTIN 0123456789012`. */
export function variantLine(product: CatalogProduct, variant: CatalogVariant): string {
  const currency = currencyOf(product);
  const parts: string[] = [];
  parts.push(variant.price !== null && decimalValue(variant.price) !== null ? `${money(variant.price, currency)}${wasText(variant.price, variant.compareAtPrice, currency)}` : 'price not listed');
  parts.push(variant.available ? 'in stock' : 'sold out');
  if (variant.sku) parts.push(`SKU ${oneLine(variant.sku)}`);
  if (variant.gtin) parts.push(`GTIN ${variant.gtin}`);
  return `${oneLine(variant.title) || 'Default'}: ${parts.join(', ')}`;
}

/** One line per variant for products with options; empty for a product without options. */
export function variantLines(product: CatalogProduct): string[] {
  return hasOptions(product) ? variantsOf(product).map((v) => variantLine(product, v)) : [];
}

/** SKU and GTIN of a product without options (its only variant), for a facts list. */
export function identifierFacts(product: CatalogProduct): Array<[string, string]> {
  if (hasOptions(product)) return [];
  const only = variantsOf(product)[0];
  const out: Array<[string, string]> = [];
  if (only?.sku) out.push(['SKU', oneLine(only.sku)]);
  if (only?.gtin) out.push(['GTIN', only.gtin]);
  return out;
}

/** Options heading label: "Options (Color, Thickness)" or "Options". */
export function optionsHeading(product: CatalogProduct): string {
  const names = (product.optionNames ?? []).filter(Boolean);
  return names.length ? `Options (${names.map(oneLine).join(', ')})` : 'Options';
}

/** The product file's detail block of options, or null for a product without options. */
export function variantDetailBlock(product: CatalogProduct): string | null {
  const lines = variantLines(product);
  return lines.length ? `${optionsHeading(product)}:\n${lines.map((l) => `- ${l}`).join('\n')}` : null;
}

/** The product page's options section (escaped HTML), or '' for a product without options. */
export function variantSectionHtml(product: CatalogProduct): string {
  const lines = variantLines(product);
  if (!lines.length) return '';
  return `<h2>${escapeHtml(optionsHeading(product))}</h2>\n<ul>\n${lines.map((l) => `<li>${escapeHtml(l)}</li>`).join('\n')}\n</ul>`;
}

/**
 * Open Graph product meta (og:type `product`): `product:price:amount` (the lowest price),
 * `product:price:currency` (only when the store states it) and `product:availability`.
 */
export function productOgMeta(product: CatalogProduct): Array<[string, string]> {
  const span = priceSpan(product);
  const currency = currencyOf(product);
  const out: Array<[string, string]> = [];
  if (span) out.push(['product:price:amount', span.low]);
  if (span && currency) out.push(['product:price:currency', currency]);
  out.push(['product:availability', stockStatement(product) === 'Out of stock' ? 'out of stock' : 'in stock']);
  if (product.imageUrls[0]) out.push(['og:image', product.imageUrls[0]]);
  return out;
}
