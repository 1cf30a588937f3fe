/**
 * The daily visibility report of one business (issue 11 item 6, "from the same checks"):
 * everything beside the spec's score that the day's per-check records (checks.ts) can tell,
 * computed from those records alone so every figure traces back to the answers behind it.
 *
 * PURE: no I/O, no clock, no environment. The caller loads the day's checks, the competitor
 * list, the current catalogue and the hosts, and stores or returns what comes back
 * (snake_case: it is returned by the API as it is).
 *
 * Sections and their rules:
 *
 * - `platforms`: per platform key, the booleans (`checks`, D30: a `null` cell is not a
 *   check), trues, score = round(100 * trues / checks) (score.ts's per-platform rule), the
 *   distinct reasons of its `null` cells, the reported model(s), summed cost units and mean
 *   latency of its answers. Status: `checked` (a boolean for every sampled prompt),
 *   `partial` (some), else the kind of its failures when they all agree (`unconfigured`,
 *   `failed`, `budget`, `no_answer`), `failed` when they differ, `not_run` without records.
 * - `totals`: checks planned (distinct prompts × 8), booleans, trues, the raw score
 *   (percent, one decimal) and its 95% Wilson interval (null without a boolean), platforms
 *   that produced at least one boolean, and the judge's record (answers it evaluated,
 *   matcher disagreements = `matcher_agrees === false`, judge errors).
 * - `share_of_voice`: over the answers (status `checked` with an answer and a verdict). A
 *   brand is mentioned in an answer when the verdict says so (`mentioned` for the entity,
 *   `competitors_mentioned` for a known competitor, compared case-insensitively with the
 *   competitor list). share = mentions / (entity + known competitors' mentions) × 100, one
 *   decimal (null when nobody was mentioned). Brands the judge named that are not on the
 *   competitor list are listed apart (`other_brands`) and are not in the share: the share
 *   then compares the same set of brands whether the judge or the matcher decided.
 *   First position: among the brands the verdict says an answer names, the one written
 *   earliest in the text (entity: its name, aliases or one of its products; competitor:
 *   its name or domain); a brand named but not found in the text (an entity known only
 *   by a citation) comes after those found; ties go to the entity, then to the verdict's
 *   order of competitors.
 * - `products`: every product with prompts in the sample, and every catalogue product that
 *   was cited or retrieved. `checks`/`trues`/`score` over its prompts' booleans;
 *   `citation_count` = cited URLs of the day that point at it (each answer's citations
 *   counted once per answer, an answer citing the store page and the llms file counts 2);
 *   `retrieved_count` = the same over the retrieved URLs (search results the answer saw and
 *   did not cite), never added to `citation_count`. A URL points at a product when:
 *   - on a store host (or a subdomain), outside the AI site's routed paths (`/ai`,
 *     `/llms`: the customer domain serves them, D28): its path, with query, fragment,
 *     trailing slash, letter case, a locale prefix (`/en`, `/en-gb`) and a collection
 *     prefix (`/collections/<c>/products/<h>` is the same page) removed, equals the
 *     product's own URL path the same way normalised (or `/products/<product_id>` for a
 *     sampled product no longer in the catalogue);
 *   - on an AI-site host, or a routed path on a store host: `/llms/<product_id>.txt`, or a
 *     path containing `/products/<handle>` (`/ai/products/<slug>/`).
 * - `citations`: the cited URLs (the answers' own citations): counts by kind as the verdict
 *   labelled them (the matcher's host rule, mention-matcher.ts `classifyCitation`, for an
 *   answer without labels), and the 20 most cited hosts (`www.` dropped; ties by host
 *   name). `citations.retrieved`: the same for the retrieved URLs, always by the host rule.
 *   A link that hides its source (a grounding redirect, the answer's `source_hosts`) is
 *   classified and counted by the source's host, and points at no product.
 * - `fact_mismatches`: see `factMismatches` below.
 * - `mentioned_prompts`: distinct prompts whose cell is `true` (mentioned or recommended)
 *   on at least one platform.
 */
import { PLATFORM_KEYS, type PlatformKey } from '../constants';
import type { CatalogProduct } from '../site/types';
import { currencyOf, priceStatement, stockStatement } from '../site/offers';
import { priceSpan } from '../products/variants';
import { productOfVisitPath } from '../site/paths';
import { aliasCounts, classifyCitation, hostMatches, normalizeHost, productNameCounts, type CitationRules } from './mention-matcher';
import { findName, nameTokens } from '../text/name-match';
import type { CitationKind } from './platform-answer';
import type { VisibilityCheck } from './checks';
import { wilsonInterval, type Interval } from './statistics';

// ---------------------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------------------

export interface VisibilityReportInput {
  orgSlug: string;
  /** YYYY-MM-DD: every check must be of this business and day. */
  runDate: string;
  checks: readonly VisibilityCheck[];
  competitors: ReadonlyArray<{ name: string; domain: string | null }>;
  /** The current catalogue (may be thousands of products). */
  products: readonly CatalogProduct[];
  /** Hosts of the store (its platform host, its custom domain). */
  storeHosts: readonly string[];
  /** Hosts of the AI site we publish. */
  aiSiteHosts: readonly string[];
  productEntities: ReadonlyArray<{ productId: string; entityId: string }>;
  /** The business name (default: `orgSlug`): the entity's row in share of voice, and how it is found in a text. */
  businessName?: string | null;
  /** Other names the business goes by (the entity's aliases), for finding it in a text. */
  aliases?: readonly string[];
}

export type PlatformReportStatus = 'checked' | 'partial' | 'unconfigured' | 'failed' | 'budget' | 'no_answer' | 'not_run';

export interface PlatformReport {
  status: PlatformReportStatus;
  /** Check records of this platform (one per sampled prompt when it ran). */
  planned: number;
  /** Booleans (D30). */
  checks: number;
  trues: number;
  /** round(100 * trues / checks); null without a boolean. */
  score: number | null;
  /** Distinct reasons of its `null` cells, in first-seen order. */
  reasons: string[];
  /** Model(s) the vendor reported, distinct, joined with ", "; null when none reported. */
  model: string | null;
  cost_units: number;
  /** The unit(s) of `cost_units`, distinct, joined with ", "; null without answers. */
  cost_unit: string | null;
  /** Mean latency of its answers, integer ms; null without answers. */
  mean_latency_ms: number | null;
}

