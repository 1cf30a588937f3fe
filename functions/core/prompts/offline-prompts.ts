/**
 * The offline prompt generator: deterministic, no network. Prompts are built from the
 * store's OWN evidence (collections and product types, tags, vendors, prices, the
 * audience and facts its pages state, the narrative when one exists), so two stores get
 * different prompts. Every template only fires when its evidence exists; when the evidence
 * runs out, fewer prompts come back and the shortfall is reported (never filler).
 *
 * Candidates are drawn round-robin from template families (one of each family in turn),
 * so the first N of a list are varied, and all go through one run-wide `PromptGate` (no
 * business name or product line, unique by identity within the business, well-formed,
 * figure cap) and a per-template cap (`TEMPLATE_SHARE`).
 *
 * Product prompts are product-specific first: the product's kind (its name's ordinary
 * words after its last proper name), selling points, materials, stated uses, origin,
 * tasting notes and size options, and its own name where `nameIsNeutral` allows (asked in
 * every intent, and compared by name with a product of the same kind). A product takes its
 * prompts spread over the five intents (`OfflineRun.takeSpread`): the run's rarest intent
 * first, so a catalogue whose evidence allows it gets comparison, use-case and gift prompts
 * in real shares. Catalogue-wide figures (ordinary words, peers, peer materials) are computed
 * once per snapshot (`CatalogueIndex`): linear in the catalogue, ~5 s for 5,000 products.
 */
import type { CatalogProduct, SiteNarrative, StoreSnapshot } from '../site/types';
import { categoriesOf, parsePrice, productTypeCounts, vendorCounts } from '../generate/catalog';
import { extractAudience, extractKeyFacts, pageSentences, storeName } from '../generate/evidence';
import { inferIndustry } from '../generate/industry';
import { lowerLabel } from '../generate/text';
import { featuresOf, headWord, isBroadKind, isMass, isPlural, kindFromName, materialsOf, pluralPhrase } from './product-words';
import { dedupeKey, joinList, normalizeSpace, singularKey, splitSentences, wordText } from '../generate/text';
import { brandWords, detectProductLines } from './product-lines';
import { PROMPT_INTENTS, type PromptIntent } from './prompt-quality';
import { figureCap, PromptGate } from './strategy';
import { containsBusinessName, distinctiveTokens } from '../text/name-match';
import { COLOUR_WORDS } from '../text/colours';
import type { PromptGenerator, PromptRequest, PromptSet, ProductPromptRequest } from './types';

// ---------------------------------------------------------------------------------------
// Noun phrases
// ---------------------------------------------------------------------------------------

/** Tags that read as a noun after the type: "coffee blend", "tea sampler". */
const NOUN_TAGS = /^(blend|set|kit|bundle|sampler|subscription|gift set|pods|capsules|refill|starter kit)$/i;

/** Merchandising collections and tags: not a category or a product quality. */
const MERCH_LABEL = /^(sale|on sale|new|new arrivals?|new in|just in|best ?sellers?|bestsellers?|featured|all|shop all|all products|clearance|gift cards?|bundles?|frontpage|home|home page|last chance|trending|popular|specials?|deals?|outlet|discount(ed)?|limited( edition)?|seasonal|restock(ed)?|in stock|out of stock|preorder|pre-order|exclusive|hot|top|default|misc|other|uncategori[sz]ed|test|hidden|merch|merchandise|swag|logo|branded)$/i;

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

/** Country names (lower case): places a catalogue's tags often name ("colombia", "costa-rica"). */
const COUNTRIES = new Set((
  'afghanistan albania algeria andorra angola argentina armenia australia austria azerbaijan bahamas bahrain bangladesh barbados belarus belgium belize ' +
  'benin bhutan bolivia bosnia botswana brazil brunei bulgaria burundi cambodia cameroon canada chad chile china colombia comoros congo croatia cuba ' +
  'cyprus czechia denmark djibouti dominica ecuador egypt eritrea estonia eswatini ethiopia fiji finland france gabon gambia georgia germany ghana ' +
  'greece grenada guatemala guinea guyana haiti honduras hungary iceland india indonesia iran iraq ireland israel italy jamaica japan jordan ' +
  'kazakhstan kenya kiribati kosovo kuwait kyrgyzstan laos latvia lebanon lesotho liberia libya liechtenstein lithuania luxembourg madagascar malawi ' +
  'malaysia maldives mali malta mauritania mauritius mexico micronesia moldova monaco mongolia montenegro morocco mozambique myanmar namibia nauru nepal ' +
  'netherlands nicaragua niger nigeria norway oman pakistan palau panama paraguay peru philippines poland portugal qatar romania russia rwanda samoa ' +
  'senegal serbia seychelles singapore slovakia slovenia somalia spain sudan suriname sweden switzerland syria taiwan tajikistan tanzania thailand ' +
  'togo tonga tunisia turkey turkmenistan tuvalu uganda ukraine uruguay uzbekistan vanuatu venezuela vietnam yemen zambia zimbabwe scotland wales england ' +
  'costa rica el salvador sri lanka south africa new zealand papua new guinea puerto rico hawaii sumatra java sulawesi timor'
).split(' '));

/**
 * How the store writes its words: the ones its descriptions only ever capitalise are names
 * ("Colombia", "Huila"), and the handles of its collections are merchandising labels.
 */
interface TagContext {
  handles: Set<string>;
  proper: (word: string) => boolean;
}

const tagContextCache = new WeakMap<StoreSnapshot, TagContext>();
function tagContext(snapshot: StoreSnapshot): TagContext {
  let ctx = tagContextCache.get(snapshot);
  if (!ctx) {
    const upper = new Set<string>();
    const lower = new Set<string>();
    for (const p of snapshot.products) {
      for (const sentence of p.description.split(/[.!?:;\n•]+/)) {
        sentence.split(/[^\p{L}]+/u).filter(Boolean).forEach((w, i) => {
          if (/^\p{Ll}+$/u.test(w)) lower.add(w);
          else if (i > 0 && /^\p{Lu}\p{Ll}+$/u.test(w)) upper.add(w.toLowerCase()); // a sentence's first word says nothing
        });
      }
    }
    ctx = {
      handles: new Set(snapshot.collections.flatMap((c) => [dedupeKey(c.handle), dedupeKey(c.title)])),
      proper: (word) => COUNTRIES.has(word.toLowerCase()) || (upper.has(word.toLowerCase()) && !lower.has(word.toLowerCase())),
    };
    tagContextCache.set(snapshot, ctx);
  }
  return ctx;
}

