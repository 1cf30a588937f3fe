/**
 * The offline prompt generator: deterministic, no network. Prompts are built from the
 * store's OWN evidence (collections and product types, tags, vendors, prices, the
 * audience and facts its pages state, the narrative when one exists), so two stores get
 * different prompts. Every template only fires when its evidence exists; when the evidence
 * runs out, fewer prompts come back and the shortfall is reported (never filler).
 *
 * Candidates are drawn round-robin from template families (one of each family in turn),
 * so the first N of a list are varied, and all go through `filterPrompts` (no business
 * name, unique, length-bounded queries).
 */
import type { CatalogProduct, SiteNarrative, StoreSnapshot } from '../site/types';
import { categoriesOf, parsePrice, productTypeCounts, vendorCounts } from '../generate/catalog';
import { extractAudience, extractKeyFacts, pageSentences, storeName } from '../generate/evidence';
import { INDUSTRY_RULES, inferIndustry } from '../generate/industry';
import { lowerLabel } from '../generate/offline-engine';
import { dedupeKey, joinList, normalizeSpace, singularKey, splitSentences, wordText, wordVariants } from '../generate/text';
import { brandWords, detectProductLines, MATERIALS } from './product-lines';
import type { PromptIntent } from './prompt-quality';
import { figureCap, PromptGate } from './strategy';
import { containsBusinessName, distinctiveTokens } from '../text/name-match';
import type { PromptGenerator, PromptRequest, PromptSet, ProductPromptRequest } from './types';

// ---------------------------------------------------------------------------------------
// Noun phrases
// ---------------------------------------------------------------------------------------

/** Uncountable heads: "the best coffee is", "where can I buy brewing gear". */
const MASS_HEAD = /^(meditation|fitness|nutrition|care|coffee|tea|brew|matcha|cocoa|espresso|decaf|wine|beer|cider|sake|whiskey|whisky|gin|rum|vodka|mezcal|tequila|chocolate|honey|candy|jam|granola|gear|equipment|apparel|clothing|jewelry|jewellery|furniture|merchandise|merch|software|luggage|stationery|decor|skincare|haircare|bodycare|makeup|bedding|art|food|produce|yarn|lingerie|fashion|homeware|swag|firewood|coffeeware|teaware|\w+ware|\w+wear)$/i;

/** Mass nouns that are not varieties: "Insulated Travel Tumbler" is not "... drinkware". */
const NON_VARIETY_MASS = /(ware|wear|gear|equipment|apparel|clothing|jewelry|jewellery|furniture|decor|luggage|stationery|bedding|art|merch|merchandise|software|makeup|skincare|haircare|bodycare)$/i;

/** Tags that read as a noun after the type: "coffee blend", "tea sampler". */
const NOUN_TAGS = /^(blend|set|kit|bundle|sampler|subscription|gift set|pods|capsules|refill|starter kit)$/i;

/** Merchandising collections and tags: not a category or a product quality. */
const MERCH_LABEL = /^(sale|on sale|new|new arrivals?|new in|just in|best ?sellers?|bestsellers?|featured|all|shop all|all products|clearance|gift cards?|bundles?|frontpage|home|home page|last chance|trending|popular|specials?|deals?|outlet|discount(ed)?|limited( edition)?|seasonal|restock(ed)?|in stock|out of stock|preorder|pre-order|exclusive|hot|top|default|misc|other|uncategori[sz]ed|test|hidden|merch|merchandise|swag|logo|branded)$/i;

function headWord(phrase: string): string {
  const words = phrase.trim().split(/\s+/);
  return words[words.length - 1] ?? '';
}

export function isMass(phrase: string): boolean {
  return MASS_HEAD.test(headWord(phrase));
}

export function isPlural(phrase: string): boolean {
  const head = headWord(phrase).toLowerCase();
  if (isMass(phrase)) return false;
  return /[^s]s$/.test(head) && !/(us|is|ss)$/.test(head) || /^(people|children|men|women|kids|feet|teeth|mice|geese)$/.test(head);
}

/** "mug" → "mugs", "accessory" → "accessories", "coffee" → "coffee", "teas" → "teas". */
export function pluralPhrase(phrase: string): string {
  const p = phrase.trim();
  if (!p || isMass(p) || isPlural(p)) return p;
  const words = p.split(/\s+/);
  const head = words.pop()!;
  let plural: string;
  if (/[^aeiou]y$/i.test(head)) plural = `${head.slice(0, -1)}ies`;
  else if (/(s|x|z|ch|sh)$/i.test(head)) plural = `${head}es`;
  else if (/[^\p{L}\p{N}]$/u.test(head) || /\d$/.test(head)) return p;
  else plural = `${head}s`;
  return [...words, plural].join(' ');
}

/** "is"/"are" for a noun phrase. */
function be(phrase: string): 'is' | 'are' {
  return isPlural(phrase) ? 'are' : 'is';
}

function has(phrase: string): 'has' | 'have' {
  return isPlural(phrase) ? 'have' : 'has';
}

/** A label as it reads inside a sentence: lower case, acronyms and proper names kept. */
function label(text: string): string {
  return lowerLabel(normalizeSpace(text));
}

