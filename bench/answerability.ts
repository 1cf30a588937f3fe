/**
 * Answerability: does an assistant with retrieval find a store's catalogue facts in the AI
 * site, and in the store's own product pages? On every catalogue in ../shared/catalogues
 * (BENCH_CATALOGUES=<dir> elsewhere; absent: nothing to measure), questions are written from
 * the catalogue's data (not from either site), one kind at a time:
 *   price      "How much is <name>?": the price of its cheapest variant in stock, or of its
 *              cheapest variant ("1,299.00" or "1299.00"; "$55" or "55 USD" for "55.00" too)
 *   options    "Which <option> does <name> come in?" per option with 2+ values: every value
 *   sold out   "Is <name> <variant> in stock?" for the first sold-out variant of a product with
 *              some variants in stock: the variant's values with "sold out" / "out of stock" /
 *              "unavailable"
 *   material   "What is <name> made of?" when the description names a material (materialsOf):
 *              any material it names (materialsOf, or attributesOf's material: "timber" is not
 *              on materialsOf's list, so a timber shed with glass windows would be "glass")
 *   size       "What size / capacity is <name>?" when the description or name states
 *              dimensions, else a capacity (attributesOf): the value ("180 x 120 cm" = "180x120cm")
 *   cheapest   "What is the cheapest <type> at <store>?" per product type with 3+ priced
 *              products (placeholder types such as "normal", "standard" left out): the cheapest
 *              product's name with its price (any of them on a tie)
 *   under      "Which <type> cost under <currency> <X>?", X the smallest round figure (1, 1.5, 2,
 *              2.5, 3, 4, 5, 6, 7.5 x 10^n) with 2-8 products of the type below it: each of them
 *              with its price.
 * A material or size the product's name already states is not asked (the question answers it).
 * Retrieval: every document is cut into ~90-word passages headed by its title; BM25 (bm25.ts)
 * over the passages of one site, the question as the query, top 3. An answer counts only
 * beside the product's name: in a passage (title included) that names the product (case,
 * spacing and punctuation folded); for cheapest and under, each product named with its price
 * in one of the 3 passages.
 * AI site: the published files of buildSiteFiles + finalizeSite (offline narrative): every HTML
 * page (visible text of <body>, title its <h1> else <title>) and every text and markdown file
 * (title its first "# " line); robots.txt, sitemaps, scripts, the favicon and the key files
 * are not prose, and data.json is left out too (structured data, not read as prose); a file
 * published twice with the same text (/index.html and /ai/index.html) is read once.
 * Store pages: the catalogue served as a Shopify store with the Dawn theme (store-pages.ts),
 * read the same way, as a crawler without JavaScript reads them (<noscript> is read).
 * Goal (the issue): 95%+ of the questions on every catalogue, and at least the store pages on
 * every kind. Printed in the `answerability` section of `npm run bench` (~15 s); run alone:
 * `npx tsx bench/answerability.ts`. BENCH_ANSWERABILITY_MISSES=<n> also prints n missed
 * questions per catalogue and kind on the AI site with the top passage.
 */
import { readFileSync } from 'node:fs';
import * as cheerio from 'cheerio';
import { buildOfflineNarrative } from '../functions/core/generate';
import { markdownToText } from '../functions/core/generate/text';
import { attributesOf } from '../functions/core/products/attributes';
import type { StorefrontProduct } from '../functions/core/products/catalog';
import { decimalValue, priceSpan, variantsOf } from '../functions/core/products/variants';
import { materialsOf } from '../functions/core/prompts/product-words';
import { buildSiteFiles, finalizeSite } from '../functions/core/site/build';
import type { CatalogProduct, SiteFile, StoreSnapshot } from '../functions/core/site/types';
import { sharedCatalogues } from './articles';
import { bm25Index, passagesOf, type Passage, type RetrievalDocument } from './bm25';
import { heading, int } from './lib';
import { dawnStorePages } from './store-pages';

