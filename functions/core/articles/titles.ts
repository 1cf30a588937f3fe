/**
 * The title space of AI articles (spec: create-ai-article, rules 2-3): every variation of the
 * 49 question templates for one entity, the existing titles filtered out, one unused variation
 * picked at random. Pure: the clock (`now`) and the random source are passed in.
 *
 * Rules chosen here:
 * - Scope. A business article draws on the 25 business templates (`{industry}`); a product
 *   article on the 24 product templates (`{product}`: the product's kind, `{product_name}`: its
 *   name when the name does not name the business). The spec's six placeholders take the
 *   values of templates.ts; `{problem}` takes the store's own problem phrases (`problemsFrom`),
 *   and templates needing one are skipped when the content states none.
 * - Titles are questions: every template starts with a question word or an auxiliary and ends
 *   with "?"; a variation longer than `MAX_TITLE_CHARS`, or naming the business
 *   (text/name-match.ts `containsName`, any casing or spacing), is dropped.
 * - Identity (`titleIdentity`): two titles are the same topic when they are equal after
 *   prompts/prompt-identity.ts's folding (case, accents, punctuation, spacing, articles,
 *   "is"/"are", plural endings) with every year read as one: "… in 2026?" and "… in 2027?"
 *   are the same topic. The daily refresh moves the year in titles on January 1 (a 2026
 *   title becomes the 2027 one), so two such articles would end up with one title. List sizes
 *   are not folded: "the 5 best" and "the 10 best" are different articles.
 * - Year (`titleYear`): the current UTC year; from December 1 (UTC) the next one, when
 *   "… in <next year>" is what people start asking. Year templates always write "in {year}",
 *   the form the refresh moves.
 * - Pick (`pickTitle`): a template at random among those with an unused variation, then one of
 *   its unused variations at random. Uniform over templates, not over variations, so the
 *   city × audience templates (646 variations each) do not crowd out the others.
 * - Exhaustion: when every variation of the entity's space matches an existing title,
 *   `pickTitle` returns null and the caller answers "skipped: title space exhausted" (no
 *   article, not an error). Because identity ignores the year, the new year opens nothing; the
 *   space reopens only when the content widens it (a new problem phrase the store states, a
 *   new inferred industry, a product's new kind or name). Pass every title of the site (all
 *   entities): articles share one site, one sitemap and one slug space, so a product article
 *   must not repeat another product's title.
 * - Problems (`problemsFrom`): phrases the store's own content states, never invented: the
 *   uses product texts give ("roasted for milk drinks", "ideal for travel": prompts'
 *   `useCases`), and the problems pages, product texts, key facts and Q&A answers say something
 *   prevents, reduces, relieves or helps with ("prevents slipping" → "preventing slipping",
 *   "helps with back pain" → "back pain"). People ("for home baristas") are audiences, not
 *   problems, and are left out. Ranked by how many texts state them; at most
 *   `MAX_BUSINESS_PROBLEMS` for a business (every text of the store), `MAX_PRODUCT_PROBLEMS`
 *   for a product (its own texts first, then those of products of the same product type; the
 *   store's other lines and pages may serve other needs).
 */
import { ValidationError } from '../errors';
import { inferIndustry } from '../generate/industry';
import { pageSentences } from '../generate/evidence';
import { lowerLabel } from '../generate/offline-engine';
import { markdownToText, normalizeSpace, singularKey, splitSentences } from '../generate/text';
import { isMass, kindFromName, nameIsNeutral, pluralPhrase, useCases } from '../prompts/offline-prompts';
import { promptIdentity } from '../prompts/prompt-identity';
import { containsName } from '../text/name-match';
import type { CatalogProduct, SiteNarrative, StoreSnapshot } from '../site/types';
import {
  ARTICLE_AUDIENCES,
  ARTICLE_CITIES,
  ARTICLE_LIST_SIZES,
  QUESTION_TEMPLATES,
  placeholdersOf,
  type Placeholder,
  type QuestionTemplate,
  type TemplateScope,
} from './templates';

