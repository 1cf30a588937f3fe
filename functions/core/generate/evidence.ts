/**
 * Evidence extraction: which sentences of a store's own pages and product texts state a
 * fact (shipping, returns, origin, materials, guarantees), who the store says it is for,
 * and which sentences describe the store. Every result is a sentence (or a phrase of one)
 * taken verbatim from the input after markdown is stripped, so it can be traced back.
 */
import type { CatalogProduct, ScrapedPage, StoreSnapshot } from '../site/types';
import { dedupeKey, isStatement, markdownBlocks, markdownToText, normalizeSpace, splitSentences, wordCount } from './text';

export type FactKind = 'shipping' | 'returns' | 'origin' | 'materials' | 'guarantee';

export interface SourceSentence {
  text: string;
  /** URL of the page or product it came from. */
  source: string;
  /** Page role, see `pageRole`. */
  role: PageRole;
}

export interface KeyFact {
  kind: FactKind;
  /** What goes in the narrative: the sentence, prefixed with the product name for product facts. */
  text: string;
  /** The verbatim source sentence. */
  sentence: string;
  source: string;
}

/** The name the narrative uses for the store: the business name, else its domain. */
export function storeName(snapshot: StoreSnapshot): string {
  return normalizeSpace(snapshot.business.name) || snapshot.business.domain || 'This store';
}

export type PageRole = 'home' | 'about' | 'policy' | 'faq' | 'contact' | 'page' | 'collection' | 'blog' | 'product' | 'other';

const ROLE_ORDER: Record<PageRole, number> = { home: 0, about: 1, policy: 2, faq: 3, contact: 4, page: 5, collection: 6, other: 7, blog: 8, product: 9 };

export function pageRole(page: ScrapedPage): PageRole {
  if (page.kind === 'home') return 'home';
  if (page.kind === 'product') return 'product';
  if (page.kind === 'blog' || page.kind === 'article') return 'blog';
  if (page.kind === 'collection') return 'collection';
  let path = page.url;
  try { path = new URL(page.url).pathname; } catch { /* keep the raw url */ }
  const hay = `${path} ${page.title}`.toLowerCase();
  if (/faq|frequently|questions|\bhelp\b/.test(hay)) return 'faq';
  if (/about|our-story|our story|who-we-are|who we are|\bstory\b/.test(hay)) return 'about';
  if (/ship|deliver|return|refund|policy|policies|warranty|guarantee/.test(hay)) return 'policy';
  if (/contact/.test(hay)) return 'contact';
  if (page.kind === 'page') return 'page';
  return 'other';
}

/** Pages by importance (home, about, policies, FAQ, ...); ties keep snapshot order. */
export function orderedPages(snapshot: StoreSnapshot): ScrapedPage[] {
  return snapshot.pages
    .map((page, i) => ({ page, i, rank: ROLE_ORDER[pageRole(page)] }))
    .filter((x) => x.page.statusCode < 400 || x.page.statusCode === 0)
    .sort((a, b) => a.rank - b.rank || a.i - b.i)
    .map((x) => x.page);
}

const BOILERPLATE = /cookie|privacy policy|terms of (service|use)|all rights reserved|©|javascript|newsletter|subscribe|sign up|log ?in|password|add to cart|your cart|checkout|skip to (main )?content|powered by/i;

/** Sentences of store pages (not product pages or blog posts), in page order. */
export function pageSentences(snapshot: StoreSnapshot, roles?: PageRole[]): SourceSentence[] {
  const out: SourceSentence[] = [];
  for (const page of orderedPages(snapshot)) {
    const role = pageRole(page);
    if (role === 'product' || role === 'blog') continue;
    if (roles && !roles.includes(role)) continue;
    for (const block of markdownBlocks(page.markdown)) {
      if (block.kind === 'heading') continue;
      for (const text of splitSentences(block.text)) out.push({ text, source: page.url, role });
    }
  }
  return out;
}

/** A sentence that can stand alone as a statement of fact. */
function usable(sentence: string): boolean {
  return !sentence.endsWith('?') && wordCount(sentence) >= 4 && sentence.length <= 300 && !BOILERPLATE.test(sentence);
}

