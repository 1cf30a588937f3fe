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
import { containsBusinessName, distinctiveTokens, filterPromptsDetailed } from './strategy';
import type { PromptGenerator, PromptRequest, PromptSet, ProductPromptRequest } from './types';

// ---------------------------------------------------------------------------------------
// Noun phrases
// ---------------------------------------------------------------------------------------

/** Uncountable heads: "the best coffee is", "where can I buy brewing gear". */
const MASS_HEAD = /^(coffee|tea|brew|matcha|cocoa|espresso|decaf|wine|beer|cider|sake|whiskey|whisky|gin|rum|vodka|mezcal|tequila|chocolate|honey|candy|jam|granola|gear|equipment|apparel|clothing|jewelry|jewellery|furniture|merchandise|merch|software|luggage|stationery|decor|skincare|haircare|bodycare|makeup|bedding|art|food|produce|yarn|lingerie|fashion|homeware|swag|firewood|coffeeware|teaware|\w+ware|\w+wear)$/i;

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
    if (!usableLabel(raw, businessName)) continue;
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
    vendors,
    currency: detectCurrency(snapshot),
  };
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
  return `${t} ${typePhrase}`; // "single origin coffee"
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

export function businessCandidates(snapshot: StoreSnapshot, ev: PromptEvidence): string[] {
  const cats = ev.categories.map((c) => c.phrase);
  const ind = ev.industry;
  const f: string[][] = [];
  const push = (family: string[]) => f.push(family);

  // Who it is for.
  push(cats.flatMap((c) => ev.audiences.map((a) => `What ${be(c)} the best ${c} for ${a}?`)));
  // Where to buy.
  push(cats.map((c) => `Where can I buy ${c} online?`));
  push(cats.map((c) => `What are the best online stores for ${c}?`));
  // Price, from the category's own median price.
  if (ev.currency) {
    push(ev.categories.flatMap((c) => {
      const m = median(productsOf(snapshot, c).map((p) => parsePrice(p.price)).filter((v): v is number => v !== null));
      return m === null ? [] : [`What ${be(c.phrase)} the best ${c.phrase} under ${formatBudget(priceBand(m), ev.currency!)}?`];
    }));
  }
  // Tag-qualified products: "single origin coffee".
  const tagPhrases = storeTagPhrases(snapshot, ev.businessName);
  push(tagPhrases.map((t) => `Where can I buy ${t} online?`));
  // Services the store states.
  push(ev.services.flatMap((s) => cats.slice(0, 4).map((c) => `Which online stores sell ${c} with ${s}?`)));
  push(ind ? ev.services.map((s) => `Which ${ind} brands offer ${s}?`) : []);
  // Qualities the store claims, with the categories it claims them for.
  push(ev.qualities.flatMap((q) => q.categories.map((c) => `Where can I buy ${q.quality} ${c} online?`)));
  push(ind ? ev.qualities.map((q) => `Which ${ind} brands are ${q.quality}?`) : []);
  push(tagPhrases.map((t) => `What ${be(t)} the best ${t}?`));
  push(cats.map((c) => `Which online shops sell high-quality ${c}?`));
  // Industry-level.
  if (ind) {
    const industryPrompts = [
      `What are the best ${ind} brands to buy from online?`,
      `Which ${ind} shops have the best reviews?`,
      ...ev.audiences.map((a) => `Which ${ind} brands are best for ${a}?`),
      ...ev.places.map((p) => `What are the best ${ind} shops in ${p}?`),
      ...ev.shipsTo.map((r) => `Which ${ind} shops ship to ${r}?`),
      ...(ev.subscriptions ? [`What is the best ${ind} subscription?`] : []),
      ...(ev.gifts ? [`What are good ${ind} gifts?`] : []),
    ];
    push(industryPrompts);
  }
  push(ev.places.flatMap((p) => ev.placeCategories.map((c) => `Where can I buy ${c} from ${p}?`)));
  push(ev.subscriptionCategories.map((c) => `What is the best ${singularPhrase(c)} subscription?`));
  push(ev.gifts ? ev.audiences.map((a) => `What are good gift ideas for ${a}?`) : []);
  push(tagPhrases.map((t) => `Which online store has the best selection of ${t}?`));
  push(ev.vendors.flatMap((v) => [`Which online stores carry ${v} products?`, `Where can I buy ${v} online?`]));
  push(ev.shipsTo.flatMap((r) => cats.slice(0, 3).map((c) => `Which online stores ship ${c} to ${r}?`)));
  push(tagPhrases.flatMap((t) => ev.audiences.slice(0, 2).map((a) => `What ${be(t)} the best ${t} for ${a}?`)));
  push(cats.map((c) => `Where can I find affordable ${c} online?`));
  push(cats.map((c) => `What should I look for when buying ${c} online?`));
  // Pairs: stores that carry both.
  const pairs: string[] = [];
  for (let i = 0; i < cats.length && pairs.length < 6; i++) for (let j = i + 1; j < cats.length && pairs.length < 6; j++) {
    if (singularKey(cats[i]).includes(singularKey(cats[j])) || singularKey(cats[j]).includes(singularKey(cats[i]))) continue;
    pairs.push(`Which online store sells both ${cats[i]} and ${cats[j]}?`);
  }
  push(pairs);
  return roundRobin(f);
}

