/**
 * The fact sheet of an article's subject (D35, D36): what the AI site itself says about one
 * product, bounded and attributed, so an article quotes its own product and nothing else.
 *
 * - Own facts: the sentences of the product's AI page (its summary and description), or of
 *   its catalogue description when the page is missing, each with its source; list items of a
 *   description ("Natural tree rubber base") are facts too, written as list items.
 * - Fields: product type, vendor, and the option names with their values ("Thickness: 4 mm,
 *   6 mm"), read from the catalogue entry.
 * - Never: prices, stock or availability (D36: volatile facts appear only where each publish
 *   refreshes them, which an article is not).
 *
 * The store's own facts (shipping and returns lines of its pages) are store-level: they go
 * into business articles only, or every product article would carry the same paragraph.
 */
import pluralize from 'pluralize';
import { classifyFact } from '../generate/evidence';
import { dedupeKey, markdownToText, normalizeSpace, statesPrice } from '../generate/text';
import { kindFromName, pluralPhrase } from '../prompts/product-words';
import { oneLine } from '../site/html';
import type { CatalogProduct } from '../site/types';
import { containsName } from '../text/name-match';
import { productAttributes, type Attribute, type AttributeKey } from '../products/attributes';
import { productOptions } from '../site/product-facts';
import { jobOf } from './families';
import { sentencesOf, type ArticleSources, type ProductEntry, type Source, type Statement } from './site-sources';

export interface Fact {
  text: string;
  source: Source;
  /** Ends like a sentence; otherwise a list fragment ("Natural tree rubber base"). */
  sentence: boolean;
  /** The product the fact is about; null for a store fact. */
  productId: string | null;
}

export interface ProductSheet {
  product: CatalogProduct;
  /** How a title names it: its name, or its kind when the name carries the store's name. */
  label: string;
  /** Its kind as a plural or mass noun ("yoga mats", "coffee"). */
  kind: string;
  /** The AI page of the product, when the site has one. */
  page: ProductEntry | null;
  facts: Fact[];
  /** "Thickness" → ["4 mm", "6 mm"]: options with more than one value. */
  options: Array<{ name: string; values: string[] }>;
  /** What it is for, by its name: "chefs knife", "gyuto", "wooden shed" (families.ts `jobOf`). */
  job: string;
}

/** The AI-site pages some facts quote, each once, in order. */
export function sourcesOf(facts: readonly Fact[]): Source[] {
  const out: Source[] = [];
  for (const f of facts) if (f.source.path && !out.some((s) => s.path === f.source.path)) out.push(f.source);
  return out;
}

