/**
 * The page of one AI article (spec: "AI article"; D28): `/<slug>/index.html`, reachable as
 * `/ai/<slug>/` on the AI-site host and on a customer domain. Pure, offline, deterministic.
 *
 * Built from the AI site's own content only (spec: "generated from the AI site content
 * (llms.txt, data.json, HTML), not from the original website"): the llms.txt summary and
 * details, data.json's organization and product nodes, the product, collection and Q&A pages
 * and the markdown replicas of the store's pages, plus the catalogue entry of the product a
 * product article is about. Extractive: every sentence of the body is a sentence of that
 * content (quoted as written, markup removed), a "Label: value" line whose value is a field of
 * that content, or one of the fixed connectives below (`ARTICLE_CONNECTIVES`) filled with
 * the store's, the product's or the title's own words. Nothing is inferred or invented: when
 * the content says little, the article is short and says so.
 *
 * Layout: the question as `<h1>`; a short answer first (for a product: that the store lists
 * it, then its own best sentences; for the business: the llms.txt summary, then the content's
 * most relevant sentences); "About the <product>" (its description without price sentences, and
 * its type, vendor, options, materials and features; availability dated "on <published date>"
 * because it changes; prices stay in the product page's offers, never in prose: issue 10);
 * "What <store> says" (the other relevant sentences); "Shipping and returns" when the question
 * is about buying or a city; "Products" (links to the relevant product pages); "Questions and
 * answers" (the site's relevant Q&A, linked); "Related articles" (from `existingPosts`);
 * "Sources" (the AI pages quoted, the AI guide, llms.txt, the store). Relevance = shared words
 * with the title and its slots (problem and product words count double; a buying or city
 * question also counts shipping words); ties keep the content's order. Empty sections are
 * left out. Reading the site (`readArticleSources`) is the costly part; a caller writing many
 * articles for one site reads it once and passes it to every `buildArticleFiles` call.
 *
 * Head and dates (as every AI page, html.ts `renderPage`): canonical = its own URL on the
 * public origin in the routed form `/ai/<slug>/` (issue 10, D113: content of its own), og:type
 * `article`, `article:published_time` = `article:modified_time` = the published date (a new
 * article; D112), JSON-LD `Article` (headline, datePublished, dateModified, author and
 * publisher = the store's Organization, mainEntityOfPage, about) plus an `FAQPage` node when it
 * quotes Q&A; footer `Last updated` = published date and `Last checked` = `now`; the
 * `ai-site:content-hash` of the page rendered with placeholder dates and the title's year
 * neutral (core/site/dates.ts), so the daily refresh's year move is no content change. Links
 * use the path helpers (paths.ts `hrefForFile`, `aiHref`) so they resolve on both hosts. No
 * markdown twin: the site's own-content pages (Q&A) have none.
 */
import { ValidationError } from '../errors';
import { classifyFact } from '../generate/evidence';
import { dedupeKey, markdownBlocks, markdownToText, normalizeSpace, singularKey, splitSentences, statesPrice, wordCount } from '../generate/text';
import { featuresOf, materialsOf } from '../prompts/offline-prompts';
import { variantsOf } from '../products/variants';
import { HASH_DATE, contentHash } from '../site/dates';
import { CONTENT_TYPES, escapeHtml, humanDate, isoSeconds, linkList, oneLine, renderPage, truncate, utcYear } from '../site/html';
import { stockStatement } from '../site/offers';
import { SITE_PATHS, aiHref, hrefForFile, publicUrlOfFile } from '../site/paths';
import { SCHEMA_CONTEXT, faqPageNode, organizationId } from '../site/structured-data';
import type { CatalogProduct, FaqEntry, SiteFile } from '../site/types';
import { MiniElement, parseHtmlFragment } from '../text/mini-dom';
import { articleFilePath, articlePath as pathOfSlug } from './slugs';
import type { TitleSlots } from './titles';

export type FaqCategory = 'business_article' | 'product_article';