export interface ReportTotals {
  /** Distinct sampled prompts × 8 platforms. */
  checks_planned: number;
  /** Booleans (D30). */
  checks_done: number;
  trues: number;
  /** 100 * trues / checks_done, one decimal; null without a boolean. */
  raw_score: number | null;
  /** 95% Wilson interval of the raw score; null without a boolean. */
  interval: Interval | null;
  /** Platforms with at least one boolean. */
  platforms_answered: number;
  judge: {
    /** Answers whose verdict the judge gave. */
    evaluated: number;
    /** Answers where the deterministic matcher reached another boolean. */
    disagreements: number;
    /** Answers where the judge failed and the matcher decided. */
    errors: number;
  };
}

export interface ShareOfVoiceRow {
  name: string;
  is_entity: boolean;
  /** Answers naming it. */
  mentions: number;
  /** Percent of all mentions of the entity and the known competitors, one decimal; null when there were none. */
  share: number | null;
  /** Answers where it was named before any other brand. */
  first_position_count: number;
}

export interface ProductReport {
  product_id: string;
  /** The product's entity; null when the product has none (yet). */
  entity_id: string | null;
  /** Distinct prompts of the product in the sample. */
  prompts: number;
  checks: number;
  trues: number;
  /** round(100 * trues / checks); null without a boolean. */
  score: number | null;
  /** Cited URLs of the day pointing at it (the answers' own citations only). */
  citation_count: number;
  /** Retrieved URLs of the day pointing at it: search results the answers saw and did not cite; never in `citation_count`. */
  retrieved_count: number;
  /** The day's answers as they reached this product (the per-product funnel, D170). */
  funnel: ProductFunnelDay;
}

/**
 * One platform's answers of the day, as they reached one product. The n of the rates (the
 * day's answered checks, the same for every product) is kept once per day, not per product
 * (`answeredByPlatform`, D170).
 */
export interface FunnelCounts {
  /** Answers whose own citations point at the product's pages. */
  cited: number;
  /** Answers that name the product. */
  mentioned: number;
  /** Answers that name it and recommend the business. */
  recommended: number;
}

export interface ProductFunnelDay extends FunnelCounts {
  by_platform: Partial<Record<PlatformKey, FunnelCounts>>;
  /** Competitors named by the answers to the product's own prompts that do not name it. */
  competitors_instead: Record<string, number>;
}

export type FactKind = 'price' | 'stock' | 'shipping';

export interface FactMismatch {
  platform: PlatformKey;
  prompt_id: string;
  prompt: string;
  /** The product the statement is about; null for a shipping claim about the business. */
  product_id: string | null;
  kind: FactKind;
  /** The statement as written ("$79", "sold out", "free shipping"). */
  stated: string;
  /** What the published site says (site/offers.ts: "USD 89.00–129.00", "In stock (Sage: sold out)"); null when it cannot say. */
  catalogue: string | null;
  /** The sentence the statement is in (at most 240 characters). */
  excerpt: string;
}

export interface CitationTally {
  total: number;
  by_kind: Record<CitationKind, number>;
  top_hosts: Array<{ host: string; count: number }>;
}

export interface VisibilityReport {
  org_slug: string;
  run_date: string;
  /** Distinct sampled prompts. */
  prompts: number;
  platforms: Record<PlatformKey, PlatformReport>;
  totals: ReportTotals;
  share_of_voice: ShareOfVoiceRow[];
  /** Brands the verdicts named that are not known competitors (top 10, by mentions). */
  other_brands: Array<{ name: string; mentions: number }>;
  products: ProductReport[];
  /** Cited: the answers' own citations; the only URLs counted as surfacing a site. */
  citations: CitationTally & {
    /** Retrieved: what the platforms' search steps returned that the answers did not cite; shown beside, never counted as cited. */
    retrieved: CitationTally;
  };
  fact_mismatches: FactMismatch[];
  /** Distinct prompts with a `true` cell on at least one platform. */
  mentioned_prompts: number;
}

const TOP_CITED_HOSTS = 20;
const TOP_OTHER_BRANDS = 10;
const EXCERPT_MAX = 240;

const round1 = (x: number) => Math.round(x * 10) / 10;
const percent = (trues: number, n: number) => (n > 0 ? Math.round((100 * trues) / n) : null);

// ---------------------------------------------------------------------------------------
// Product names in a text
// ---------------------------------------------------------------------------------------

/** One token of a text: folded like `nameTokens`, with where the word it came from is. */
interface TextToken {
  t: string;
  /** The token without a possessive "'s" ("mat's" → "mat"), when the word had one. */
  alt: string | null;
  start: number;
  end: number;
}

