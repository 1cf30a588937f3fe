/**
 * What a competitor's own page says about it, in structured form, without a model:
 * name, description, products, target market and notable claims ("strengths"). Every
 * value is taken from the page (markup or text); nothing is invented, and a field the
 * page does not state stays empty.
 */
import { cleanText, type PageFacts } from './html';
import { registrableDomain } from './domain';

export interface CompetitorProfile {
  name: string;
  description: string;
  products: string[];
  targetMarket: string;
}

const MAX_NAME = 120;
const MAX_DESCRIPTION = 500;
const MAX_PRODUCTS = 20;
const MAX_PRODUCT_NAME = 100;
const MAX_TARGET = 160;

const ORGANIZATION_TYPE = /^(?:Organization|Corporation|OnlineStore|OnlineBusiness|LocalBusiness|Brand|NGO|.+Store|.+Business|Restaurant|Bakery|CafeOrCoffeeShop)$/;
const PRODUCT_TYPE = /^(?:Product|ProductGroup|IndividualProduct|ProductModel|SomeProducts|Vehicle|Service|SoftwareApplication|WebApplication|MobileApplication|Course|Book)$/;

export function extractProfile(page: PageFacts, siteUrl: string): CompetitorProfile {
  const nodes = jsonLdNodes(page.jsonLd);
  return {
    name: extractName(page, siteUrl, nodes),
    description: extractDescription(page, nodes),
    products: extractProducts(page, nodes),
    targetMarket: extractTargetMarket(page, nodes),
  };
}

// ---------------------------------------------------------------------------------------
// JSON-LD

export type JsonLdNode = Record<string, unknown> & { '@type'?: unknown };

/** Every object of the JSON-LD blocks (arrays, `@graph` and nested values), depth-limited. */
export function jsonLdNodes(values: unknown[]): JsonLdNode[] {
  const out: JsonLdNode[] = [];
  const visit = (value: unknown, depth: number) => {
    if (depth > 8 || out.length > 2000 || value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      for (const v of value) visit(v, depth + 1);
      return;
    }
    const node = value as JsonLdNode;
    out.push(node);
    for (const [key, v] of Object.entries(node)) {
      if (key !== '@context') visit(v, depth + 1);
    }
  };
  for (const v of values) visit(v, 0);
  return out;
}

