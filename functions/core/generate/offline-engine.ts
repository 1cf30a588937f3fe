/**
 * The offline generator: deterministic, extractive, no network. Everything it writes is
 * either a sentence taken from the store's own pages and product texts, or a figure
 * computed from the catalogue (counts, types, collections, vendors). It never states a
 * policy, origin or claim the store did not write itself, and never a price or a stock
 * level: those change without the prose being rewritten, so they live in the structured
 * offers (Offer JSON-LD, the Price / Availability lines of the product files).
 */
import type { CatalogProduct, FaqEntry, SiteNarrative, StoreSnapshot } from '../site/types';
import { categoriesOf, priceRange, realCollections, vendorCounts } from './catalog';
import { describingSentences, extractAudience, extractEmails, extractKeyFacts, sortedProducts, storeName, type KeyFact } from './evidence';
import { extractStoreFaqs } from './faq-extract';
import type { IndustryInference } from './industry';
import { catalogueIndustry, productKindCounts } from './catalogue-industry';
import { catalogueKinds, productKind, type KindOf } from '../products/kind';
import { pluralPhrase } from '../prompts/product-words';
import { materialsQuestion } from './templates';
import type { NarrativeOverview, SiteGenerator } from './types';
import { dedupeKey, isStatement, lowerLabel, joinList, leadSentences, markdownToText, normalizeSpace, statesPrice, truncateText, withoutPrices } from './text';
import indefinite from 'indefinite';

/** "a" or "an" for the words that follow ("an 8-inch knife", "an SUV", "a one-piece"): the `indefinite` library's rules. */
function indefiniteArticle(word: string): string {
  return indefinite(word, { articleOnly: true });
}

export const MIN_FAQS = 8;
export const MAX_FAQS = 20;
/** Own Q&A kept before the generated ones, so the catalogue questions always get a place. */
const MAX_OWN_FAQS = 14;
const SUMMARY_MAX = 420;
const PRODUCT_SUMMARY_MAX = 500;

/** Everything the engine derives from a snapshot once; the parts are built from it. */
interface Analysis {
  name: string;
  url: string;
  products: CatalogProduct[];
  range: ReturnType<typeof priceRange>;
  types: Array<{ type: string; count: number }>;
  vendors: Array<{ vendor: string; count: number }>;
  collections: string[];
  categories: string[];
  industry: IndustryInference;
  facts: KeyFact[];
  audience: ReturnType<typeof extractAudience>;
  /** Describing sentences of the about page(s), then of the home page. */
  aboutSentences: string[];
  homeSentences: string[];
  /** The home page's meta description, when it reads as a sentence. */
  metaDescription: string | null;
  emails: string[];
}

/** Each product once, the first of an id kept, as the site builder keeps it: every count agrees with the files. */
function distinctProducts(products: readonly CatalogProduct[]): CatalogProduct[] {
  const seen = new Set<string>();
  return products.filter((p) => !seen.has(p.productId) && Boolean(seen.add(p.productId)));
}

function analyse(input: StoreSnapshot): Analysis {
  const snapshot = { ...input, products: distinctProducts(input.products) };
  const name = storeName(snapshot);
  const home = snapshot.pages.find((p) => p.kind === 'home');
  const meta = home ? normalizeSpace(home.description) : '';
  return {
    name,
    url: snapshot.business.url,
    products: snapshot.products,
    range: priceRange(snapshot.products),
    types: productKindCounts(snapshot.products, snapshot.business.name).map(({ kind, count }) => ({ type: kind, count })),
    vendors: vendorCounts(snapshot.products),
    collections: realCollections(snapshot).map((c) => c.title.trim()),
    categories: categoriesOf(snapshot),
    industry: catalogueIndustry(snapshot),
    // A sentence stating a price is a volatile fact, not a key fact (the offers carry prices).
    // Store-level facts only: a product's material or origin sentence is on its own fact card,
    // and a store's key facts made of product taglines say nothing about the store (issue 44).
    facts: extractKeyFacts(snapshot, { maxFromProducts: 0 }).filter((f) => !statesPrice(f.text)),
    audience: extractAudience(snapshot),
    aboutSentences: describingSentences(snapshot, ['about']).map((s) => s.text).filter((t) => !statesPrice(t)),
    homeSentences: describingSentences(snapshot, ['home']).map((s) => s.text).filter((t) => !statesPrice(t)),
    metaDescription: meta.length >= 40 && meta.length <= 300 && isStatement(meta) && !/cookie|subscribe|sign up/i.test(meta) && !statesPrice(meta) ? meta : null,
    emails: extractEmails(snapshot),
  };
}