const WORD = /[\p{L}\p{N}\p{M}]+(?:['’][\p{L}\p{N}\p{M}]+)*|[&+]/gu;

/** The text as `nameTokens` tokens with offsets ("&" and "+" read as "and", CamelCase split). */
function tokenize(text: string): TextToken[] {
  const out: TextToken[] = [];
  for (const m of text.matchAll(WORD)) {
    const raw = m[0];
    const start = m.index ?? 0;
    const end = start + raw.length;
    if (raw === '&' || raw === '+') {
      out.push({ t: 'and', alt: null, start, end });
      continue;
    }
    const subs = nameTokens(raw);
    if (!subs.length) continue;
    const possessive = /['’][sS]$/.test(raw) ? nameTokens(raw.slice(0, -2)) : null;
    subs.forEach((t, k) => {
      const alt = possessive && k === subs.length - 1 ? (possessive[possessive.length - 1] ?? null) : null;
      out.push({ t, alt: alt && alt !== t ? alt : null, start, end });
    });
  }
  return out;
}

/** A node of the product-name trie: one token deeper; `product` ends a name here (-1: none). */
interface TrieNode {
  next: Map<string, TrieNode>;
  product: number;
}

/**
 * The catalogue's product names, indexed for finding them in many texts.
 *
 * Which names: a product's full name, and shortened forms — the name before a trailing
 * variant (" – Sage", " | 6 mm", " / Black", ", Sage", " (Sage)") and the name without the
 * vendor in front ("Harbor & Pine Zen Mat" → "Zen Mat"); "the"/"a"/"an" at the edges are
 * dropped. A form counts only when the matcher would count it as a product name
 * (mention-matcher.ts `productNameCounts`: two words or more, one of them not ordinary
 * language), so "Mat", "Lotus" or "Cork Yoga Mat" never match. A full name wins over
 * another product's shortened form; a form that still belongs to several products (two
 * colours of one mat sold as two products) is dropped, since it cannot tell which product
 * is meant.
 *
 * Complexity: the forms are kept in a token trie (each name once, token by token), so
 * building is O(P · L) for P products with names of at most L tokens, and finding every
 * name in a text of T tokens is O(T · L) map lookups, whatever P is: no per-product regex
 * runs over the answers (5,000 products × 80 answers would be 400,000 regex scans).
 */
export interface ProductNameIndex {
  products: readonly CatalogProduct[];
  root: TrieNode;
}

const STOP_EDGE = new Set(['the', 'a', 'an']);

function trimEdges(tokens: string[]): string[] {
  let a = 0;
  let b = tokens.length;
  while (a < b && STOP_EDGE.has(tokens[a])) a++;
  while (b > a && STOP_EDGE.has(tokens[b - 1])) b--;
  return tokens.slice(a, b);
}

/**
 * The token forms of a written name: as `nameTokens` splits it ("AeroPress Go" → "aero press
 * go") and with each written word joined ("aeropress go"), since a text may write either;
 * only forms the matcher would count as a product name.
 */
function tokenForms(written: string): string[] {
  const words = written.split(/\s+/).map((w) => nameTokens(w)).filter((t) => t.length);
  const split = trimEdges(words.flat()).join(' ');
  const joined = trimEdges(words.map((t) => t.join(''))).join(' ');
  return [...new Set([split, joined])].filter((f) => f && productNameCounts(f));
}

/** The written name without the vendor's name in front, or null. */
function withoutVendor(written: string, vendor: string[]): string | null {
  if (!vendor.length) return null;
  const words = written.split(/\s+/);
  const consumed: string[] = [];
  let k = 0;
  while (k < words.length && consumed.length < vendor.length) consumed.push(...nameTokens(words[k++]));
  const same = consumed.length === vendor.length && consumed.every((t, i) => t === vendor[i]);
  return same && k < words.length ? words.slice(k).join(' ') : null;
}

/** Name forms of one product (see `ProductNameIndex`): of its full name, and shortened ones. */
function productNameForms(product: CatalogProduct): { full: string[]; short: string[] } {
  const name = (product.name ?? '').trim();
  const written: string[] = [];
  const parts = name.split(/\s+[-–—|/]\s+|,\s+/);
  for (let k = 1; k < parts.length; k++) written.push(parts.slice(0, k).join(' '));
  const paren = /^(.*\S)\s*\([^()]*\)$/.exec(name);
  if (paren) written.push(paren[1]);
  const vendor = nameTokens(product.vendor ?? '');
  for (const w of [name, ...written]) {
    const rest = withoutVendor(w, vendor);
    if (rest) written.push(rest);
  }
  const full = tokenForms(name);
  const short = [...new Set(written.flatMap(tokenForms))].filter((f) => !full.includes(f));
  return { full, short };
}

export function buildProductNameIndex(products: readonly CatalogProduct[]): ProductNameIndex {
  const fullOwners = new Map<string, Set<number>>();
  const shortOwners = new Map<string, Set<number>>();
  const own = (map: Map<string, Set<number>>, key: string, i: number) => {
    let set = map.get(key);
    if (!set) map.set(key, (set = new Set()));
    set.add(i);
  };
  products.forEach((p, i) => {
    const { full, short } = productNameForms(p);
    for (const f of full) own(fullOwners, f, i);
    for (const s of short) own(shortOwners, s, i);
  });
  const root: TrieNode = { next: new Map(), product: -1 };
  const insert = (key: string, owners: Set<number>) => {
    if (owners.size !== 1) return; // ambiguous
    let node = root;
    for (const t of key.split(' ')) {
      let next = node.next.get(t);
      if (!next) node.next.set(t, (next = { next: new Map(), product: -1 }));
      node = next;
    }
    node.product = [...owners][0];
  };
  for (const [key, owners] of fullOwners) insert(key, owners);
  for (const [key, owners] of shortOwners) if (!fullOwners.has(key)) insert(key, owners);
  return { products, root };
}

export interface ProductMention {
  /** Index into the catalogue. */
  product: number;
  start: number;
  end: number;
}

/**
 * The catalogue's products named in a text, in order: at each token the longest name that
 * starts there (so "Cloud Nine Mat Pro" wins over "Cloud Nine Mat"), whole tokens only, a
 * possessive allowed on the last word ("Cloud Nine Mat's").
 */
export function findProductMentions(text: string, index: ProductNameIndex, tokens: TextToken[] = tokenize(text)): ProductMention[] {
  const out: ProductMention[] = [];
  let i = 0;
  while (i < tokens.length) {
    let node = index.root;
    let bestLen = 0;
    let bestProduct = -1;
    for (let j = i; j < tokens.length; j++) {
      const tok = tokens[j];
      const viaAlt = tok.alt ? node.next.get(tok.alt) : undefined;
      if (viaAlt && viaAlt.product >= 0) {
        bestLen = j - i + 1;
        bestProduct = viaAlt.product;
      }
      const next = node.next.get(tok.t);
      if (!next) break;
      node = next;
      if (node.product >= 0) {
        bestLen = j - i + 1;
        bestProduct = node.product;
      }
    }
    if (bestLen) {
      out.push({ product: bestProduct, start: tokens[i].start, end: tokens[i + bestLen - 1].end });
      i += bestLen;
    } else {
      i++;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// Sentences and clauses
// ---------------------------------------------------------------------------------------

/** Sentence ends: ".", "!" or "?" before a space or the end (so "$89.00" is no end), and line breaks. */
const SENTENCE_BREAK = /[.!?](?=\s|$)|\n/g;
/** Clause breaks inside a sentence: ", " "; " ": " and a spaced dash. */
const CLAUSE_BREAK = /[,;:](?=\s)|\s[-–—]\s/g;

type Span = [number, number];

function spans(text: string, re: RegExp, within: Span = [0, text.length]): Span[] {
  const out: Span[] = [];
  let from = within[0];
  const part = text.slice(within[0], within[1]);
  for (const m of part.matchAll(re)) {
    const at = within[0] + (m.index ?? 0) + m[0].length;
    out.push([from, at]);
    from = at;
  }
  out.push([from, within[1]]);
  return out;
}

function spanAt(list: Span[], pos: number): Span {
  for (const s of list) if (pos >= s[0] && pos < s[1]) return s;
  return list[list.length - 1] ?? [0, 0];
}

/**
 * The product a statement at `[at, atEnd)` is about: the nearest product named before it in
 * the same clause, else the nearest after it in the clause; else the same in the sentence
 * ("The Zen Mat ($89) is softer than the Cloud Mat ($129)": each price goes to the mat
 * right before it). A heuristic, documented: it can pick the wrong product in a sentence
 * that names a product, then states the price of one named after it in the same clause.
 */
function nearestProduct(mentions: ProductMention[], at: number, atEnd: number, clause: Span, sentence: Span): ProductMention | null {
  for (const [a, b] of [clause, sentence]) {
    let before: ProductMention | null = null;
    let after: ProductMention | null = null;
    for (const m of mentions) {
      if (m.start < a || m.end > b) continue;
      if (m.end <= at) before = !before || m.end > before.end ? m : before;
      else if (m.start >= atEnd) after = !after || m.start < after.start ? m : after;
    }
    if (before || after) return before ?? after;
  }
  return null;
}

// ---------------------------------------------------------------------------------------
// Prices, stock, shipping
// ---------------------------------------------------------------------------------------

const CODES = 'USD|EUR|GBP|CAD|AUD|NZD|JPY|CNY|CHF|INR|SEK|NOK|DKK|SGD|HKD|MXN';
const NUM = String.raw`\d{1,3}(?:[,.\u00a0\u202f]\d{3})+(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?`;
/** "$89", "US$ 89", "€89,00", "USD 89.00", "89 €", "89.00 USD", "89 dollars". */
const PRICE = new RegExp(
  String.raw`(?<![\p{L}\p{N}])(?:(?<pre>US\$|C\$|CA\$|A\$|AU\$|NZ\$|\$|€|£|¥|₹|(?:${CODES})(?=[\s\u00a0]?\d))[\s\u00a0]?(?<n1>${NUM})` +
    String.raw`|(?<n2>${NUM})[\s\u00a0]?(?<post>US\$|\$|€|£|¥|₹|(?:${CODES}|dollars?|euros?)(?![\p{L}])))(?![\p{N}])`,
  'giu',
);
/** Words before a number that make it a threshold or a discount, not a price. */
const NOT_A_PRICE_BEFORE = /\b(?:over|above|under|below|less than|more than|up to|orders?(?: of)?|spend|save|saving|savings of|off|discount(?: of)?|shipping|delivery|budget(?: of)?|within)\s*$/i;
const NOT_A_PRICE_AFTER = /^\s*(?:off|discount|or (?:more|less)|and up|minimum|budget)\b/i;

const DOLLAR_CODES = new Set(['USD', 'CAD', 'AUD', 'NZD', 'SGD', 'HKD', 'MXN']);

/** What currency a written marker means: a code, or a set of codes for an ambiguous symbol. */
function statedCurrencies(marker: string): Set<string> {
  const m = marker.trim().toUpperCase();
  const fixed: Record<string, string[]> = {
    'US$': ['USD'], 'C$': ['CAD'], 'CA$': ['CAD'], 'A$': ['AUD'], 'AU$': ['AUD'], 'NZ$': ['NZD'],
    '$': [...DOLLAR_CODES], DOLLAR: [...DOLLAR_CODES], DOLLARS: [...DOLLAR_CODES],
    '€': ['EUR'], EURO: ['EUR'], EUROS: ['EUR'], '£': ['GBP'], '¥': ['JPY', 'CNY'], '₹': ['INR'],
  };
  return new Set(fixed[m] ?? [m]);
}

/**
 * "1,299.00" → 1299, "89,00" → 89, "1.299,00" → 1299, "12.5" → 12.5, "1,299" → 1299.
 * The last separator is the decimal one when 1-2 digits follow it; otherwise separators
 * group thousands.
 */
export function parseStatedNumber(written: string): number {
  const s = written.replace(/[\u00a0\u202f]/g, '');
  const m = /^(.*)[.,](\d{1,2})$/.exec(s);
  if (m) return Number(`${m[1].replace(/[.,]/g, '')}.${m[2]}`);
  return Number(s.replace(/[.,]/g, ''));
}

interface StatedPrice {
  value: number;
  currencies: Set<string>;
  written: string;
  start: number;
  end: number;
}

function pricesIn(text: string): StatedPrice[] {
  const out: StatedPrice[] = [];
  for (const m of text.matchAll(PRICE)) {
    const g = m.groups ?? {};
    const start = m.index ?? 0;
    const end = start + m[0].length;
    if (NOT_A_PRICE_BEFORE.test(text.slice(Math.max(0, start - 24), start))) continue;
    if (NOT_A_PRICE_AFTER.test(text.slice(end, end + 24))) continue;
    const value = parseStatedNumber(g.n1 ?? g.n2 ?? '');
    if (!Number.isFinite(value) || value <= 0) continue;
    out.push({ value, currencies: statedCurrencies(g.pre ?? g.post ?? ''), written: m[0].trim(), start, end });
  }
  return out;
}

/** "sold out", "out of stock", "not in stock", "currently unavailable"; not "rarely sold out". */
const OUT_OF_STOCK = /\b(?:out[\s-]of[\s-]stock|sold[\s-]out|not (?:currently )?in[\s-]stock|currently unavailable)\b/gi;
const IN_STOCK = /\b(?:back )?in[\s-]stock\b/gi;
const STOCK_HEDGE = /\b(?:rarely|never|seldom|often|sometimes|frequently|usually|quickly|may be|might be|can be|could be|tends to be|goes|go|get|gets)\s+$/i;
const FREE_SHIPPING = /\bfree (?:standard |express |ground |worldwide |international |domestic |uk |us |eu )?(?:shipping|delivery)\b/gi;

/**
 * Stock as the published site states it (site/offers.ts `stockStatement`, which also honours
 * `product.available` for a product with variants), so a fact mismatch never disagrees with
 * the site: `In stock`, `Out of stock`, `In stock (Matte Black: sold out)`.
 */
function availability(product: CatalogProduct): { available: boolean; text: string } {
  const text = stockStatement(product);
  return { available: !/^out of stock/i.test(text), text };
}

function excerpt(text: string, [a, b]: Span): string {
  const s = text.slice(a, b).replace(/\s+/g, ' ').trim();
  return s.length > EXCERPT_MAX ? `${s.slice(0, EXCERPT_MAX - 1)}…` : s;
}

/** Rounding a price to the cent or a currency's display is not a mismatch. */
const PRICE_TOLERANCE = 0.01;

export interface FactContext {
  index: ProductNameIndex;
  /** Names that stand for the business itself (its name, counted aliases). */
  businessNames: string[];
}

/**
 * Facts an answer states about the entity's products, compared with the catalogue.
 *
 * - price: an amount with a currency marker ("$89", "US$89", "USD 89.00", "89 €", "€89,00",
 *   "£12.50", "89 dollars"), tied to the nearest product named in the same clause or
 *   sentence (`nearestProduct`). Fine when it lies within the product's price span ±1%
 *   (products/variants.ts `priceSpan`, min..max over the variants, so any variant's price
 *   is fine); the catalogue side is written as the site writes it (site/offers.ts
 *   `priceStatement`). A marker that names another currency
 *   than the catalogue's ("€" for a USD store) is not compared (the answer may have
 *   converted); "$" fits every dollar currency; without a catalogue currency the number is
 *   compared alone. Amounts after "over", "under", "up to", "save", "off", "shipping",
 *   ... are thresholds or discounts, not prices.
 * - stock: "out of stock" / "sold out" / "not in stock" / "currently unavailable" for a
 *   product the site states in stock, or "in stock" / "back in stock" for one it states
 *   out of stock (site/offers.ts `stockStatement`: out of stock when the product is not
 *   available or no variant is);
 *   hedged forms ("rarely sold out", "can be out of stock") and questions ("Is it in
 *   stock?") are not claims.
 * - shipping: "free shipping" / "free delivery" in a sentence that names one of the
 *   entity's products or the business itself: the catalogue holds no shipping terms, so it
 *   can neither confirm nor contradict it; listed with `catalogue: null` for a person to
 *   check, once per answer and product. Known limit: a sentence that names one of the
 *   entity's products and gives a competitor's free shipping is listed too.
 */
export function factMismatches(
  text: string,
  ctx: FactContext,
  where: { platform: PlatformKey; prompt_id: string; prompt: string },
  mentions: ProductMention[] = findProductMentions(text, ctx.index),
): FactMismatch[] {
  const out: FactMismatch[] = [];
  const sentences = spans(text, SENTENCE_BREAK);
  const located = (at: number, end: number) => {
    const sentence = spanAt(sentences, at);
    const clause = spanAt(spans(text, CLAUSE_BREAK, sentence), at);
    return { sentence, product: nearestProduct(mentions, at, end, clause, sentence) };
  };
  const seen = new Set<string>();
  const push = (m: FactMismatch) => {
    const key = `${m.kind}|${m.product_id}|${m.kind === 'shipping' ? '' : m.stated.toLowerCase()}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push(m);
  };
  const products = ctx.index.products;

  if (mentions.length) {
    for (const price of pricesIn(text)) {
      const { sentence, product } = located(price.start, price.end);
      if (!product) continue;
      const p = products[product.product];
      const currency = currencyOf(p);
      if (currency && !price.currencies.has(currency)) continue;
      const span = priceSpan(p);
      if (!span) continue;
      if (price.value >= span.lowValue * (1 - PRICE_TOLERANCE) && price.value <= span.highValue * (1 + PRICE_TOLERANCE)) continue;
      push({ ...where, product_id: p.productId, kind: 'price', stated: price.written, catalogue: priceStatement(p), excerpt: excerpt(text, sentence) });
    }

    const outSpans: Span[] = [];
    for (const [re, claimsAvailable] of [[OUT_OF_STOCK, false], [IN_STOCK, true]] as const) {
      for (const m of text.matchAll(re)) {
        const start = m.index ?? 0;
        const end = start + m[0].length;
        if (claimsAvailable && outSpans.some(([a, b]) => start < b && end > a)) continue; // "not in stock"
        if (!claimsAvailable) outSpans.push([start, end]);
        if (STOCK_HEDGE.test(text.slice(Math.max(0, start - 24), start))) continue;
        const { sentence, product } = located(start, end);
        if (!product || /\?\s*$/.test(text.slice(sentence[0], sentence[1]))) continue; // a question is no claim
        const p = products[product.product];
        const stock = availability(p);
        if (stock.available === claimsAvailable) continue;
        push({ ...where, product_id: p.productId, kind: 'stock', stated: m[0], catalogue: stock.text, excerpt: excerpt(text, sentence) });
      }
    }
  }

  for (const m of text.matchAll(FREE_SHIPPING)) {
    const start = m.index ?? 0;
    const end = start + m[0].length;
    const { sentence, product } = located(start, end);
    const part = text.slice(sentence[0], sentence[1]);
    const namesBusiness = ctx.businessNames.some((n) => findName(part, n) >= 0);
    if (!product && !namesBusiness) continue;
    push({ ...where, product_id: product ? products[product.product].productId : null, kind: 'shipping', stated: m[0], catalogue: null, excerpt: excerpt(text, sentence) });
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// Citations of products
// ---------------------------------------------------------------------------------------

/** Path of a URL: decoded, lower case, no trailing slash. */
function pathOf(url: URL): string {
  let path = url.pathname;
  try {
    path = decodeURIComponent(path);
  } catch {
    /* keep it encoded */
  }
  path = path.toLowerCase().replace(/\/+$/, '');
  return path || '/';
}

/** A store path as a product page: the locale prefix and a collection prefix removed. */
function storeProductPath(path: string): string {
  return path.replace(/^\/[a-z]{2}(?:-[a-z0-9]{2,4})?(?=\/)/, '').replace(/^\/collections\/[^/]+(?=\/products\/)/, '');
}

function isRouted(path: string): boolean {
  return path === '/llms.txt' || ['/ai', '/llms'].some((p) => path === p || path.startsWith(`${p}/`));
}

interface ProductUrlIndex {
  storeHosts: string[];
  aiHosts: string[];
  /** Normalised store product path → product id. */
  byPath: Map<string, string>;
  /** Handle or product id (lower case) → product id. */
  byHandle: Map<string, string>;
}

function buildProductUrlIndex(products: readonly CatalogProduct[], sampledIds: Iterable<string>, storeHosts: string[], aiHosts: string[]): ProductUrlIndex {
  const byPath = new Map<string, string>();
  const byHandle = new Map<string, string>();
  for (const p of products) {
    byHandle.set(p.productId.toLowerCase(), p.productId);
    let parsed: URL | null = null;
    try {
      parsed = new URL(p.url);
    } catch {
      parsed = null;
    }
    const path = parsed ? storeProductPath(pathOf(parsed)) : `/products/${p.productId.toLowerCase()}`;
    if (!byPath.has(path)) byPath.set(path, p.productId);
    const handle = /^\/products\/([^/]+)$/.exec(path)?.[1];
    if (handle && !byHandle.has(handle)) byHandle.set(handle, p.productId);
  }
  for (const id of sampledIds) {
    const path = `/products/${id.toLowerCase()}`;
    if (!byPath.has(path)) byPath.set(path, id);
    if (!byHandle.has(id.toLowerCase())) byHandle.set(id.toLowerCase(), id);
  }
  return { storeHosts, aiHosts, byPath, byHandle };
}

/** The product a cited URL points at (see the module comment), or null. */
function productOfUrl(url: string, index: ProductUrlIndex): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const host = normalizeHost(parsed.hostname);
  if (!host) return null;
  const onAi = index.aiHosts.some((d) => hostMatches(host, d));
  const onStore = !onAi && index.storeHosts.some((d) => hostMatches(host, d));
  if (!onAi && !onStore) return null;
  const path = pathOf(parsed);
  if (onAi || isRouted(path)) {
    const handle = productOfVisitPath(path);
    return handle ? (index.byHandle.get(handle) ?? null) : null;
  }
  return index.byPath.get(storeProductPath(path)) ?? null;
}

// ---------------------------------------------------------------------------------------
// The report
// ---------------------------------------------------------------------------------------

const FAILURE_KINDS = new Set<PlatformReportStatus>(['unconfigured', 'failed', 'budget', 'no_answer']);

/**
 * The one rule for a platform's status of the day, used by the report and the run summary
 * (app/visibility/analyze.ts): `checked` with a boolean for every sampled prompt, `partial`
 * with some, else the kind of its failures when they all agree (`unconfigured`, `failed`,
 * `budget`, `no_answer`), `failed` when they differ, `not_run` without records. `own`: the
 * platform's records, one per prompt.
 */
export function platformStatus(own: ReadonlyArray<Pick<VisibilityCheck, 'result' | 'status'>>, promptCount: number): PlatformReportStatus {
  const booleans = own.filter((c) => c.result !== null).length;
  if (!own.length) return 'not_run';
  if (booleans && booleans >= promptCount) return 'checked';
  if (booleans) return 'partial';
  const kinds = new Set(own.map((c) => (c.status === 'checked' ? 'failed' : c.status)));
  const [only] = [...kinds];
  return kinds.size === 1 && FAILURE_KINDS.has(only as PlatformReportStatus) ? (only as PlatformReportStatus) : 'failed';
}

/**
 * One record per prompt and platform: a repeated record (a re-run) keeps the boolean over
 * a `null` (D30: a boolean is never overwritten by null), else the later one.
 */
/** Answered checks of a day per platform (the latest check of each prompt and platform): the n of every product's funnel rates (D170). */
export function answeredByPlatform(checks: readonly VisibilityCheck[]): Partial<Record<PlatformKey, number>> {
  const out: Partial<Record<PlatformKey, number>> = {};
  for (const c of latestChecks(checks)) if (c.status === 'checked' && c.answer) out[c.platform] = (out[c.platform] ?? 0) + 1;
  return out;
}

function latestChecks(checks: readonly VisibilityCheck[]): VisibilityCheck[] {
  const byKey = new Map<string, VisibilityCheck>();
  for (const c of checks) {
    const key = `${c.prompt_id}\u0000${c.platform}`;
    const prev = byKey.get(key);
    if (!prev) byKey.set(key, c);
    else if (prev.result === null && c.result !== null) byKey.set(key, c);
    else if ((prev.result === null) === (c.result === null) && c.checked_at >= prev.checked_at) byKey.set(key, c);
  }
  return [...byKey.values()];
}

interface Tally {
  total: number;
  byKind: Record<CitationKind, number>;
  hosts: Map<string, number>;
  products: Map<string, number>;
}

function tally(): Tally {
  return { total: 0, byKind: { store: 0, ai_site: 0, competitor: 0, other: 0 }, hosts: new Map(), products: new Map() };
}

function tallyOf(t: Tally): CitationTally {
  const topHosts = [...t.hosts]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, TOP_CITED_HOSTS)
    .map(([host, count]) => ({ host, count }));
  return { total: t.total, by_kind: t.byKind, top_hosts: topHosts };
}

export function buildVisibilityReport(input: VisibilityReportInput): VisibilityReport {
  for (const c of input.checks) {
    if (c.org_slug !== input.orgSlug || c.run_date !== input.runDate) {
      throw new RangeError(`buildVisibilityReport: a check of ${c.org_slug} on ${c.run_date} in the report of ${input.orgSlug} on ${input.runDate}`);
    }
  }
  const platformOrder = new Map<string, number>(PLATFORM_KEYS.map((k, i) => [k, i]));
  const promptOrder = new Map<string, number>();
  for (const c of input.checks) if (!promptOrder.has(c.prompt_id)) promptOrder.set(c.prompt_id, promptOrder.size);
  const checks = latestChecks(input.checks)
    .filter((c) => platformOrder.has(c.platform))
    .sort((a, b) => platformOrder.get(a.platform)! - platformOrder.get(b.platform)! || promptOrder.get(a.prompt_id)! - promptOrder.get(b.prompt_id)!);
  const promptCount = promptOrder.size;

  // Platforms.
  const platforms = {} as Record<PlatformKey, PlatformReport>;
  for (const key of PLATFORM_KEYS) {
    const own = checks.filter((c) => c.platform === key);
    const booleans = own.filter((c) => c.result !== null);
    const trues = booleans.filter((c) => c.result === true).length;
    const answers = own.map((c) => c.answer).filter((a): a is NonNullable<typeof a> => a !== null);
    const failures = own.filter((c) => c.result === null);
    const status = platformStatus(own, promptCount);
    const distinct = (values: Array<string | null | undefined>) => [...new Set(values.filter((v): v is string => Boolean(v && v.trim())))];
    const models = distinct(answers.map((a) => a.model));
    const units = distinct(answers.map((a) => a.cost_unit));
    platforms[key] = {
      status,
      planned: own.length,
      checks: booleans.length,
      trues,
      score: percent(trues, booleans.length),
      reasons: distinct(failures.map((c) => c.reason ?? c.status)),
      model: models.length ? models.join(', ') : null,
      cost_units: answers.reduce((s, a) => s + (Number.isFinite(a.cost_units) ? a.cost_units : 0), 0),
      cost_unit: units.length ? units.join(', ') : null,
      mean_latency_ms: answers.length ? Math.round(answers.reduce((s, a) => s + a.latency_ms, 0) / answers.length) : null,
    };
  }

  // Totals.
  const booleans = checks.filter((c) => c.result !== null);
  const trueCount = booleans.filter((c) => c.result === true).length;
  const totals: ReportTotals = {
    checks_planned: promptCount * PLATFORM_KEYS.length,
    checks_done: booleans.length,
    trues: trueCount,
    raw_score: booleans.length ? round1((100 * trueCount) / booleans.length) : null,
    interval: booleans.length ? wilsonInterval(trueCount, booleans.length) : null,
    platforms_answered: PLATFORM_KEYS.filter((k) => platforms[k].checks > 0).length,
    judge: {
      evaluated: checks.filter((c) => c.verdict?.by === 'judge').length,
      disagreements: checks.filter((c) => c.matcher_agrees === false).length,
      errors: checks.filter((c) => c.judge_error !== null && c.judge_error !== undefined).length,
    },
  };

  // What the answers hold.
  const storeHosts = [...new Set(input.storeHosts.map(normalizeHost).filter((h): h is string => Boolean(h)))];
  const aiHosts = [...new Set(input.aiSiteHosts.map(normalizeHost).filter((h): h is string => Boolean(h)))];
  const competitors = input.competitors.filter((c) => c.name?.trim() || c.domain);
  const rules: CitationRules = {
    entityHosts: [...new Set([...storeHosts, ...aiHosts])],
    aiSiteHosts: aiHosts,
    competitorHosts: [...new Set(competitors.map((c) => (c.domain ? normalizeHost(c.domain) : null)).filter((h): h is string => Boolean(h)))],
  };
  const nameIndex = buildProductNameIndex(input.products);
  const businessName = input.businessName?.trim() || input.orgSlug;
  const businessNames = [businessName, ...(input.aliases ?? []).filter(aliasCounts)];
  const sampledIds = new Set(checks.map((c) => c.product_id).filter((p): p is string => p !== null));
  const urlIndex = buildProductUrlIndex(input.products, sampledIds, storeHosts, aiHosts);

  const compKey = (name: string) => name.trim().toLowerCase();
  const known = new Map<string, number>();
  competitors.forEach((c, i) => {
    const k = compKey(c.name || c.domain || '');
    if (k && !known.has(k)) known.set(k, i);
  });
  const sov = {
    entity: { mentions: 0, first: 0 },
    competitors: competitors.map(() => ({ mentions: 0, first: 0 })),
  };
  const otherBrands = new Map<string, { name: string; mentions: number }>();
  const cited = tally();
  const retrieved = tally();
  /** One URL of one answer into a tally: its kind, its host (the source's host when the link hides it), the product it points at. */
  const count = (t: Tally, url: string, sourceHost: string | undefined, kind: CitationKind) => {
    t.total++;
    t.byKind[kind in t.byKind ? kind : 'other']++;
    const host = sourceHost ? normalizeHost(sourceHost) : normalizeHost(url);
    if (host) t.hosts.set(host, (t.hosts.get(host) ?? 0) + 1);
    const product = sourceHost ? null : productOfUrl(url, urlIndex);
    if (product) t.products.set(product, (t.products.get(product) ?? 0) + 1);
  };
  const mismatches: FactMismatch[] = [];
  const funnel = new Map<string, ProductFunnelDay>();
  const emptyFunnel = (): ProductFunnelDay => ({ cited: 0, mentioned: 0, recommended: 0, by_platform: {}, competitors_instead: {} });
  const funnelOf = (id: string) => {
    let day = funnel.get(id);
    if (!day) funnel.set(id, day = emptyFunnel());
    return day;
  };
  const add = (id: string, platform: PlatformKey, stage: 'cited' | 'mentioned' | 'recommended') => {
    const day = funnelOf(id);
    day[stage]++;
    (day.by_platform[platform] ??= { cited: 0, mentioned: 0, recommended: 0 })[stage]++;
  };

  for (const c of checks) {
    if (c.status !== 'checked' || !c.answer) continue;
    const text = c.answer.text ?? '';
    const tokens = tokenize(text);
    const mentions = findProductMentions(text, nameIndex, tokens);
    const named = new Set(mentions.map((m) => input.products[m.product].productId));
    for (const id of named) {
      add(id, c.platform, 'mentioned');
      if (c.verdict?.recommended) add(id, c.platform, 'recommended');
    }
    const citedHere = new Set((c.answer.citations ?? []).filter((url) => !c.answer?.source_hosts?.[url]).map((url) => productOfUrl(url, urlIndex)).filter((id): id is string => id !== null));
    for (const id of citedHere) add(id, c.platform, 'cited');
    if (c.product_id && !named.has(c.product_id)) {
      const instead = funnelOf(c.product_id).competitors_instead;
      for (const name of new Set((c.verdict?.competitors_mentioned ?? []).map((n) => n.trim()).filter(Boolean))) instead[name] = (instead[name] ?? 0) + 1;
    }

    // Citations: cited, then retrieved (search results the answer did not cite), apart.
    const sources = c.answer.source_hosts ?? {};
    const labelled = c.verdict?.citations?.length
      ? c.verdict.citations
      : (c.answer.citations ?? []).map((url) => ({ url, kind: classifyCitation(url, rules) }));
    const citedUrls = new Set<string>();
    for (const { url, kind } of labelled) {
      if (citedUrls.has(url)) continue;
      citedUrls.add(url);
      count(cited, url, sources[url], sources[url] ? classifyCitation(`https://${sources[url]}/`, rules) : kind);
    }
    for (const url of new Set(c.answer.retrieved ?? [])) {
      if (citedUrls.has(url)) continue;
      const host = sources[url];
      count(retrieved, url, host, classifyCitation(host ? `https://${host}/` : url, rules));
    }

    // Share of voice.
    if (c.verdict) {
      const named: Array<{ who: number; at: number; order: number }> = []; // who: -1 entity, else competitor index
      if (c.verdict.mentioned) {
        const positions = [
          ...businessNames.map((n) => findName(text, n)),
          ...mentions.slice(0, 1).map((m) => m.start),
        ].filter((p) => p >= 0);
        named.push({ who: -1, at: positions.length ? Math.min(...positions) : Infinity, order: -1 });
        sov.entity.mentions++;
      }
      const counted = new Set<number>();
      (c.verdict.competitors_mentioned ?? []).forEach((name, order) => {
        const i = known.get(compKey(name));
        if (i === undefined) {
          const k = compKey(name);
          if (!k) return;
          const row = otherBrands.get(k) ?? { name: name.trim(), mentions: 0 };
          row.mentions++;
          otherBrands.set(k, row);
          return;
        }
        if (counted.has(i)) return;
        counted.add(i);
        sov.competitors[i].mentions++;
        const comp = competitors[i];
        const positions = [comp.name ? findName(text, comp.name) : -1];
        const domain = comp.domain ? normalizeHost(comp.domain) : null;
        if (domain) positions.push(text.toLowerCase().indexOf(domain));
        const found = positions.filter((p) => p >= 0);
        named.push({ who: i, at: found.length ? Math.min(...found) : Infinity, order });
      });
      if (named.length) {
        named.sort((a, b) => (a.at === b.at ? a.order - b.order : a.at < b.at ? -1 : 1));
        const first = named[0];
        if (first.who < 0) sov.entity.first++;
        else sov.competitors[first.who].first++;
      }
    }

    // Facts.
    mismatches.push(...factMismatches(text, { index: nameIndex, businessNames }, { platform: c.platform, prompt_id: c.prompt_id, prompt: c.prompt }, mentions));
  }

  const totalMentions = sov.entity.mentions + sov.competitors.reduce((s, r) => s + r.mentions, 0);
  const share = (m: number) => (totalMentions ? round1((100 * m) / totalMentions) : null);
  const rows: Array<ShareOfVoiceRow & { order: number }> = [
    { name: businessName, is_entity: true, mentions: sov.entity.mentions, share: share(sov.entity.mentions), first_position_count: sov.entity.first, order: -1 },
    ...competitors.map((comp, i) => ({
      name: comp.name?.trim() || comp.domain || '',
      is_entity: false,
      mentions: sov.competitors[i].mentions,
      share: share(sov.competitors[i].mentions),
      first_position_count: sov.competitors[i].first,
      order: i,
    })),
  ];
  const seenNames = new Set<string>();
  const shareOfVoice = rows
    .filter((r) => {
      const k = r.is_entity ? '\u0000entity' : compKey(r.name);
      if (seenNames.has(k)) return false;
      seenNames.add(k);
      return true;
    })
    .sort((a, b) => b.mentions - a.mentions || a.order - b.order)
    .map(({ order: _order, ...row }) => row);

  // Products.
  const productCitations = cited.products;
  const entityOf = new Map(input.productEntities.map((e) => [e.productId, e.entityId]));
  const productIds = [...new Set([...sampledIds, ...productCitations.keys(), ...retrieved.products.keys(), ...funnel.keys()])].sort();
  const products: ProductReport[] = productIds.map((id) => {
    const own = checks.filter((c) => c.product_id === id);
    const bools = own.filter((c) => c.result !== null);
    const trues = bools.filter((c) => c.result === true).length;
    return {
      product_id: id,
      entity_id: entityOf.get(id) ?? own[0]?.entity_id ?? null,
      prompts: new Set(own.map((c) => c.prompt_id)).size,
      checks: bools.length,
      trues,
      score: percent(trues, bools.length),
      citation_count: productCitations.get(id) ?? 0,
      retrieved_count: retrieved.products.get(id) ?? 0,
      funnel: funnel.get(id) ?? emptyFunnel(),
    };
  });


  return {
    org_slug: input.orgSlug,
    run_date: input.runDate,
    prompts: promptCount,
    platforms,
    totals,
    share_of_voice: shareOfVoice,
    other_brands: [...otherBrands.values()].sort((a, b) => b.mentions - a.mentions || a.name.localeCompare(b.name)).slice(0, TOP_OTHER_BRANDS),
    products,
    citations: { ...tallyOf(cited), retrieved: tallyOf(retrieved) },
    fact_mismatches: mismatches,
    mentioned_prompts: new Set(checks.filter((c) => c.result === true).map((c) => c.prompt_id)).size,
  };
}