// ---------------------------------------------------------------------------------------
// Product prompts
// ---------------------------------------------------------------------------------------

/** "Built for milk drinks and straight shots alike." → ["milk drinks", "straight shots"]. */
export function useCases(description: string): string[] {
  const out: string[] = [];
  for (const s of splitSentences(description)) {
    for (const m of s.matchAll(/\b(?:perfect|ideal|great|built|made|designed|suited|best|good|brewed|roasted|crafted|meant)\s+for\s+([^.;:!?()]{3,80})/gi)) {
      // Split on "and"/"or" only: "clean, bright cups" is one use, "travel and camping" two.
      for (const part of m[1].split(/\band\b|\bor\b/i)) {
        const p = normalizeSpace(normalizeSpace(part).toLowerCase().replace(/\b(alike|too|as well|every day)\b/g, '').replace(/[^\p{L}\p{N}, -]/gu, '')).replace(/^,|,$/g, '').trim();
        const first = p.split(' ')[0];
        if (!p || p.split(' ').length > 4 || p.length < 3) continue;
        if (/^(you|your|yours|those|anyone|everyone|us|our|a|an|the|it|its|this|that|all|any|every|up|over|under|\d)/.test(first)) continue;
        if (!out.includes(p)) out.push(p);
      }
    }
  }
  return out.slice(0, 3);
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
export function nameIsNeutral(productName: string, businessName: string): boolean {
  if (containsBusinessName(productName, businessName)) return false;
  const tokens = new Set(distinctiveTokens(businessName));
  return !distinctiveTokens(productName).some((t) => tokens.has(t));
}

export function productCandidates(snapshot: StoreSnapshot, ev: PromptEvidence, product: CatalogProduct): string[] {
  const knownKinds = new Set([
    ...productTypeCounts(snapshot.products).map((t) => singularKey(t.type)),
    ...ev.categories.map((c) => singularKey(headWord(c.phrase))),
  ].filter(Boolean));
  const type = productTypePhrase(product, knownKinds, ev.categories);
  const tags = cleanTags(product, ev.businessName);
  const tagPhrases = type ? tags.map((t) => tagPhrase(t, type)).filter((t): t is string => Boolean(t) && t!.split(' ').length <= 5) : [];
  const phrases = [...new Set([...tagPhrases, ...(type ? [type] : [])])];
  const name = normalizeSpace(product.name);
  const neutralName = name && nameIsNeutral(name, ev.businessName) && name.length <= 60 ? name : null;
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
  const uses = useCases(product.description);
  const notes = tastingNotes(product.description);
  const description = product.description;
  const qualities = ev.qualities.map((q) => q.quality).filter((q) => new RegExp(`\\b${q.replace(/[-\s]/g, '[-\\s]?')}\\b`, 'i').test(`${description} ${tags.join(' ')} ${name}`));
  const main = phrases[0] ?? null;

  const f: string[][] = [];
  f.push(phrases.map((p) => `Where can I buy ${p} online?`));
  f.push(budget ? phrases.map((p) => `What ${be(p)} the best ${p} under ${budget}?`) : []);
  f.push(namePhrase && distinctName ? [`Where can I buy ${namePhrase} online?`] : []);
  f.push(phrases.flatMap((p) => uses.filter((u) => !singularKey(p).includes(singularKey(u))).map((u) => `What ${be(p)} the best ${p} for ${u}?`)));
  f.push(notes.length && main ? [`Which ${main} ${has(main)} notes of ${joinList(notes)}?`] : []);
  f.push(phrases.flatMap((p) => ev.audiences.slice(0, 2).map((a) => `What ${be(p)} the best ${p} for ${a}?`)));
  f.push(vendor && type ? [`Where can I buy ${vendor} ${type} online?`, `Which online stores carry ${vendor} ${type}?`] : vendor ? [`Which online stores carry ${vendor} products?`] : []);
  f.push(distinctName ? [`Who sells ${namePhrase ?? distinctName}?`, `Which online store has ${distinctName} in stock?`] : []);
  f.push(phrases.flatMap((p) => qualities.filter((q) => !p.toLowerCase().includes(q.toLowerCase())).map((q) => `Where can I buy ${q} ${p}?`)));
  f.push(phrases.flatMap((p) => ev.services.slice(0, 2).map((s) => `Which online store sells ${p} with ${s}?`)));
  f.push(phrases.map((p) => `Where can I find high-quality ${p}?`));
  f.push(phrases.map((p) => `What ${be(p)} the top-rated ${p} right now?`));
  f.push(budget && distinctName && main ? [`${isPlural(main) ? 'Are there good' : 'Is there good'} ${main} like ${distinctName} under ${budget}?`] : []);
  f.push(ev.gifts && main ? [isPlural(main) ? `Are ${main} good gifts?` : `Is ${main} a good gift?`] : []);
  f.push(phrases.flatMap((p) => ev.shipsTo.slice(0, 2).map((r) => `Which online stores ship ${p} to ${r}?`)));
  f.push(phrases.map((p) => `How do I choose good ${p}?`));
  return roundRobin(f);
}

// ---------------------------------------------------------------------------------------
// The generator
// ---------------------------------------------------------------------------------------

/** Names that must not appear in a product's prompts besides the business name. */
export function productExcludedNames(product: CatalogProduct, businessName: string): string[] {
  const out: string[] = [];
  if (product.name.trim() && !nameIsNeutral(product.name, businessName)) out.push(product.name);
  if (product.vendor.trim() && !nameIsNeutral(product.vendor, businessName)) out.push(product.vendor);
  return out;
}

export function offlineBusinessPrompts(snapshot: StoreSnapshot, narrative: SiteNarrative | null | undefined, count: number, existing: string[] = [], evidence?: PromptEvidence): string[] {
  const ev = evidence ?? promptEvidence(snapshot, narrative);
  return filterPromptsDetailed(businessCandidates(snapshot, ev), { businessName: ev.businessName, existing, limit: count }).accepted;
}

export function offlineProductPrompts(snapshot: StoreSnapshot, narrative: SiteNarrative | null | undefined, request: ProductPromptRequest, evidence?: PromptEvidence): string[] {
  const ev = evidence ?? promptEvidence(snapshot, narrative);
  return filterPromptsDetailed(productCandidates(snapshot, ev, request.product), {
    businessName: ev.businessName,
    existing: request.existing ?? [],
    limit: request.count,
    excludeNames: productExcludedNames(request.product, ev.businessName),
  }).accepted;
}

/** The whole request, synchronously; pure and deterministic. */
export function buildOfflinePrompts(request: PromptRequest): PromptSet {
  const ev = promptEvidence(request.snapshot, request.narrative);
  const business = request.business && request.business.count > 0
    ? offlineBusinessPrompts(request.snapshot, request.narrative, request.business.count, request.business.existing ?? [], ev)
    : [];
  const products: Record<string, string[]> = {};
  const shortfallProducts: Record<string, number> = {};
  for (const r of request.products ?? []) {
    const list = r.count > 0 ? offlineProductPrompts(request.snapshot, request.narrative, r, ev) : [];
    products[r.product.productId] = list;
    if (list.length < r.count) shortfallProducts[r.product.productId] = r.count - list.length;
  }
  return {
    business,
    products,
    shortfall: { business: Math.max(0, (request.business?.count ?? 0) - business.length), products: shortfallProducts },
    engine: { name: 'offline' },
  };
}

export function createOfflinePromptGenerator(): PromptGenerator {
  return { name: 'offline', generate: async (request) => buildOfflinePrompts(request) };
}