function possessive(name: string): string {
  return /s$/i.test(name) ? `${name}'` : `${name}'s`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** "N offers 8 products across coffee, tea and brewing gear." (no prices: they go stale in prose) */
function catalogueSentence(a: Analysis): string | null {
  if (!a.products.length) return null;
  const types = a.types.slice(0, 4).map((t) => pluralPhrase(lowerLabel(t.type)));
  let s = `${a.name} offers ${plural(a.products.length, 'product')}`;
  if (types.length) s += ` across ${joinList(types)}${a.types.length > 4 ? ' and more' : ''}`;
  return `${s}.`;
}

function buildSummary(a: Analysis): string {
  const lead = a.metaDescription ?? a.homeSentences[0] ?? a.aboutSentences[0] ?? null;
  const catalogue = catalogueSentence(a);
  const parts = [lead, catalogue].filter((x): x is string => Boolean(x));
  if (!parts.length) return `${a.name} is an online store at ${a.url}.`;
  const joined = parts.join(' ');
  if (joined.length <= SUMMARY_MAX) return joined;
  return truncateText(parts[0], SUMMARY_MAX);
}

function buildDescription(a: Analysis): string {
  const paragraphs: string[] = [];
  const story: string[] = [];
  const seen = new Set<string>();
  // The home page's own words first (at most two sentences), then the about page.
  for (const s of [...a.homeSentences.slice(0, 2), ...a.aboutSentences, ...a.homeSentences.slice(2)]) {
    const key = dedupeKey(s);
    if (seen.has(key)) continue;
    seen.add(key);
    if (story.join(' ').length + s.length > 900) break;
    story.push(s);
    if (story.length >= 6) break;
  }
  if (story.length) paragraphs.push(story.join(' '));

  if (a.products.length) {
    const lines: string[] = [];
    let first = `The catalogue lists ${plural(a.products.length, 'product')}`;
    const vendors = a.vendors.slice(0, 5).map((v) => v.vendor);
    const ownBrandOnly = vendors.length === 1 && dedupeKey(vendors[0]) === dedupeKey(a.name);
    if (vendors.length && !ownBrandOnly) first += ` from ${joinList(vendors)}${a.vendors.length > 5 ? ' and other vendors' : ''}`;
    lines.push(`${first}.`);
    if (a.types.length) {
      const types = a.types.slice(0, 8).map((t) => `${t.type} (${t.count})`);
      lines.push(`Product types: ${joinList(types)}${a.types.length > 8 ? ', among others' : ''}.`);
    }
    if (a.collections.length) lines.push(`Collections: ${joinList(a.collections.slice(0, 10))}${a.collections.length > 10 ? ' and more' : ''}.`);
    paragraphs.push(lines.join(' '));
  } else if (a.collections.length) {
    paragraphs.push(`Collections: ${joinList(a.collections.slice(0, 10))}.`);
  }

  const policy = a.facts.filter((f) => f.kind === 'shipping' || f.kind === 'returns').slice(0, 3).map((f) => f.text);
  if (policy.length) paragraphs.push(policy.join(' '));
  if (!paragraphs.length) return `${a.name} is an online store at ${a.url}.`;
  return paragraphs.join('\n\n');
}

function buildAudience(a: Analysis): string {
  if (a.audience.length) {
    const phrases = a.audience.map((x) => x.phrase);
    const text = joinList(phrases, 'and');
    return text.charAt(0).toUpperCase() + text.slice(1);
  }
  return a.industry.basis === 'default' ? 'Online shoppers' : `Shoppers interested in ${a.industry.industry}`;
}

function factsOf(a: Analysis, kind: KeyFact['kind'], max: number): string[] {
  return a.facts.filter((f) => f.kind === kind).slice(0, max).map((f) => f.text);
}

/** Q&A computed from the catalogue and the extracted facts; each only when its evidence exists. */
function generatedFaqs(a: Analysis): FaqEntry[] {
  const n = a.name;
  const out: FaqEntry[] = [];
  const add = (question: string, answer: string | null) => {
    const clean = answer ? withoutPrices(answer) : '';
    if (clean) out.push({ question, answer: truncateText(clean, 900) });
  };
  const types = a.types.map((t) => lowerLabel(t.type));

  if (a.products.length) {
    const what = types.length
      ? `${n} sells ${joinList(types.slice(0, 6))}${types.length > 6 ? ', among other product types' : ''}.`
      : `${n} sells products such as ${joinList(sortedProducts(a.products).slice(0, 3).map((p) => p.name))}.`;
    add(`What does ${n} sell?`, `${what} Its catalogue lists ${plural(a.products.length, 'product')}.`);
  } else {
    add(`What does ${n} sell?`, a.homeSentences[0] ?? a.aboutSentences[0] ?? null);
  }
  if (a.industry.basis !== 'default') {
    add(`What kind of store is ${n}?`, `Based on its catalogue and pages, ${n} is ${indefiniteArticle(a.industry.industry)} ${a.industry.industry} store.`);
  }
  // Where prices are, never what they are: a figure in prose goes stale when the store
  // reprices (issue 10, item 6); the current price and stock of every product are in its
  // structured offer (Offer JSON-LD) and the Price / Availability lines of its files.
  if (a.range) {
    add(
      `Where can I find current prices for ${possessive(n)} products?`,
      `Each product's current price${a.range.currency ? ` (in ${a.range.currency})` : ''} and availability are listed on its page and in its product file here, as ${n} states them on its own store at ${a.url}.`,
    );
  }
  if (a.collections.length) add(`Which collections does ${n} offer?`, `${n} groups its products into these collections: ${joinList(a.collections.slice(0, 12))}.`);
  const shipping = factsOf(a, 'shipping', 3);
  if (shipping.length) add(`What are ${possessive(n)} shipping options?`, shipping.join(' '));
  const returns = factsOf(a, 'returns', 3);
  if (returns.length) add(`What is ${possessive(n)} return policy?`, returns.join(' '));
  if (a.products.length) {
    // The count of the catalogue, not of what is in stock today (stock is volatile: it lives in the offers).
    add(`How many products does ${n} offer?`, `${possessive(n)} catalogue lists ${plural(a.products.length, 'product')}.`);
  }
  // Which products of a kind the store sells, with their prices and stock, is the kind pages' job
  // (core/site/catalogue-answers.ts): an answer naming products without their facts would only
  // crowd them, so it says how many there are and where each is listed with its facts.
  for (const t of a.types.slice(0, 3)) {
    if (t.count < 2) continue;
    const label = lowerLabel(t.type);
    add(`Which ${pluralPhrase(label)} does ${n} sell?`, `${possessive(n)} catalogue lists ${t.count} ${label} products. Each is listed with its current price, stock and options on the ${t.type} page of this guide, cheapest first.`);
  }
  const vendors = a.vendors.map((v) => v.vendor);
  if (vendors.length && !(vendors.length === 1 && dedupeKey(vendors[0]) === dedupeKey(n))) {
    add(`Which brands does ${n} carry?`, `Products at ${n} come from ${joinList(vendors.slice(0, 8))}${vendors.length > 8 ? ' and other vendors' : ''}.`);
  }
  const origin = factsOf(a, 'origin', 3);
  if (origin.length) add(`Where do ${possessive(n)} products come from?`, origin.join(' '));
  const materials = factsOf(a, 'materials', 3);
  if (materials.length) add(materialsQuestion(n, a.industry.basis === 'default' ? '' : a.industry.industry, materials), materials.join(' '));
  const guarantee = factsOf(a, 'guarantee', 2);
  if (guarantee.length) add(`Does ${n} offer a guarantee?`, guarantee.join(' '));
  if (a.audience.length) add(`Who is ${n} for?`, [...new Set(a.audience.map((x) => x.sentence))].join(' '));
  if (a.emails.length) add(`How can I contact ${n}?`, `${n} can be reached by email at ${joinList(a.emails.slice(0, 2), 'or')}.`);
  add(
    a.products.length ? `Where can I buy ${possessive(n)} products?` : `Where is ${possessive(n)} online store?`,
    a.products.length ? `${possessive(n)} products are sold on its online store at ${a.url}.` : `${possessive(n)} online store is at ${a.url}.`,
  );
  return out;
}

function buildFaqs(snapshot: StoreSnapshot, a: Analysis): FaqEntry[] {
  const out: FaqEntry[] = [];
  const seen = new Set<string>();
  const push = (f: FaqEntry) => {
    const key = dedupeKey(f.question);
    if (!key || seen.has(key) || out.length >= MAX_FAQS) return;
    seen.add(key);
    out.push(f);
  };
  extractStoreFaqs(snapshot, MAX_OWN_FAQS).forEach(push);
  generatedFaqs(a).forEach(push);
  return out;
}

/** Type words that take no article: "is brewing gear", not "is a brewing gear". */
const MASS_NOUN = /\b(gear|equipment|apparel|clothing|jewelry|jewellery|furniture|merchandise|merch|software|footwear|eyewear|knitwear|outerwear|swimwear|sportswear|underwear|lingerie|luggage|stationery|cookware|bakeware|kitchenware|tableware|glassware|drinkware|hardware|decor|skincare|haircare|makeup|art|bedding|food|produce)$/i;

/** "is a coffee", "is brewing gear", "is a product in the Accessories category". */
function typePhrase(productType: string): string {
  const type = productType.trim() ? lowerLabel(productType) : '';
  if (!type) return 'a product';
  if (MASS_NOUN.test(type)) return type;
  if (/[^s]s$/i.test(type) && !/(ss|us|is)$/i.test(type)) return `a product in the ${productType.trim()} category`;
  return `${indefiniteArticle(type)} ${type}`;
}

/** "<name> is a <type> from <vendor>. <first sentences of the description>" */
export function productSummary(product: CatalogProduct, kindOf: KindOf = productKind): string {
  // The kind, never a placeholder type ("is a normal from Stanley").
  let head = `${product.name.trim() || product.productId} is ${typePhrase(kindOf(product) ?? '')}`;
  if (product.vendor.trim()) head += ` from ${product.vendor.trim()}`;
  // No price or stock in prose: they change without the text being rewritten (offers live in
  // the structured fields: Offer JSON-LD, the Price/Availability facts).
  // A vendor ending in an abbreviation ("Harbor & Pine Coffee Co.") ends the sentence itself.
  if (!/[.!?]$/.test(head)) head += '.';
  const lead = leadSentences(withoutPrices(markdownToText(product.description)), 2, 320);
  return truncateText(lead ? `${head} ${lead}` : head, PRODUCT_SUMMARY_MAX);
}

function buildProductSummaries(snapshot: StoreSnapshot): Record<string, string> {
  const out: Record<string, string> = {};
  const kindOf = catalogueKinds(snapshot.products, snapshot.business.name);
  for (const p of snapshot.products) if (!(p.productId in out)) out[p.productId] = productSummary(p, kindOf);
  return out;
}

/** The overview part alone (what the model engine's first call produces). */
export function offlineOverview(snapshot: StoreSnapshot): NarrativeOverview {
  const a = analyse(snapshot);
  return overviewOf(a);
}

function overviewOf(a: Analysis): NarrativeOverview {
  return {
    summary: buildSummary(a),
    description: buildDescription(a),
    industry: a.industry.industry,
    audience: buildAudience(a),
    categories: a.categories,
    keyFacts: a.facts.map((f) => f.text),
  };
}

/** The whole narrative, synchronously; pure. */
export function buildOfflineNarrative(snapshot: StoreSnapshot): SiteNarrative {
  const a = analyse(snapshot);
  return {
    ...overviewOf(a),
    faqs: buildFaqs(snapshot, a),
    productSummaries: buildProductSummaries(snapshot),
    engine: { name: 'offline' },
  };
}

export function createOfflineGenerator(): SiteGenerator {
  return {
    name: 'offline',
    generateNarrative: async (snapshot) => buildOfflineNarrative(snapshot),
  };
}
