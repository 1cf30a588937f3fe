/**
 * What an AI article may quote, read from the AI site's own content (spec: articles are
 * generated from the AI site content: llms.txt, data.json, HTML; not from the original
 * website): the llms.txt summary and details, data.json's organization description, the
 * product, collection and Q&A pages and the markdown replicas. Parsing every page is the
 * costly part (~1 s for 5,000 product pages): a caller writing many articles for one site
 * reads once (`readArticleSources`) and passes the result to every article.
 */
import { dedupeKey, markdownBlocks, normalizeSpace, splitSentences, statesPrice, wordCount } from '../generate/text';
import { oneLine } from '../site/html';
import { SITE_PATHS } from '../site/paths';
import type { SiteFile } from '../site/types';
import { MiniElement, parseHtmlFragment } from '../text/mini-dom';

/** Longest quoted sentence, in words. */
const MAX_SENTENCE_WORDS = 60;

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

/**
 * Stock, availability and offers change without the text being rebuilt (D36): "Only 3 left",
 * "Back in stock", "Now 20% off", "Sale ends Sunday" are never quoted.
 */
const VOLATILE = /\b(in stock|out of stock|sold out|back in stock|restock(?:ed|ing)?|pre-?order|only \d+ left|\d+ left in stock|low stock|limited stock|while (?:stocks?|supplies) last|available now|ships? (?:today|tomorrow)|ready to ship|on sale|sale ends|% off|percent off|discount(?:ed)?|clearance|save \d+|deal of)\b/i;

/** Whether a text states a price, stock, availability or an offer (D36: never in an article). */
export function statesVolatileFact(text: string): boolean {
  return statesPrice(text) || VOLATILE.test(text);
}

/** A sentence that can stand in an article as a fact: a statement of 4-60 words, no price, stock or offer, no link, no boilerplate. */
function isQuotable(sentence: string): boolean {
  const text = normalizeSpace(sentence);
  const words = wordCount(text);
  if (words < 4 || words > MAX_SENTENCE_WORDS || text.endsWith('?') || text.endsWith(':')) return false;
  // A merchant's heading written as a line ("Why we love it", "How to use") is no fact.
  if (/^(why|what|how|who|where|when)\b/i.test(text) && !/[.!]$/.test(text)) return false;
  if (!/\p{L}{3,}/u.test(text) || /https?:\/\/|www\.|[<>{}]/i.test(text)) return false;
  return !statesVolatileFact(text) && !BOILERPLATE.test(text);
}

export function sentencesOf(text: string): string[] {
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
export interface SiteContent {
  /** The AI site's `/llms.txt`. */
  llmsTxt: string;
  /** The AI site's `/data.json`, parsed. */
  dataJson: unknown;
  /** The AI site's HTML pages and markdown replicas (other files are ignored). */
  pages: readonly SiteFile[];
}

/** The content an article may quote out of a site's files (a release, or files just built): llms.txt, data.json (parsed; null when unreadable), its pages. */
export function siteContentOf(files: readonly SiteFile[]): SiteContent {
  const file = (path: string) => files.find((f) => f.path === path)?.content;
  let dataJson: unknown = null;
  try {
    dataJson = JSON.parse(file(SITE_PATHS.dataJson) ?? 'null');
  } catch {
    dataJson = null;
  }
  return { llmsTxt: file(SITE_PATHS.llmsTxt) ?? '', dataJson, pages: files.filter((f) => /\.(html|md)$/.test(f.path)) };
}

export function readArticleSources(input: SiteContent): ArticleSources {
  const reader = articleSourcesReader(input.llmsTxt, input.dataJson);
  for (const file of [...input.pages].sort((a, b) => a.path.localeCompare(b.path))) reader.add(file);
  return reader.finish();
}

/** Whether `readArticleSources` reads the page at `path` (the rest of a release is skipped unread). */
export function isSourcePage(path: string): boolean {
  return /^\/ai\/(?:(?:products|collections)\/)?[^/]+\/index\.html$/.test(path) || /^\/pages\/[^/]+\.md$/.test(path);
}

/**
 * `readArticleSources` a page at a time, for a reader that streams a release (D204): `add` the
 * pages in path order (`localeCompare`), then `finish`. The same sources as the array form.
 */
export function articleSourcesReader(llmsTxt: string, dataJson: unknown): { add(file: SiteFile): void; finish(): ArticleSources } {
  const llms = readLlms(llmsTxt);
  const statements: Statement[] = [...llms.statements];
  const dataSource = { path: SITE_PATHS.dataJson, label: 'Structured data' };
  const products: ProductEntry[] = [];
  const qa: QaEntry[] = [];
  const graph = graphOf(dataJson);
  for (const node of graph) {
    if (typesOf(node).includes('Organization') && typeof node.description === 'string') {
      for (const t of sentencesOf(node.description)) statements.push({ text: t, source: dataSource });
    }
  }
  return {
    add(file) {
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
    },
    finish() {
      // data.json's product nodes give a summary where a product page has none.
      const productByUrl = new Map(products.map((p) => [p.url, p]));
      for (const node of graph) {
        if (!typesOf(node).some((t) => t === 'Product' || t === 'ProductGroup')) continue;
        const entry = typeof node.url === 'string' ? productByUrl.get(node.url) : undefined;
        if (entry && !entry.summary && typeof node.description === 'string') entry.summary = oneLine(node.description);
      }
      return { summary: llms.summary, statements: uniqueStatements(statements), qa, products };
    },
  };
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