/** Longer titles are dropped (schema.org Article `headline`: Google shows at most 110 characters). */
export const MAX_TITLE_CHARS = 110;
const MAX_BUSINESS_PROBLEMS = 6;
const MAX_PRODUCT_PROBLEMS = 4;
/** Month (0-based, UTC) from which `{year}` is the next year: December. */
const NEXT_YEAR_FROM_MONTH = 11;

export interface TitleContext {
  /** Never named in a title. */
  businessName: string;
  /** The inferred industry ("specialty coffee"). */
  industry: string;
  /** Problem phrases of the store's own content (`problemsFrom`); empty skips `{problem}` templates. */
  problems: readonly string[];
  /** Defaults to `ARTICLE_AUDIENCES`. */
  audiences?: readonly string[];
  /** Defaults to `ARTICLE_CITIES`. */
  cities?: readonly string[];
  /** Defaults to `ARTICLE_LIST_SIZES`. */
  listSizes?: readonly number[];
  /** `titleYear(now)`. */
  year: number;
  /** Product articles: the product's kind, a plural or mass noun ("coffee beans"). Its presence makes the scope `product`. */
  productKind?: string | null;
  /** Product articles: the product's name (used only when it does not name the business). */
  productName?: string | null;
}

/** The values a variation was filled with: what the article is about. */
export type TitleSlots = Partial<Record<Placeholder, string>>;

export interface TitleVariation {
  title: string;
  templateId: string;
  scope: TemplateScope;
  slots: TitleSlots;
}

/** The scope of a context: `product` when it names a product kind or name. */
function scopeOf(context: TitleContext): TemplateScope {
  return clean(context.productKind) || clean(context.productName) ? 'product' : 'business';
}