export const KINDS = ['price', 'options', 'sold out', 'material', 'size', 'cheapest', 'under'] as const;
export type Kind = (typeof KINDS)[number];

const TOP = 3;
const NOW = '2026-03-14T09:12:00.000Z';

/** A passage as the judge reads it: its text folded for names and words, and squashed for sizes. */
export interface ReadPassage {
  raw: string;
  folded: string;
  squashed: string;
}

/** One thing the answer must show: the product's name and, in the same passage, `answers`. */
export interface Fact {
  name: string;
  answers: (p: ReadPassage) => boolean;
}

export interface Question {
  kind: Kind;
  text: string;
  /** The expected answer, for people reading a miss. */
  answer: string;
  /** Answered when every fact of one alternative is found in a top passage (ties for cheapest give several). */
  alternatives: Fact[][];
}

/** Lowercase, apostrophes dropped, every other run of non-letters and non-digits one space, padded with spaces. */
export function fold(text: string): string {
  return ` ${text.toLowerCase().replace(/['’]/g, '').replace(/[^\p{L}\p{N}]+/gu, ' ').trim()} `;
}

const squash = (text: string): string => text.toLowerCase().replace(/×/g, 'x').replace(/\s+/g, '');

export function readPassage(text: string): ReadPassage {
  return { raw: text, folded: fold(text), squashed: squash(text) };
}

const says = (p: ReadPassage, words: string): boolean => p.folded.includes(fold(words));

const CODES = '(?:USD|NZD|GBP|EUR|AUD|CAD)';

/**
 * A price as stores write it: "1,299.00" or "1299.00"; a whole amount also without its
 * decimals, next to a currency sign or code ("$55", "£1,299", "55 USD", "GBP 55").
 */
export function priceMatcher(amount: string): (p: ReadPassage) => boolean {
  const [whole, cents = ''] = amount.trim().replace(/,/g, '').split('.');
  const digits = whole!.replace(/\B(?=(\d{3})+$)/g, ',?');
  const end = String.raw`(?![\d]|[.,]\d)`;
  const forms = [String.raw`(?<![\d.,])${digits}\.${cents.padEnd(2, '0')}${end}`];
  if (/^0*$/.test(cents)) forms.push(String.raw`(?:[$£€]\s?|\b${CODES} )${digits}${end}`, String.raw`(?<![\d.,])${digits} ?${CODES}\b`);
  const re = new RegExp(forms.join('|'));
  return (p) => re.test(p.raw);
}

/** A product's price: the lowest of its variants in stock (the catalogue's price) or of all of them (the lowest figure). */
function priceAnswers(product: CatalogProduct): { answer: string; answers: Fact['answers'] } {
  const figures = [...new Set([product.price, priceSpan(product)?.low].filter((x): x is string => decimalValue(x ?? null) !== null))];
  const matchers = figures.map(priceMatcher);
  return { answer: figures.join(' or '), answers: (p) => matchers.some((m) => m(p)) };
}

const SOLD_OUT = [' sold out ', ' out of stock ', ' unavailable '];

const PLACEHOLDER_TYPES = new Set(['', 'normal', 'standard', 'default', 'product', 'products', 'all', 'other', 'misc']);

/** Each option's distinct values, in order (options of one value and Shopify's "Title" left out). */
function optionsWithValues(product: CatalogProduct): Array<{ name: string; values: string[] }> {
  const variants = variantsOf(product);
  return (product.optionNames ?? []).map((name, d) => ({ name, values: [...new Set(variants.map((v) => v.options[d]).filter((x): x is string => Boolean(x)))] }))
    .filter((o) => o.values.length >= 2 && !/^title$/i.test(o.name) && !o.values.some((v) => /^default title$/i.test(v)));
}