/** Whether a text ends like a sentence (list fragments do not). */
export function endsSentence(text: string): boolean {
  return /[.!]["'”’)\]]*$/.test(text);
}

function uniqueFacts(facts: readonly Fact[]): Fact[] {
  const seen = new Set<string>();
  return facts.filter((f) => {
    const key = dedupeKey(f.text);
    if (!key || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The options a shopper chooses between (two values or more), as the fact card reads them (product-facts.ts). */
function optionsOf(product: CatalogProduct): ProductSheet['options'] {
  // An option whose values are amounts ("Amount: $25.00, $50.00") states prices (D36).
  // An option named with a price ("Installation Required? - £310.00") is an add-on, not a choice of the product.
  // "Installation: No, Yes" is an add-on service, not a variant of the product.
  return productOptions(product).filter(({ name, values }) => values.length >= 2 && !statesPrice(name) && !/[$€£¥?]|\d[.,]\d{2}\b/.test(name)
    && !values.every((v) => /^(?:yes|no|none|not required|required)$/i.test(v.trim()))
    && !values.some((v) => statesPrice(v) || /^[$€£¥]|\d[.,]\d{2}\b/.test(v)));
}

/** Merchandising types that say nothing about what a product is. */
const NOT_A_KIND = /^(sale|new|featured|default|other|misc|gift cards?|bundles?|test|all|products?|items?|uncategori[sz]ed)$/i;

/** The product's kind: its type (plural), else what its name says it is, else "products". */
export function kindOf(product: CatalogProduct, businessName: string): string {
  const type = oneLine(product.productType);
  if (type && type.split(' ').length <= 4 && !/\d{2,}/.test(type) && !NOT_A_KIND.test(type) && !containsName(type, businessName)) return pluralPhrase(lower(type));
  const fromName = kindFromName(product.name);
  return fromName ? pluralPhrase(fromName) : 'products';
}

function lower(label: string): string {
  return label.split(/\s+/).map((w) => (/[A-Z].*[A-Z]/.test(w) ? w : w.toLowerCase())).join(' ');
}

/** The name a title uses: the product's name without the store's, or null when nothing is left. */
function titleLabel(product: CatalogProduct, businessName: string): string | null {
  const name = normalizeSpace(product.name).replace(/[?{}<>[\]|\\"]/g, '');
  if (!name || name.length > 60 || !/\p{L}{2,}/u.test(name)) return null;
  return containsName(name, businessName) ? null : name;
}

const attributeCache = new WeakMap<ProductSheet, Map<AttributeKey, Attribute>>();

/**
 * What its name, then its description, state: material, weight, care ... (attributes.ts). Read
 * on first use: only comparisons and family pages need them, and a catalogue of 20,000 is
 * planned a batch at a time.
 */
export function attributesOfSheet(sheet: ProductSheet): Map<AttributeKey, Attribute> {
  let attributes = attributeCache.get(sheet);
  if (!attributes) {
    attributes = productAttributes(sheet.product);
    attributeCache.set(sheet, attributes);
  }
  return attributes;
}

/** The site's product pages by URL and by name, built once per site read (a catalogue of 20,000 looks each up). */
const pageIndexes = new WeakMap<ArticleSources, { byUrl: Map<string, ProductEntry>; byName: Map<string, ProductEntry> }>();
function pagesOf(site: ArticleSources): { byUrl: Map<string, ProductEntry>; byName: Map<string, ProductEntry> } {
  let index = pageIndexes.get(site);
  if (!index) {
    index = { byUrl: new Map(), byName: new Map() };
    // The first page of a URL or a name wins, as a search in order would find it.
    for (const p of site.products) {
      if (!index.byUrl.has(p.url)) index.byUrl.set(p.url, p);
      if (!index.byName.has(p.name)) index.byName.set(p.name, p);
    }
    pageIndexes.set(site, index);
  }
  return index;
}

/** The AI page of a product: by its store URL (the page's canonical), else by its name. */
export function productPage(product: CatalogProduct, site: ArticleSources): ProductEntry | null {
  const pages = pagesOf(site);
  return pages.byUrl.get(product.url) ?? pages.byName.get(oneLine(product.name)) ?? null;
}

/**
 * Sentences of a product's text that are about something else (issue 45): a free gift, a
 * brochure or manual, warranty and returns conditions, shipping. They are true, but no
 * feature, use or material of this product: "Here's your Lightpro Brochure - Follow pages 7 & 8".
 */
const ABOUT_SOMETHING_ELSE = new RegExp([
  String.raw`\b(?:free gift|gift with (?:every |your )?(?:order|purchase)|complimentary|bonus gift)\b`,
  String.raw`\b(?:with|plus|includes?|including|get|receive|comes with|and) (?:a |an |your )?free\b`,
  String.raw`^\W*free\b(?! (?:from|of)\b)`,
  String.raw`\b(?:brochures?|leaflets?|user manuals?|instruction manuals?|pages? \d+)\b`,
  String.raw`\b(?:warranty|warranties|guarantee[ds]?|guaranteed)\b`,
  String.raw`\b(?:returns? (?:policy|within|are)|refunds?|terms (?:and|&) conditions|t&cs?)\b`,
  String.raw`\b(?:shipping|delivery|delivered|dispatch(?:ed)?|courier|postage|next[- ]day)\b`,
  String.raw`\b(?:click here|download|visit our|see our|follow us)\b`,
].join('|'), 'i');

/** A run of search keywords ("Yamaha, True Wireless, Headphones, YH-L700A, cordless, ..."): six commas or more, four parts in five of one or two words. */
function keywordList(text: string): boolean {
  const parts = text.split(',');
  return parts.length >= 7 && parts.filter((p) => p.trim().split(/\s+/).length <= 2).length >= 0.8 * parts.length;
}

export function aboutThisProduct(text: string): boolean {
  return !ABOUT_SOMETHING_ELSE.test(text) && !keywordList(text);
}

/** A sentence that names a free gift: the sentences after it describe the gift until one names the product again. */
const GIFT = /\b(?:free|complimentary|bonus)\b/i;

/**
 * The sentences of a product's text about the product: none about something else (see
 * ABOUT_SOMETHING_ELSE), and none describing a free gift ("Comes with a FREE pizza cutter.
 * Designed for precise slicing, this durable tool ...") until the text names the product again.
 */
export function ownSentences(texts: readonly string[], product: CatalogProduct, kind: string): string[] {
  // The brand's words name no product ("professional chefs" is not the Alfresco Chef oven).
  const brand = new Set(product.vendor.toLowerCase().split(/[^\p{L}]+/u));
  const ownCodes = modelCodes([product.name, ...(product.variants ?? []).map((v) => v.sku ?? '')].join(' '));
  const own = new Set(`${product.name} ${kind}`.toLowerCase().split(/[^\p{L}]+/u).filter((w) => w.length >= 4 && !brand.has(w)).map((w) => w.replace(/s$/, '')));
  const namesProduct = (text: string) => text.toLowerCase().split(/[^\p{L}]+/u).some((w) => own.has(w.replace(/s$/, '')));
  let afterGift = false;
  return texts.filter((text) => {
    if (!aboutThisProduct(text)) {
      afterGift ||= GIFT.test(text);
      return false;
    }
    if (afterGift && !namesProduct(text)) return false;
    afterGift = false;
    return !anotherModel(text, ownCodes);
  });
}

/** Model codes: letters, a number, more letters or digits ("V15PWUW-US", "V7BSSB", "WHCH520WCE7"); not "IP67" or "USB-C". */
const MODEL_CODE = /\b[A-Z]{1,5}\d{1,5}[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*\b/g;

function modelCodes(text: string): string[] {
  return [...new Set(text.match(MODEL_CODE) ?? [])];
}

/**
 * A sentence naming a model code that is not this product's ("V15PWUW-US in White Color: ...
 * four USB ports" on the black V15's page; "explore the V7BSSB") is about another product. A
 * product with no code of its own is not judged so.
 */
function anotherModel(text: string, own: readonly string[]): boolean {
  if (!own.length) return false;
  // Hyphens fold ("WH-CH720N" is the WHCH720NL's model); a code inside its own, or its own inside it, is its own.
  const bare = own.map((o) => o.replace(/-/g, ''));
  return modelCodes(text.replace(/\b([A-Z]{1,3})-(?=[A-Z]{0,4}\d)/g, '$1')).some((code) => {
    const c = code.replace(/-/g, '');
    return !bare.some((o) => o.includes(c) || c.includes(o));
  });
}

export function productSheet(product: CatalogProduct, site: ArticleSources, businessName: string): ProductSheet | null {
  const label = titleLabel(product, businessName);
  if (!label) return null;
  const page = productPage(product, site);
  const source: Source = page ? { path: page.path, label: page.name } : { path: '', label: oneLine(product.name) };
  // The description is the store's own text; the page summary (a narrative's line) only stands in when there is none.
  const texts = page ? (page.description.length ? page.description : sentencesOf(page.summary)) : sentencesOf(markdownToText(product.description));
  const kind = kindOf(product, businessName);
  const facts = uniqueFacts(ownSentences(texts, product, kind).map((text) => ({ text, source, sentence: endsSentence(text), productId: product.productId })));
  const options = optionsOf(product);
  return { product, label, kind, page, facts, options, job: jobOf(product.name) };
}

/** The store's shipping and returns lines (its pages, llms.txt), for business articles. */
export function storePolicyFacts(site: ArticleSources): Fact[] {
  const fromStatement = (s: Statement): Fact => ({ text: s.text, source: s.source, sentence: endsSentence(s.text), productId: null });
  return uniqueFacts(site.statements.filter((s) => {
    const kind = classifyFact(s.text);
    return kind === 'shipping' || kind === 'returns';
  }).map(fromStatement));
}

/** "is" or "are" for a subject ("the Cork Blocks are ..."; "the Cone Filters (100 ct) are ..."). */
export function verbFor(label: string): 'is' | 'are' {
  const last = label.replace(/\s*[([][^)\]]*[)\]]\s*$/, '').split(/\s+/).pop() ?? '';
  return /^[a-z]+$/i.test(last) && last.length > 3 && pluralize.isPlural(last) && !pluralize.isSingular(last) ? 'are' : 'is';
}

/** "the Grip Pro Yoga Mat"; a name that starts with "The" keeps its own, in lower case mid-sentence ("Is the Quencher ..."). */
export function theName(name: string): string {
  const clean = oneLine(name);
  return /^the\s/i.test(clean) ? `the ${clean.slice(4)}` : `the ${clean}`;
}