/** A placeholder value as it reads in a sentence; '' when unusable (empty, or it would break the question). */
function clean(value: string | null | undefined): string {
  const text = normalizeSpace(value ?? '').replace(/[.,;:!]+$/, '');
  if (!text || /[?{}<>[\]|\\"]/.test(text)) return '';
  return text;
}

const KEEP_PLURAL = /^(electronics|sports|goods|clothes|glasses|sunglasses|jeans|pants|shorts|leggings|news|series|cosmetics|ceramics|athletics|aesthetics|arts)$/;

function singularWord(word: string): string {
  if (KEEP_PLURAL.test(word) || word.length <= 3) return word;
  if (/[^aeiou]ies$/.test(word)) return `${word.slice(0, -3)}y`;
  if (/(ches|shes|xes|sses|zzes)$/.test(word)) return word.slice(0, -2);
  if (/[^su]s$/.test(word)) return word.slice(0, -1);
  return word;
}

/**
 * The industry as a modifier before a noun: lower case (acronyms kept), a single plural head
 * made singular ("books" → "book shops"); "X and Y" labels stay as they are ("toys and games
 * shops"); a leading "online" goes ("online retail" → "retail shops").
 */
function industryModifier(industry: string): string {
  // The templates say "online" themselves: "online retail" (the default industry) reads "retail".
  const label = lowerLabel(clean(industry)).replace(/^online\s+(?=\S)/i, '');
  if (!label || /\s(and|&)\s/.test(label)) return label;
  const words = label.split(' ');
  const last = words.pop() as string;
  return [...words, singularWord(last)].join(' ');
}

/** The product kind where a count precedes it: mass nouns become "<kind> products" ("5 best brewing equipment products"). */
function countableKind(kind: string): string {
  return isMass(kind) ? `${kind} products` : kind;
}

function fill(template: QuestionTemplate, slots: TitleSlots): string {
  return template.text
    .replace(/\{([a-z_]+)\}/g, (_, name: string) => {
      const value = slots[name as Placeholder];
      if (value === undefined) throw new Error(`no value for {${name}}`);
      return value;
    })
    .replace(/\bthe the\b/gi, 'the'); // "the {product_name}" of a name starting with "The"
}

/** Every value list of a template's placeholders, or null when one has no value (template skipped). */
function valueLists(template: QuestionTemplate, context: TitleContext): Array<[Placeholder, string[]]> | null {
  const industry = industryModifier(context.industry);
  const kind = lowerLabel(clean(context.productKind)) || (industry ? `${industry} products` : '');
  const name = clean(context.productName);
  const lists: Array<[Placeholder, string[]]> = [];
  // After "best" a count or "are" precedes the kind: a mass noun needs "products" there.
  const countable = /\bbest \{product\}/.test(template.text);
  for (const placeholder of placeholdersOf(template.text)) {
    let values: string[];
    switch (placeholder) {
      case 'industry':
        values = industry ? [industry] : [];
        break;
      case 'product':
        values = kind ? [countable ? countableKind(kind) : kind] : [];
        break;
      case 'product_name':
        values = name && usableProductName(name, context.businessName) ? [name] : [];
        break;
      case 'problem':
        values = uniqueValues(context.problems.map((p) => lowerLabel(clean(p))));
        break;
      case 'city':
        values = uniqueValues((context.cities ?? ARTICLE_CITIES).map(clean));
        break;
      case 'audience':
        values = uniqueValues((context.audiences ?? ARTICLE_AUDIENCES).map(clean));
        break;
      case 'year':
        values = Number.isInteger(context.year) ? [String(context.year)] : [];
        break;
      case 'list_size':
        values = uniqueValues((context.listSizes ?? ARTICLE_LIST_SIZES).filter((n) => Number.isInteger(n) && n > 1).map(String));
        break;
    }
    if (!values.length) return null;
    lists.push([placeholder, values]);
  }
  return lists;
}

function uniqueValues(values: readonly string[]): string[] {
  return [...new Set(values.filter(Boolean))];
}

/** A product name fit for a title: short, plain, and not naming the business (nor sharing its distinctive words). */
function usableProductName(name: string, businessName: string): boolean {
  const text = clean(name);
  if (!text || text.length > 60 || text.split(' ').length > 8 || !/\p{L}{2,}/u.test(text)) return false;
  return nameIsNeutral(text, businessName);
}

/** Every variation of the context's templates, in template order; titles naming the business or too long are left out. */
export function titleVariations(context: TitleContext): TitleVariation[] {
  const scope = scopeOf(context);
  const out: TitleVariation[] = [];
  for (const template of QUESTION_TEMPLATES) {
    if (template.scope !== scope) continue;
    const lists = valueLists(template, context);
    if (!lists) continue;
    // Cartesian product of the value lists.
    let combos: TitleSlots[] = [{}];
    for (const [placeholder, values] of lists) {
      combos = combos.flatMap((slots) => values.map((value) => ({ ...slots, [placeholder]: value })));
    }
    for (const slots of combos) {
      const title = fill(template, slots);
      if (title.length > MAX_TITLE_CHARS || containsName(title, context.businessName)) continue;
      out.push({ title, templateId: template.id, scope, slots });
    }
  }
  return out;
}

/** What makes two titles the same topic (see the header): prompt identity with every year read as one. */
export function titleIdentity(title: string): string {
  let identity = identityCache.get(title);
  if (identity === undefined) {
    if (identityCache.size >= IDENTITY_CACHE_SIZE) identityCache.clear();
    identity = promptIdentity(title.replace(/(?<!\d)(?:19|20)\d{2}(?!\d)/g, 'yyyy'));
    identityCache.set(title, identity);
  }
  return identity;
}

/** Identities are asked for the same few thousand variations on every pick: memoised, bounded. */
const IDENTITY_CACHE_SIZE = 50_000;
const identityCache = new Map<string, string>();

/**
 * One unused variation at random (see the header), or null when the entity's title space is
 * exhausted. `random` returns numbers in [0, 1) (`Math.random`, or `seededRandom(seed)`).
 */
export function pickTitle(context: TitleContext, existingTitles: Iterable<string>, random: () => number): TitleVariation | null {
  const used = new Set<string>();
  for (const title of existingTitles) used.add(titleIdentity(title));
  const byTemplate = new Map<string, TitleVariation[]>();
  for (const variation of titleVariations(context)) {
    const identity = titleIdentity(variation.title);
    if (used.has(identity)) continue;
    used.add(identity); // two templates giving one topic: the first one keeps it
    const list = byTemplate.get(variation.templateId);
    if (list) list.push(variation);
    else byTemplate.set(variation.templateId, [variation]);
  }
  const templates = [...byTemplate.values()];
  if (!templates.length) return null;
  const list = templates[randomIndex(random, templates.length)] as TitleVariation[];
  return list[randomIndex(random, list.length)] as TitleVariation;
}

/** How many unused variations remain (the same filter as `pickTitle`). */
export function unusedTitleCount(context: TitleContext, existingTitles: Iterable<string>): number {
  const used = new Set<string>();
  for (const title of existingTitles) used.add(titleIdentity(title));
  let n = 0;
  for (const variation of titleVariations(context)) {
    const identity = titleIdentity(variation.title);
    if (used.has(identity)) continue;
    used.add(identity);
    n += 1;
  }
  return n;
}

function randomIndex(random: () => number, length: number): number {
  const r = random();
  const unit = Number.isFinite(r) ? Math.min(Math.max(r, 0), 1 - Number.EPSILON) : 0;
  return Math.floor(unit * length);
}

/** `{year}` for a moment (see the header): the UTC year, the next one from December 1. */
export function titleYear(now: string): number {
  const date = new Date(now);
  if (Number.isNaN(date.getTime())) throw new ValidationError(`now must be an ISO timestamp, got ${JSON.stringify(now)}`);
  const year = date.getUTCFullYear();
  return date.getUTCMonth() >= NEXT_YEAR_FROM_MONTH ? year + 1 : year;
}

// ---------------------------------------------------------------------------------------
// Problems
// ---------------------------------------------------------------------------------------

/** "prevents X" → "preventing X"; null: the object reads as it is ("helps with back pain" → "back pain"). */
const PROBLEM_VERBS: Array<{ re: RegExp; gerund: string | null }> = [
  { re: /\bprevent(?:s|ing)?\b/i, gerund: 'preventing' },
  { re: /\breduc(?:e|es|ing)\b/i, gerund: 'reducing' },
  { re: /\b(?:reliev(?:e|es|ing)|relief from)\b/i, gerund: 'relieving' },
  { re: /\b(?:avoid(?:s|ing)?|no more|say goodbye to)\b/i, gerund: 'avoiding' },
  { re: /\bsooth(?:e|es|ing)\b/i, gerund: 'soothing' },
  { re: /\beas(?:e|es|ing)\b/i, gerund: 'easing' },
  { re: /\beliminat(?:e|es|ing)\b/i, gerund: 'eliminating' },
  { re: /\bminimi[sz](?:e|es|ing)\b/i, gerund: 'minimizing' },
  { re: /\bprotect(?:s|ing)? against\b/i, gerund: 'protecting against' },
  { re: /\b(?:helps? with|struggl(?:e|es|ing) with|tired of)\b/i, gerund: null },
];
const PROBLEM_CLAUSE = new RegExp(
  `\\b(${PROBLEM_VERBS.map((v) => v.re.source.replace(/^\\b|\\b$/g, '')).join('|')})\\s+([^.;:!?,()]{3,80})`,
  'gi',
);
/** The object ends at a linking word: "prevents slipping during hot yoga" → "slipping". */
const OBJECT_END = /\s+(?:during|when|while|with|without|and|or|so|because|in|on|at|for|from|by|that|which|who|to|after|before|as|thanks|all|every|even)\b/i;
const OBJECT_START_STOP = /^(you|your|yours|it|its|this|that|these|those|them|us|our|any|all|every|more|less|up|out|into|over|of|to|in|on|at|for|with|by|from|as|is|are|was|be|can|will|and|or|but|while|when)$/i;
/** People are audiences, not problems. */
const PEOPLE_HEAD = /^(people|person|everyone|anyone|someone|beginners?|students?|parents?|moms?|dads?|kids?|children|child|babies|baby|toddlers?|teens?|men|women|families|family|lovers?|fans?|enthusiasts?|drinkers?|brewers?|baristas?|roasters?|cooks?|chefs?|bakers?|athletes?|runners?|cyclists?|travell?ers?|hikers?|campers?|yogis?|owners?|professionals?|pros?|experts?|buyers?|shoppers?|customers?|users?|makers?|artists?|gardeners?|readers?|gamers?|collectors?|cafes?|cafés?|restaurants?|offices?|teams?|businesses|business|households?|couples?|friends?|him|her|them|gifters?|givers?|pets?|dogs?|cats?|connoisseurs?|aficionados?|foodies?|newcomers?|homes?)$/i;

function problemPhrase(raw: string, gerund: string | null, businessName: string): string | null {
  const object = (raw.split(OBJECT_END)[0] ?? '').trim();
  let words = object.split(/\s+/).filter(Boolean);
  while (words.length && /^(the|a|an)$/i.test(words[0] as string)) words = words.slice(1);
  if (!words.length || words.length > 4 || OBJECT_START_STOP.test(words[0] as string)) return null;
  const phrase = lowerLabel(words.join(' ').replace(/[^\p{L}\p{N}' -]/gu, '').trim());
  return acceptable(phrase, businessName) ? (gerund ? `${gerund} ${phrase}` : phrase) : null;
}

function acceptable(phrase: string, businessName: string): boolean {
  if (!phrase || phrase.length < 3 || phrase.length > 48 || /\d/.test(phrase) || !/\p{L}{3,}/u.test(phrase)) return false;
  const words = phrase.split(' ');
  if (words.length > 5 || /^(and|or|of|the|a|an|to|with|for)$/i.test(words[words.length - 1] as string)) return false;
  if (PEOPLE_HEAD.test(words[words.length - 1] as string)) return false;
  return !containsName(phrase, businessName);
}

/** The problem phrases one text states: "prevents X" clauses. */
function problemClauses(text: string, businessName: string): string[] {
  const out: string[] = [];
  for (const sentence of splitSentences(text)) {
    for (const m of sentence.matchAll(PROBLEM_CLAUSE)) {
      const verb = PROBLEM_VERBS.find((v) => v.re.test(m[1] as string));
      const phrase = problemPhrase(m[2] as string, verb ? verb.gerund : null, businessName);
      if (phrase) out.push(phrase);
    }
  }
  return out;
}

/** The words a product's own noun has ("coffee beans" → "bean"), for "a dripper for X" uses. */
function kindHeads(product: CatalogProduct): string[] {
  const words = [product.productType, kindFromName(product.name) ?? ''].flatMap((t) => t.toLowerCase().split(/[^\p{L}]+/u)).filter((w) => w.length >= 3);
  const last = product.name.toLowerCase().split(/[^\p{L}]+/u).filter(Boolean).pop();
  if (last && last.length >= 3) words.push(last);
  return [...new Set(words.map(singularWord))];
}

function productTexts(product: CatalogProduct, narrative: SiteNarrative | null | undefined): string[] {
  return [markdownToText(product.description), narrative?.productSummaries[product.productId] ?? ''].filter((t) => t.trim());
}

function productProblems(product: CatalogProduct, narrative: SiteNarrative | null | undefined, businessName: string): string[] {
  const out: string[] = [];
  for (const text of productTexts(product, narrative)) {
    for (const use of useCases(text, kindHeads(product))) if (acceptable(use, businessName)) out.push(lowerLabel(use));
    out.push(...problemClauses(text, businessName));
  }
  return out;
}

/** Phrases in order of how many texts state them, ties in first-seen order, unique by singular key. */
function ranked(phrases: Array<{ phrase: string; weight: number }>, max: number): string[] {
  const counts = new Map<string, { phrase: string; count: number; at: number }>();
  phrases.forEach(({ phrase, weight }, at) => {
    const key = singularKey(phrase);
    const entry = counts.get(key) ?? { phrase, count: 0, at };
    entry.count += weight;
    counts.set(key, entry);
  });
  return [...counts.values()].sort((a, b) => b.count - a.count || a.at - b.at).slice(0, max).map((e) => e.phrase);
}

/**
 * The problem phrases of a business, or of one product (see the header), taken from the
 * store's own content. Empty when it states none.
 */
export function problemsFrom(snapshot: StoreSnapshot, narrative: SiteNarrative | null | undefined, product?: CatalogProduct | null): string[] {
  const businessName = normalizeSpace(snapshot.business.name);
  const phrases: Array<{ phrase: string; weight: number }> = [];
  const add = (list: Iterable<string>, weight: number) => {
    for (const phrase of list) phrases.push({ phrase, weight });
  };
  if (!product) {
    for (const p of snapshot.products) add(new Set(productProblems(p, narrative, businessName)), 1);
    const pageTexts = [
      ...pageSentences(snapshot).map((s) => s.text),
      narrative?.description ?? '',
      ...(narrative?.keyFacts ?? []),
      ...(narrative?.faqs ?? []).map((f) => f.answer),
    ];
    for (const text of pageTexts) add(problemClauses(text, businessName), 1);
    return ranked(phrases, MAX_BUSINESS_PROBLEMS);
  }
  // A product: its own phrases first, then those of products of the same type (a store's
  // other lines may serve other needs: "yoga mats for milk drinks" must not happen).
  add(productProblems(product, narrative, businessName), 1000);
  const type = singularKey(product.productType);
  if (type) {
    for (const p of snapshot.products) {
      if (p.productId !== product.productId && singularKey(p.productType) === type) add(new Set(productProblems(p, narrative, businessName)), 1);
    }
  }
  return ranked(phrases, MAX_PRODUCT_PROBLEMS);
}

// ---------------------------------------------------------------------------------------
// Context
// ---------------------------------------------------------------------------------------

/** Merchandising types that say nothing about what a product is. */
const NOT_A_KIND = /^(sale|new|featured|default|other|misc|gift cards?|bundles?|test|all|products?|items?|uncategori[sz]ed)$/i;

/**
 * A product's kind for `{product}`: its product type (plural, lower case), else the kind its
 * name states (prompts' `kindFromName`), else "<industry> products".
 */
export function productKindOf(product: CatalogProduct, industry: string, businessName: string): string {
  const type = lowerLabel(clean(product.productType));
  if (type && type.split(' ').length <= 4 && !/\d{2,}/.test(type) && !NOT_A_KIND.test(type) && !containsName(type, businessName)) return pluralPhrase(type);
  const fromName = kindFromName(product.name);
  if (fromName) return pluralPhrase(fromName);
  const modifier = industryModifier(industry);
  return modifier ? `${modifier} products` : 'products';
}

/** The context of a business or product article, from the store's snapshot and narrative. */
export function titleContext(
  snapshot: StoreSnapshot,
  narrative: SiteNarrative | null | undefined,
  options: { now: string; product?: CatalogProduct | null },
): TitleContext {
  const businessName = normalizeSpace(snapshot.business.name);
  const industry = normalizeSpace(narrative?.industry ?? '') || inferIndustry(snapshot).industry;
  const base: TitleContext = { businessName, industry, problems: problemsFrom(snapshot, narrative, options.product), year: titleYear(options.now) };
  if (!options.product) return base;
  return { ...base, productKind: productKindOf(options.product, industry, businessName), productName: options.product.name };
}