function tagPhrase(tag: string, typePhrase: string, ctx?: TagContext, nameHead?: string): string | null {
  const t = label(tag);
  if (!typePhrase) return null;
  // The noun the product's own name ends on ("kettle" of "... Gooseneck Kettle"): the kind itself, "kettles".
  if (nameHead && singularKey(t) === nameHead && !ADJECTIVE_END.test(t)) return pluralPhrase(t.replace(/-/g, ' '));
  // "made-in-maine": where a product is made is its origin, not a kind of product.
  if (/\b(made|sewn|grown|roasted|printed)[- ]in\b/i.test(t)) return null;
  const words = t.split(/[\s-]+/).filter(Boolean);
  // A place or a name the store always capitalises ("colombia", "costa-rica"): "coffee from Colombia".
  if (ctx && words.length <= 3 && words.every((w) => ctx.proper(w))) {
    return `${typePhrase} from ${words.map((w) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase()).join(' ')}`;
  }
  const typeWords = new Set(singularKey(typePhrase).split(' '));
  const tagWords = singularKey(t).split(' ');
  if (tagWords.every((w) => typeWords.has(w))) return null; // "brewing" of "brewing gear"
  const head = singularKey(headWord(typePhrase));
  if (tagWords.includes(head)) return pluralPhrase(t); // "green tea" of "tea", "burr grinders" of "grinders"
  if (NOUN_TAGS.test(t)) return pluralPhrase(`${singularPhrase(typePhrase)} ${t}`); // "coffee blends"
  // "filters", "drip-bags", "milk-drinks": a plural noun of its own (another kind, or a use), never a qualifier.
  if (isPlural(t.replace(/-/g, ' ')) && !/ing$/.test(headWord(t))) return null;
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

function cleanTags(product: CatalogProduct, businessName: string, ctx?: TagContext): string[] {
  const out: string[] = [];
  for (const raw of product.tags) {
    const t = normalizeSpace(raw);
    if (!usableLabel(t, businessName, 3)) continue;
    if (dedupeKey(t) === dedupeKey(product.vendor)) continue;
    // A tag naming a collection ("roasters-archive") files the product; it says nothing about it.
    if (ctx?.handles.has(dedupeKey(t))) continue;
    // "gift" says who might buy it, not what it is ("gift merchandise").
    if (/^gifts?$/i.test(t)) continue;
    if (!out.some((x) => dedupeKey(x) === dedupeKey(t))) out.push(t);
  }
  return out;
}

/** Tag-qualified phrases of the whole store ("single origin coffee"), most used first. */
function storeTagPhrases(snapshot: StoreSnapshot, businessName: string): string[] {
  const counts = new Map<string, { phrase: string; count: number; first: number }>();
  const ctx = tagContext(snapshot);
  snapshot.products.forEach((p, i) => {
    const type = p.productType.trim() ? pluralPhrase(label(p.productType)) : '';
    for (const tag of cleanTags(p, businessName, ctx)) {
      const phrase = tagPhrase(tag, type, ctx);
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
  /** Names the prompt may say although the run excludes their words: the product's own full name, a sibling's (D213). */
  names?: string[];
}

type Family = { intent: PromptIntent; template: string; texts: string[]; names?: string[] };

/** One candidate from each family in turn (see `roundRobin`), tagged. */
function roundRobinFamilies(families: Family[]): Candidate[] {
  const out: Candidate[] = [];
  const max = Math.max(0, ...families.map((f) => f.texts.length));
  for (let i = 0; i < max; i++) for (const f of families) if (i < f.texts.length) out.push({ text: f.texts[i], intent: f.intent, template: f.template, ...(f.names ? { names: f.names } : {}) });
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
const NOT_A_USE_START = /^(you|your|yours|those|anyone|everyone|us|our|a|an|the|it|its|this|that|all|any|every|up|over|under|for|to|of|with|by|in|on|at|from|and|or|as|added|providing|when|while|where|which|who|one|two|three|four|about|around|\d)$/;

/** "made for", "ideal for", "roasted light for": the words that introduce what a product is for. */
const USE_INTRO = /\b(?:(?:perfect|ideal|great|built|made|designed|suited|best|good|brewed|roasted|crafted|meant|blended|ground)(?:\s+(?:light|medium|dark|medium-dark|medium-light))?\s+for|(?:works|good|great|best) as)\s+([^.;:!?()]{3,})/gi;

/**
 * "Built for milk drinks and straight shots alike." → ["milk drinks", "straight shots"].
 * A use is a whole clause of the description (never cut mid-phrase to fit): the words
 * after "ideal/perfect/made/roasted light/... for" up to the end of their clause, split on
 * and/or, kept only when 1-4 words.
 */
export function useCases(description: string, heads: readonly string[] = []): string[] {
  const out: string[] = [];
  // "... green coffee for home roasters", "a valve bag for cafés": the product's own noun + "for".
  const headRe = heads.length
    ? new RegExp(`\\b(?:${heads.map((h) => h.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})(?:e?s)?\\s+for\\s+([^.;:!?()]{3,})`, 'gi')
    : null;
  for (const s of splitSentences(description)) {
    for (const m of [...s.matchAll(USE_INTRO), ...(headRe ? s.matchAll(headRe) : [])]) {
      // The clause ends at a comma followed by a new clause, or a linking word: never a cut.
      const parts = m[1].split(/\s+(?:providing|giving|helping|so|because|while|when|where|which|who|that|with|without|to help|and beyond)\b|,\s+(?=\w+ing\b|\w+ed\b|and\b|but\b|so\b|which\b)|\s+(?:at|in|on|per|after|before|from)\s+(?=\d)/i);
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
        // "14 to 18 hours", "1 to 4 cups": quantities, not uses ("v60 brewing" is one).
        if (/\d+\s*(?:to|-|–)\s*\d|\b\d+(?:[.,]\d+)?\s?(?:hours?|mins?|minutes?|seconds?|days?|weeks?|cups?|people|persons?|g|kg|ml|l|oz|lb|lbs|cm|mm|in)\b/.test(p)) continue;
        if (!out.includes(p)) out.push(p);
      }
    }
  }
  return out.slice(0, 3);
}

/** "notes of jasmine, bergamot and lemon" or "Tasting notes: jasmine, bergamot and lemon" → ["jasmine", "bergamot"]. */
export function tastingNotes(description: string): string[] {
  const m = /\b(?:notes? of|tasting notes?:|flavou?r notes?:)\s*([^.;:!?()]{3,120})/i.exec(description);
  if (!m) return [];
  return m[1]
    .split(/,|\band\b|&/i)
    .map((x) => normalizeSpace(x).toLowerCase().replace(/[^\p{L} -]/gu, '').trim())
    .filter((x) => x && x.split(' ').length <= 3)
    .slice(0, 2);
}

const PLACE_WORD = "\\p{Lu}\\p{Ll}[\\p{L}'’-]*";
const ORIGIN_RE = new RegExp(
  `\\b(?:${['from', 'grown in', 'made in', 'sewn in', 'woven in', 'crafted in', 'produced in', 'wheel-thrown in', 'thrown in', 'distilled in', 'harvested in'].map((w) => `[${w[0]}${w[0].toUpperCase()}]${w.slice(1)}`).join('|')})\\s+(${PLACE_WORD}(?:\\s(?:${PLACE_WORD}|de|del|la|el|do|da))*(?:,\\s${PLACE_WORD}(?:\\s${PLACE_WORD})*)?)`,
  'u',
);
const NOT_ORIGIN = /^(the|our|my|your|a|an|this|that|these|those|every|each|monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|august|september|october|november|december)$/i;

/**
 * Where a product comes from, as its description says it: "from Huila, Colombia",
 * "Sewn in Lewiston, Maine" → "Huila, Colombia", "Lewiston, Maine". Place names only
 * (capitalised words); null when the description names none.
 */
export function originOf(description: string): string | null {
  const m = ORIGIN_RE.exec(description);
  if (!m) return null;
  const place = normalizeSpace(m[1]).replace(/[’']s$/, '');
  if (NOT_ORIGIN.test(place.split(' ')[0]) || place.split(/\s+/).length > 5) return null;
  return place;
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
  /** Where the description says the product comes from ("Huila, Colombia"), null when it says nowhere. */
  origin: string | null;
  /** Tasting notes the description states (at most two). */
  notes: string[];
  /** Size options of the variants, smallest first ("12 oz", "2 lb"), when there are at least two. */
  sizes: string[];
}

/** Endings of adjectives ("Natural", "Classic", "Washed"): a name ending on one does not say a kind. */
const ADJECTIVE_END = /(al|ic|ed|ous|ful|ive|less|able|ible)$/i;

function stripNames(name: string, names: readonly string[]): string {
  let out = ` ${name} `;
  for (const n of [...names].sort((x, y) => y.length - x.length)) {
    if (!out.toLowerCase().includes(n.toLowerCase().split(/\s+/)[0] ?? '')) continue;
    const re = new RegExp(`(?<![\\p{L}\\p{N}])${n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+')}(?![\\p{L}\\p{N}])`, 'giu');
    out = out.replace(re, ' ');
  }
  return normalizeSpace(out);
}

/**
 * What the product generator reads over the whole catalogue, computed once per snapshot
 * (the per-product work used to rescan every product: quadratic at 5,000 products).
 */
class CatalogueIndex {
  /** Lower-case words the descriptions write (what counts as an ordinary word, not a name). */
  readonly words = new Set<string>();
  readonly knownKinds: Set<string>;
  /** Uses more than half the descriptions state: boilerplate, not a product's own use. */
  readonly boilerplateUses: Set<string>;
  private readonly nameKeys: string[];
  private readonly byKind = new Map<string, CatalogProduct[]>();
  private readonly byType = new Map<string, CatalogProduct[]>();
  private readonly materialCache = new Map<CatalogProduct, string[]>();
  private readonly peerCache = new Map<readonly CatalogProduct[], { materials: Map<string, number>; figures: Map<string, number> }>();

  constructor(readonly snapshot: StoreSnapshot, categories: Category[]) {
    const products = snapshot.products;
    const tags = tagContext(snapshot);
    for (const p of products) {
      for (const w of p.description.split(/[^\p{L}]+/u)) if (w && /^\p{Ll}+$/u.test(w)) this.words.add(w);
      // Tags and types are the store's own vocabulary ("tote", "kettle"), lower case or not.
      for (const w of `${p.tags.join(' ')} ${p.productType}`.toLowerCase().split(/[^\p{L}]+/u)) if (w.length >= 3 && !tags.proper(w)) this.words.add(w);
    }
    this.knownKinds = new Set([
      ...productTypeCounts(products).map((t) => singularKey(t.type)),
      ...categories.map((c) => singularKey(headWord(c.phrase))),
    ].filter(Boolean));
    const counts = new Map<string, number>();
    for (const p of products) for (const u of useCases(p.description)) counts.set(u, (counts.get(u) ?? 0) + 1);
    this.boilerplateUses = new Set(products.length >= 4 ? [...counts].filter(([, c]) => c / products.length >= 0.5).map(([u]) => u) : []);
    this.nameKeys = products.map((p) => ` ${singularKey(p.name)} `);
    for (const p of products) {
      const key = p.productType.trim().toLowerCase();
      const list = this.byType.get(key) ?? [];
      list.push(p);
      this.byType.set(key, list);
    }
  }

  /** A word the store's descriptions write in lower case ("cork", "travel"): not a name. */
  ordinary(word: string): boolean {
    const w = word.toLowerCase();
    return this.words.has(w) || this.words.has(`${w}s`) || this.words.has(`${w}es`);
  }

  materials(p: CatalogProduct): string[] {
    let m = this.materialCache.get(p);
    if (!m) {
      m = materialsOf(`${p.name}. ${p.description}`);
      this.materialCache.set(p, m);
    }
    return m;
  }

  /** Products whose names say this kind ("yoga mat"). */
  ofKind(kindTail: string): CatalogProduct[] {
    let list = this.byKind.get(kindTail);
    if (!list) {
      const needle = ` ${kindTail} `;
      list = this.snapshot.products.filter((_, i) => this.nameKeys[i].includes(needle));
      this.byKind.set(kindTail, list);
    }
    return list;
  }

  ofType(productType: string): CatalogProduct[] {
    return this.byType.get(productType.trim().toLowerCase()) ?? [];
  }

  /** Materials and name figures over a peer group, with how many products state each. */
  peerStats(peers: readonly CatalogProduct[]): { materials: Map<string, number>; figures: Map<string, number> } {
    let s = this.peerCache.get(peers);
    if (!s) {
      s = { materials: new Map(), figures: new Map() };
      for (const p of peers) {
        for (const m of this.materials(p)) s.materials.set(m, (s.materials.get(m) ?? 0) + 1);
        for (const f of new Set([...p.name.matchAll(FIGURE_IN_NAME)].map((x) => x[0].replace(/\s+/g, '').toLowerCase()))) s.figures.set(f, (s.figures.get(f) ?? 0) + 1);
      }
      this.peerCache.set(peers, s);
    }
    return s;
  }
}

const indexCache = new WeakMap<StoreSnapshot, WeakMap<PromptEvidence, CatalogueIndex>>();
function catalogueIndex(snapshot: StoreSnapshot, ev: PromptEvidence): CatalogueIndex {
  let byEv = indexCache.get(snapshot);
  if (!byEv) {
    byEv = new WeakMap();
    indexCache.set(snapshot, byEv);
  }
  let index = byEv.get(ev);
  if (!index) {
    index = new CatalogueIndex(snapshot, ev.categories);
    byEv.set(ev, index);
  }
  return index;
}

export function productProfile(snapshot: StoreSnapshot, ev: PromptEvidence, product: CatalogProduct, typePlural: string): ProductProfile {
  const index = catalogueIndex(snapshot, ev);
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
  // write in lower case) after its last proper name: "Terra Cork Yoga Mat" → "cork yoga
  // mat", "Bright Huila Filter Roast" → "filter roast" (not "bright filter roast": a word
  // before a place or a name belongs to the name), "Meditation Bench" → "meditation bench";
  // proper names drop out ("Ethiopia Guji", "Hario V60 Dripper").
  const typeWords = new Set(singularKey(type).split(' ').filter(Boolean));
  const ordinary = (w: string): boolean => typeWords.has(singularKey(w)) ||
    (w.length >= 3 && /^\p{L}+$/u.test(w) && index.ordinary(w)) ||
    (/^\p{L}+(-\p{L}+)+$/u.test(w) && w.split('-').every((part) => part.length < 3 || index.ordinary(part))); // "pour-over"
  const proper = (w: string) => /^\p{Lu}\p{Ll}{2,}$/u.test(w) && !ordinary(w);
  const coreWords = core.split(' ').filter(Boolean);
  let lastProper = -1;
  coreWords.forEach((w, i) => { if (proper(w)) lastProper = i; });
  const kindWords = coreWords.slice(lastProper + 1).map((w) => label(w)).filter((w) => w && ordinary(w));
  const typeHead = type ? singularKey(headWord(type)) : '';
  // One word is a kind of its own only when it is the name's noun and the store tags products with it ("Market Tote" → "tote").
  const taggedNoun = kindWords.length === 1 && kindWords[0] === label(coreWords[coreWords.length - 1] ?? '') && !ADJECTIVE_END.test(kindWords[0]) &&
    (index.knownKinds.has(singularKey(kindWords[0])) || product.tags.some((t) => singularKey(t) === singularKey(kindWords[0])));
  let kind = type;
  if (kindWords.length && kindWords.length <= 5) {
    const k = kindWords.join(' ');
    if ((typeHead && singularKey(k).split(' ').includes(typeHead)) || kindWords.length >= 2 || taggedNoun) kind = singularPhrase(k);
  }
  if (kind && type && !singularKey(kind).includes(singularKey(type)) && singularKey(kind).split(' ').length < 2 && !taggedNoun) kind = type;
  // Peers: products of the same kind (their names say its last two words, "yoga mat"), else of the same type.
  const kindTail = singularKey(kind).split(' ').slice(-2).join(' ');
  const byKind = kindTail ? index.ofKind(kindTail) : [];
  const sameType = byKind.length > 1 ? byKind : index.ofType(product.productType);
  const stats = index.peerStats(sameType);
  // A figure distinguishes the product when at most a fifth of its peers state it.
  const figure = figures.find((f) => (stats.figures.get(f) ?? 0) <= Math.max(1, Math.floor(sameType.length * 0.2))) ?? null;
  const text = stripNames(`${product.description}`, lines);
  const kindKey = ` ${singularKey(kind)} `;
  const features = featuresOf(text).filter((f) => !kindKey.includes(` ${singularKey(f)} `));
  // A material in the name counts only as part of its kind ("Cork Yoga Block"), never in a
  // proper name ("Copper Huila Filter Roast" is not made of copper).
  const materials = materialsOf(`${kindWords.join(' ')}. ${text}`).filter((m) => !kindKey.includes(` ${singularKey(m)} `));
  // What the description says the product (its own noun) is for: "green coffee for home roasters".
  const nameHead = singularKey(headWord(core));
  const heads = [...new Set([nameHead, singularKey(headWord(kind)), singularKey(headWord(type))].filter((h) => h.length >= 3))];
  // Boilerplate every description repeats ("designed for yogis of every level") is not this product's use.
  const uses = useCases(text, heads).filter((u) => !index.boilerplateUses.has(u) && !kindKey.includes(` ${singularKey(u)} `) && !containsBusinessName(u, ev.businessName));
  const own = new Set(sameType.includes(product) ? index.materials(product) : []);
  // Compared only with products of the same kind: a steel mug is not compared with a canvas tote.
  const comparable = byKind.length > 1 || kind === type;
  const peerMaterials = [...(comparable ? stats.materials : [])]
    .filter(([m, c]) => c - (own.has(m) ? 1 : 0) > 0)
    .map(([m]) => m)
    .filter((m) => !materials.includes(m) && !kindKey.includes(` ${singularKey(m)} `) && !materials.some((o) => o.includes(m) || m.includes(o)));
  const variantColours = (product.variants ?? []).map((v) => v.title ?? '').concat(suffix).filter((c) => BASIC_COLOURS.test(c.trim()));
  let origin = originOf(text);
  if (origin && (containsBusinessName(origin, ev.businessName) || lines.some((l) => containsBusinessName(origin!, l)))) origin = null;
  const sizes = [...new Set((product.variants ?? []).map((v) => normalizeSpace(v.title ?? '')).filter((t) => /^\d+(?:[.,]\d+)?\s?(?:oz|lb|lbs|g|kg|ml|l|cl)$/i.test(t)))];
  return {
    type, kind, features, materials, peerMaterials, uses, figure,
    colours: [...new Set(variantColours.map((c) => c.trim().toLowerCase()))].slice(0, 2),
    origin,
    notes: tastingNotes(text),
    sizes: sizes.length >= 2 ? sizes : [],
  };
}

/** The names two products may be compared by: the product's own neutral name and its kind. */
interface Named {
  product: CatalogProduct;
  name: string;
  kind: string;
  origin: string | null;
  uses: string[];
}

/**
 * Products of one kind with names that may be said (see `nameIsNeutral`), per run: what a
 * product can be compared with by name. Built once per evidence (all profiles at once).
 */
const namedCache = new WeakMap<PromptEvidence, Map<string, Named[]>>();
function namedByKind(snapshot: StoreSnapshot, ev: PromptEvidence): Map<string, Named[]> {
  let groups = namedCache.get(ev);
  if (groups) return groups;
  groups = new Map();
  for (const p of snapshot.products) {
    const d = describe(snapshot, ev, p);
    if (!d.name || !d.profile.kind) continue;
    const key = peerKey(p, d.profile.kind);
    const list = groups.get(key) ?? [];
    list.push({ product: p, name: d.name, kind: d.profile.kind, origin: d.profile.origin, uses: d.profile.uses });
    groups.set(key, list);
  }
  namedCache.set(ev, groups);
  return groups;
}

/** Products compare by name when they are of one kind and their names end on the same noun ("... Decaf", "... Filter Roast"). */
function peerKey(product: CatalogProduct, kind: string): string {
  const main = normalizeSpace(product.name.split(/\s[-–—|]\s/)[0].replace(FIGURE_IN_NAME, ' '));
  return `${singularKey(kind)}|${singularKey(headWord(main))}`;
}

/** Up to `max` products of the same kind to compare with: others from a different origin first, then any other. */
function comparablePeers(snapshot: StoreSnapshot, ev: PromptEvidence, product: CatalogProduct, kind: string, origin: string | null, max: number): Named[] {
  const group = namedByKind(snapshot, ev).get(peerKey(product, kind)) ?? [];
  const at = group.findIndex((n) => n.product === product);
  if (group.length < 2) return [];
  const out: Named[] = [];
  const fallback: Named[] = [];
  const scan = Math.min(group.length - 1, 96);
  // Start half a group away: neighbours in a catalogue are often near-identical siblings.
  const start = Math.max(1, Math.floor(group.length / 2));
  for (let k = 0; k < scan && out.length < max; k++) {
    const other = group[((at < 0 ? 0 : at) + start + k) % group.length];
    if (other.product === product || dedupeKey(other.name) === dedupeKey(product.name)) continue;
    if (origin && other.origin && dedupeKey(other.origin) !== dedupeKey(origin)) out.push(other);
    else if (fallback.length < max) fallback.push(other);
  }
  return [...out, ...fallback].slice(0, max);
}

interface Described {
  type: string;
  profile: ProductProfile;
  /** The product's name when it may appear in a prompt (neutral, no product line, not too long). */
  name: string | null;
  /**
   * The product's name as a shopper types it to ask about that product (D213), product line
   * and all, when it is sayable, not the business's and not too long: "Boreal Hiking Sock 2".
   */
  fullName: string | null;
}

const describedCache = new WeakMap<PromptEvidence, Map<CatalogProduct, Described>>();
function describe(snapshot: StoreSnapshot, ev: PromptEvidence, product: CatalogProduct): Described {
  let cache = describedCache.get(ev);
  if (!cache) {
    cache = new Map();
    describedCache.set(ev, cache);
  }
  let d = cache.get(product);
  if (!d) {
    const index = catalogueIndex(snapshot, ev);
    const type = productTypePhrase(product, index.knownKinds, ev.categories);
    // The name as a shopper would say it: no pack count in brackets, no catalogue symbols ("#2").
    const name = normalizeSpace(product.name.replace(/\s*\([^)]*\)\s*/g, ' '));
    const sayable = name && !/[#@*|/\\[\]{}<>]/.test(name);
    const neutral = sayable && nameIsNeutral(name, ev.businessName, ev.brandWords) && !ev.productLines.some((l) => containsBusinessName(name, l)) && name.length <= 60 ? name : null;
    // A product line may be said here ("Boreal"), the brand never ("Sukha PRO Yoga Mat" names the store).
    const full = sayable && nameIsNeutral(name, ev.businessName, ev.brandWords) && name.length <= 60 && name.split(' ').length >= 2 ? name : null;
    d = { type, profile: productProfile(snapshot, ev, product, type), name: neutral, fullName: full };
    cache.set(product, d);
  }
  return d;
}

// ---------------------------------------------------------------------------------------
// Siblings: what tells near-identical products apart
// ---------------------------------------------------------------------------------------

/** Option values that say nothing a shopper would ask for. */
const EMPTY_OPTION = /^(default( title)?|regular|standard|one size|os|n\/?a|none|xxs|xs|s|m|l|xl|xxl|xxxl|\d?x{1,3}l|small|medium|large|\d{1,2})$/i;
const COLOUR_OPTION = /colou?r|shade|finish/i;
const SIZE_OPTION = /size|length|capacity|volume|width|weight|fit|cut|style|rating|temperature/i;
/** Figures a title states: "18L", "20 oz", "35°F", "100g", "1P" (a tent's people). */
const TITLE_FIGURE = /(?<![\p{L}\p{N}])(\d+(?:[.,]\d+)?)\s?(mm|cm|m|in|inch|ft|oz|ml|l|kg|g|lb|°\s?[fc]|p)(?![\p{L}\p{N}])/giu;

function figureWords(n: string, unit: string): string {
  const u = unit.replace(/\s+/g, '');
  if (/^p$/i.test(u)) return `${n}-person`;
  if (/^l$/i.test(u)) return `${n}L`;
  if (/^°/.test(u)) return `${n}${u.toUpperCase()}`;
  return /^(oz|lb)$/i.test(u) ? `${n} ${u.toLowerCase()}` : `${n}${u.toLowerCase()}`;
}

/** What tells a product apart from its siblings: see `siblingTraits`. */
export interface SiblingTraits {
  /** The other products of its group (same type and kind, names starting with the same word after the brand). */
  siblings: CatalogProduct[];
  /** The siblings nearest in catalogue order (all of them in a small group). */
  near: CatalogProduct[];
  /** Words that qualify the product's kind, its own first ("red", "men's", "18L", "1-person", "carbon", "16 oz"). */
  qualifiers: string[];
  /** Those of `qualifiers` no sibling has. */
  distinct: string[];
  /** The product's price when no sibling has the same, and where it ranks in the group. */
  price: number | null;
  rank: 'lowest' | 'highest' | null;
  /** Siblings' prices, distinct from the product's. */
  otherPrices: number[];
}

function nameWords(name: string, ev: PromptEvidence): string[] {
  return name.replace(TITLE_FIGURE, ' ').split(/[\s\-–—|/,()]+/)
    .map((w) => w.replace(/^[^\p{L}\p{N}']+|[^\p{L}\p{N}']+$/gu, ''))
    .filter((w) => w && !containsBusinessName(w, ev.businessName) && !ev.brandWords.includes(w.toLowerCase()));
}

/** The qualifiers a product's own title and options state (not yet compared with its siblings). */
function ownQualifiers(snapshot: StoreSnapshot, ev: PromptEvidence, product: CatalogProduct, kind: string): string[] {
  const index = catalogueIndex(snapshot, ev);
  const ctx = tagContext(snapshot);
  const kindWords = new Set(singularKey(kind).split(' '));
  const typeWords = new Set(singularKey(product.productType).split(' '));
  const out: string[] = [];
  const add = (q: string) => {
    const t = normalizeSpace(q);
    if (!t || t.length > 24 || EMPTY_OPTION.test(t) || /\d{3,}(?![\d.,]*\s?(?:g|ml|mm|cm|kg|lb|oz|°|L\b))/.test(t) && !/\d\s?(?:g|ml|mm|L)$/.test(t)) return;
    if (ev.productLines.some((l) => containsBusinessName(t, l)) || containsBusinessName(t, ev.businessName)) return;
    if (singularKey(t).split(' ').every((w) => kindWords.has(w) || typeWords.has(w))) return;
    if (!out.some((o) => singularKey(o) === singularKey(t))) out.push(t);
  };
  const [main, ...suffixes] = product.name.split(/\s[-–—|]\s/);
  // The title's own words after the brand and the product line: the suffix ("- Red", "- Men's"), its figures, its other words.
  for (const suffix of suffixes) {
    const words = nameWords(suffix, ev);
    if (words.length && words.length <= 2) add(words.map((w) => (ctx.proper(w) ? w : w.toLowerCase())).join(' '));
  }
  for (const m of main.matchAll(TITLE_FIGURE)) add(figureWords(m[1], m[2]));
  for (const w of nameWords(main, ev)) {
    if (/^\d+$/.test(w) || w.length < 3) continue;
    const lower = w.toLowerCase();
    if (kindWords.has(singularKey(lower)) || typeWords.has(singularKey(lower))) continue;
    // A plain word (the store writes it in lower case, or never capitalises it mid-sentence): "carbon", "wide".
    if (/^\p{Lu}?\p{Ll}+$/u.test(w) && (index.ordinary(lower) || COLOUR_WORDS.has(lower) || !ctx.proper(w))) add(lower);
    // A place or name the store always capitalises ("Nyamasheke Decaf" of "Ember Nyamasheke Decaf"): kept as written.
    else if (/^\p{Lu}[\p{L}'’-]+$/u.test(w) && ctx.proper(w)) add(w);
  }
  // Option values: colours, sizes, lengths ("Slate", "16 oz", "Long").
  const names = product.optionNames ?? [];
  names.forEach((optionName, j) => {
    const colour = COLOUR_OPTION.test(optionName);
    if (!colour && !SIZE_OPTION.test(optionName)) return;
    for (const v of product.variants ?? []) {
      const value = normalizeSpace(v.options?.[j] ?? '');
      if (!value || value.split(' ').length > 2 || /[/\\#&+]/.test(value)) continue;
      if (colour && !value.split(' ').every((w) => COLOUR_WORDS.has(w.toLowerCase()))) continue;
      add(/^\d/.test(value) ? value.replace(/\s+/g, ' ') : value.toLowerCase());
    }
  });
  return out.slice(0, 8);
}

const siblingCache = new WeakMap<PromptEvidence, Map<string, CatalogProduct[]>>();
const qualifierCache = new WeakMap<PromptEvidence, Map<CatalogProduct, string[]>>();
const traitsCache = new WeakMap<PromptEvidence, Map<CatalogProduct, SiblingTraits>>();
/** Siblings compared qualifier by qualifier: a bigger group (a whole archive of lots) is compared with its nearest. */
const SIBLING_SCAN = 24;

function qualifiersOf(snapshot: StoreSnapshot, ev: PromptEvidence, product: CatalogProduct): string[] {
  let cache = qualifierCache.get(ev);
  if (!cache) { cache = new Map(); qualifierCache.set(ev, cache); }
  let q = cache.get(product);
  if (!q) {
    const { profile } = describe(snapshot, ev, product);
    const kind = profile.kind || profile.type;
    q = kind ? ownQualifiers(snapshot, ev, product, kind) : [];
    cache.set(product, q);
  }
  return q;
}
function siblingKey(snapshot: StoreSnapshot, product: CatalogProduct, ev: PromptEvidence): string {
  const first = nameWords(product.name.split(/\s[-–—|]\s/)[0], ev)[0] ?? '';
  const { profile } = describe(snapshot, ev, product);
  return `${product.productType.trim().toLowerCase()}|${first.toLowerCase()}|${singularKey(profile.kind || profile.type)}`;
}

/**
 * Siblings are products of one type and kind whose names start with the same word after the
 * brand ("Meadow Headlamp" … "Meadow Headlamp 5", "Trail Tee - Red" / "- Blue"): near-identical
 * products a store sells separately. What tells one apart: its title's own words (the
 * suffix, figures, other plain words), its colour and size option values, and its price.
 */
export function siblingTraits(snapshot: StoreSnapshot, ev: PromptEvidence, product: CatalogProduct): SiblingTraits {
  let cache = traitsCache.get(ev);
  if (!cache) { cache = new Map(); traitsCache.set(ev, cache); }
  let t = cache.get(product);
  if (!t) {
    t = computeSiblingTraits(snapshot, ev, product);
    cache.set(product, t);
  }
  return t;
}

function computeSiblingTraits(snapshot: StoreSnapshot, ev: PromptEvidence, product: CatalogProduct): SiblingTraits {
  let groups = siblingCache.get(ev);
  if (!groups) {
    groups = new Map();
    for (const p of snapshot.products) {
      const key = siblingKey(snapshot, p, ev);
      const list = groups.get(key) ?? [];
      list.push(p);
      groups.set(key, list);
    }
    siblingCache.set(ev, groups);
  }
  const group = groups.get(siblingKey(snapshot, product, ev)) ?? [];
  const siblings = group.filter((p) => p !== product);
  const qualifiers = qualifiersOf(snapshot, ev, product);
  // Nearest siblings in catalogue order: the whole group when it is small.
  const at = group.indexOf(product);
  const near = siblings.length <= SIBLING_SCAN ? siblings : group.slice(Math.max(0, at - SIBLING_SCAN / 2), at + SIBLING_SCAN / 2 + 1).filter((p) => p !== product);
  const theirs = new Set(near.flatMap((p) => qualifiersOf(snapshot, ev, p)).map((q) => singularKey(q)));
  const distinct = qualifiers.filter((q) => !theirs.has(singularKey(q)));
  const price = parsePrice(product.price);
  const otherPrices = near.map((p) => parsePrice(p.price)).filter((v): v is number => v !== null && v !== price);
  const samePrice = near.some((p) => parsePrice(p.price) === price);
  const rank = price === null || samePrice || !otherPrices.length ? null : otherPrices.every((o) => o > price) ? 'lowest' : otherPrices.every((o) => o < price) ? 'highest' : null;
  return { siblings, near, qualifiers: [...distinct, ...qualifiers.filter((q) => !distinct.includes(q))], distinct, price: samePrice ? null : price, rank, otherPrices };
}

/** "$39" → "$40": the round figure a shopper says. */
function aroundPrice(price: number, currency: string): string {
  const step = price < 20 ? 1 : price < 100 ? 5 : price < 500 ? 10 : 50;
  return formatBudget(Math.round(price / step) * step, currency);
}

/**
 * Candidates built on what tells the product apart from its siblings (`siblingTraits`): its
 * qualifiers with its kind in every intent, and its price against theirs. Taken after the
 * product's other candidates, so a product without siblings keeps its usual prompts and a
 * sibling still reaches its count with prompts no sibling can have.
 */
function siblingFamilies(snapshot: StoreSnapshot, ev: PromptEvidence, product: CatalogProduct, profile: ProductProfile, budget: string | null, giftable: boolean, name: string | null): Family[] {
  const K = profile.kind || profile.type;
  if (!K) return [];
  const traits = siblingTraits(snapshot, ev, product);
  const f: Family[] = [];
  const push = (intent: PromptIntent, template: string, texts: string[]) => f.push({ intent, template, texts });
  const is = isPlural(K) ? 'are' : 'is';
  const Q = traits.qualifiers;
  const U = profile.uses;
  const q = (x: string) => `${x} ${K}`;
  push('discovery', 's-buy', Q.map((x) => `Where can I buy ${withArticle(q(x))} online?`));
  push('use-case', 's-best-for-use', Q.flatMap((x) => U.slice(0, 2).map((u) => `What ${is} the best ${q(x)} for ${u}?`)));
  push('price', 's-under', budget ? Q.map((x) => `What ${is} the best ${q(x)} under ${budget}?`) : []);
  push('discovery', 's-best', Q.map((x) => `What ${is} the best ${q(x)}?`));
  push('gift', 's-gift', giftable ? Q.map((x) => `${isPlural(K) ? 'Are' : 'Is'} ${withArticle(q(x))} a good gift?`) : []);
  // Against a sibling's own qualifier: "What is the difference between a men's and a women's down jacket?"
  const theirs = traits.siblings.slice(0, 4).flatMap((p) => siblingTraits(snapshot, ev, p).distinct.slice(0, 1)).filter((x) => !Q.some((o) => singularKey(o) === singularKey(x)));
  push('comparison', 's-vs', Q.slice(0, 2).flatMap((x) => theirs.slice(0, 2).map((y) => `Which ${is} better, ${withArticle(q(x))} or ${withArticle(q(y))}?`)));
  push('discovery', 's-which', Q.map((x) => `Which online stores sell ${isPlural(K) ? q(x) : pluralPhrase(q(x))}?`));
  if (traits.price !== null && ev.currency) {
    const around = aroundPrice(traits.price, ev.currency);
    push('price', 's-around', [`What ${is} a good ${K} for around ${around}?`, ...U.slice(0, 1).map((u) => `What ${is} a good ${K} for ${u} for around ${around}?`)]);
    push('price', 's-rank', traits.rank === 'lowest' ? [`What ${is} the best budget ${K}?`, `What ${is} the cheapest good ${K}?`] : traits.rank === 'highest' ? [`What ${is} the best premium ${K}?`, `${isPlural(K) ? 'Are' : 'Is'} a high-end ${K} worth it?`] : []);
    const cheaper = traits.otherPrices.filter((o) => o < traits.price!).sort((a, b) => a - b)[0];
    push('comparison', 's-price-vs', cheaper !== undefined && !isPlural(K) ? [`Is ${withArticle(K)} at ${around} better than one at ${aroundPrice(cheaper, ev.currency)}?`] : []);
    push('use-case', 's-use-budget', budget ? U.slice(0, 2).map((u) => `What ${is} the best ${K} for ${u} under ${budget}?`) : []);
  }
  // A sibling the shopper can name: "What is the difference between Lakeside Camp Chair and Lakeside Camp Chair 2?"
  if (name) {
    const named = traits.siblings.map((p) => describe(snapshot, ev, p).name).filter((n): n is string => Boolean(n) && dedupeKey(n!) !== dedupeKey(name));
    push('comparison', 's-vs-name', named.slice(0, 2).map((n) => `What is the difference between ${name} and ${n}?`));
  }
  return f;
}

/**
 * Prompts that name the product (D213), taken last: what a shopper asks an assistant about one
 * named product when its generic prompts are its siblings' too ("Boreal Hiking Sock 2" among
 * "Boreal Hiking Sock" ... "5"): its reviews, whether it is worth its price, it against its
 * nearest sibling by price, it for its stated use, its alternatives, where to buy it. Each may
 * say the product's full name, product line and all (and the sibling's), never the business.
 */
function namedFamilies(snapshot: StoreSnapshot, ev: PromptEvidence, product: CatalogProduct, profile: ProductProfile): Family[] {
  const name = describe(snapshot, ev, product).fullName;
  if (!name) return [];
  const the = /^the\s/i.test(name) ? name : `the ${name}`;
  const f: Family[] = [];
  const push = (intent: PromptIntent, template: string, texts: string[], names: string[] = [name]) => f.push({ intent, template, texts, names });
  // Two wordings per intent: on a store of near-identical products nearly every product takes
  // these, and one wording may hold only TEMPLATE_SHARE of the run.
  push('discovery', 'x-reviews', [`What do reviews say about ${the}?`]);
  push('discovery', 'x-opinion', [`What do people think of ${the}?`]);
  const price = parsePrice(product.price);
  push('price', 'x-worth', [price !== null && price > 0 && ev.currency ? `Is ${the} worth ${formatBudget(price, ev.currency)}?` : `Is ${the} worth the money?`]);
  push('price', 'x-value', [`Is ${the} good value for money?`]);
  const nearest = nearestSibling(snapshot, ev, product);
  if (nearest) {
    push('comparison', 'x-vs-sibling', [`Should I buy ${the} or the ${nearest}?`], [name, nearest]);
    push('comparison', 'x-compare-sibling', [`How does ${the} compare with the ${nearest}?`], [name, nearest]);
  }
  push('comparison', 'x-alternatives', [`What are good alternatives to ${the}?`]);
  push('use-case', 'x-for-use', profile.uses.slice(0, 1).map((u) => `Is ${the} good for ${u}?`));
  const kind = profile.kind || profile.type;
  push('use-case', 'x-good-kind', kind && !isPlural(name) ? [`Is ${the} a good ${singularPhrase(kind)}?`] : []);
  push('discovery', 'x-buy', [`Where can I buy ${the} online?`]);
  push('gift', 'x-gift', [`Would ${the} make a good gift?`]);
  push('gift', 'x-gift-for', ev.audiences.slice(0, 1).map((a) => `Is ${the} a good gift for ${a}?`));
  return f;
}

/** Of the siblings nearest in catalogue order, the one whose price is nearest the product's, by its full name. */
function nearestSibling(snapshot: StoreSnapshot, ev: PromptEvidence, product: CatalogProduct): string | null {
  const own = parsePrice(product.price);
  const named = siblingTraits(snapshot, ev, product).near
    .map((p) => ({ name: describe(snapshot, ev, p).fullName, price: parsePrice(p.price) }))
    .filter((x): x is { name: string; price: number | null } => Boolean(x.name) && dedupeKey(x.name!) !== dedupeKey(product.name));
  if (!named.length) return null;
  const distance = (x: { price: number | null }) => (own === null || x.price === null ? Number.MAX_VALUE : Math.abs(x.price - own));
  return named.reduce((best, x) => (distance(x) < distance(best) ? x : best)).name;
}

/**
 * Why a product got `got` of `count` prompts, in words for the onboarding and daily results:
 * the siblings nothing in the catalogue tells it apart from, or the evidence that ran out.
 */
export function productShortfallReason(snapshot: StoreSnapshot, ev: PromptEvidence, product: CatalogProduct, got: number, count: number): string {
  const traits = siblingTraits(snapshot, ev, product);
  const { profile } = describe(snapshot, ev, product);
  const head = `${got} of ${count} prompts`;
  if (!profile.kind && !profile.type) return `${head}: the catalogue says no kind of product for it (no product type, no kind in its name), so no more distinct prompt can be written`;
  const same = traits.siblings;
  if (same.length && !traits.distinct.length && traits.price === null) {
    const names = same.slice(0, 3).map((p) => `"${p.name}"`).join(', ');
    return `${head}: nothing in the catalogue tells it apart from ${names}${same.length > 3 ? ` and ${same.length - 3} more` : ''} ` +
      '(same kind; its title, options and price say nothing theirs do not); every further prompt would repeat one of theirs';
  }
  return `${head}: its kind, selling points, options and price give no further prompt that differs from the business's other prompts`;
}

/** Product-specific candidates by intent, most specific first, from the product's profile. */
function profileFamilies(ev: PromptEvidence, profile: ProductProfile, budget: string | null, giftable: boolean): Family[] {
  const { kind: K, type: T, features: F, materials: M, peerMaterials: P, uses: U, figure: S, colours: C, origin: O } = profile;
  if (!K) return [];
  const t = T || K;
  const is = isPlural(K) ? 'are' : 'is';
  const aud = ev.audiences[0] ?? null;
  const f: Family[] = [];
  const push = (intent: PromptIntent, template: string, texts: string[]) => f.push({ intent, template, texts });
  const ofF = (fn: (x: string, i: number) => string | null) => F.map(fn).filter((x): x is string => Boolean(x));
  const countable = !isMass(K) && !isPlural(K);
  const gift = giftable && !/gift/i.test(K);
  // Each intent leads with a different selling point, so a product's prompts cover several.
  const Fr = (k: number) => (F.length ? [...F.slice(k % F.length), ...F.slice(0, k % F.length)] : []);

  push('discovery', 'p-buy-feature', ofF((x) => `Where can I buy ${withArticle(`${x} ${K}`)} online?`));
  push('use-case', 'p-best-for-use', U.map((u) => `What ${is} the best ${K} for ${u}?`));
  push('price', 'p-under-budget', budget ? [...Fr(2).slice(0, 2).map((x) => `What ${is} the best ${x} ${K} under ${budget}?`), `What ${is} the best ${K} under ${budget}?`] : []);
  push('comparison', 'p-material-vs', countable ? M.slice(0, 2).flatMap((m) => P.slice(0, 2).map((o) => `Is ${withArticle(`${m} ${t}`)} better than ${withArticle(`${o} one`)}?`)) : []);
  push('gift', 'p-gift', !gift ? [] : [
    ...Fr(1).slice(0, 2).map((x) => `Is ${withArticle(`${x} ${K}`)} a good gift${aud ? ` for ${aud}` : ''}?`),
    `Is ${withArticle(K)} a good gift${aud ? ` for ${aud}` : ''}?`,
  ]);
  push('discovery', 'p-origin', O ? [`Where can I buy ${withArticle(K)} from ${O}?`] : []);
  push('discovery', 'p-two-features', F.length >= 2 ? [`Which ${K} ${is} ${F[0]} and ${F[1]}?`, ...(F.length >= 3 ? [`Which ${K} ${is} ${F[1]} and ${F[2]}?`] : [])] : []);
  push('use-case', 'p-feature-for-use', U.flatMap((u) => Fr(3).slice(0, 2).map((x) => `Which ${x} ${K} works well for ${u}?`)));
  push('price', 'p-worth', [...Fr(4).slice(0, 2).map((x) => `Is ${withArticle(`${x} ${K}`)} worth the money?`), ...M.slice(0, 1).map((m) => `Is ${withArticle(`${m} ${K}`)} worth the price?`)]);
  push('price', 'p-origin-budget', O && budget ? [`What ${is} the best ${K} from ${O} under ${budget}?`] : []);
  const sameHead = singularKey(headWord(K)) === singularKey(headWord(t));
  push('comparison', 'p-vs-regular', K !== t && sameHead ? [`What is the difference between ${withArticle(K)} and ${withArticle(`regular ${t}`)}?`] : Fr(5).slice(0, 1).map((x) => `How does ${withArticle(`${x} ${t}`)} compare with ${withArticle(`standard ${t}`)}?`));
  push('use-case', 'p-origin-use', O ? U.slice(0, 1).map((u) => `Is ${withArticle(K)} from ${O} good for ${u}?`) : []);
  push('discovery', 'p-material', M.map((m) => `Who makes ${countable ? 'a good' : 'good'} ${m} ${K}?`));
  push('gift', 'p-gift-origin', gift && O ? [`Is ${withArticle(K)} from ${O} a good gift?`] : []);
  push('discovery', 'p-figure', S ? [`Where can I find ${withArticle(`${S} ${K}`)}?`] : []);
  push('use-case', 'p-good-for', U.map((u) => `Is ${withArticle(K)} good for ${u}?`));
  push('comparison', 'p-feature-vs', F.length >= 2 ? [`Which matters more in ${withArticle(K)}, being ${F[0]} or ${F[1]}?`] : []);
  push('gift', 'p-gift-material', gift ? M.slice(0, 1).map((m) => `Would ${withArticle(`${m} ${K}`)} make a nice gift?`) : []);
  push('gift', 'p-gift-budget', gift && budget && countable ? [`What is a good ${K} gift under ${budget}?`] : []);
  push('discovery', 'p-colour', C.map((c) => `Where can I buy ${withArticle(`${c} ${K}`)} online?`));
  return f;
}

/** A specific kind ("waterproof yoga backpack") is a prompt of its own, features or not: after everything more specific. */
function kindFamily(profile: ProductProfile): Family[] {
  const { kind: K, type: T } = profile;
  if (!K || K === (T || K)) return [];
  return [{ intent: 'discovery', template: 'p-kind', texts: [`Where can I buy ${withArticle(K)} online?`, `What ${isPlural(K) ? 'are' : 'is'} the best ${K}?`] }];
}

/**
 * Candidates that name the product itself (its neutral name): the product-specific
 * question a shopper asks once they have heard of it, in every intent. Each states the
 * product's own evidence where it has some (its use, its peer of the same kind).
 */
function nameFamilies(snapshot: StoreSnapshot, ev: PromptEvidence, product: CatalogProduct, name: string, profile: ProductProfile, giftable: boolean): Family[] {
  const f: Family[] = [];
  const push = (intent: PromptIntent, template: string, texts: string[]) => f.push({ intent, template, texts });
  const U = profile.uses;
  const aud = ev.audiences[0] ?? null;
  const is = isPlural(name) ? 'Are' : 'Is';
  const peers = profile.kind ? comparablePeers(snapshot, ev, product, profile.kind, profile.origin, 2) : [];
  push('comparison', 'n-vs-peer', peers.map((p) => {
    const shared = U.find((u) => p.uses.includes(u));
    return shared ? `Which is better for ${shared}, ${name} or ${p.name}?` : `Should I buy ${name} or ${p.name}?`;
  }));
  push('use-case', 'n-good-for', U.slice(0, 2).map((u) => `${is} ${name} good for ${u}?`));
  push('price', 'n-worth', [`${is} ${name} worth the price?`]);
  push('gift', 'n-gift', giftable ? [`Would ${name} make a good gift${aud ? ` for ${aud}` : ''}?`] : []);
  const [small, big] = [profile.sizes[0], profile.sizes[profile.sizes.length - 1]];
  push('price', 'n-size-value', small && big && small !== big ? [`Is the ${big} size of ${name} better value than the ${small}?`] : []);
  push('comparison', 'n-alternatives', [`What are good alternatives to ${name}?`]);
  push('use-case', 'n-who-for', profile.kind && aud && !isPlural(name) ? [`Is ${name} a good ${singularPhrase(profile.kind)} for ${aud}?`] : []);
  return f;
}

export function productCandidates(snapshot: StoreSnapshot, ev: PromptEvidence, product: CatalogProduct): string[] {
  return productCandidateList(snapshot, ev, product, 0).map((c) => c.text);
}

/** Gift prompts only for products someone could give: priced above a token amount, and not a gift card. */
const GIFT_FLOOR = 10;

/** The candidates in the order a product takes them when nothing is rejected: one of each intent in turn (see `productCandidateGroups`). */
export function productCandidateList(snapshot: StoreSnapshot, ev: PromptEvidence, product: CatalogProduct, rotate: number): Candidate[] {
  const rotated = productCandidateGroups(snapshot, ev, product, rotate);
  const out: Candidate[] = [];
  const max = Math.max(0, ...rotated.map((l) => l.length));
  for (let i = 0; i < max; i++) for (const l of rotated) if (i < l.length) out.push(l[i]);
  return out;
}

/**
 * A product's candidates by intent, each list most specific first, the intents in a
 * rotating order (`rotate`, the product's position) so a store's products start on
 * different intents.
 */
export function productCandidateGroups(snapshot: StoreSnapshot, ev: PromptEvidence, product: CatalogProduct, rotate: number): Candidate[][] {
  const { type, profile, name: neutralName } = describe(snapshot, ev, product);
  const ctx = tagContext(snapshot);
  const tags = cleanTags(product, ev.businessName, ctx).filter((t) => !ev.productLines.some((l) => containsBusinessName(t, l)));
  const nameHead = singularKey(headWord(normalizeSpace(product.name.split(/\s[-–—|]\s/)[0].replace(FIGURE_IN_NAME, ' ').replace(/\([^)]*\)/g, ' '))));
  const tagPhrases = type ? tags.map((t) => tagPhrase(t, type, ctx, nameHead)).filter((t): t is string => Boolean(t) && t!.split(' ').length <= 5) : [];
  const phrases = [...new Set([...tagPhrases, ...(type ? [type] : [])])];
  const name = normalizeSpace(product.name);
  // "Ethiopia Yirgacheffe coffee": the name with its one-word type, unless the name already says it.
  let namePhrase = neutralName;
  // Not after a name that already ends on its own noun ("... Drip Bags", "... Filter Roast").
  if (neutralName && type && !type.includes(' ') && isMass(type) && !isBroadKind(type) && !isPlural(neutralName) && singularKey(profile.kind) === singularKey(singularPhrase(type))) {
    const nameWords = new Set(singularKey(neutralName).split(' '));
    if (!nameWords.has(singularKey(type))) namePhrase = `${neutralName} ${singularPhrase(type)}`;
  }
  // A name that only repeats a phrase ("Compostable Coffee Pods") adds nothing as a name.
  const distinctName = neutralName && !phrases.some((p) => singularKey(p) === singularKey(neutralName)) ? neutralName : null;
  const vendor = ev.vendors.find((v) => dedupeKey(v) === dedupeKey(product.vendor)) ?? null;
  const price = parsePrice(product.price);
  const budget = price !== null && price > 0 && ev.currency ? formatBudget(priceBand(price), ev.currency) : null;
  // Not a gift box or card (already a gift), nor a token-priced refill.
  const giftable = (price === null || price >= GIFT_FLOOR) && !/\bgifts?\b/i.test(`${product.productType} ${name} ${profile.kind}`);
  const giftCard = /gift ?cards?|gift ?certificates?|e-?gift/i.test(`${product.productType} ${name}`);
  const uses = profile.uses;
  const notes = profile.notes;
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
  push('gift', 'g-gift', giftable && main && !/gift/i.test(main) ? [isPlural(main) ? `Are ${main} good gifts?` : `Is ${main} a good gift?`] : []);
  push('gift', 'g-gift-audience', giftable && main && !/gift/i.test(main) ? ev.audiences.slice(0, 2).map((a) => `What ${be(main)} the best ${main} to give ${a}?`) : []);
  push('discovery', 'g-ships', phrases.flatMap((p) => ev.shipsTo.slice(0, 2).map((r) => `Which online stores ship ${p} to ${r}?`)));
  push('use-case', 'g-choose', phrases.map((p) => `How do I choose good ${p}?`));

  // Product-specific candidates (its own kind, features, materials, uses, origin, and its
  // neutral name) before the store-wide ones, intents taken in turn from a rotating start
  // so a store's products spread over all five.
  // The product's own name, notes and third-party brand are product-specific too.
  const own = new Set(['g-buy-name', 'g-notes', 'g-vendor', 'g-who-sells']);
  // A gift card's name is the store's voucher, not a product a shopper looks for by name; what
  // a shopper asks is which store's card to give, in the store's industry.
  if (giftCard) {
    for (let i = f.length - 1; i >= 0; i--) if (f[i].template === 'g-buy-name' || f[i].template === 'g-who-sells' || f[i].template === 'g-like-name') f.splice(i, 1);
    if (ev.industry) {
      push('gift', 'g-gift-card', [`What is the best ${ev.industry} gift card?`, ...ev.audiences.slice(0, 1).map((a) => `What is a good gift card for ${a}?`)]);
      push('discovery', 'g-gift-card-shops', [`Which ${ev.industry} shops sell gift cards?`]);
    }
  }
  // A product whose name says no more than its type ("Ethiopia Guji", a coffee) is the kind its tags say ("single origin coffee").
  const qualifier = tagPhrases.find((p) => !/\sfrom\s/.test(p) && singularKey(p) !== singularKey(type));
  let own_ = profile;
  if (qualifier && (!profile.kind || singularKey(profile.kind) === singularKey(profile.type))) own_ = { ...profile, kind: singularPhrase(qualifier) };
  // Its origin, unless its name already says it ("Ethiopia Guji" from Guji).
  if (own_.origin && neutralName && dedupeKey(own_.origin).split(' ').every((w) => dedupeKey(neutralName).split(' ').includes(w))) own_ = { ...own_, origin: null };
  const specific = [
    ...profileFamilies(ev, own_, budget, giftable),
    ...(distinctName && !giftCard ? nameFamilies(snapshot, ev, product, distinctName, own_, giftable) : []),
    ...f.filter((x) => own.has(x.template)),
    ...kindFamily(own_),
  ];
  // Last: what tells it apart from its siblings (a sibling reaches its count with these).
  const sibling = giftCard ? [] : siblingFamilies(snapshot, ev, product, own_, budget, giftable, distinctName);
  // After everything else: the product by its full name, for when the rest is its siblings' too (D213).
  const named = giftCard ? [] : namedFamilies(snapshot, ev, product, own_);
  const byIntent = new Map<PromptIntent, Candidate[]>();
  for (const c of [...roundRobinFamilies(specific), ...roundRobinFamilies(f.filter((x) => !own.has(x.template))), ...roundRobinFamilies(sibling), ...roundRobinFamilies(named)]) {
    const list = byIntent.get(c.intent) ?? [];
    list.push(c);
    byIntent.set(c.intent, list);
  }
  const order: PromptIntent[] = ['discovery', 'use-case', 'price', 'comparison', 'gift'];
  const start = ((rotate % order.length) + order.length) % order.length;
  return [...order.slice(start), ...order.slice(0, start)].map((i) => byIntent.get(i) ?? []);
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

  /** How many prompts of each intent the run accepted so far. */
  private readonly intentCounts = new Map<PromptIntent, number>();

  /** Accepts one candidate when the gate and the template cap let it through. */
  private tryAccept(c: Candidate, excludeNames: readonly string[]): string | null {
    if ((this.templates.get(c.template) ?? 0) >= this.templateCap) return null;
    const r = this.gate.check(c.text, excludeNames, c.names);
    if ('reason' in r) return null;
    this.gate.accept(r.prompt, c.names);
    this.templates.set(c.template, (this.templates.get(c.template) ?? 0) + 1);
    this.intents[r.prompt] = c.intent;
    this.intentCounts.set(c.intent, (this.intentCounts.get(c.intent) ?? 0) + 1);
    return r.prompt;
  }

  /** Up to `limit` of the candidates, in order. */
  take(candidates: Candidate[], limit: number, excludeNames: readonly string[] = []): string[] {
    const out: string[] = [];
    for (const c of candidates) {
      if (out.length >= limit) break;
      const p = this.tryAccept(c, excludeNames);
      if (p) out.push(p);
    }
    return out;
  }

  /**
   * Up to `limit` from candidates grouped by intent (`groups` in the product's rotated
   * order), spreading the run over the five intents without giving up a product's variety:
   * - first one of each intent, the run's rarest intent first; an intent holding more than
   *   `SPREAD_HIGH` of the run waits, and one under `SPREAD_LOW` may take two (a rare intent
   *   the product has evidence for is not crowded out by the common ones);
   * - then, while the product is short, one at a time from the run's rarest intent, at most
   *   `ceil(limit / 5) + 1` per intent for the product, and past that cap only when no other
   *   intent has a candidate left.
   */
  takeSpread(groups: Candidate[][], limit: number, excludeNames: readonly string[] = []): string[] {
    const out: string[] = [];
    const next = groups.map(() => 0);
    const taken = groups.map(() => 0);
    const perIntent = Math.ceil(limit / PROMPT_INTENTS.length) + 1;
    const count = (i: number) => this.intentCounts.get(groups[i][0]?.intent as PromptIntent) ?? 0;
    const total = () => [...this.intentCounts.values()].reduce((a, b) => a + b, 0);
    const takeFrom = (i: number): boolean => {
      const list = groups[i];
      while (next[i] < list.length) {
        const p = this.tryAccept(list[next[i]++], excludeNames);
        if (p) { out.push(p); taken[i]++; return true; }
      }
      return false;
    };
    const byRarity = () => groups.map((_, i) => i).filter((i) => next[i] < groups[i].length).sort((a, b) => count(a) - count(b) || a - b);
    const known = total() >= SPREAD_MIN_RUN;
    for (const i of byRarity()) {
      if (out.length >= limit) break;
      const share = count(i) / Math.max(1, total());
      if (known && share > SPREAD_HIGH) continue;
      if (takeFrom(i) && known && share < SPREAD_LOW && out.length < limit) takeFrom(i);
    }
    // Then the run's rarest intent, at most `perIntent` of one for the product; when only one
    // intent has candidates left, it may take more (a shortfall is for missing evidence only).
    for (const capped of [true, false]) {
      while (out.length < limit) {
        let took = false;
        for (const i of byRarity()) if ((!capped || taken[i] < perIntent) && takeFrom(i)) { took = true; break; }
        if (!took) break;
      }
    }
    return out;
  }
}

/** See `OfflineRun.takeSpread`: shares of the run above which an intent waits, under which it may take two. */
const SPREAD_HIGH = 0.3;
const SPREAD_LOW = 0.1;
/** Shares mean something once the run holds this many prompts. */
const SPREAD_MIN_RUN = 20;

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
    .takeSpread(productCandidateGroups(snapshot, ev, request.product, 0), request.count, productExcludedNames(request.product, ev.businessName, ev.brandWords));
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
  const shortfallReasons: Record<string, string> = {};
  (request.products ?? []).forEach((r, i) => {
    const list = r.count > 0 ? run.takeSpread(productCandidateGroups(request.snapshot, ev, r.product, i), r.count, productExcludedNames(r.product, ev.businessName, ev.brandWords)) : [];
    products[r.product.productId] = list;
    if (list.length < r.count) {
      shortfallProducts[r.product.productId] = r.count - list.length;
      shortfallReasons[r.product.productId] = productShortfallReason(request.snapshot, ev, r.product, list.length, r.count);
    }
  });
  return {
    business,
    products,
    shortfall: { business: Math.max(0, (request.business?.count ?? 0) - business.length), products: shortfallProducts, ...(Object.keys(shortfallReasons).length ? { reasons: shortfallReasons } : {}) },
    engine: { name: 'offline' },
    intents: run.intents,
  };
}

export function createOfflinePromptGenerator(): PromptGenerator {
  return { name: 'offline', generate: async (request) => buildOfflinePrompts(request) };
}