const single = (kind: Kind, text: string, answer: string, name: string, answers: Fact['answers']): Question => ({ kind, text, answer, alternatives: [[{ name, answers }]] });

/** The questions one product raises (see the header). */
export function productQuestions(product: CatalogProduct): Question[] {
  const name = product.name;
  const out: Question[] = [];
  const price = priceAnswers(product);
  if (price.answer) out.push(single('price', `How much is ${name}?`, price.answer, name, price.answers));
  for (const option of optionsWithValues(product)) {
    out.push(single('options', `Which ${option.name.toLowerCase()} does ${name} come in?`, option.values.join(', '), name, (p) => option.values.every((v) => says(p, v))));
  }
  const variants = variantsOf(product);
  const soldOut = variants.find((v) => !v.available && v.options.length > 0);
  if (soldOut && variants.some((v) => v.available)) {
    out.push(single('sold out', `Is ${name} ${soldOut.title} in stock?`, `${soldOut.title}: sold out`, name, (p) => soldOut.options.every((v) => says(p, v)) && SOLD_OUT.some((s) => p.folded.includes(s))));
  }
  const attributes = attributesOf(product.description, name, product.optionNames ?? []);
  const described = materialsOf(markdownToText(product.description));
  const materials = [...new Set([...described, attributes.get('material')?.value].filter((m): m is string => Boolean(m)))];
  if (described.length && !materials.some((m) => says(readPassage(name), m))) {
    out.push(single('material', `What is ${name} made of?`, materials.join(' or '), name, (p) => materials.some((m) => says(p, m))));
  }
  const size = attributes.get('dimensions') ?? attributes.get('capacity');
  if (size && !squash(name).includes(squash(size.value))) {
    const re = new RegExp(`(?<![\\d.])${squash(size.value).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);
    out.push(single('size', `What ${size.key === 'capacity' ? 'capacity' : 'size'} is ${name}?`, size.value, name, (p) => re.test(p.squashed)));
  }
  return out;
}

/** 1, 1.5, 2, 2.5, 3, 4, 5, 6, 7.5 times a power of ten. */
const ROUND = Array.from({ length: 8 }, (_, e) => [1, 1.5, 2, 2.5, 3, 4, 5, 6, 7.5].map((m) => m * 10 ** e)).flat();

/** The questions of one product type with 3+ priced products: the cheapest, and which cost under a round figure. */
export function typeQuestions(type: string, products: readonly CatalogProduct[], storeName: string, currency: string): Question[] {
  const priced = products.map((p) => ({ p, value: decimalValue(p.price) })).filter((x): x is { p: CatalogProduct; value: number } => x.value !== null);
  if (priced.length < 3) return [];
  const fact = (p: CatalogProduct): Fact => ({ name: p.name, answers: priceAnswers(p).answers });
  const low = Math.min(...priced.map((x) => x.value));
  const cheapest = priced.filter((x) => x.value === low);
  const out: Question[] = [{
    kind: 'cheapest', text: `What is the cheapest ${type} at ${storeName}?`, answer: `${cheapest.map((x) => x.p.name).join(' or ')}, ${cheapest[0]!.p.price}`,
    alternatives: cheapest.map((x) => [fact(x.p)]),
  }];
  const limit = ROUND.find((r) => priced.filter((x) => x.value < r).length >= 2);
  const under = limit === undefined ? [] : priced.filter((x) => x.value < limit);
  if (under.length >= 2 && under.length <= 8) {
    out.push({
      kind: 'under', text: `Which ${type} cost under ${currency} ${Number.isInteger(limit) ? int(limit!) : limit}?`, answer: under.map((x) => `${x.p.name} ${x.p.price}`).join('; '),
      alternatives: [under.map((x) => fact(x.p))],
    });
  }
  return out;
}

/** Every question of a catalogue: its products', then its product types'. */
export function catalogueQuestions(snapshot: StoreSnapshot): Question[] {
  const byType = new Map<string, CatalogProduct[]>();
  for (const p of snapshot.products) {
    const type = p.productType.trim().toLowerCase();
    if (!PLACEHOLDER_TYPES.has(type)) byType.set(type, [...(byType.get(type) ?? []), p]);
  }
  const currency = snapshot.products.find((p) => p.currency)?.currency ?? 'USD';
  return [
    ...snapshot.products.flatMap(productQuestions),
    ...[...byType].flatMap(([type, products]) => typeQuestions(type, products, snapshot.business.name, currency)),
  ];
}

/** Whether the top passages answer a question: one alternative's facts each beside the product's name. */
export function judge(question: Question, top: readonly ReadPassage[]): boolean {
  return question.alternatives.some((facts) => facts.every((f) => top.some((p) => says(p, f.name) && f.answers(p))));
}

const words = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** The parsed page's nodes as far as reading them goes. */
interface PageNode {
  type: string;
  name?: string;
  data?: string;
  children?: PageNode[];
}

const UNREAD = new Set(['script', 'style', 'template']);

/** Every text node's text, one space between nodes (so "<dt>Price</dt><dd>$5</dd>" reads "Price $5"). */
function textOf(node: PageNode, out: string[]): string[] {
  if (node.type === 'text') out.push(node.data ?? '');
  else if (!UNREAD.has(node.name ?? '')) for (const child of node.children ?? []) textOf(child, out);
  return out;
}

/** An HTML page as a crawler without JavaScript reads it: the text of <body> (no script or style), titled by its <h1>. */
export function htmlDocument(path: string, html: string): RetrievalDocument {
  const $ = cheerio.load(html, { scriptingEnabled: false });
  const title = words($('h1').first().text()) || words($('title').first().text());
  const body = $('body').get(0) as PageNode | undefined;
  return { path, title, text: body ? words(textOf(body, []).join(' ')) : '' };
}

const NOT_PROSE = /^\/(?:robots\.txt|sitemap[^/]*\.xml)$|^\/ai\/sitemaps\//;

/** The documents of a site a retriever reads (see the header): HTML, text and markdown; identical copies once. */
export function siteDocuments(files: ReadonlyArray<{ path: string; content: string; contentType: string }>): RetrievalDocument[] {
  const seen = new Set<string>();
  const out: RetrievalDocument[] = [];
  for (const file of files) {
    if (NOT_PROSE.test(file.path)) continue;
    let doc: RetrievalDocument | null = null;
    if (/^text\/html/.test(file.contentType)) doc = htmlDocument(file.path, file.content);
    else if (/^text\/(?:plain|markdown)/.test(file.contentType) && /\s/.test(file.content.trim())) {
      doc = { path: file.path, title: words(/^# (.+)$/m.exec(file.content)?.[1] ?? ''), text: words(file.content) };
    }
    if (!doc || seen.has(`${doc.title}\n${doc.text}`)) continue;
    seen.add(`${doc.title}\n${doc.text}`);
    out.push(doc);
  }
  return out;
}

/** A site ready to be asked: its passages, their BM25 index, and how many documents they came from. */
export interface Retriever {
  documents: number;
  passages: Passage[];
  top(query: string): Passage[];
}

export function retriever(documents: readonly RetrievalDocument[]): Retriever {
  const passages = documents.flatMap((d) => passagesOf(d));
  const index = bm25Index(passages.map((p) => p.text));
  return { documents: documents.length, passages, top: (query) => index.search(query, TOP).map((i) => passages[i]!) };
}

export interface KindFigure {
  kind: Kind;
  questions: number;
  aiSite: number;
  storePages: number;
}

export interface Miss {
  kind: Kind;
  question: string;
  answer: string;
  /** The AI site's best passage for it: its document and text. */
  top: string;
}

export interface CatalogueAnswerability {
  label: string;
  currency: string;
  products: number;
  aiSite: { documents: number; passages: number };
  storePages: { documents: number; passages: number };
  kinds: KindFigure[];
  total: Omit<KindFigure, 'kind'>;
  /** Questions the AI site missed (all of them; the printout shows a few). */
  misses: Miss[];
  ms: number;
}

export interface AnswerabilityReport {
  catalogues: CatalogueAnswerability[];
  /** Over every catalogue. */
  kinds: KindFigure[];
  total: Omit<KindFigure, 'kind'>;
}

/** The published AI site of a snapshot, built with the offline narrative through the site builder's public functions. */
export function publishedAiSite(snapshot: StoreSnapshot): SiteFile[] {
  const files = buildSiteFiles(snapshot, buildOfflineNarrative(snapshot), { now: NOW, indexNowKey: 'a1b2c3d4e5f60718', trackingEndpoint: 'https://api.example/hook' });
  const { business } = snapshot;
  return finalizeSite(files, {
    orgSlug: business.orgSlug, businessName: business.name, sourceUrl: business.url, publicOrigin: `https://ai.${business.orgSlug}.example`,
    storeSitemapUrls: snapshot.storeSitemapUrls, deployedAt: NOW,
  });
}