export interface ExistingPost {
  title: string;
  /** `/<slug>/` (the spec's `article_path`). */
  article_path: string;
}

export interface ArticleInput {
  /** A question (titles.ts `pickTitle`). */
  title: string;
  /** slugs.ts `articleSlug`. */
  slug: string;
  business: { name: string; url: string };
  /** The product of a product article (its catalogue entry); absent for a business article. */
  product?: CatalogProduct | null;
  /** What the title's placeholders were filled with (`TitleVariation.slots`): sharpens relevance. */
  slots?: TitleSlots;
  /** The AI site's `/llms.txt`. */
  llmsTxt: string;
  /** The AI site's `/data.json`, parsed. */
  dataJson: unknown;
  /** The AI site's HTML pages and markdown replicas (other files are ignored). */
  pages: readonly SiteFile[];
  /** ISO: `backdate_to`, or now (`publishedDateOf`). */
  publishedDate: string;
  /** ISO time of this build: the footer's "Last checked". Defaults to `publishedDate`. */
  now?: string;
  /** The site's other articles, for "Related articles". */
  existingPosts: readonly ExistingPost[];
}

export interface ArticleBuild {
  files: SiteFile[];
  title: string;
  slug: string;
  /** `/<slug>/`. */
  articlePath: string;
  /** ISO, whole seconds. */
  publishedDate: string;
  faqCategory: FaqCategory;
  /** Paths of the AI-site files the article quotes. */
  sources: string[];
}

/** Sentences the article writes itself, always filled with the content's own words (see the header). */
export const ARTICLE_CONNECTIVES: readonly RegExp[] = [
  /^.+ lists (the|The) .+ in its online store\.$/,
  /^The site of .+ does not mention .+\.$/,
  /^The site of .+ says little more about this question\.$/,
];

/** Longest quoted sentence, in words. */
const MAX_SENTENCE_WORDS = 60;
const LIMITS = { answer: 2, said: 6, shipping: 4, products: 6, qa: 4, related: 5, description: 8 } as const;

// ---------------------------------------------------------------------------------------
// Reading the AI site
// ---------------------------------------------------------------------------------------

export interface Source {
  /** AI-site file path. */
  path: string;
  label: string;
}

export interface Statement {
  text: string;
  source: Source;
}

export interface QaEntry {
  question: string;
  answer: string;
  path: string;
}

export interface ProductEntry {
  name: string;
  /** Store URL (the product page's canonical). */
  url: string;
  path: string;
  summary: string;
  category: string;
  /** Description sentences of the product page. */
  description: string[];
}

/** What an article may quote, read once from the AI site (`readArticleSources`) and reusable for many articles. */
export interface ArticleSources {
  summary: Statement | null;
  statements: Statement[];
  qa: QaEntry[];
  products: ProductEntry[];
}

const BOILERPLATE = /cookie|privacy policy|terms of (service|use)|all rights reserved|©|javascript|newsletter|subscribe|sign up|log ?in|password|add to cart|your cart|checkout|skip to (main )?content|powered by|\bllms\b|catalogue|optional section|are listed per|authoritative/i;

/** A sentence that can stand in an article as a fact: a statement of 4-60 words, no price, no link, no boilerplate. */
function isQuotable(sentence: string): boolean {
  const text = normalizeSpace(sentence);
  const words = wordCount(text);
  if (words < 4 || words > MAX_SENTENCE_WORDS || text.endsWith('?') || text.endsWith(':')) return false;
  if (!/\p{L}{3,}/u.test(text) || /https?:\/\/|www\.|[<>{}]/i.test(text)) return false;
  return !statesPrice(text) && !BOILERPLATE.test(text);
}

function sentencesOf(text: string): string[] {
  return splitSentences(text).map(normalizeSpace).filter(isQuotable);
}

function text(el: MiniElement | undefined | null): string {
  return el ? oneLine(el.textContent) : '';
}