function usableLabel(text: string, businessName: string, maxWords = 4): boolean {
  const t = normalizeSpace(text);
  if (!t || t.length < 2 || t.length > 40) return false;
  if (t.split(' ').length > maxWords) return false;
  if (/[:_=#|/\\<>{}[\]]/.test(t) || /^\d+$/.test(t) || /\d{3,}/.test(t)) return false;
  if (MERCH_LABEL.test(t)) return false;
  if (containsBusinessName(t, businessName)) return false;
  return /\p{L}{2,}/u.test(t);
}

// ---------------------------------------------------------------------------------------
// Evidence
// ---------------------------------------------------------------------------------------

export interface Category {
  /** As a phrase in a sentence, plural where countable: "teas", "brewing gear", "mugs". */
  phrase: string;
  /** Words that identify products of the category (singular keys). */
  keys: string[];
}

export interface PromptEvidence {
  businessName: string;
  industry: string | null;
  audiences: string[];
  categories: Category[];
  /** Shipping and service features: "free shipping on orders over $45", "worldwide shipping". */
  services: string[];
  /** Product qualities the pages claim, with the categories they were said of. */
  qualities: Array<{ quality: string; categories: string[] }>;
  /** Places the store says it makes or is based in: "Portland". */
  places: string[];
  /** Categories named together with those places (else the main category). */
  placeCategories: string[];
  /** Regions the store says it ships to. */
  shipsTo: string[];
  subscriptions: boolean;
  /** Categories a subscription is offered for: those named with it, else the main category. */
  subscriptionCategories: string[];
  gifts: boolean;
  /** Third-party brands the store carries (never the business itself). */
  vendors: string[];
  /** Currency symbol or code for price prompts, null when unknown. */
  currency: string | null;
  /** Product-line names and brand-like vendors (`detectProductLines`): never in a prompt. */
  productLines: string[];
  /** The business name's words that are not ordinary catalogue words (`brandWords`). */
  brandWords: string[];
  /** Uses the product descriptions state, most products first ("hot yoga", "travel"), with the categories they were said of. */
  uses: Array<{ use: string; categories: string[] }>;
  /** Materials the products are made of, most products first, with their categories. */
  materials: Array<{ material: string; categories: string[] }>;
}

const CURRENCY_SYMBOLS: Record<string, string> = {
  USD: '$', CAD: '$', AUD: '$', NZD: '$', SGD: '$', HKD: '$', MXN: '$', EUR: '€', GBP: '£', JPY: '¥', INR: '₹', KRW: '₩',
};

/** The currency the store prices in: the products' own currency, else the symbol its pages use most. */
function detectCurrency(snapshot: StoreSnapshot): string | null {
  const counts = new Map<string, number>();
  for (const p of snapshot.products) {
    const c = p.currency?.trim().toUpperCase();
    if (c) counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  if (counts.size) {
    const [code] = [...counts].sort((a, b) => b[1] - a[1])[0];
    return CURRENCY_SYMBOLS[code] ?? code;
  }
  const text = [...snapshot.pages.map((p) => p.markdown), ...snapshot.products.map((p) => p.description)].join('\n');
  const symbols: Array<[string, number]> = [
    ['$', (text.match(/\$\s?\d/g) ?? []).length],
    ['€', (text.match(/€\s?\d|\d\s?€/g) ?? []).length],
    ['£', (text.match(/£\s?\d/g) ?? []).length],
  ];
  symbols.sort((a, b) => b[1] - a[1]);
  return symbols[0][1] > 0 ? symbols[0][0] : null;
}

export function formatBudget(amount: number, currency: string): string {
  const value = Number.isInteger(amount) ? String(amount) : amount.toFixed(2);
  return /^[A-Z]{3}$/.test(currency) ? `${value} ${currency}` : `${currency}${value}`;
}

const NICE = [5, 10, 15, 20, 25, 30, 40, 50, 60, 75, 100, 125, 150, 200, 250, 300, 400, 500, 750, 1000, 1500, 2000, 2500, 3000, 4000, 5000];

/** The round budget a shopper would type for this price: the next "nice" amount above it. */
export function priceBand(price: number): number {
  for (const n of NICE) if (n > price) return n;
  return Math.ceil((price + 1) / 1000) * 1000;
}

function median(values: number[]): number | null {
  if (!values.length) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

const AUDIENCE_GENERIC = /^(online )?(shoppers?|customers?|buyers?|people|everyone|anyone|consumers?|users?)$/i;
const PEOPLE_HEAD = /(s|people|children|men|women|anyone|everyone|folk|family)$/i;

/** "home brewers and curious coffee drinkers who want ..." → ["home brewers", "curious coffee drinkers"]. */
export function audiencePhrases(text: string): string[] {
  const out: string[] = [];
  const cut = text.split(/\b(?:who|that|which|with|wanting|looking|seeking|to|in|at|from)\b/i)[0];
  for (const part of cut.split(/,|\band\b|\bor\b|&|\//i)) {
    let p = normalizeSpace(part).toLowerCase().replace(/[^\p{L}\p{N}' -]/gu, '').trim();
    p = p.replace(/^(the|a|an|all|every|any|busy|our|your)\s+/i, '').trim();
    if (!p || p.split(' ').length > 4 || p.length < 4) continue;
    if (AUDIENCE_GENERIC.test(p) || /interested$/.test(p)) continue;
    if (!PEOPLE_HEAD.test(headWord(p))) continue;
    out.push(p);
  }
  return out;
}

const SERVICE_PATTERNS: Array<{ re: RegExp; phrase: (m: RegExpMatchArray) => string }> = [
  {
    re: /\bfree (?:[a-z]+ ){0,2}(shipping|delivery)\b[^.]*?\b(?:over|above|from|on orders of)\s*([$€£])\s?(\d+(?:\.\d{2})?)/i,
    phrase: (m) => `free ${m[1].toLowerCase()} on orders over ${m[2]}${m[3].replace(/\.00$/, '')}`,
  },
  { re: /\bfree (?:[a-z]+ ){0,2}(shipping|delivery)\b/i, phrase: (m) => `free ${m[1].toLowerCase()}` },
  { re: /\bfree returns?\b/i, phrase: () => 'free returns' },
  { re: /\b(\d{1,3})[- ]day (?:returns?|money[- ]back|return policy)\b/i, phrase: (m) => `${m[1]}-day returns` },
  { re: /\breturns?\b[^.]{0,60}?\bwithin (\d{1,3}) days\b/i, phrase: (m) => `${m[1]}-day returns` },
  { re: /\b(?:ship|deliver)\w*\s+(?:\w+\s+)?(worldwide|internationally)\b/i, phrase: () => 'worldwide shipping' },
  { re: /\b(same|next)[- ]day (shipping|delivery|dispatch)\b/i, phrase: (m) => `${m[1].toLowerCase()}-day ${m[2].toLowerCase()}` },
  { re: /\b(?:ship|dispatch)\w*\s+(?:\w+\s+){0,3}within (\d{1,3}) (hours|business days|days)\b/i, phrase: (m) => `shipping within ${m[1]} ${m[2].toLowerCase()}` },
  { re: /\bcarbon[- ]neutral (shipping|delivery)\b/i, phrase: (m) => `carbon-neutral ${m[1].toLowerCase()}` },
  { re: /\blifetime (warranty|guarantee)\b/i, phrase: (m) => `a lifetime ${m[1].toLowerCase()}` },
];

const QUALITY_PATTERNS: Array<{ re: RegExp; quality: string }> = [
  { re: /\bcertified organic\b|\borganic\b/i, quality: 'organic' },
  { re: /\bfair[- ]?trade\b/i, quality: 'fair trade' },
  { re: /\bdirect(ly)?[- ]trade\b|\bdirectly from (?:the )?(farms?|farmers|growers|makers)\b/i, quality: 'direct trade' },
  { re: /\bethically (sourced|made)\b/i, quality: 'ethically sourced' },
  { re: /\bsmall[- ]batch\b/i, quality: 'small-batch' },
  { re: /\bhand-?made\b/i, quality: 'handmade' },
  { re: /\bvegan\b/i, quality: 'vegan' },
  { re: /\bcruelty[- ]free\b/i, quality: 'cruelty-free' },
  { re: /\bgluten[- ]free\b/i, quality: 'gluten-free' },
  { re: /\bsugar[- ]free\b/i, quality: 'sugar-free' },
  { re: /\bnon-gmo\b/i, quality: 'non-GMO' },
  { re: /\bcompostable\b/i, quality: 'sustainably packaged' },
  { re: /\bplastic[- ]free\b/i, quality: 'plastic-free' },
  { re: /\brecycled\b/i, quality: 'recycled' },
  { re: /\b(freshly roasted|roasted to order)\b/i, quality: 'freshly roasted' },
];

const PLACE_RE = /\b(?:roasted|made|based|brewed|baked|crafted|handcrafted|handmade|designed|blended|located|printed|sewn|distilled|founded|started)\s+(?:and\s+\w+\s+)?in\s+(\p{Lu}[\p{L}'’-]+(?:\s\p{Lu}[\p{L}'’-]+)?)/gu;
const SHIPS_TO_RE = /\b(?:ship|deliver)(?:s|ping)?\s+to\s+((?:the\s+)?\p{Lu}[\p{L}]+(?:\s\p{Lu}[\p{L}]+)*(?:(?:,\s*|\s+and\s+)(?:the\s+)?\p{Lu}[\p{L}]+(?:\s\p{Lu}[\p{L}]+)*)*)/gu;
const NOT_PLACE = /^(the|our|my|your|a|an|small|every|each|house|store|shop|this|that|house|batches|january|february|march|april|may|june|july|august|september|october|november|december)$/i;

/** The category a quality word at `index` is said of, see `promptEvidence`. */
function qualifiedCategory(sentence: string, index: number, length: number, categories: Category[]): Category | null {
  let after: { c: Category; at: number } | null = null;
  let before: { c: Category; at: number } | null = null;
  const folded = sentence.toLowerCase();
  for (const c of categories) {
    for (const key of c.keys) {
      const re = new RegExp(`(?<![\\p{L}\\p{N}])${key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '[\\s-]+')}(?:s|es)?(?![\\p{L}\\p{N}])`, 'gu');
      for (const m of folded.matchAll(re)) {
        const at = m.index ?? 0;
        if (at >= index + length && (!after || at < after.at)) after = { c, at };
        if (at + m[0].length <= index && (!before || at > before.at)) before = { c, at };
      }
    }
  }
  return after?.c ?? before?.c ?? null;
}

/** Words of a category that identify its products in text: its singular key and its head word. */
function mentions(text: string, category: Category): boolean {
  const hay = wordText(singularKey(text));
  return category.keys.some((k) => hay.includes(` ${k} `));
}

export function promptEvidence(snapshot: StoreSnapshot, narrative?: SiteNarrative | null): PromptEvidence {
  const businessName = storeName(snapshot);
  const inferred = inferIndustry(snapshot);
  const rawIndustry = narrative?.industry?.trim() || (inferred.basis === 'default' ? '' : inferred.industry);
  const industry = rawIndustry && rawIndustry.toLowerCase() !== 'online retail' && usableLabel(rawIndustry, businessName, 5) ? rawIndustry.toLowerCase() : null;

  const audiences: string[] = [];
  const addAudience = (text: string) => {
    for (const a of audiencePhrases(text)) if (!audiences.includes(a) && !containsBusinessName(a, businessName)) audiences.push(a);
  };
  for (const a of extractAudience(snapshot, 3)) addAudience(a.phrase);
  if (narrative?.audience) addAudience(narrative.audience);

  const productLines = detectProductLines(snapshot.products, businessName);
  const categories: Category[] = [];
  const seenCat = new Set<string>();
  const labels = [...(narrative?.categories ?? []), ...categoriesOf(snapshot)];
  // No collections and no product types (catalogue missing): the kinds the product names say.
  if (!labels.length) {
    for (const p of snapshot.products) {
      const kind = nameIsNeutral(p.name, businessName) ? kindFromName(p.name) : null;
      if (kind) labels.push(kind);
    }
  }
  for (const raw of labels) {
    if (!usableLabel(raw, businessName) || productLines.some((l) => containsBusinessName(raw, l))) continue;
    const phrase = pluralPhrase(label(raw));
    const key = singularKey(phrase);
    if (!key || seenCat.has(key)) continue;
    seenCat.add(key);
    categories.push({ phrase, keys: [key] });
    if (categories.length >= 12) break;
  }

  const fromPages = new Set(pageSentences(snapshot).map((s) => normalizeSpace(s.text)));
  const sentences = [
    ...fromPages,
    ...(narrative?.keyFacts ?? []),
    ...extractKeyFacts(snapshot).map((f) => f.sentence),
  ].map(normalizeSpace);

  const services: string[] = [];
  const qualities: PromptEvidence['qualities'] = [];
  const places: string[] = [];
  const shipsTo: string[] = [];
  let subscriptions = false;
  const subscriptionCategories: string[] = [];
  const placeCategories: string[] = [];
  let gifts = false;
  for (const sentence of sentences) {
    if (/newsletter/i.test(sentence)) continue;
    for (const p of SERVICE_PATTERNS) {
      const m = sentence.match(p.re);
      if (!m) continue;
      const phrase = p.phrase(m);
      // "free shipping on orders over $45" makes a bare "free shipping" redundant.
      if (!services.includes(phrase)) services.push(phrase);
    }
    for (const q of QUALITY_PATTERNS) {
      const m = q.re.exec(sentence);
      if (!m) continue;
      let entry = qualities.find((x) => x.quality === q.quality);
      if (!entry) { entry = { quality: q.quality, categories: [] }; qualities.push(entry); }
      // The quality is said of one category: the first named after it ("small-batch coffee
      // and tea" → coffee), else the last named before it ("our teas are organic" → teas).
      const c = qualifiedCategory(sentence, m.index, m[0].length, categories);
      if (c && !entry.categories.includes(c.phrase)) entry.categories.push(c.phrase);
    }
    // Places only from the store's own pages: a product's "made in ..." is not where the store is.
    for (const m of fromPages.has(sentence) ? sentence.matchAll(PLACE_RE) : []) {
      const place = m[1].replace(/['’]s$/, '');
      if (NOT_PLACE.test(place.split(/\s/)[0]) || containsBusinessName(place, businessName)) continue;
      if (!places.includes(place)) places.push(place);
      for (const c of categories) if (mentions(sentence, c) && !placeCategories.includes(c.phrase)) placeCategories.push(c.phrase);
    }
    for (const m of sentence.matchAll(SHIPS_TO_RE)) {
      for (const part of m[1].split(/,\s*|\s+and\s+/)) {
        const region = part.replace(/^the\s+/i, '').trim();
        if (!region || NOT_PLACE.test(region)) continue;
        const named = /^(United|Netherlands|Philippines|Czech|UK$|US$|USA$|EU$|UAE$)/.test(region) ? `the ${region}` : region;
        if (!shipsTo.includes(named)) shipsTo.push(named);
      }
    }
    if (/\bsubscriptions?\b/i.test(sentence)) {
      subscriptions = true;
      for (const c of categories) if (mentions(sentence, c) && !subscriptionCategories.includes(c.phrase)) subscriptionCategories.push(c.phrase);
    }
    if (/\bgifts?\b|\bgift (sets?|boxes?|ideas?)\b/i.test(sentence)) gifts = true;
  }
  // Drop a bare "free shipping" when a thresholded one exists.
  const servicesClean = services.filter((s) => !(/^free (shipping|delivery)$/.test(s) && services.some((t) => t !== s && t.startsWith(s))));
  if (!subscriptions) subscriptions = snapshot.products.some((p) => /\bsubscription\b/i.test(`${p.name} ${p.tags.join(' ')} ${p.productType}`));
  if (!gifts) gifts = snapshot.products.some((p) => /\bgift\b/i.test(`${p.productType} ${p.tags.join(' ')}`));

  const vendors = vendorCounts(snapshot.products)
    .map((v) => v.vendor)
    .filter((v) => usableLabel(v, businessName, 5) && dedupeKey(v) !== dedupeKey(businessName) && nameIsNeutral(v, businessName))
    .slice(0, 8);

  return {
    businessName,
    industry,
    audiences: audiences.slice(0, 4),
    categories,
    services: servicesClean.slice(0, 6),
    qualities: qualities.slice(0, 8),
    places: places.slice(0, 2),
    placeCategories: places.length ? (placeCategories.length ? placeCategories : categories.slice(0, 1).map((c) => c.phrase)).slice(0, 3) : [],
    shipsTo: shipsTo.slice(0, 3),
    subscriptions,
    subscriptionCategories: subscriptions ? [...new Set([...(categories[0] ? [categories[0].phrase] : []), ...subscriptionCategories])].slice(0, 3) : [],
    gifts,
    vendors: vendors.filter((v) => !productLines.some((l) => containsBusinessName(v, l))),
    currency: detectCurrency(snapshot),
    productLines,
    brandWords: brandWords(snapshot.products, businessName),
    uses: storeAttributes(snapshot, categories, (p) => useCases(p.description)).map((x) => ({ use: x.value, categories: x.categories })),
    materials: storeAttributes(snapshot, categories, (p) => materialsOf(`${p.name}. ${p.description}`)).map((x) => ({ material: x.value, categories: x.categories })),
  };
}

/** Values products state (uses, materials), by how many products state them, with those products' categories. */
function storeAttributes(snapshot: StoreSnapshot, categories: Category[], of: (p: CatalogProduct) => string[]): Array<{ value: string; categories: string[] }> {
  const counts = new Map<string, { value: string; count: number; categories: string[] }>();
  for (const p of snapshot.products) {
    const cats = categories.filter((c) => mentions(`${p.productType} | ${p.name}`, c)).map((c) => c.phrase);
    for (const value of of(p)) {
      const e = counts.get(value) ?? { value, count: 0, categories: [] };
      e.count++;
      for (const c of cats) if (!e.categories.includes(c)) e.categories.push(c);
      counts.set(value, e);
    }
  }
  return [...counts.values()].sort((a, b) => b.count - a.count).slice(0, 10);
}

// ---------------------------------------------------------------------------------------
// Business prompts
// ---------------------------------------------------------------------------------------

/** One candidate from each family in turn, in family order, until all are used. */
export function roundRobin(families: string[][]): string[] {
  const out: string[] = [];
  const max = Math.max(0, ...families.map((f) => f.length));
  for (let i = 0; i < max; i++) for (const f of families) if (i < f.length) out.push(f[i]);
  return out;
}

/** Products that belong to a category: same type, or the category's words in type, name or tags. */
function productsOf(snapshot: StoreSnapshot, category: Category): CatalogProduct[] {
  return snapshot.products.filter((p) => mentions(`${p.productType} | ${p.tags.join(' | ')} | ${p.name}`, category));
}

function tagPhrase(tag: string, typePhrase: string): string | null {
  const t = label(tag);
  if (!typePhrase) return null;
  const typeWords = new Set(singularKey(typePhrase).split(' '));
  const tagWords = singularKey(t).split(' ');
  if (tagWords.every((w) => typeWords.has(w))) return null; // "brewing" of "brewing gear"
  const head = singularKey(headWord(typePhrase));
  if (tagWords.includes(head)) return pluralPhrase(t); // "green tea" of "tea", "burr grinders" of "grinders"
  if (NOUN_TAGS.test(t)) return pluralPhrase(`${singularPhrase(typePhrase)} ${t}`); // "coffee blends"
  return joinOverlap(t, typePhrase); // "single origin coffee", "hot yoga" + "yoga mats" → "hot yoga mats"
}

/** "mugs" → "mug" for compounds ("mug gift set"); mass nouns stay. */
function singularPhrase(phrase: string): string {
  if (!isPlural(phrase)) return phrase;
  const words = phrase.split(' ');
  const head = words.pop()!;
  const single = /ies$/i.test(head) ? `${head.slice(0, -3)}y` : /(ches|shes|xes|zes|sses)$/i.test(head) ? head.slice(0, -2) : head.slice(0, -1);
  return [...words, single].join(' ');
}

function cleanTags(product: CatalogProduct, businessName: string): string[] {
  const out: string[] = [];
  for (const raw of product.tags) {
    const t = normalizeSpace(raw);
    if (!usableLabel(t, businessName, 3)) continue;
    if (dedupeKey(t) === dedupeKey(product.vendor)) continue;
    if (!out.some((x) => dedupeKey(x) === dedupeKey(t))) out.push(t);
  }
  return out;
}

/** Tag-qualified phrases of the whole store ("single origin coffee"), most used first. */
function storeTagPhrases(snapshot: StoreSnapshot, businessName: string): string[] {
  const counts = new Map<string, { phrase: string; count: number; first: number }>();
  snapshot.products.forEach((p, i) => {
    const type = p.productType.trim() ? pluralPhrase(label(p.productType)) : '';
    for (const tag of cleanTags(p, businessName)) {
      const phrase = tagPhrase(tag, type);
      if (!phrase || phrase.split(' ').length > 5) continue;
      const key = singularKey(phrase);
      const e = counts.get(key) ?? { phrase, count: 0, first: i };
      e.count++;
      counts.set(key, e);
    }
  });
  return [...counts.values()].sort((a, b) => b.count - a.count || a.first - b.first).map((e) => e.phrase);
}

/** A candidate prompt with the buyer intent it serves and the template that wrote it. */
export interface Candidate {
  text: string;
  intent: PromptIntent;
  template: string;
}

type Family = { intent: PromptIntent; template: string; texts: string[] };

/** One candidate from each family in turn (see `roundRobin`), tagged. */
function roundRobinFamilies(families: Family[]): Candidate[] {
  const out: Candidate[] = [];
  const max = Math.max(0, ...families.map((f) => f.texts.length));
  for (let i = 0; i < max; i++) for (const f of families) if (i < f.texts.length) out.push({ text: f.texts[i], intent: f.intent, template: f.template });
  return out;
}

export function businessCandidates(snapshot: StoreSnapshot, ev: PromptEvidence): string[] {
  return businessCandidateList(snapshot, ev).map((c) => c.text);
}

export function businessCandidateList(snapshot: StoreSnapshot, ev: PromptEvidence): Candidate[] {
  const cats = ev.categories.map((c) => c.phrase);
  const ind = ev.industry;
  const f: Family[] = [];
  let n = 0;
  const push = (intent: PromptIntent, texts: string[]) => f.push({ intent, template: `b${n++}`, texts });

  // Who it is for.
  push('use-case', cats.flatMap((c) => ev.audiences.map((a) => `What ${be(c)} the best ${c} for ${a}?`)));
  // Where to buy.
  push('discovery', cats.map((c) => `Where can I buy ${c} online?`));
  // Price, from the category's own median price.
  if (ev.currency) {
    push('price', ev.categories.flatMap((c) => {
      const m = median(productsOf(snapshot, c).map((p) => parsePrice(p.price)).filter((v): v is number => v !== null));
      return m === null ? [] : [`What ${be(c.phrase)} the best ${c.phrase} under ${formatBudget(priceBand(m), ev.currency!)}?`];
    }));
  }
  // Uses the products are made for: "What are the best yoga mats for hot yoga?"
  push('use-case', ev.uses.flatMap((u) => u.categories.slice(0, 2).filter((c) => !singularKey(c).includes(singularKey(u.use))).map((c) => `What ${be(c)} the best ${c} for ${u.use}?`)));
  // Comparisons the catalogue supports: materials of one category, pairs of categories.
  push('comparison', ev.categories.flatMap((c) => {
    const mats = ev.materials.filter((m) => m.categories.includes(c.phrase) && !c.phrase.toLowerCase().includes(m.material)).map((m) => m.material);
    const out: string[] = [];
    for (let i = 0; i + 1 < mats.length && out.length < 3; i += 1) out.push(`Which ${be(c.phrase)} better, ${mats[i]} or ${mats[i + 1]} ${c.phrase}?`);
    return out;
  }));
  push('gift', cats.slice(0, 4).map((c) => (isPlural(c) ? `Are ${c} a good gift?` : `Is ${c} a good gift?`)));
  push('discovery', cats.map((c) => `What are the best online stores for ${c}?`));
  // Tag-qualified products: "single origin coffee".
  const tagPhrases = storeTagPhrases(snapshot, ev.businessName);
  push('discovery', tagPhrases.map((t) => `Where can I buy ${t} online?`));
  // Services the store states.
  push('discovery', ev.services.flatMap((s) => cats.slice(0, 4).map((c) => `Which online stores sell ${c} with ${s}?`)));
  push('discovery', ind ? ev.services.map((s) => `Which ${ind} brands offer ${s}?`) : []);
  // Qualities the store claims, with the categories it claims them for.
  push('discovery', ev.qualities.flatMap((q) => q.categories.map((c) => `Where can I buy ${q.quality} ${c} online?`)));
  push('discovery', ind ? ev.qualities.map((q) => `Which ${ind} brands are ${q.quality}?`) : []);
  const pairs: string[] = [];
  for (let i = 0; i < cats.length && pairs.length < 6; i++) for (let j = i + 1; j < cats.length && pairs.length < 6; j++) {
    if (singularKey(cats[i]).includes(singularKey(cats[j])) || singularKey(cats[j]).includes(singularKey(cats[i]))) continue;
    pairs.push(`What is the difference between ${cats[i]} and ${cats[j]}?`);
  }
  push('comparison', pairs);
  push('discovery', tagPhrases.map((t) => `What ${be(t)} the best ${t}?`));
  push('discovery', cats.map((c) => `Which online shops sell high-quality ${c}?`));
  // Industry-level.
  if (ind) {
    push('discovery', [
      `What are the best ${ind} brands to buy from online?`,
      `Which ${ind} shops have the best reviews?`,
      ...ev.audiences.map((a) => `Which ${ind} brands are best for ${a}?`),
      ...ev.places.map((p) => `What are the best ${ind} shops in ${p}?`),
      ...ev.shipsTo.map((r) => `Which ${ind} shops ship to ${r}?`),
      ...(ev.subscriptions ? [`What is the best ${ind} subscription?`] : []),
    ]);
    push('gift', [`What are good ${ind} gifts?`]);
  }
  push('discovery', ev.places.flatMap((p) => ev.placeCategories.map((c) => `Where can I buy ${c} from ${p}?`)));
  push('discovery', ev.subscriptionCategories.map((c) => `What is the best ${singularPhrase(c)} subscription?`));
  push('gift', ev.audiences.map((a) => `What are good gift ideas for ${a}?`));
  push('discovery', tagPhrases.map((t) => `Which online store has the best selection of ${t}?`));
  push('discovery', ev.vendors.flatMap((v) => [`Which online stores carry ${v} products?`, `Where can I buy ${v} online?`]));
  push('discovery', ev.shipsTo.flatMap((r) => cats.slice(0, 3).map((c) => `Which online stores ship ${c} to ${r}?`)));
  push('use-case', tagPhrases.flatMap((t) => ev.audiences.slice(0, 2).map((a) => `What ${be(t)} the best ${t} for ${a}?`)));
  push('price', cats.map((c) => `Where can I find affordable ${c} online?`));
  push('use-case', cats.map((c) => `What should I look for when buying ${c} online?`));
  const both: string[] = [];
  for (let i = 0; i < cats.length && both.length < 6; i++) for (let j = i + 1; j < cats.length && both.length < 6; j++) {
    if (singularKey(cats[i]).includes(singularKey(cats[j])) || singularKey(cats[j]).includes(singularKey(cats[i]))) continue;
    both.push(`Which online store sells both ${cats[i]} and ${cats[j]}?`);
  }
  push('discovery', both);
  push('price', cats.map((c) => `${isPlural(c) ? 'Are expensive' : 'Is expensive'} ${c} worth it?`));
  push('gift', tagPhrases.slice(0, 4).map((t) => `${isPlural(t) ? 'Are' : 'Is'} ${t} a good gift?`));
  return roundRobinFamilies(f);
}

// ---------------------------------------------------------------------------------------
// Product prompts
// ---------------------------------------------------------------------------------------

/** Words a use cannot start with: pronouns, articles, prepositions (a "for for" typo), verbs of the sentence. */
const NOT_A_USE_START = /^(you|your|yours|those|anyone|everyone|us|our|a|an|the|it|its|this|that|all|any|every|up|over|under|for|to|of|with|by|in|on|at|from|and|or|added|providing|when|while|where|which|who|\d)$/;

/**
 * "Built for milk drinks and straight shots alike." → ["milk drinks", "straight shots"].
 * A use is a whole clause of the description (never cut mid-phrase to fit): the words
 * after "ideal/perfect/made/... for" up to the end of their clause, split on and/or,
 * kept only when 1-4 words.
 */
export function useCases(description: string): string[] {
  const out: string[] = [];
  for (const s of splitSentences(description)) {
    for (const m of s.matchAll(/\b(?:perfect|ideal|great|built|made|designed|suited|best|good|brewed|roasted|crafted|meant)\s+for\s+([^.;:!?()]{3,})/gi)) {
      // The clause ends at a comma followed by a new clause, or a linking word: never a cut.
      const parts = m[1].split(/\s+(?:providing|giving|helping|so|because|while|when|where|which|who|that|with|without|to help|and beyond)\b|,\s+(?=\w+ing\b|and\b|but\b|so\b|which\b)/i);
      // "people who cannot sit cross-legged": the use needs its relative clause, so there is none.
      if (parts.length > 1 && /^\s+(which|who|that|where|when)\b/i.test(m[1].slice(parts[0].length))) continue;
      const clause = parts[0];
      // Split on "and"/"or": "clean, bright cups" is one use, "travel and camping" two, and
      // "pilates, barre and cold floors" three (commas of a list that ends in "and").
      const list = /,[^,]+\b(and|or)\b/i.test(clause) ? clause.split(/,|\band\b|\bor\b/i) : clause.split(/\band\b|\bor\b/i);
      for (const part of list) {
        const p = normalizeSpace(normalizeSpace(part).toLowerCase().replace(/\b(alike|too|as well|every day)\b/g, '').replace(/[^\p{L}\p{N}, -]/gu, '')).replace(/^,|,$/g, '').trim();
        const first = p.split(' ')[0];
        if (!p || p.split(' ').length > 4 || p.length < 3) continue;
        if (NOT_A_USE_START.test(first)) continue;
        if (/\b(for|of|the|a|an|to|with|and|or)$/.test(p)) continue; // ends mid-phrase
        if (!out.includes(p)) out.push(p);
      }
    }
  }
  return out.slice(0, 3);
}

const UPPER_MATERIALS = new Set(['tpe', 'pvc', 'eva foam', 'nbr foam']);

/** Materials a text says a product is made of, in the order it says them ("natural rubber" before "rubber"). */
export function materialsOf(text: string): string[] {
  const hay = ` ${text.toLowerCase().replace(/[^\p{L}\p{N}-]+/gu, ' ')} `;
  const found: Array<{ m: string; at: number }> = [];
  for (const m of MATERIALS) {
    // "PVC-free" and "latex-free" say what it is NOT made of.
    const re = new RegExp(`(?<![\\p{L}-])${m.replace(/ /g, ' ')}(?![\\p{L}]|-free)`, 'u');
    const hit = re.exec(hay);
    if (!hit) continue;
    if (found.some((f) => f.m.includes(m) || (hit.index >= f.at && hit.index < f.at + f.m.length))) continue;
    found.push({ m, at: hit.index });
  }
  return found.sort((x, y) => x.at - y.at).map((f) => (UPPER_MATERIALS.has(f.m) ? f.m.replace(/^\w+/, (w) => w.toUpperCase()) : f.m)).slice(0, 3);
}

const FEATURE_WORDS = [
  'non-slip', 'anti-slip', 'sweat-wicking', 'quick-drying', 'machine washable', 'lightweight', 'foldable', 'reversible', 'washable', 'waterproof',
  'water-resistant', 'biodegradable', 'recyclable', 'recycled', 'antimicrobial', 'portable', 'durable', 'cushioned', 'grippy', 'breathable',
  'hypoallergenic', 'compact', 'insulated', 'ergonomic', 'adjustable', 'handmade', 'hand-woven', 'hand-hammered', 'vegan', 'organic',
  'sustainable', 'eco-friendly', 'plastic-free', 'latex-free', 'pvc-free', 'toxin-free', 'closed-cell', 'extra thick', 'extra long', 'extra wide',
  'dense', 'textured', 'absorbent', 'plant-based', 'leak-proof', 'dishwasher safe', 'unbreakable', 'rechargeable', 'wireless', 'cordless',
];

/** Selling points a description states, in its order ("non-slip", "sweat-wicking", "latex-free"). */
export function featuresOf(text: string): string[] {
  const hay = text.toLowerCase();
  const found: Array<{ f: string; at: number }> = [];
  for (const f of FEATURE_WORDS) {
    const re = new RegExp(`(?<![\\p{L}-])${f.replace(/-/g, '[- ]?')}(?![\\p{L}-])`, 'u');
    const hit = re.exec(hay);
    if (hit) found.push({ f: f === 'pvc-free' ? 'PVC-free' : f, at: hit.index });
  }
  return found.sort((x, y) => x.at - y.at).map((x) => x.f).filter((f, i, all) => !(f === 'washable' && all.includes('machine washable'))).slice(0, 5);
}

/** "notes of jasmine, bergamot and lemon" → ["jasmine", "bergamot"]. */
export function tastingNotes(description: string): string[] {
  const m = /\bnotes? of ([^.;:!?()]{3,120})/i.exec(description);
  if (!m) return [];
  return m[1]
    .split(/,|\band\b|&/i)
    .map((x) => normalizeSpace(x).toLowerCase().replace(/[^\p{L} -]/gu, '').trim())
    .filter((x) => x && x.split(' ').length <= 3)
    .slice(0, 2);
}

/**
 * What kind of product a name says it is, for products without a type (the scrape and the
 * catalogue failed): the industry keyword the name contains, the one ending last and the
 * longest ("Yirgacheffe Coffee Beans" → "coffee beans"). Null when the name names no kind.
 */
export function kindFromName(name: string): string | null {
  const text = wordText(name);
  let best: { keyword: string; end: number } | null = null;
  for (const rule of INDUSTRY_RULES) {
    for (const keyword of rule.keywords) {
      for (const variant of wordVariants(keyword)) {
        const at = text.lastIndexOf(variant);
        if (at < 0) continue;
        const end = at + variant.length;
        if (!best || end > best.end || (end === best.end && keyword.length > best.keyword.length)) best = { keyword, end };
      }
    }
  }
  return best ? best.keyword : null;
}

/** The product's type as a phrase; without one, the kind its name says, when it says one. */
function productTypePhrase(product: CatalogProduct, knownKinds: Set<string>, categories: Category[]): string {
  if (product.productType.trim()) return pluralPhrase(label(product.productType));
  // The longest store category the name contains ("Yirgacheffe Coffee Beans" → "coffee beans").
  const name = wordText(singularKey(product.name));
  const inName = categories.filter((c) => c.keys.some((k) => name.includes(` ${k} `))).sort((a, b) => b.phrase.length - a.phrase.length)[0];
  if (inName) return inName.phrase;
  const kind = kindFromName(product.name);
  if (kind) return pluralPhrase(kind);
  const last = singularKey(headWord(product.name));
  return last.length >= 3 && knownKinds.has(last) ? pluralPhrase(last) : '';
}

/**
 * Whether the product's own name may appear in a prompt: not when it shares a distinctive
 * token with the business name ("Ember Espresso Blend" of "Ember & Leaf") — that would be
 * a brand query, not an unprompted recommendation test.
 */
export function nameIsNeutral(productName: string, businessName: string, brand?: readonly string[]): boolean {
  if (containsBusinessName(productName, businessName)) return false;
  // With the catalogue known, only the name's non-ordinary words count ("Waterproof Yoga
  // Backpack" on "Sukha Yoga Co." is neutral: "yoga" is a category word there).
  const tokens = new Set(brand ?? distinctiveTokens(businessName));
  return !distinctiveTokens(productName).some((t) => tokens.has(t));
}

/** "a"/"an" + phrase for a countable singular; mass nouns and plurals without one. */
function withArticle(phrase: string): string {
  if (isMass(phrase) || isPlural(phrase)) return phrase;
  return `${/^(8|11|18)(?![\d.])/.test(phrase) || (/^[aeiou]/i.test(phrase) && !/^(uni|use|eu|one)/i.test(phrase)) || /^[FHLMNRSX][A-Z\d]*\b/.test(phrase) ? 'an' : 'a'} ${phrase}`;
}

/** Joins two phrases without repeating the words they share: "hot yoga" + "yoga mats" → "hot yoga mats". */
function joinOverlap(first: string, second: string): string {
  const a = first.split(' ');
  const b = second.split(' ');
  for (let k = Math.min(a.length, b.length); k > 0; k--) {
    if (a.slice(-k).join(' ').toLowerCase() === b.slice(0, k).join(' ').toLowerCase()) return [...a, ...b.slice(k)].join(' ');
  }
  return `${first} ${second}`;
}

const FIGURE_IN_NAME = /(?<![\p{L}\p{N}])\d+(?:[.,]\d+)?\s?(?:mm|cm|m|in|inch|ft|oz|ml|l|kg|g|lb|"|')(?![\p{L}\p{N}])/giu;
const BASIC_COLOURS = /^(black|white|grey|gray|blue|navy|green|red|pink|purple|orange|yellow|brown|beige|teal|lilac)$/i;

/** What a product is, for product-specific prompts: its kind without brand or line names, its features, materials, uses. */
export interface ProductProfile {
  /** Singular type phrase ("yoga mat"), '' when unknown. */
  type: string;
  /** Singular kind from the name, brand and product lines removed ("cork yoga mat"); the type when the name adds nothing. */
  kind: string;
  features: string[];
  /** Materials not already in the kind. */
  materials: string[];
  /** Materials other products of the same type are made of (for comparisons). */
  peerMaterials: string[];
  uses: string[];
  /** A size figure from the name, only when it distinguishes the product (few products of its type share it). */
  figure: string | null;
  colours: string[];
}

function stripNames(name: string, names: readonly string[]): string {
  let out = ` ${name} `;
  for (const n of [...names].sort((x, y) => y.length - x.length)) {
    const re = new RegExp(`(?<![\\p{L}\\p{N}])${n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+')}(?![\\p{L}\\p{N}])`, 'giu');
    out = out.replace(re, ' ');
  }
  return normalizeSpace(out);
}

export function productProfile(snapshot: StoreSnapshot, ev: PromptEvidence, product: CatalogProduct, typePlural: string): ProductProfile {
  const type = typePlural ? singularPhrase(typePlural) : '';
  const lines = [...ev.productLines, ...(product.vendor.trim() && !nameIsNeutral(product.vendor, ev.businessName, ev.brandWords) ? [product.vendor] : [])];
  const [main, ...suffix] = product.name.split(/\s[-–—|]\s/);
  const figures = [...main.matchAll(FIGURE_IN_NAME)].map((m) => m[0].replace(/\s+/g, '').toLowerCase());
  let core = stripNames(main.replace(FIGURE_IN_NAME, ' '), lines);
  core = core.split(' ').filter((w) => !containsBusinessName(w, ev.businessName)).join(' ');
  // "Stretch Strap with Loops" → "Stretch Strap": the kind is the noun phrase before its qualifiers.
  core = core.replace(/\s+(with|for|in|by)\s.*$/i, '').replace(/\b(limited edition|bundle|set of \d+)\b/gi, ' ').replace(/^(and|the)\s+|\s+(and|the)$/gi, '');
  core = normalizeSpace(core);
  // The kind is the name's ordinary words (type words, or words the store's descriptions
  // write in lower case): "Terra Cork Yoga Mat" → "cork yoga mat", "Meditation Bench" →
  // "meditation bench"; proper names drop out ("Ethiopia Guji", "Hario V60 Dripper").
  const text0 = storeText(snapshot);
  const typeWords = new Set(singularKey(type).split(' ').filter(Boolean));
  const ordinary = (w: string) => typeWords.has(singularKey(w)) || (w.length >= 3 && /^\p{L}+$/u.test(w) && new RegExp(`(?<![\\p{L}])${w.toLowerCase()}(e?s)?(?![\\p{L}])`, 'u').test(text0));
  const kindWords = label(core).split(' ').filter((w) => w && ordinary(w));
  const typeHead = type ? singularKey(headWord(type)) : '';
  let kind = type;
  if (kindWords.length && kindWords.length <= 5) {
    const k = kindWords.join(' ');
    if ((typeHead && singularKey(k).split(' ').includes(typeHead)) || kindWords.length >= 2) kind = singularPhrase(k);
  }
  if (kind && type && !singularKey(kind).includes(singularKey(type)) && singularKey(kind).split(' ').length < 2) kind = type;
  // Peers: products of the same kind (their names say its last two words, "yoga mat"), else of the same type.
  const kindTail = singularKey(kind).split(' ').slice(-2).join(' ');
  const byKind = kindTail ? snapshot.products.filter((p) => ` ${singularKey(p.name)} `.includes(` ${kindTail} `)) : [];
  const sameType = byKind.length > 1 ? byKind : snapshot.products.filter((p) => p.productType.trim().toLowerCase() === product.productType.trim().toLowerCase());
  // A figure distinguishes the product when at most a fifth of its peers state it.
  const figure = figures.find((f) => {
    const share = sameType.filter((p) => [...p.name.matchAll(FIGURE_IN_NAME)].some((m) => m[0].replace(/\s+/g, '').toLowerCase() === f)).length;
    return share <= Math.max(1, Math.floor(sameType.length * 0.2));
  }) ?? null;
  const text = stripNames(`${product.description}`, lines);
  const kindKey = ` ${singularKey(kind)} `;
  const features = featuresOf(text).filter((f) => !kindKey.includes(` ${singularKey(f)} `));
  const materials = materialsOf(`${core}. ${text}`).filter((m) => !kindKey.includes(` ${singularKey(m)} `));
  // Boilerplate every description repeats ("designed for yogis of every level") is not this product's use.
  const boilerplate = new Set(storeAttributeShares(snapshot).filter((x) => x.share >= 0.5).map((x) => x.use));
  const uses = useCases(text).filter((u) => !boilerplate.has(u) && !kindKey.includes(` ${singularKey(u)} `) && !containsBusinessName(u, ev.businessName));
  const peerMaterials = [...new Set(sameType.filter((p) => p.productId !== product.productId).flatMap((p) => materialsOf(`${p.name}. ${p.description}`)))]
    .filter((m) => !materials.includes(m) && !kindKey.includes(` ${singularKey(m)} `) && !materials.some((own) => own.includes(m) || m.includes(own)));
  const variantColours = (product.variants ?? []).map((v) => v.title ?? '').concat(suffix).filter((c) => BASIC_COLOURS.test(c.trim()));
  return { type, kind, features, materials, peerMaterials, uses, figure, colours: [...new Set(variantColours.map((c) => c.trim().toLowerCase()))].slice(0, 2) };
}

const storeTextCache = new WeakMap<StoreSnapshot, string>();
/** The store's product descriptions, as one text (for "is this an ordinary word" checks). */
function storeText(snapshot: StoreSnapshot): string {
  let t = storeTextCache.get(snapshot);
  if (t === undefined) {
    t = snapshot.products.map((p) => p.description).join('\n');
    storeTextCache.set(snapshot, t);
  }
  return t;
}

const useShareCache = new WeakMap<StoreSnapshot, Array<{ use: string; share: number }>>();
/** The share of products whose description states each use. */
function storeAttributeShares(snapshot: StoreSnapshot): Array<{ use: string; share: number }> {
  let out = useShareCache.get(snapshot);
  if (!out) {
    const counts = new Map<string, number>();
    for (const p of snapshot.products) for (const u of useCases(p.description)) counts.set(u, (counts.get(u) ?? 0) + 1);
    const n = Math.max(1, snapshot.products.length);
    out = [...counts].map(([use, c]) => ({ use, share: snapshot.products.length >= 4 ? c / n : 0 }));
    useShareCache.set(snapshot, out);
  }
  return out;
}

/** Product-specific candidates by intent, most specific first, from the product's profile. */
function profileFamilies(ev: PromptEvidence, profile: ProductProfile, budget: string | null): Family[] {
  const { kind: K, type: T, features: F, materials: M, peerMaterials: P, uses: U, figure: S, colours: C } = profile;
  if (!K) return [];
  const t = T || K;
  const is = isPlural(K) ? 'are' : 'is';
  const aud = ev.audiences[0] ?? null;
  const f: Family[] = [];
  const push = (intent: PromptIntent, template: string, texts: string[]) => f.push({ intent, template, texts });
  const ofF = (fn: (x: string, i: number) => string | null) => F.map(fn).filter((x): x is string => Boolean(x));

  push('discovery', 'p-buy-feature', ofF((x) => `Where can I buy ${withArticle(`${x} ${K}`)} online?`));
  push('use-case', 'p-best-for-use', U.map((u) => `What ${is} the best ${K} for ${u}?`));
  push('price', 'p-under-budget', budget ? [...F.slice(0, 2).map((x) => `What ${is} the best ${x} ${K} under ${budget}?`), `What ${is} the best ${K} under ${budget}?`] : []);
  const countable = !isMass(K) && !isPlural(K);
  push('comparison', 'p-material-vs', countable ? M.slice(0, 2).flatMap((m) => P.slice(0, 2).map((o) => `Is ${withArticle(`${m} ${t}`)} better than ${withArticle(`${o} one`)}?`)) : []);
  push('gift', 'p-gift', /gift/i.test(K) ? [] : [
    ...F.slice(0, 2).map((x) => `Is ${withArticle(`${x} ${K}`)} a good gift${aud ? ` for ${aud}` : ''}?`),
    `Is ${withArticle(K)} a good gift${aud ? ` for ${aud}` : ''}?`,
  ]);
  push('discovery', 'p-two-features', F.length >= 2 ? [`Which ${K} ${is} ${F[0]} and ${F[1]}?`, ...(F.length >= 3 ? [`Which ${K} ${is} ${F[1]} and ${F[2]}?`] : [])] : []);
  push('use-case', 'p-feature-for-use', U.flatMap((u) => F.slice(0, 2).map((x) => `Which ${x} ${K} works well for ${u}?`)));
  push('price', 'p-worth', [...F.slice(0, 2).map((x) => `Is ${withArticle(`${x} ${K}`)} worth the money?`), ...M.slice(0, 1).map((m) => `Is ${withArticle(`${m} ${K}`)} worth the price?`)]);
  const sameHead = singularKey(headWord(K)) === singularKey(headWord(t));
  push('comparison', 'p-vs-regular', K !== t && sameHead ? [`What is the difference between ${withArticle(K)} and ${withArticle(`regular ${t}`)}?`] : F.slice(0, 1).map((x) => `How does ${withArticle(`${x} ${t}`)} compare with ${withArticle(`standard ${t}`)}?`));
  push('discovery', 'p-material', M.map((m) => `Who makes ${countable ? 'a good' : 'good'} ${m} ${K}?`));
  push('discovery', 'p-figure', S ? [`Where can I find ${withArticle(`${S} ${K}`)}?`] : []);
  push('use-case', 'p-good-for', U.map((u) => `Is ${withArticle(K)} good for ${u}?`));
  push('comparison', 'p-feature-vs', F.length >= 2 ? [`Which matters more in ${withArticle(K)}, being ${F[0]} or ${F[1]}?`] : []);
  push('gift', 'p-gift-material', M.slice(0, 1).map((m) => `Would ${withArticle(`${m} ${K}`)} make a nice gift?`));
  push('discovery', 'p-colour', C.map((c) => `Where can I buy ${withArticle(`${c} ${K}`)} online?`));
  // A specific kind ("waterproof yoga backpack") is a prompt of its own, features or not.
  push('discovery', 'p-kind', K !== t ? [`Where can I buy ${withArticle(K)} online?`, `What ${is} the best ${K}?`] : []);
  return f;
}

export function productCandidates(snapshot: StoreSnapshot, ev: PromptEvidence, product: CatalogProduct): string[] {
  return productCandidateList(snapshot, ev, product, 0).map((c) => c.text);
}

export function productCandidateList(snapshot: StoreSnapshot, ev: PromptEvidence, product: CatalogProduct, rotate: number): Candidate[] {
  const knownKinds = new Set([
    ...productTypeCounts(snapshot.products).map((t) => singularKey(t.type)),
    ...ev.categories.map((c) => singularKey(headWord(c.phrase))),
  ].filter(Boolean));
  const type = productTypePhrase(product, knownKinds, ev.categories);
  const tags = cleanTags(product, ev.businessName).filter((t) => !ev.productLines.some((l) => containsBusinessName(t, l)));
  const tagPhrases = type ? tags.map((t) => tagPhrase(t, type)).filter((t): t is string => Boolean(t) && t!.split(' ').length <= 5) : [];
  const phrases = [...new Set([...tagPhrases, ...(type ? [type] : [])])];
  const name = normalizeSpace(product.name);
  const neutralName = name && nameIsNeutral(name, ev.businessName, ev.brandWords) && !ev.productLines.some((l) => containsBusinessName(name, l)) && name.length <= 60 ? name : null;
  // "Ethiopia Yirgacheffe coffee": the name with its one-word type, unless the name already says it.
  let namePhrase = neutralName;
  if (neutralName && type && !type.includes(' ') && isMass(type) && !NON_VARIETY_MASS.test(type)) {
    const nameWords = new Set(singularKey(neutralName).split(' '));
    if (!nameWords.has(singularKey(type))) namePhrase = `${neutralName} ${singularPhrase(type)}`;
  }
  // A name that only repeats a phrase ("Compostable Coffee Pods") adds nothing as a name.
  const distinctName = neutralName && !phrases.some((p) => singularKey(p) === singularKey(neutralName)) ? neutralName : null;
  const vendor = ev.vendors.find((v) => dedupeKey(v) === dedupeKey(product.vendor)) ?? null;
  const price = parsePrice(product.price);
  const budget = price !== null && price > 0 && ev.currency ? formatBudget(priceBand(price), ev.currency) : null;
  const profile = productProfile(snapshot, ev, product, type);
  const uses = profile.uses;
  const notes = tastingNotes(product.description);
  const description = product.description;
  const qualities = ev.qualities.map((q) => q.quality).filter((q) => new RegExp(`\\b${q.replace(/[-\s]/g, '[-\\s]?')}\\b`, 'i').test(`${description} ${tags.join(' ')} ${name}`));
  const main = phrases[0] ?? null;

  const f: Family[] = [];
  const push = (intent: PromptIntent, template: string, texts: string[]) => f.push({ intent, template, texts });
  push('discovery', 'g-buy', phrases.map((p) => `Where can I buy ${p} online?`));
  push('price', 'g-under', budget ? phrases.map((p) => `What ${be(p)} the best ${p} under ${budget}?`) : []);
  push('discovery', 'g-buy-name', namePhrase && distinctName ? [`Where can I buy ${namePhrase} online?`] : []);
  push('use-case', 'g-best-for-use', phrases.flatMap((p) => uses.filter((u) => !singularKey(p).includes(singularKey(u))).map((u) => `What ${be(p)} the best ${p} for ${u}?`)));
  push('discovery', 'g-notes', notes.length && main ? [`Which ${main} ${has(main)} notes of ${joinList(notes)}?`] : []);
  push('use-case', 'g-audience', phrases.flatMap((p) => ev.audiences.slice(0, 2).map((a) => `What ${be(p)} the best ${p} for ${a}?`)));
  push('discovery', 'g-vendor', vendor && type ? [`Where can I buy ${vendor} ${type} online?`, `Which online stores carry ${vendor} ${type}?`] : vendor ? [`Which online stores carry ${vendor} products?`] : []);
  push('discovery', 'g-who-sells', distinctName ? [`Who sells ${namePhrase ?? distinctName}?`, `Which online store has ${distinctName} in stock?`] : []);
  push('discovery', 'g-quality', phrases.flatMap((p) => qualities.filter((q) => !p.toLowerCase().includes(q.toLowerCase())).map((q) => `Where can I buy ${q} ${p}?`)));
  push('discovery', 'g-service', phrases.flatMap((p) => ev.services.slice(0, 2).map((s) => `Which online store sells ${p} with ${s}?`)));
  push('discovery', 'g-high-quality', phrases.map((p) => `Where can I find high-quality ${p}?`));
  push('discovery', 'g-top-rated', phrases.map((p) => `What ${be(p)} the top-rated ${p} right now?`));
  push('comparison', 'g-like-name', budget && distinctName && main ? [`${isPlural(main) ? 'Are there good' : 'Is there good'} ${main} like ${distinctName} under ${budget}?`] : []);
  push('gift', 'g-gift', main && !/gift/i.test(main) ? [isPlural(main) ? `Are ${main} good gifts?` : `Is ${main} a good gift?`] : []);
  push('discovery', 'g-ships', phrases.flatMap((p) => ev.shipsTo.slice(0, 2).map((r) => `Which online stores ship ${p} to ${r}?`)));
  push('use-case', 'g-choose', phrases.map((p) => `How do I choose good ${p}?`));

  // Product-specific candidates (its own kind, features, materials, uses) before the
  // store-wide ones, intents taken in turn from a rotating start so a store's products
  // spread over all five.
  // The product's own name, notes and third-party brand are product-specific too.
  const own = new Set(['g-buy-name', 'g-notes', 'g-vendor', 'g-who-sells']);
  const specific = [...profileFamilies(ev, profile, budget), ...f.filter((x) => own.has(x.template))];
  const byIntent = new Map<PromptIntent, Candidate[]>();
  for (const c of [...roundRobinFamilies(specific), ...roundRobinFamilies(f.filter((x) => !own.has(x.template)))]) {
    const list = byIntent.get(c.intent) ?? [];
    list.push(c);
    byIntent.set(c.intent, list);
  }
  const order: PromptIntent[] = ['discovery', 'use-case', 'price', 'comparison', 'gift'];
  const start = ((rotate % order.length) + order.length) % order.length;
  const rotated = [...order.slice(start), ...order.slice(0, start)].map((i) => byIntent.get(i) ?? []);
  const out: Candidate[] = [];
  const max = Math.max(0, ...rotated.map((l) => l.length));
  for (let i = 0; i < max; i++) for (const l of rotated) if (i < l.length) out.push(l[i]);
  return out;
}

// ---------------------------------------------------------------------------------------
// The generator
// ---------------------------------------------------------------------------------------

/** Names that must not appear in a product's prompts besides the business name and the store's product lines. */
export function productExcludedNames(product: CatalogProduct, businessName: string, brand?: readonly string[]): string[] {
  const out: string[] = [];
  if (product.name.trim() && !nameIsNeutral(product.name, businessName, brand)) out.push(product.name);
  if (product.vendor.trim() && !nameIsNeutral(product.vendor, businessName, brand)) out.push(product.vendor);
  return out;
}

/** Share of a business's prompts one template may write (near-duplicates differing only in a product slot). */
export const TEMPLATE_SHARE = 0.12;

/**
 * The run-wide state of one generation: one `PromptGate` for the business and all its
 * products (uniqueness by identity, figure cap), and per-template counts.
 */
export class OfflineRun {
  readonly gate: PromptGate;
  readonly intents: Record<string, PromptIntent> = {};
  private readonly templates = new Map<string, number>();
  private readonly templateCap: number;
  constructor(readonly ev: PromptEvidence, existing: readonly string[], total: number) {
    this.gate = new PromptGate({ businessName: ev.businessName, existing, excludeNames: ev.productLines, maxPerFigure: figureCap(total) });
    this.templateCap = Math.max(3, Math.ceil(total * TEMPLATE_SHARE));
  }

  take(candidates: Candidate[], limit: number, excludeNames: readonly string[] = []): string[] {
    const out: string[] = [];
    for (const c of candidates) {
      if (out.length >= limit) break;
      if ((this.templates.get(c.template) ?? 0) >= this.templateCap) continue;
      const r = this.gate.check(c.text, excludeNames);
      if ('reason' in r) continue;
      this.gate.accept(r.prompt);
      this.templates.set(c.template, (this.templates.get(c.template) ?? 0) + 1);
      this.intents[r.prompt] = c.intent;
      out.push(r.prompt);
    }
    return out;
  }
}

function requestTotal(request: PromptRequest): number {
  return Math.max(0, request.business?.count ?? 0) + (request.products ?? []).reduce((sum, r) => sum + Math.max(0, r.count), 0);
}

export function offlineBusinessPrompts(snapshot: StoreSnapshot, narrative: SiteNarrative | null | undefined, count: number, existing: string[] = [], evidence?: PromptEvidence): string[] {
  const ev = evidence ?? promptEvidence(snapshot, narrative);
  return new OfflineRun(ev, existing, count).take(businessCandidateList(snapshot, ev), count);
}

export function offlineProductPrompts(snapshot: StoreSnapshot, narrative: SiteNarrative | null | undefined, request: ProductPromptRequest, evidence?: PromptEvidence): string[] {
  const ev = evidence ?? promptEvidence(snapshot, narrative);
  return new OfflineRun(ev, request.existing ?? [], request.count)
    .take(productCandidateList(snapshot, ev, request.product, 0), request.count, productExcludedNames(request.product, ev.businessName, ev.brandWords));
}

/**
 * The whole request, synchronously; pure and deterministic. One run-wide gate: the business
 * prompts first, then each product in order, each unique against everything tracked for
 * the business (`request.tracked`, every entity's `existing`) and everything before it.
 */
export function buildOfflinePrompts(request: PromptRequest): PromptSet {
  const ev = promptEvidence(request.snapshot, request.narrative);
  const existing = [...(request.tracked ?? []), ...(request.business?.existing ?? []), ...(request.products ?? []).flatMap((r) => r.existing ?? [])];
  const run = new OfflineRun(ev, existing, requestTotal(request));
  const business = request.business && request.business.count > 0 ? run.take(businessCandidateList(request.snapshot, ev), request.business.count) : [];
  const products: Record<string, string[]> = {};
  const shortfallProducts: Record<string, number> = {};
  (request.products ?? []).forEach((r, i) => {
    const list = r.count > 0 ? run.take(productCandidateList(request.snapshot, ev, r.product, i), r.count, productExcludedNames(r.product, ev.businessName, ev.brandWords)) : [];
    products[r.product.productId] = list;
    if (list.length < r.count) shortfallProducts[r.product.productId] = r.count - list.length;
  });
  return {
    business,
    products,
    shortfall: { business: Math.max(0, (request.business?.count ?? 0) - business.length), products: shortfallProducts },
    engine: { name: 'offline' },
    intents: run.intents,
  };
}

export function createOfflinePromptGenerator(): PromptGenerator {
  return { name: 'offline', generate: async (request) => buildOfflinePrompts(request) };
}