function sumFigures(figures: ReadonlyArray<Omit<KindFigure, 'kind'>>): Omit<KindFigure, 'kind'> {
  return figures.reduce((s, f) => ({ questions: s.questions + f.questions, aiSite: s.aiSite + f.aiSite, storePages: s.storePages + f.storePages }), { questions: 0, aiSite: 0, storePages: 0 });
}

function byKind(rows: ReadonlyArray<{ kind: Kind; ai: boolean; store: boolean }>): KindFigure[] {
  return KINDS.map((kind) => {
    const of = rows.filter((r) => r.kind === kind);
    return { kind, questions: of.length, aiSite: of.filter((r) => r.ai).length, storePages: of.filter((r) => r.store).length };
  });
}

/** One catalogue's figures: the questions asked of its AI site and of its store pages. */
export function measureCatalogue(label: string, snapshot: StoreSnapshot, bodyHtml: (p: CatalogProduct) => string): CatalogueAnswerability {
  const t0 = performance.now();
  const ai = retriever(siteDocuments(publishedAiSite(snapshot)));
  const store = retriever(siteDocuments(dawnStorePages(snapshot, bodyHtml)));
  const misses: Miss[] = [];
  const rows = catalogueQuestions(snapshot).map((q) => {
    const aiTop = ai.top(q.text);
    const answered = judge(q, aiTop.map((p) => readPassage(p.text)));
    if (!answered) misses.push({ kind: q.kind, question: q.text, answer: q.answer, top: aiTop[0] ? `${aiTop[0].path}: ${aiTop[0].text}` : '(nothing)' });
    return { kind: q.kind, ai: answered, store: judge(q, store.top(q.text).map((p) => readPassage(p.text))) };
  });
  const kinds = byKind(rows);
  return {
    label, currency: snapshot.products.find((p) => p.currency)?.currency ?? 'USD', products: snapshot.products.length,
    aiSite: { documents: ai.documents, passages: ai.passages.length }, storePages: { documents: store.documents, passages: store.passages.length },
    kinds, total: sumFigures(kinds), misses, ms: performance.now() - t0,
  };
}