function firstTag(el: MiniElement, name: string): MiniElement | undefined {
  return el.getElementsByTagName(name)[0];
}

function canonicalOf(root: MiniElement): string {
  const link = root.getElementsByTagName('link').find((l) => (l.getAttribute('rel') ?? '').toLowerCase() === 'canonical');
  return link?.getAttribute('href') ?? '';
}

/** The `<article>` children in order, each with the `<h2>` it falls under ('' before the first). */
function sectionsOf(article: MiniElement): Array<{ section: string; el: MiniElement }> {
  const out: Array<{ section: string; el: MiniElement }> = [];
  let section = '';
  for (const el of article.children) {
    if (el.localName === 'h2') section = text(el);
    else out.push({ section, el });
  }
  return out;
}

function blockTexts(el: MiniElement): string[] {
  if (el.localName === 'p') return [text(el)];
  if (el.localName === 'ul' || el.localName === 'ol') return el.children.filter((c) => c.localName === 'li').map(text);
  return [];
}

function readProductPage(file: SiteFile): ProductEntry | null {
  const root = parseHtmlFragment(file.content);
  const article = firstTag(root, 'article');
  if (!article) return null;
  let summary = '';
  let category = '';
  const description: string[] = [];
  for (const { section, el } of sectionsOf(article)) {
    if (section === '' && el.localName === 'p' && !summary && !firstTag(el, 'a')) summary = text(el);
    if (section === '' && el.localName === 'dl') {
      const terms = el.children;
      terms.forEach((dt, i) => {
        if (dt.localName === 'dt' && text(dt) === 'Product type') category = text(terms[i + 1]);
      });
    }
    if (section === 'Description' && !firstTag(el, 'a')) for (const block of blockTexts(el)) description.push(...sentencesOf(block));
  }
  return { name: text(firstTag(article, 'h1')), url: canonicalOf(root), path: file.path, summary, category, description };
}

function readQaPage(file: SiteFile): QaEntry | null {
  const article = firstTag(parseHtmlFragment(file.content), 'article');
  if (!article) return null;
  const question = text(firstTag(article, 'h1'));
  const answer = article.children.filter((c) => c.localName === 'p').map(text).filter(Boolean).join('\n\n');
  return question && answer ? { question, answer, path: file.path } : null;
}

function readCollectionPage(file: SiteFile): Statement[] {
  const article = firstTag(parseHtmlFragment(file.content), 'article');
  if (!article) return [];
  const source = { path: file.path, label: text(firstTag(article, 'h1')) || 'Collection' };
  return sectionsOf(article)
    .filter(({ section, el }) => section === '' && el.localName === 'p' && !firstTag(el, 'a'))
    .flatMap(({ el }) => sentencesOf(text(el)).map((t) => ({ text: t, source })));
}

function readReplica(file: SiteFile): Statement[] {
  const title = /^#\s+(.+)$/m.exec(file.content)?.[1] ?? file.path;
  const cut = file.content.indexOf('\n---\n');
  const body = cut === -1 ? file.content : file.content.slice(cut + 5);
  const source = { path: file.path, label: oneLine(title) };
  return markdownBlocks(body)
    .filter((b) => b.kind !== 'heading')
    .flatMap((b) => sentencesOf(b.text).map((t) => ({ text: t, source })));
}

