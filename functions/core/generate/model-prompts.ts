/**
 * What the model engine sends: chat messages built ONLY from store content in the
 * snapshot, trimmed to a character budget. The business name never appears in a prompt
 * (spec, "Prompt strategy"): it is replaced by the placeholder {{STORE}}, which the model
 * is told to use and which is put back when its output is read.
 */
import type { CatalogProduct, StoreSnapshot } from '../site/types';
import { productTypeCounts, realCollections, vendorCounts } from './catalog';
import { orderedPages, pageRole, storeName, type PageRole } from './evidence';
import { markdownToText, truncateText, withoutPrices } from './text';
import { chunkByBudget } from '../util/collections';

export const STORE_PLACEHOLDER = '{{STORE}}';
/** Default prompt budget per call, in characters of store content. */
export const DEFAULT_PROMPT_BUDGET = 12_000;
/** At most this many products in one product-summary call. */
export const DEFAULT_PRODUCTS_PER_CALL = 200;

export interface ChatMessage {
  role: 'system' | 'user';
  content: string;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Replaces the business name by the placeholder: as written, upper-cased, HTML-escaped or
 * with "&" spelled "and". Case-sensitive on purpose, so lower-case slugs and host names
 * (product ids, URLs) stay intact.
 */
export function hideName(text: string, name: string): string {
  const clean = name.trim();
  if (clean.length < 2) return text;
  const forms = [clean, clean.toUpperCase()];
  const variants = [...new Set(forms.flatMap((f) => [f, f.replace(/&/g, '&amp;'), f.replace(/&/g, 'and'), f.replace(/&/g, 'AND')]))].sort((a, b) => b.length - a.length);
  const re = new RegExp(`(?<![\\p{L}\\p{N}])(?:${variants.map(escapeRegExp).join('|')})(?![\\p{L}\\p{N}])`, 'gu');
  return text.replace(re, STORE_PLACEHOLDER);
}

/** Puts the business name back where the model wrote the placeholder. */
export function restoreName(text: string, name: string): string {
  return text.replace(/\{\{\s*STORE\s*\}\}/gi, name.trim());
}

const SYSTEM_PROMPT = [
  'You write the text of an AI-readable mirror of an online store.',
  'Use ONLY facts stated in the STORE CONTENT of the user message. Never invent or assume prices, policies, shipping or return terms, origins, certifications, awards, dates, people or claims: if the content does not say it, leave it out.',
  'Never state a price, a price range, a discount or a stock level in any text: they change without the text being rewritten, and the structured offers already carry them. Shipping and return terms the content states may keep their amounts.',
  `The store is called ${STORE_PLACEHOLDER}: write ${STORE_PLACEHOLDER} wherever its name belongs.`,
  'Write plain text: no markdown, no HTML, no emoji.',
  'Answer with exactly one JSON object in the requested shape and nothing else.',
].join('\n');

/**
 * Water-filling: every text gets an equal share of the budget; what a short text does not
 * use goes to the longer ones. Texts are cut at word boundaries.
 */
export function fitToBudget(texts: string[], budget: number): string[] {
  const out = texts.map(() => '');
  let remaining = Math.max(0, budget);
  let open = texts.map((_, i) => i);
  while (open.length && remaining > 0) {
    const share = Math.floor(remaining / open.length);
    if (share < 1) break;
    const next: number[] = [];
    let used = 0;
    for (const i of open) {
      if (texts[i].length <= share) {
        out[i] = texts[i];
        used += texts[i].length;
      } else next.push(i);
    }
    if (next.length === open.length) {
      for (const i of next) out[i] = truncateText(texts[i], share);
      return out;
    }
    remaining -= used;
    open = next;
  }
  return out;
}

/**
 * The catalogue in figures. No prices and no stock: what the model is not shown it cannot
 * put in prose, where they would go stale (the offers carry them).
 */
function catalogueFacts(snapshot: StoreSnapshot): string {
  const products = snapshot.products;
  const lines = [`Products listed: ${products.length}`];
  const types = productTypeCounts(products);
  if (types.length) lines.push(`Product types: ${types.slice(0, 30).map((t) => `${t.type} (${t.count})`).join(', ')}`);
  const collections = realCollections(snapshot);
  if (collections.length) lines.push(`Collections: ${collections.slice(0, 40).map((c) => c.title.trim()).join(', ')}`);
  const vendors = vendorCounts(products);
  if (vendors.length) lines.push(`Vendors: ${vendors.slice(0, 20).map((v) => v.vendor).join(', ')}`);
  return lines.join('\n');
}

function compactProductLine(p: CatalogProduct, descriptionChars: number): string {
  const parts = [
    `id: ${p.productId}`,
    `name: ${p.name}`,
    p.productType ? `type: ${p.productType}` : '',
    p.vendor ? `vendor: ${p.vendor}` : '',
    p.tags.length ? `tags: ${p.tags.slice(0, 8).join(', ')}` : '',
    descriptionChars > 0 && p.description.trim() ? `description: ${truncateText(withoutPrices(markdownToText(p.description)), descriptionChars)}` : '',
  ];
  return `- ${parts.filter(Boolean).join(' | ')}`;
}

function pagesBlock(snapshot: StoreSnapshot, budget: number, roles: PageRole[]): string {
  const pages = orderedPages(snapshot).filter((p) => roles.includes(pageRole(p)));
  const bodies = pages.map((p) => markdownToText(p.markdown));
  const headers = pages.map((p) => `### Page: ${p.title || p.url} (${p.url})\n`);
  const headerChars = headers.reduce((n, h) => n + h.length, 0);
  const fitted = fitToBudget(bodies, Math.max(0, budget - headerChars));
  return pages.map((_, i) => `${headers[i]}${fitted[i]}`).filter((_, i) => fitted[i]).join('\n\n');
}

function storeHeader(snapshot: StoreSnapshot): string {
  return `Store: ${STORE_PLACEHOLDER}\nWebsite: ${snapshot.business.url}`;
}

function finish(snapshot: StoreSnapshot, task: string, content: string): ChatMessage[] {
  const name = storeName(snapshot);
  return [
    { role: 'system', content: SYSTEM_PROMPT },
    { role: 'user', content: hideName(`${task}\n\nSTORE CONTENT:\n${content}`, name) },
  ];
}

const OVERVIEW_TASK = `Task: write the store overview.
Return JSON: {"summary": string, "description": string, "industry": string, "audience": string, "categories": string[], "keyFacts": string[]}
- summary: one or two sentences about what ${STORE_PLACEHOLDER} is and sells (max 400 characters).
- description: one to three short paragraphs about the business, separated by blank lines (max 2000 characters).
- industry: a few lower-case words, e.g. "specialty coffee".
- audience: who the store serves, as the content states it; otherwise a neutral phrase from the industry (max 200 characters).
- categories: up to 20 product categories, taken from the collections and product types.
- keyFacts: up to 12 short factual sentences taken from the content (shipping, returns, origins, materials, guarantees); an empty list when there are none.`;

const FAQ_TASK = `Task: write the store's questions and answers.
Return JSON: {"faqs": [{"question": string, "answer": string}]}
- 8 to 20 entries with unique questions; fewer when the content cannot answer more.
- First the store's own questions and answers when the content has them (keep their meaning).
- Then questions a shopper would ask an AI assistant about ${STORE_PLACEHOLDER} (what it sells, collections, materials, shipping, returns, ...), each answered strictly from the content. Skip a question the content cannot answer: never guess a policy.
- No answer states a price, a price range, a discount or a stock level.
- question: max 200 characters, ending with "?"; answer: max 900 characters.`;

const PRODUCTS_TASK = `Task: write one short summary per product below.
Return JSON: {"productSummaries": {"<id>": "<summary>"}} with exactly the ids listed.
- Each summary: one to three factual sentences (max 480 characters) using only that product's listed data: what it is, its type and vendor, what it is made of or for. No price, discount or stock level.`;

/** Call (a): overview. Pages get ~75% of the budget, the catalogue the rest. */
export function overviewMessages(snapshot: StoreSnapshot, budget = DEFAULT_PROMPT_BUDGET): ChatMessage[] {
  const facts = truncateText(catalogueFacts(snapshot), Math.floor(budget * 0.15));
  const productBudget = Math.floor(budget * 0.15);
  const productLines: string[] = [];
  let used = 0;
  for (const p of snapshot.products) {
    const line = compactProductLine(p, 0);
    if (used + line.length + 1 > productBudget) break;
    productLines.push(line);
    used += line.length + 1;
  }
  const pages = pagesBlock(snapshot, budget - facts.length - used, ['home', 'about', 'policy', 'faq', 'contact', 'page', 'collection', 'other']);
  const content = [storeHeader(snapshot), `## Catalogue\n${facts}`, productLines.length ? `## Some products\n${productLines.join('\n')}` : '', pages ? `## Pages\n${pages}` : '']
    .filter(Boolean)
    .join('\n\n');
  return finish(snapshot, OVERVIEW_TASK, content);
}

/** Call (b): FAQs. FAQ and policy pages first. */
export function faqMessages(snapshot: StoreSnapshot, budget = DEFAULT_PROMPT_BUDGET): ChatMessage[] {
  const facts = truncateText(catalogueFacts(snapshot), Math.floor(budget * 0.15));
  const pages = pagesBlock(snapshot, budget - facts.length, ['faq', 'policy', 'home', 'about', 'contact', 'page']);
  const content = [storeHeader(snapshot), `## Catalogue\n${facts}`, pages ? `## Pages\n${pages}` : ''].filter(Boolean).join('\n\n');
  return finish(snapshot, FAQ_TASK, content);
}

/**
 * Splits the catalogue into product-summary calls: at most `perCall` products and about
 * `budget` characters of product lines each.
 */
export function productChunks(products: CatalogProduct[], budget = DEFAULT_PROMPT_BUDGET, perCall = DEFAULT_PRODUCTS_PER_CALL): CatalogProduct[][] {
  const seen = new Set<string>();
  const unique = products.filter((p) => !seen.has(p.productId) && Boolean(seen.add(p.productId)));
  return chunkByBudget(unique, (p) => compactProductLine(p, PRODUCT_DESCRIPTION_CHARS).length + 1, perCall, budget);
}

const PRODUCT_DESCRIPTION_CHARS = 240;

/** Call (c): summaries for one chunk of products. */
export function productMessages(snapshot: StoreSnapshot, products: CatalogProduct[]): ChatMessage[] {
  const lines = products.map((p) => compactProductLine(p, PRODUCT_DESCRIPTION_CHARS));
  return finish(snapshot, PRODUCTS_TASK, `${storeHeader(snapshot)}\n\n## Products\n${lines.join('\n')}`);
}