export function typesOf(node: JsonLdNode): string[] {
  const t = node['@type'];
  const list = Array.isArray(t) ? t : [t];
  return list.filter((x): x is string => typeof x === 'string').map((x) => x.replace(/^.*[/#:]/, ''));
}

const textOf = (value: unknown): string => {
  if (typeof value === 'string') return cleanText(value);
  if (Array.isArray(value)) return textOf(value[0]);
  if (value && typeof value === 'object' && '@value' in value) return textOf((value as Record<string, unknown>)['@value']);
  return '';
};

// ---------------------------------------------------------------------------------------
// name

/** Title parts that are page names, not the company's. */
const GENERIC_TITLE = /^(?:home(?:\s*page)?|welcome|official (?:site|website|store)|online (?:shop|store)|shop|store|index|main)$/i;

export function extractName(page: PageFacts, siteUrl: string, nodes = jsonLdNodes(page.jsonLd)): string {
  const organization = nodes.find((n) => typesOf(n).some((t) => ORGANIZATION_TYPE.test(t)) && textOf(n.name));
  const website = nodes.find((n) => typesOf(n).includes('WebSite') && textOf(n.name));
  const candidates = [
    textOf(organization?.name),
    page.meta['og:site_name'],
    page.meta['application-name'],
    textOf(website?.name),
    nameFromTitle(page.title || page.meta['og:title'] || '', siteUrl),
  ];
  for (const candidate of candidates) {
    const name = cleanText(candidate ?? '');
    if (name && name.length <= MAX_NAME) return name;
  }
  return nameFromDomain(siteUrl);
}

/** `Home | Rival Coffee` → `Rival Coffee`; `Rival – Fresh coffee, delivered` → `Rival`. */
export function nameFromTitle(title: string, siteUrl: string): string {
  const parts = cleanText(title).split(/\s+[|–—·•-]\s+|\s*[|·•]\s*|:\s+/).map((p) => p.trim()).filter((p) => p && !GENERIC_TITLE.test(p));
  if (parts.length === 0) return '';
  if (parts.length === 1) return parts[0];
  const label = domainLabel(siteUrl);
  const squash = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');
  const matching = parts.find((p) => {
    const s = squash(p);
    return s.length >= 2 && label.length >= 2 && (label.includes(s) || s.includes(label));
  });
  if (matching) return matching;
  // Brand names are short; taglines are long. The shorter end of the title is the brand.
  const first = parts[0];
  const last = parts[parts.length - 1];
  return wordCount(last) < wordCount(first) ? last : first;
}

function domainLabel(siteUrl: string): string {
  try {
    return registrableDomain(new URL(siteUrl).hostname).split('.')[0].replace(/[^a-z0-9]/g, '');
  } catch {
    return '';
  }
}

/** `rival-coffee.example` → `Rival Coffee` (last resort: the page names itself nowhere). */
export function nameFromDomain(siteUrl: string): string {
  let host = siteUrl;
  try {
    host = registrableDomain(new URL(siteUrl).hostname);
  } catch {
    // keep the input
  }
  const label = host.split('.')[0] || host;
  return label.split(/[-_]+/).filter(Boolean).map((w) => w[0].toUpperCase() + w.slice(1)).join(' ') || host;
}

const wordCount = (s: string) => s.split(/\s+/).filter(Boolean).length;

// ---------------------------------------------------------------------------------------
// description

export function extractDescription(page: PageFacts, nodes = jsonLdNodes(page.jsonLd)): string {
  const organization = nodes.find((n) => typesOf(n).some((t) => ORGANIZATION_TYPE.test(t)) && textOf(n.description));
  const firstParagraph = page.blocks.find((b) => b.tag === 'p' && b.text.length >= 60 && !b.inProduct)?.text;
  const candidates = [
    page.meta.description,
    page.meta['og:description'],
    page.meta['twitter:description'],
    textOf(organization?.description),
    firstParagraph,
  ];
  for (const candidate of candidates) {
    const text = cleanText(candidate ?? '');
    if (text.length >= 10) return truncate(text, MAX_DESCRIPTION);
  }
  return '';
}

// ---------------------------------------------------------------------------------------
// products

/** Headings of product grids that are section titles, not product names. */
const GENERIC_HEADING = /^(?:(?:our |all |shop |featured |new |popular |trending |best[- ]?selling |top |related |similar )?(?:products?|items?|collections?|categories|range|best ?sellers?|arrivals|picks|favou?rites)|shop(?: all| now)?|new(?: in)?|sale|on sale|featured|trending|popular|bestsellers?|you may also like|recently viewed|reviews?|customer reviews|sold out|add to cart|quick (?:view|shop)|view all|see all|more)$/i;
const PRICE_ONLY = /^[^a-z]*\d[\d.,]*\s*[^a-z]*$/i;

export function extractProducts(page: PageFacts, nodes = jsonLdNodes(page.jsonLd)): string[] {
  const names: string[] = [];
  for (const node of nodes) {
    const types = typesOf(node);
    if (types.some((t) => PRODUCT_TYPE.test(t))) names.push(textOf(node.name));
    if (types.includes('ItemList') || types.includes('OfferCatalog')) {
      const elements = Array.isArray(node.itemListElement) ? node.itemListElement : [];
      for (const element of elements) {
        if (!element || typeof element !== 'object') continue;
        const item = element as JsonLdNode;
        // ListItem {name} or ListItem {item: {name}}; typed items were visited on their own.
        if (typesOf(item).some((t) => PRODUCT_TYPE.test(t))) continue;
        const inner = item.item && typeof item.item === 'object' ? (item.item as JsonLdNode) : null;
        if (inner && typesOf(inner).some((t) => PRODUCT_TYPE.test(t))) continue;
        names.push(textOf(inner?.name) || textOf(item.name));
      }
    }
  }
  for (const block of page.blocks) {
    if (block.inProduct && /^h[2-6]$/.test(block.tag)) names.push(block.text);
  }
  return uniqueBy(
    names.map((n) => cleanText(n)).filter((n) => n.length >= 2 && n.length <= MAX_PRODUCT_NAME && !GENERIC_HEADING.test(n) && !PRICE_ONLY.test(n)),
    (n) => n.toLowerCase(),
  ).slice(0, MAX_PRODUCTS);
}

// ---------------------------------------------------------------------------------------
// target market

/** Phrases in which a site says whom it serves; group 1 is the audience. */
const AUDIENCE_PATTERNS: RegExp[] = [
  /\b(?:designed|made|built|created|crafted|tailored|developed|engineered|curated|handpicked|formulated)\s+(?:specifically\s+|especially\s+|exclusively\s+)?for\s+([^.!?;:()]+)/i,
  /\b(?:perfect|ideal|great|essential)\s+for\s+([^.!?;:()]+)/i,
  /\bwe\s+(?:serve|help|support|equip|outfit|supply|work with)\s+([^.!?;:()]+)/i,
  /\b(?:serving|helping|supporting|equipping|outfitting)\s+([^.!?;:()]+)/i,
  /\bour\s+(?:customers|clients|community|members)\s+(?:are|include)\s+([^.!?;:()]+)/i,
  /\bfor\s+((?:every|any)(?:one|body)\s+who\s+[^.!?;:()]+)/i,
];
/** Captures that name no audience ("made for you", "perfect for every day"). */
const NOT_AN_AUDIENCE = /^(?:you|yourself|your\b.*|us|it|them|this|that|the (?:first|best|long|whole)\b.*|every ?day|everyday|life|years?|decades|good|free|more|less|all|over\b.*|\d.*)$/i;

export function extractTargetMarket(page: PageFacts, nodes = jsonLdNodes(page.jsonLd)): string {
  for (const node of nodes) {
    const audience = node.audience && typeof node.audience === 'object' ? (node.audience as JsonLdNode) : null;
    const text = textOf(audience?.audienceType) || textOf(audience?.name);
    if (text) return truncate(text, MAX_TARGET);
  }
  const texts = [page.meta.description ?? '', ...page.blocks.filter((b) => !b.inProduct && b.tag !== 'td').map((b) => b.text)];
  for (const text of texts) {
    for (const sentence of sentences(text)) {
      for (const pattern of AUDIENCE_PATTERNS) {
        const m = pattern.exec(sentence);
        if (!m) continue;
        const audience = tidyAudience(m[1]);
        if (audience) return audience;
      }
    }
  }
  return '';
}

function tidyAudience(raw: string): string {
  // Stop at a clause that leaves the audience ("..., with free shipping", "... since 2009").
  const cut = raw.split(/,\s*(?:with|since|from|at|and we|so|because|who want to buy)\b|\s+(?:since|because|so that|through|via)\s+/i)[0];
  const text = cleanText(cut).replace(/[\s,–—-]+$/, '');
  if (text.length < 3 || NOT_AN_AUDIENCE.test(text)) return '';
  return truncate(text, MAX_TARGET);
}

// ---------------------------------------------------------------------------------------
// strengths (competitor research)

/** Kinds of claims a visitor would count as a strength; each matching kind adds to a sentence's score. */
const CLAIMS: RegExp[] = [
  /\bfree (?:shipping|delivery|returns?|exchanges?|samples?|trial)\b/i,
  /\b\d+[- ]?(?:day|month|year)s?\b[^.]{0,30}\b(?:returns?|money[- ]back|trial|guarantee|warranty)\b/i,
  /\b(?:guarantee[ds]?|warrant(?:y|ies)|money[- ]back)\b/i,
  /\baward(?:s|-winning|ed)?\b|\bwinner\b|\bvoted\b/i,
  /\b(?:certified|organic|fair[- ]trade|b[- ]corp|vegan|cruelty[- ]free|non-gmo|gluten[- ]free|fsc|gots|oeko-tex)\b/i,
  /\b(?:hand[- ]?(?:made|crafted|thrown|sewn|stitched|poured|painted|built|picked|roasted|finished)|by hand|small[- ]batch|artisan(?:al)?)\b/i,
  /\bmade in\b|\b(?:locally|ethically|responsibly|sustainably) (?:sourced|made|produced)\b|\bsourced (?:directly|from)\b/i,
  /\bsince (?:19|20)\d{2}\b|\bfounded in (?:19|20)\d{2}\b|\b\d+\+? years\b/i,
  /\b\d[\d,.]*\s*(?:k|m|\+)?\+?\s*(?:happy |satisfied |loyal )?(?:customers|clients|reviews|orders|countries|stores|users|members|subscribers|ratings)\b/i,
  /\b(?:rated|5[- ]star|five[- ]star|4\.\d\s*(?:\/\s*5|stars?)|trusted by)\b/i,
  /\b(?:sustainab(?:le|ility)|eco[- ]friendly|recycl(?:ed|able)|carbon[- ](?:neutral|negative)|plastic[- ]free|compostable|biodegradable|renewable)\b/i,
  /\b(?:24\/7|customer (?:support|service|care)|expert(?:s|ise)?|specialists?|personal(?:i[sz]ed)? (?:advice|service|styling))\b/i,
  /\b(?:same[- ]day|next[- ]day|express|fast) (?:shipping|delivery|dispatch)\b|\bships? (?:within|in) \d+\b/i,
  /\b(?:lifetime|patent(?:ed)?|exclusive|largest|leading|first|only)\b/i,
];
/** Boilerplate that matches claim words but says nothing about the business. */
const BOILERPLATE = /\b(?:cookies?|privacy|terms (?:of|and)|subscribe|sign up|newsletter|log ?in|password|javascript|browser|copyright|all rights reserved|unsubscribe)\b/i;

export function extractStrengths(page: PageFacts, max = 5): string[] {
  const scored: Array<{ text: string; score: number; order: number }> = [];
  let order = 0;
  const texts = page.blocks.filter((b) => ['p', 'li', 'dd', 'td', 'h2', 'h3', 'h4', 'blockquote', 'div', 'figcaption', 'summary'].includes(b.tag)).map((b) => b.text);
  for (const text of [page.meta.description ?? '', ...texts]) {
    for (const sentence of sentences(text)) {
      order++;
      if (sentence.length < 15 || sentence.length > 240 || BOILERPLATE.test(sentence)) continue;
      const score = CLAIMS.reduce((sum, claim) => sum + (claim.test(sentence) ? 1 : 0), 0);
      if (score > 0) scored.push({ text: sentence, score, order });
    }
  }
  scored.sort((a, b) => b.score - a.score || a.order - b.order);
  const picked = uniqueBy(scored.map((s) => s.text), (s) => s.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim()).slice(0, max);
  if (picked.length === 0) {
    // No explicit claim: the site's own one-line description is the only honest summary.
    const description = extractDescription(page);
    const first = sentences(description)[0];
    if (first && first.length >= 15) picked.push(truncate(first, 240));
  }
  return picked;
}

// ---------------------------------------------------------------------------------------

/** Sentences of a text block (a list item or heading without end punctuation is one sentence). */
export function sentences(text: string): string[] {
  const clean = cleanText(text);
  if (!clean) return [];
  const out: string[] = [];
  for (const part of clean.split(/(?<=[.!?])\s+(?=[A-Z0-9"“‘(])/)) {
    const s = part.trim();
    if (s) out.push(s);
  }
  return out;
}

function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,;:–—-]+$/, '')}…`;
}

function uniqueBy<T>(values: T[], key: (v: T) => string): T[] {
  const seen = new Set<string>();
  return values.filter((v) => {
    const k = key(v);
    if (!k || seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