const FACT_PATTERNS: Array<{ kind: FactKind; topic: RegExp; detail: RegExp }> = [
  {
    kind: 'returns',
    topic: /\b(returns?|returned|refunds?|refunded|exchanges?|money[- ]back)\b/i,
    detail: /\d|\bdays?\b|\bguarantee|\baccept|\bfull\b|\bfree\b|\bunopened\b|\bunused\b|\bnot\b|\bno\b/i,
  },
  {
    kind: 'shipping',
    topic: /\b(ship(s|ping|ped)?|deliver(s|y|ies|ed)?|dispatch(es|ed)?|postage|courier|local pick-?up)\b/i,
    detail: /\d|\bfree\b|\bworldwide\b|\binternational(ly)?\b|\bsame[- ]day\b|\bnext[- ]day\b|\bcarbon[- ]neutral\b/i,
  },
  {
    kind: 'origin',
    topic: /\b(sourced?|grown|grow|harvest(ed)?|roast(s|ed)?|made|handmade|hand-made|craft(s|ed)?|produced?|blend(s|ed)?|pack(s|ed)?|designed|found(ed)?|established|based|imported|manufactured|family[- ]owned|farm(s|ed)?)\b/i,
    detail: /\b(?:in|from|since)\s+(?:the\s+)?(?:\p{Lu}[\p{L}'’-]+|\d{4})/u,
  },
  {
    kind: 'materials',
    topic: /\b(organic|fair[- ]?trade|certified|ethically|sustainabl[ey]|recycled|recyclable|compostable|biodegradable|plastic[- ]free|vegan|cruelty[- ]free|gluten[- ]free|non-gmo|ingredients?|materials?)\b|100\s?%|\bmade (of|from|with)\b/i,
    detail: /./,
  },
  {
    kind: 'guarantee',
    topic: /\b(warrant(y|ies)|guarantee[ds]?|lifetime)\b/i,
    detail: /./,
  },
];

/** Shipping and returns: policy lines, kept out of describing sentences. */
const POLICY_TOPICS = FACT_PATTERNS.filter((p) => p.kind === 'shipping' || p.kind === 'returns').map((p) => p.topic);

export function classifyFact(sentence: string): FactKind | null {
  if (!usable(sentence)) return null;
  for (const p of FACT_PATTERNS) if (p.topic.test(sentence) && p.detail.test(sentence)) return p.kind;
  return null;
}

const FACT_KIND_ORDER: FactKind[] = ['shipping', 'returns', 'origin', 'materials', 'guarantee'];

export interface KeyFactOptions {
  maxPerKind?: number;
  maxFromPages?: number;
  maxFromProducts?: number;
}

/**
 * Key facts: page sentences first (grouped by kind, at most `maxPerKind` each), then
 * origin/material sentences of product descriptions, prefixed "<product name>: ".
 */
export function extractKeyFacts(snapshot: StoreSnapshot, options: KeyFactOptions = {}): KeyFact[] {
  const maxPerKind = options.maxPerKind ?? 3;
  const maxFromPages = options.maxFromPages ?? 10;
  const maxFromProducts = options.maxFromProducts ?? 4;
  const seen = new Set<string>();
  const byKind = new Map<FactKind, KeyFact[]>();
  for (const s of pageSentences(snapshot)) {
    const kind = classifyFact(s.text);
    if (!kind) continue;
    const key = dedupeKey(s.text);
    if (seen.has(key)) continue;
    const list = byKind.get(kind) ?? [];
    if (list.length >= maxPerKind) continue;
    seen.add(key);
    list.push({ kind, text: s.text, sentence: s.text, source: s.source });
    byKind.set(kind, list);
  }
  const facts = FACT_KIND_ORDER.flatMap((k) => byKind.get(k) ?? []).slice(0, maxFromPages);
  let fromProducts = 0;
  for (const product of sortedProducts(snapshot.products)) {
    if (fromProducts >= maxFromProducts) break;
    for (const sentence of splitSentences(markdownToText(product.description))) {
      const kind = classifyFact(sentence);
      if (kind !== 'origin' && kind !== 'materials') continue;
      const key = dedupeKey(sentence);
      if (seen.has(key)) continue;
      seen.add(key);
      facts.push({ kind, text: `${product.name}: ${sentence}`, sentence, source: product.url });
      fromProducts++;
      break; // one fact per product
    }
  }
  return facts;
}

/** Products in snapshot order; available ones first so facts describe what can be bought. */
export function sortedProducts(products: CatalogProduct[]): CatalogProduct[] {
  return products.map((p, i) => ({ p, i })).sort((a, b) => Number(b.p.available) - Number(a.p.available) || a.i - b.i).map((x) => x.p);
}

const AUDIENCE_LEAD = /\b(?:(?:made|designed|created|crafted|built|perfect|ideal|great|roasted|blended|curated|chosen|selected|here) )?for\s+([^.!?;:()—–]{3,140})/gi;
const AUDIENCE_STOP_FIRST = new Set([
  'free', 'orders', 'order', 'more', 'example', 'instance', 'details', 'your', 'our', 'us', 'you', 'it', 'its', 'this', 'that', 'these', 'up', 'over', 'under',
  'shipping', 'returns', 'delivery', 'days', 'day', 'years', 'year', 'months', 'weeks', 'hours', 'sale', 'less', 'just', 'only', 'questions', 'help', 'information',
  'a', 'an', 'the', 'all', 'any', 'every', 'each', 'about', 'at', 'to', 'with', 'sure', 'now', 'good', 'life', 'pickup', 'pick-up',
]);
const PEOPLE_WORDS = [
  'people', 'anyone', 'everyone', 'those', 'folks', 'family', 'families', 'kid', 'child', 'children', 'baby', 'babies', 'parent', 'mom', 'dad', 'mother', 'father',
  'men', 'women', 'teen', 'student', 'beginner', 'professional', 'expert', 'pro', 'enthusiast', 'lover', 'fan', 'connoisseur', 'aficionado', 'foodie', 'barista',
  'cook', 'chef', 'baker', 'gardener', 'athlete', 'runner', 'cyclist', 'traveler', 'traveller', 'hiker', 'camper', 'creator', 'artist', 'maker', 'owner', 'drinker',
  'brewer', 'reader', 'gamer', 'collector', 'gift giver', 'gift-giver', 'shopper', 'customer', 'household', 'office', 'team', 'business', 'cafe', 'café',
  'restaurant', 'couple', 'newcomer', 'explorer', 'adventurer', 'anybody', 'everybody', 'someone', 'somebody',
];
const PEOPLE = new RegExp(`\\b(?:${PEOPLE_WORDS.map((w) => w.replace(/[-\s]/g, '[\\s-]')).join('|')})(?:s|es)?\\b`, 'i');

/**
 * Who the store says it is for: the "for ..." phrases of home/about/page sentences that
 * name people. Returns at most `max` phrases, verbatim, in page order.
 */
export function extractAudience(snapshot: StoreSnapshot, max = 2): Array<{ phrase: string; sentence: string; source: string }> {
  const out: Array<{ phrase: string; sentence: string; source: string }> = [];
  const seen = new Set<string>();
  for (const s of pageSentences(snapshot, ['home', 'about', 'page', 'other'])) {
    if (!usable(s.text)) continue;
    for (const m of s.text.matchAll(AUDIENCE_LEAD)) {
      let phrase = m[1].split(/,\s|\s[-–—]\s/)[0].trim();
      phrase = phrase.replace(/\s+(?:and|or|who|that|with|in|on|at)$/i, '').trim();
      const words = phrase.split(/\s+/);
      let i = 0;
      while (i < words.length - 1 && /^(the|a|an|all|every|any)$/i.test(words[i])) i++;
      const first = (words[i] ?? '').toLowerCase().replace(/[^a-z'-]/g, '');
      if (!first || /^\d/.test(words[i]) || /[$€£¥%]/.test(phrase)) continue;
      if (AUDIENCE_STOP_FIRST.has(first)) continue;
      if (!PEOPLE.test(phrase) || wordCount(phrase) > 18) continue;
      const key = dedupeKey(phrase);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ phrase, sentence: s.text, source: s.source });
      if (out.length >= max) return out;
    }
  }
  return out;
}

/** Sentences that describe the store (statements of 6-60 words, no policy lines), in page order. */
export function describingSentences(snapshot: StoreSnapshot, roles: PageRole[]): SourceSentence[] {
  return pageSentences(snapshot, roles).filter((s) => {
    const words = wordCount(s.text);
    return isStatement(s.text) && words >= 6 && words <= 60 && usable(s.text) && !POLICY_TOPICS.some((p) => p.test(s.text));
  });
}

/** Contact e-mail addresses written on store pages. */
export function extractEmails(snapshot: StoreSnapshot): string[] {
  const out = new Set<string>();
  for (const page of orderedPages(snapshot)) {
    const role = pageRole(page);
    if (role === 'product' || role === 'blog') continue;
    for (const m of page.markdown.matchAll(/(?<![\w.+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}(?![\w-])/g)) {
      if (!/\.(png|jpe?g|gif|webp|svg)$/i.test(m[0])) out.add(m[0].toLowerCase());
    }
  }
  return [...out];
}