/** Each product's description HTML (`body_html`) from a `/products.json` file, by product id. */
function bodyHtmlOf(file: string, snapshot: StoreSnapshot): (p: CatalogProduct) => string {
  const raw = (JSON.parse(readFileSync(file, 'utf8')) as { products: StorefrontProduct[] }).products;
  const byId = new Map(snapshot.products.map((p, i) => [p.productId, raw[i]?.body_html ?? '']));
  return (p) => byId.get(p.productId) ?? '';
}

export function measureAnswerability(): AnswerabilityReport {
  const catalogues = sharedCatalogues().map((c) => measureCatalogue(c.label, c.snapshot, bodyHtmlOf(c.file, c.snapshot)));
  const kinds = KINDS.map((kind) => ({ kind, ...sumFigures(catalogues.map((c) => c.kinds.find((k) => k.kind === kind)!)) }));
  return { catalogues, kinds, total: sumFigures(kinds) };
}

const pct = (a: number, n: number): string => (n ? `${((100 * a) / n).toFixed(1)}%` : '-');

function figureLine(label: string, f: Omit<KindFigure, 'kind'>): string {
  return `${label.padEnd(9)} ${String(f.questions).padStart(5)}  AI site ${`${f.aiSite}/${f.questions}`.padStart(9)} (${pct(f.aiSite, f.questions).padStart(6)}) | ` +
    `store pages ${`${f.storePages}/${f.questions}`.padStart(9)} (${pct(f.storePages, f.questions).padStart(6)})`;
}

