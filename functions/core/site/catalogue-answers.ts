/**
 * What a kind page and a collection page say about their products, so that a catalogue-wide
 * question finds its answer on one page (issue 44): every product with its price, stock and
 * option values, sorted by price; the cheapest and the dearest named; price bands ("Garden
 * Shed under GBP 500: ..."); which products come in each colour or size. Every line names its
 * subject ("Garden Shed", the collection's title), so a passage cut from the page still says
 * what it lists. Pure; prices and stock are the catalogue's as of this build.
 */
import { priceSpan } from '../products/variants';
import { escapeHtml, oneLine } from './html';
import { currencyOf, money, priceStatement, stockNote } from './offers';
import { hrefForFile, SITE_PATHS } from './paths';
import { productOptions } from './product-facts';
import type { CatalogProduct } from './types';

export interface ListedProduct {
  product: CatalogProduct;
  slug: string;
}

/** Values of one option named on a page before the rest are left to the product pages. */
const MAX_OPTION_VALUES = 40;
/** Bands a price range is cut into, at most. */
const MAX_BANDS = 6;
/** Products one band or option-value line names before "and N more" (the by-price list has them all). */
const MAX_NAMED = 40;

/** `a; b; c`, at most `MAX_NAMED` of them, then how many more. */
function namedList(names: readonly string[]): string {
  const more = names.length - MAX_NAMED;
  return `${names.slice(0, MAX_NAMED).join('; ')}${more > 0 ? `; and ${more} more` : ''}`;
}

function lowPrice(product: CatalogProduct): number | null {
  return priceSpan(product)?.lowValue ?? null;
}

/** Priced products from the cheapest, then the unpriced in their order. */
export function byPrice<T extends ListedProduct>(items: readonly T[]): T[] {
  const priced = items.filter((i) => lowPrice(i.product) !== null).sort((a, b) => (lowPrice(a.product) as number) - (lowPrice(b.product) as number));
  return [...priced, ...items.filter((i) => lowPrice(i.product) === null)];
}

/** `Name (USD 30.00, in stock)`. */
function named(product: CatalogProduct): string {
  return `${oneLine(product.name)} (${[priceStatement(product) ?? 'price not listed', stockNote(product)].join(', ')})`;
}

/** The smallest round figure (1, 2 or 5 times a power of ten) of at least `min`. */
function roundUp(min: number): number {
  const base = 10 ** Math.floor(Math.log10(min));
  return [1, 2, 5, 10].map((m) => m * base).find((step) => step >= min) as number;
}

/**
 * A round step that cuts the prices up to `high` into at most `MAX_BANDS` bands from `low`,
 * and no finer than a tenth of the dearest price ("USD 50 to under USD 52.50" is no band).
 */
function bandStep(low: number, high: number): number {
  if (high <= low) return 0;
  return roundUp(Math.max((high - low) / MAX_BANDS, high / 10));
}

function amount(value: number): string {
  return Number.isInteger(value) ? value.toLocaleString('en-US') : value.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

/**
 * `Garden Shed under GBP 500: ...` at each round edge, every product below it named, cheapest
 * first: "which cost under X?" is answered by one line. Lines stop once one would name more
 * than `MAX_NAMED` (the by-price list has them all).
 */
export function priceBandLines(label: string, items: readonly ListedProduct[]): string[] {
  const priced = byPrice(items).filter((i) => lowPrice(i.product) !== null);
  if (priced.length < 3) return [];
  const currency = currencyOf(priced[0]!.product);
  if (priced.some((i) => currencyOf(i.product) !== currency)) return [];
  const low = lowPrice(priced[0]!.product) as number;
  const high = lowPrice(priced[priced.length - 1]!.product) as number;
  const step = bandStep(low, high);
  if (!step) return [];
  const lines: string[] = [];
  let shown = 0;
  for (let edge = Math.floor(low / step) * step + step; edge <= high; edge += step) {
    const under = priced.filter((i) => (lowPrice(i.product) as number) < edge);
    if (under.length > MAX_NAMED) break;
    // An edge that adds no product says nothing new.
    if (under.length === shown) continue;
    shown = under.length;
    lines.push(`${label} under ${money(amount(edge), currency)}: ${under.map((i) => named(i.product)).join('; ')}.`);
  }
  return lines;
}

/** `Garden Shed in Black: A, B.` for every value of an option two or more products have. */
export function optionValueLines(label: string, items: readonly ListedProduct[]): string[] {
  const byOption = new Map<string, { name: string; values: Map<string, { value: string; names: string[] }> }>();
  for (const { product } of items) {
    for (const option of productOptions(product)) {
      const key = option.name.toLowerCase();
      const entry = byOption.get(key) ?? { name: option.name, values: new Map() };
      for (const value of option.values) {
        const v = entry.values.get(value.toLowerCase()) ?? { value, names: [] };
        v.names.push(named(product));
        entry.values.set(value.toLowerCase(), v);
      }
      byOption.set(key, entry);
    }
  }
  const lines: string[] = [];
  for (const option of byOption.values()) {
    const values = [...option.values.values()];
    const products = new Set(values.flatMap((v) => v.names));
    if (products.size < 2 || values.length < 2) continue;
    for (const v of values.slice(0, MAX_OPTION_VALUES)) lines.push(`${label} in ${option.name} ${v.value}: ${namedList(v.names)}.`);
  }
  return lines;
}

/** The page body's catalogue part (escaped HTML): see the header. */
export function catalogueAnswersHtml(label: string, storeName: string, items: readonly ListedProduct[]): string {
  const sorted = byPrice(items);
  const priced = sorted.filter((i) => lowPrice(i.product) !== null);
  const lines: string[] = [];
  const inStock = items.filter((i) => stockNote(i.product) !== 'out of stock').length;
  lines.push(`${storeName} lists ${items.length} ${label} product${items.length === 1 ? '' : 's'}; ${inStock} in stock.`);
  if (priced.length >= 2) {
    lines.push(`Cheapest ${label} at ${storeName}: ${named(priced[0]!.product)}.`);
    lines.push(`Most expensive ${label} at ${storeName}: ${named(priced[priced.length - 1]!.product)}.`);
  }
  const list = sorted.map(({ product, slug }) => {
    const options = productOptions(product).map((o) => `${o.name}: ${o.values.join(', ')}`);
    const facts = [priceStatement(product) ?? 'price not listed', stockNote(product), ...options].join('; ');
    return `<li><a href="${escapeHtml(hrefForFile(SITE_PATHS.productPage(slug)))}">${escapeHtml(oneLine(product.name))}</a>: ${escapeHtml(facts)}</li>`;
  });
  const bands = priceBandLines(label, items);
  const values = optionValueLines(label, items);
  const paragraph = (text: string) => `<p>${escapeHtml(text)}</p>`;
  return [
    lines.map(paragraph).join('\n'),
    `<h2>${escapeHtml(`${label} by price, cheapest first`)}</h2>\n<ol>\n${list.join('\n')}\n</ol>`,
    bands.length ? `<h2>${escapeHtml(`${label} by price band`)}</h2>\n${bands.map(paragraph).join('\n')}` : '',
    values.length ? `<h2>${escapeHtml(`${label} by option`)}</h2>\n${values.map(paragraph).join('\n')}` : '',
  ].filter(Boolean).join('\n');
}
