/**
 * The facts of one product that every document about it states first (its fact card, issue
 * 44) and its structured data carries as fields: kind, brand, price, options with their values,
 * what is sold out, and the attributes its text states. One reading, so the HTML page, the
 * llms file, data.json and the JSON-LD can never disagree. Pure.
 */
import { productAttributes, type Attribute, type AttributeKey } from '../products/attributes';
import type { KindOf } from '../products/kind';
import { priceSpan, soldOutLabels, variantsOf } from '../products/variants';
import { oneLine } from './html';
import { currencyOf, priceStatement, stockStatement } from './offers';
import type { CatalogProduct } from './types';

export interface ProductOption {
  /** As the store names it ("Color", "Size"). */
  name: string;
  /** Every value, in the store's order. */
  values: string[];
}

export interface ProductFacts {
  name: string;
  /** A real kind (core/products/kind.ts): never a placeholder type; null when nothing names one. */
  kind: string | null;
  /** The vendor, when the store gives one. */
  brand: string | null;
  /** `USD 48.00`, `USD 48.00–54.00`, `USD 48.00 (was USD 60.00)`, or null (offers.ts). */
  price: string | null;
  currency: string | null;
  /** `In stock`, `Out of stock`, `In stock (Rose Quartz: sold out)` (offers.ts). */
  stock: string;
  /** Options a shopper chooses from: named, with at least one value; never the platform's "Title". */
  options: ProductOption[];
  /** What is sold out while something else is not (variants.ts `soldOutLabels`). */
  soldOut: string[];
  /** What the name and description state, in the attribute order of attributes.ts. */
  attributes: Attribute[];
}

/** Options of the platform's single-variant placeholder ("Title: Default Title") say nothing. */
const PLACEHOLDER_OPTION = /^title$/i;
const PLACEHOLDER_VALUE = /^default(?: title)?$/i;

export function productOptions(product: CatalogProduct): ProductOption[] {
  const variants = variantsOf(product);
  return (product.optionNames ?? []).flatMap((raw, d) => {
    const name = oneLine(raw);
    const values = [...new Set(variants.map((v) => oneLine(v.options[d] ?? '')).filter((v) => v && !PLACEHOLDER_VALUE.test(v)))];
    return name && !PLACEHOLDER_OPTION.test(name) && values.length ? [{ name, values }] : [];
  });
}

/** The attributes a fact card and structured data state, in this order. */
export const CARD_ATTRIBUTES: readonly AttributeKey[] = [
  'material', 'dimensions', 'capacity', 'length', 'thickness', 'weight', 'power', 'brightness', 'rating', 'battery', 'hardness', 'cold', 'hot', 'care', 'origin', 'warranty', 'parts',
];

/** Facts already read, per kind reader and product: a build states them in four files. */
const read = new WeakMap<KindOf, WeakMap<CatalogProduct, ProductFacts>>();

/** `kindOf`: the catalogue's kinds (core/products/kind.ts `catalogueKinds`). */
export function productFacts(product: CatalogProduct, kindOf: KindOf): ProductFacts {
  let byProduct = read.get(kindOf);
  if (!byProduct) read.set(kindOf, (byProduct = new WeakMap()));
  let facts = byProduct.get(product);
  if (!facts) byProduct.set(product, (facts = readFacts(product, kindOf)));
  return facts;
}

function readFacts(product: CatalogProduct, kindOf: KindOf): ProductFacts {
  const attributes = productAttributes(product);
  return {
    name: oneLine(product.name),
    kind: kindOf(product),
    brand: oneLine(product.vendor) || null,
    price: priceSpan(product) ? priceStatement(product) : null,
    currency: currencyOf(product),
    stock: stockStatement(product),
    options: productOptions(product),
    soldOut: soldOutLabels(product).map(oneLine),
    attributes: CARD_ATTRIBUTES.flatMap((key) => (attributes.has(key) ? [attributes.get(key) as Attribute] : [])),
  };
}