function kindLines(kinds: readonly KindFigure[], total: Omit<KindFigure, 'kind'>): string[] {
  return [...kinds.filter((k) => k.questions > 0).map((k) => `  ${figureLine(k.kind, k)}`), `  ${figureLine('total', total)}`];
}

/** The goal: 95%+ on every catalogue, and at least the store pages on every kind (over all catalogues). */
function goalLine(r: AnswerabilityReport): string {
  const met = r.catalogues.filter((c) => c.total.aiSite >= 0.95 * c.total.questions).length;
  const asked = r.kinds.filter((k) => k.questions > 0);
  const behind = asked.filter((k) => k.aiSite < k.storePages).map((k) => k.kind);
  return `goal: 95%+ on ${met} of ${r.catalogues.length} catalogues; AI site >= store pages on ${asked.length - behind.length} of ${asked.length} kinds` +
    (behind.length ? ` (behind on ${behind.join(', ')})` : '');
}

const NOTHING = 'no shared catalogues (../shared/catalogues, or BENCH_CATALOGUES=<dir>)';

export function answerabilityLines(r: AnswerabilityReport, missesPerKind = 0): string[] {
  if (!r.catalogues.length) return [NOTHING];
  const lines: string[] = [];
  for (const c of r.catalogues) {
    lines.push(`${c.label}, ${c.currency}: AI site ${int(c.aiSite.passages)} passages of ${c.aiSite.documents} documents, ` +
      `store pages ${int(c.storePages.passages)} of ${c.storePages.documents}; ${c.ms.toFixed(0)} ms`);
    lines.push(...kindLines(c.kinds, c.total));
    for (const kind of KINDS) {
      for (const m of c.misses.filter((x) => x.kind === kind).slice(0, missesPerKind)) lines.push(`    missed ${kind}: ${m.question} (${m.answer.slice(0, 200)})`, `      top: ${m.top.slice(0, 400)}`);
    }
  }
  lines.push(`all ${r.catalogues.length} catalogues:`, ...kindLines(r.kinds, r.total), goalLine(r));
  return lines;
}

/** The summary rows: each catalogue's total, then the goal. */
export function answerabilitySummary(r: AnswerabilityReport): string[] {
  if (!r.catalogues.length) return [NOTHING];
  return [
    ...r.catalogues.map((c) => `${c.label.replace(/ \(.*/, '')}: AI site ${pct(c.total.aiSite, c.total.questions)} | store pages ${pct(c.total.storePages, c.total.questions)} of ${c.total.questions}`),
    `all: AI site ${pct(r.total.aiSite, r.total.questions)} | store pages ${pct(r.total.storePages, r.total.questions)} of ${int(r.total.questions)} questions`,
    goalLine(r),
  ];
}

if (require.main === module) {
  heading('answerability');
  const report = measureAnswerability();
  for (const line of answerabilityLines(report, Number(process.env.BENCH_ANSWERABILITY_MISSES ?? 0))) console.log(line);
}