/** Summary and detail sentences of llms.txt (the part before its file lists). */
function readLlms(llmsTxt: string): { summary: Statement | null; statements: Statement[] } {
  const source = { path: SITE_PATHS.llmsTxt, label: 'llms.txt' };
  const quote = /^>\s*(.+)$/m.exec(llmsTxt);
  const summaryText = quote ? sentencesOf(quote[1] as string)[0] : undefined;
  const head = llmsTxt.split(/^## /m)[0] ?? '';
  const details = head.replace(/^#\s.*$/m, '').replace(/^>.*$/m, '');
  const statements: Statement[] = [];
  for (const block of markdownBlocks(details)) {
    if (block.kind === 'heading' || block.text.endsWith(':')) continue;
    // "Industry: specialty coffee", "Store: https://…": labels of the file, not sentences.
    if (/^[\p{L} ]{2,30}: /u.test(block.text) && block.kind === 'item') continue;
    for (const t of sentencesOf(block.text)) statements.push({ text: t, source });
  }
  return { summary: summaryText ? { text: summaryText, source } : null, statements };
}

function graphOf(dataJson: unknown): Array<Record<string, unknown>> {
  if (!dataJson || typeof dataJson !== 'object') return [];
  const graph = (dataJson as Record<string, unknown>)['@graph'];
  return Array.isArray(graph) ? graph.filter((n): n is Record<string, unknown> => Boolean(n) && typeof n === 'object') : [];
}

function typesOf(node: Record<string, unknown>): string[] {
  const t = node['@type'];
  return Array.isArray(t) ? t.map(String) : typeof t === 'string' ? [t] : [];
}

/**
 * Reads the AI site's content an article may quote. Parsing every page is the costly part
 * (~1 s for 5,000 product pages): a caller writing many articles for one site reads once and
 * passes the result to each `buildArticleFiles` call.
 */
export function readArticleSources(input: Pick<ArticleInput, 'llmsTxt' | 'dataJson' | 'pages'>): ArticleSources {
  const llms = readLlms(input.llmsTxt);
  const statements: Statement[] = [...llms.statements];
  const dataSource = { path: SITE_PATHS.dataJson, label: 'Structured data' };
  const products: ProductEntry[] = [];
  const qa: QaEntry[] = [];
  const graph = graphOf(input.dataJson);
  for (const node of graph) {
    if (typesOf(node).includes('Organization') && typeof node.description === 'string') {
      for (const t of sentencesOf(node.description)) statements.push({ text: t, source: dataSource });
    }
  }
  const pages = [...input.pages].sort((a, b) => a.path.localeCompare(b.path));
  for (const file of pages) {
    let m: RegExpExecArray | null;
    if (/^\/ai\/products\/[^/]+\/index\.html$/.test(file.path)) {
      const product = readProductPage(file);
      if (product) products.push(product);
    } else if (/^\/ai\/collections\/[^/]+\/index\.html$/.test(file.path)) {
      statements.push(...readCollectionPage(file));
    } else if ((m = /^\/ai\/([^/]+)\/index\.html$/.exec(file.path)) && m[1] !== 'questions') {
      const entry = readQaPage(file);
      if (entry) qa.push(entry);
    } else if (/^\/pages\/[^/]+\.md$/.test(file.path)) {
      statements.push(...readReplica(file));
    }
  }
  // data.json's product nodes give a summary where a product page has none.
  for (const node of graph) {
    if (!typesOf(node).some((t) => t === 'Product' || t === 'ProductGroup')) continue;
    const entry = products.find((p) => p.url === node.url);
    if (entry && !entry.summary && typeof node.description === 'string') entry.summary = oneLine(node.description);
  }
  return { summary: llms.summary, statements: uniqueStatements(statements), qa, products };
}

function uniqueStatements(statements: readonly Statement[]): Statement[] {
  const seen = new Set<string>();
  return statements.filter((s) => {
    const key = dedupeKey(s.text);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

// ---------------------------------------------------------------------------------------
// Relevance
// ---------------------------------------------------------------------------------------

/** Words that say nothing about a topic: function words and the templates' own wording. */
const STOP_WORDS = new Set(
  (
    'a an the and or but of to in on at by for with from as is are was were be been being do does did can could should would will ' +
    'what which where how who whom when why whose i me my we our you your it its they their them this that these those there here ' +
    'not no yes more most less least very just also than then so such into over under about after before other others each every all any some ' +
    'best good great top right worth buy buying bought online shop shops shopping store stores product products item items thing things ' +
    'people need needs know look looking choose choosing make makes made common mistake mistakes compare compared local order ordering deliver delivers ' +
    'gift gifts idea ideas trend trends watch time save use used using new way ways get got one two three'
  ).split(' '),
);

type Terms = Map<string, number>;

/** A question about where or how to buy. */
const BUYING = /\b(buy|buying|order|deliver|shops?|stores?|online)\b/i;

function wordsOf(textValue: string): string[] {
  return singularKey(textValue)
    .split(' ')
    .filter((w) => w.length >= 3 && !STOP_WORDS.has(w) && !/^\d+$/.test(w));
}

function addTerms(terms: Terms, textValue: string | undefined | null, weight: number): void {
  if (!textValue) return;
  for (const w of wordsOf(textValue)) terms.set(w, Math.max(terms.get(w) ?? 0, weight));
}

/** The topic's words and weights: the title's words, problem and product words double. */
function topicTerms(input: ArticleInput): Terms {
  const terms: Terms = new Map();
  addTerms(terms, input.title, 1);
  // Where to buy, or a city: what the store says about shipping answers part of it.
  if (input.slots?.city || BUYING.test(input.title)) addTerms(terms, 'ship shipping ships delivery', 1);
  const slots = input.slots ?? {};
  addTerms(terms, slots.industry, 1);
  addTerms(terms, slots.audience, 1);
  addTerms(terms, slots.problem, 2);
  addTerms(terms, slots.product, 2);
  addTerms(terms, slots.product_name, 2);
  if (input.product) {
    addTerms(terms, input.product.name, 2);
    addTerms(terms, input.product.productType, 2);
  }
  return terms;
}

function score(terms: Terms, textValue: string): number {
  let total = 0;
  for (const w of new Set(wordsOf(textValue))) total += terms.get(w) ?? 0;
  return total;
}

/** Items with a positive score, best first, ties in input order. */
function relevant<T>(items: readonly T[], terms: Terms, textOf: (item: T) => string, max: number): T[] {
  return items
    .map((item, i) => ({ item, i, s: score(terms, textOf(item)) }))
    .filter((x) => x.s > 0)
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .slice(0, max)
    .map((x) => x.item);
}

function mentionsPhrase(textValue: string, phrase: string): boolean {
  const needle = ` ${dedupeKey(phrase)} `;
  return needle.trim().length > 0 && ` ${dedupeKey(textValue)} `.includes(needle);
}

// ---------------------------------------------------------------------------------------
// Rendering
// ---------------------------------------------------------------------------------------

/** The published date of a new article: `backdate_to` (ISO, not in the future) or `now`, in whole seconds. */
export function publishedDateOf(backdateTo: string | null | undefined, now: string): string {
  const nowTime = new Date(now).getTime();
  if (Number.isNaN(nowTime)) throw new ValidationError('now must be an ISO timestamp');
  if (backdateTo === undefined || backdateTo === null || backdateTo === '') return isoSeconds(now);
  const time = new Date(backdateTo).getTime();
  if (typeof backdateTo !== 'string' || Number.isNaN(time)) throw new ValidationError('backdate_to must be an ISO date');
  if (time > nowTime) throw new ValidationError('backdate_to must not be in the future');
  return isoSeconds(new Date(time).toISOString());
}

/** The title with its refreshable year replaced (the content hash must not see the year the refresh moves). */
function neutralYear(title: string): string {
  const year = String(utcYear(HASH_DATE));
  return title.replace(/(\(|\b(?:in|for|of) )(?:19|20)\d{2}(\)|\b)/gi, (_, before: string, after: string) => `${before}${year}${after}`);
}

/** Whether a quoted text ends like a sentence (list fragments such as "Roasted weekly in Portland" do not). */
function endsSentence(textValue: string): boolean {
  return /[.!]["'”’)\]]*$/.test(textValue);
}

/** Sentences joined in one `<p>`; fragments (no final stop) each in a list item after it. */
function paragraph(sentences: readonly string[]): string {
  const whole = sentences.filter(endsSentence);
  const fragments = sentences.filter((s) => !endsSentence(s));
  return [whole.length ? `<p>${escapeHtml(whole.join(' '))}</p>` : '', list(fragments)].filter(Boolean).join('\n');
}

function list(items: readonly string[]): string {
  return items.length ? `<ul>\n${items.map((i) => `<li>${escapeHtml(i)}</li>`).join('\n')}\n</ul>` : '';
}

function section(heading: string, body: string): string {
  return body.trim() ? `<section>\n<h2>${escapeHtml(heading)}</h2>\n${body}\n</section>` : '';
}

/** Option names with their values as the variants state them: "Size: 250 g, 1 kg". */
function optionLines(product: CatalogProduct): string[] {
  const names = (product.optionNames ?? []).map(oneLine).filter(Boolean);
  const variants = variantsOf(product);
  return names.flatMap((name, d) => {
    const values = [...new Set(variants.map((v) => oneLine(v.options[d] ?? '')).filter(Boolean))];
    return values.length && !(values.length === 1 && /^default( title)?$/i.test(values[0] as string)) ? [`${name}: ${values.join(', ')}`] : [];
  });
}

function productFacts(product: CatalogProduct, published: string): string[] {
  const facts: string[] = [];
  const description = markdownToText(product.description);
  if (oneLine(product.productType)) facts.push(`Product type: ${oneLine(product.productType)}`);
  if (oneLine(product.vendor)) facts.push(`Vendor: ${oneLine(product.vendor)}`);
  facts.push(...optionLines(product).map((line) => `Option ${line}`));
  const materials = materialsOf(`${product.name}. ${description}`);
  if (materials.length) facts.push(`Materials named in the description: ${materials.join(', ')}`);
  const features = featuresOf(description);
  if (features.length) facts.push(`Features named in the description: ${features.join(', ')}`);
  facts.push(`Availability on ${humanDate(published)}: ${stockStatement(product)}`);
  return facts;
}

interface Body {
  html: string;
  description: string;
  sources: Source[];
  faq: FaqEntry[];
}

function buildBody(input: ArticleInput, site: ArticleSources, published: string, displayTitle: string): Body {
  const store = oneLine(input.business.name);
  const storeUrl = `${input.business.url.replace(/\/+$/, '')}/`;
  const terms = topicTerms(input);
  const used = new Set<string>();
  const sources: Source[] = [];
  const cite = (s: Source) => {
    if (!sources.some((x) => x.path === s.path)) sources.push(s);
  };
  /** Up to `max` statements not quoted yet, marked quoted and cited. */
  const take = (statements: readonly Statement[], max = Infinity): Statement[] => {
    const out: Statement[] = [];
    for (const s of statements) {
      if (out.length >= max) break;
      const key = dedupeKey(s.text);
      if (used.has(key)) continue;
      used.add(key);
      cite(s.source);
      out.push(s);
    }
    return out;
  };
  const product = input.product ?? null;
  const productEntry = product ? site.products.find((p) => p.url === product.url) ?? site.products.find((p) => p.name === oneLine(product.name)) ?? null : null;

  // The product's own sentences: its page's summary and description (or its catalogue text).
  const productStatements: Statement[] = [];
  if (product) {
    const source = productEntry ? { path: productEntry.path, label: productEntry.name } : { path: '', label: oneLine(product.name) };
    const texts = productEntry ? [...sentencesOf(productEntry.summary), ...productEntry.description] : sentencesOf(markdownToText(product.description));
    for (const t of texts) productStatements.push({ text: t, source });
  }

  // Short answer: the product's listing and its best sentences, or the store's summary; then
  // the content's most relevant sentences. The connectives say what the content does not.
  const answer: string[] = [];
  const facts: Statement[] = [];
  let answered = false;
  if (product) {
    answer.push(`${store} lists ${theName(product.name)} in its online store.`);
    const own = uniqueStatements([...relevant(productStatements, terms, (s) => s.text, productStatements.length), ...productStatements]);
    facts.push(...take(own.filter((s) => endsSentence(s.text)), LIMITS.answer));
    answered = facts.length > 0;
  } else if (site.summary && endsSentence(site.summary.text)) {
    facts.push(...take([site.summary]));
  }
  const ranked = relevant(site.statements, terms, (s) => s.text, site.statements.length);
  const lead = take(ranked.filter((s) => endsSentence(s.text)), LIMITS.answer);
  facts.push(...lead);
  answered ||= lead.length > 0;
  answer.push(...facts.map((s) => s.text));
  const city = input.slots?.city;
  if (city && ![...site.statements, ...productStatements].some((s) => mentionsPhrase(s.text, city))) {
    answer.push(`The site of ${store} does not mention ${oneLine(city)}.`);
  }
  if (!answered) answer.push(`The site of ${store} says little more about this question.`);

  const parts: string[] = [`<h1>${escapeHtml(displayTitle)}</h1>`, paragraph(answer)];

  // About the product.
  if (product) {
    const description = take(productStatements, LIMITS.description).map((s) => s.text);
    const links = [
      ...(productEntry ? [{ href: hrefForFile(productEntry.path), label: `${oneLine(product.name)}: product facts for AI assistants` }] : []),
      { href: product.url, label: `View ${theName(product.name)} on ${store}` },
    ];
    parts.push(section(`About ${theName(product.name)}`, [paragraph(description), list(productFacts(product, published)), linkList(links)].filter(Boolean).join('\n')));
  }

  // Shipping and returns, when the question is about buying or a place (taken before the
  // general sentences so they stay together under their own heading).
  let policyHtml = '';
  if (city || BUYING.test(displayTitle)) {
    const policy = site.statements.filter((s) => {
      const kind = classifyFact(s.text);
      return kind === 'shipping' || kind === 'returns';
    });
    policyHtml = section('Shipping and returns', list(take(policy, LIMITS.shipping).map((s) => s.text)));
  }

  // What the store says.
  const said = take(ranked, LIMITS.said);
  parts.push(section(`What ${store} says`, list(said.map((s) => s.text))));
  parts.push(policyHtml);

  // Products.
  const others = site.products.filter((p) => p !== productEntry && (!product || p.url !== product.url));
  const productItems = relevant(others, terms, (p) => `${p.name} ${p.category} ${p.summary}`, LIMITS.products).map((p) => ({
    href: hrefForFile(p.path),
    label: p.name,
    ...(p.summary && isQuotable(p.summary) ? { note: p.summary } : {}),
  }));
  parts.push(section(product ? `More from ${store}` : 'Products', linkList(productItems)));

  // Questions and answers.
  // The question counts twice: it says what the entry is about. Price sentences are left out.
  const faq = relevant(site.qa, terms, (q) => `${q.question} ${q.question} ${q.answer}`, LIMITS.qa)
    .map((q) => ({ ...q, sentences: splitSentences(q.answer).map(normalizeSpace).filter((s) => s && !statesPrice(s)) }))
    .filter((q) => q.sentences.length);
  const faqHtml = faq.map((q) => `<h3><a href="${escapeHtml(hrefForFile(q.path))}">${escapeHtml(q.question)}</a></h3>\n${paragraph(q.sentences)}`);
  parts.push(section('Questions and answers', faqHtml.join('\n')));

  // Related articles.
  const own = pathOfSlug(input.slug);
  const posts = input.existingPosts.filter((p) => p.article_path !== own && p.article_path !== `/ai${own}` && oneLine(p.title) && p.article_path.startsWith('/'));
  const related = relevant(posts, terms, (p) => p.title, LIMITS.related).map((p) => ({ href: aiHref(p.article_path), label: oneLine(p.title) }));
  parts.push(section('Related articles', linkList(related)));

  // Sources.
  const sourceLinks = [
    ...sources.filter((s) => s.path).map((s) => ({ href: sourceHref(s.path), label: s.label })),
    { href: aiHref('/'), label: `${store}: guide for AI assistants` },
    ...(sources.some((s) => s.path === SITE_PATHS.llmsTxt) ? [] : [{ href: aiHref(SITE_PATHS.llmsTxt), label: 'llms.txt' }]),
    { href: storeUrl, label: `Visit ${store}` },
  ];
  parts.push(section('Sources', linkList(sourceLinks)));

  return {
    html: `<article>\n${parts.filter(Boolean).join('\n')}\n</article>`,
    description: answer.join(' '),
    sources,
    faq: faq.map((q) => ({ question: q.question, answer: q.sentences.join(' ') })),
  };
}

/** "the House Espresso Blend"; a name that starts with "The" keeps its own. */
function theName(name: string): string {
  const clean = oneLine(name);
  return /^the\s/i.test(clean) ? clean : `the ${clean}`;
}

function sourceHref(path: string): string {
  return path.endsWith('/index.html') ? hrefForFile(path) : aiHref(path);
}

/**
 * The article's files and the create-ai-article response fields it decides. `sources`:
 * `readArticleSources` of the same site, when the caller already has it.
 */
export function buildArticleFiles(input: ArticleInput, sources?: ArticleSources): ArticleBuild {
  const title = oneLine(input.title);
  if (!title.endsWith('?')) throw new ValidationError('an article title is a question');
  if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(input.slug)) throw new ValidationError(`not a slug: ${JSON.stringify(input.slug)}`);
  const published = isoSeconds(input.publishedDate);
  const checked = isoSeconds(input.now ?? input.publishedDate);
  const site = sources ?? readArticleSources(input);
  const path = articleFilePath(input.slug);
  const canonical = publicUrlOfFile(path);
  const store = oneLine(input.business.name);
  const storeOrigin = input.business.url.replace(/\/+$/, '');
  const orgId = organizationId({ name: store, url: storeOrigin, orgSlug: '', domain: '' });
  const organization = { '@type': 'Organization', '@id': orgId, name: store, url: storeOrigin };
  const product = input.product ?? null;

  const render = (dates: { published: string; checked: string; hash: string }, pageTitle: string): { html: string; sources: Source[] } => {
    const body = buildBody(input, site, dates.published, pageTitle);
    const article: Record<string, unknown> = {
      '@context': SCHEMA_CONTEXT,
      '@type': 'Article',
      headline: truncate(pageTitle, 110),
      description: truncate(body.description, 300),
      url: canonical,
      mainEntityOfPage: { '@type': 'WebPage', '@id': canonical },
      datePublished: dates.published,
      dateModified: dates.published,
      inLanguage: 'en',
      author: organization,
      publisher: organization,
      about: product ? { '@type': 'Product', '@id': `${product.url}#product`, name: oneLine(product.name), url: product.url } : { '@id': orgId },
    };
    const html = renderPage({
      storeName: input.business.name,
      storeUrl: input.business.url,
      title: pageTitle,
      description: body.description,
      canonical,
      modifiedTime: dates.published,
      checkedTime: dates.checked,
      ...(dates.hash ? { contentHash: dates.hash } : {}),
      ogType: 'article',
      extraMeta: [['article:published_time', dates.published]],
      jsonLd: body.faq.length ? [article, faqPageNode(body.faq, dates.published)] : [article],
      body: body.html,
    });
    return { html, sources: body.sources };
  };
  const hash = contentHash(render({ published: HASH_DATE, checked: HASH_DATE, hash: '' }, neutralYear(title)).html);
  const { html, sources: quoted } = render({ published, checked, hash }, title);
  return {
    files: [{ path, content: html, contentType: CONTENT_TYPES.html }],
    title,
    slug: input.slug,
    articlePath: pathOfSlug(input.slug),
    publishedDate: published,
    faqCategory: product ? 'product_article' : 'business_article',
    sources: quoted.map((s) => s.path).filter(Boolean),
  };
}
