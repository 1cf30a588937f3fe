/**
 * `/llms.txt` and the per-product `/llms/<product-slug>.txt` files (reference/web-protocols.md §2).
 *
 * llms.txt layout, in this order: an H1 with the store name; a one-line blockquote summary;
 * detail paragraphs and lists (no headings); then H2 file lists whose items are
 * `- [name](url): notes`, the last one `## Optional`.
 *
 * Links are absolute (llmstxt.org), on the site's public origin: written with
 * `PUBLIC_ORIGIN_TOKEN` and resolved by `finalizeSite` (the customer domain once connected,
 * else the AI host), in their routed form (`aiHref`), so they resolve on either host (D28).
 * `/llms.txt` lists every product while it stays within a size budget (100 KB), and only
 * beyond it becomes an index of the most relevant products (D113, amended by D158); the full
 * catalogue is always in `/llms/catalog/full.txt` and `/llms/catalog/<n>.txt`.
 */
import { CONTENT_TYPES, oneLine, truncate } from './html';
import { leadSentences } from '../generate/text';
import { isCatchAllCollection } from '../generate/industry';
import { markdownDetails, markdownPlain } from './markdown';
import { PUBLIC_ORIGIN_TOKEN, SITE_PATHS, isRoutedPath, productSlugs, publicUrl, publicUrlOfFile } from './paths';
import { identifierFacts, priceStatement, stockNote, variantDetailBlock } from './offers';
import { factCardLines, kindAndBrand } from './fact-card';
import { priceSpan } from '../products/variants';
import { catalogueKinds, type KindOf } from '../products/kind';
import { productFacts } from './product-facts';
import type { CatalogProduct, SiteFile, SiteNarrative, StoreAgentFile, StoreIdentity, PageKind } from './types';

export interface LlmsLink {
  name: string;
  url: string;
  notes?: string;
}

export interface LlmsSection {
  title: string;
  links: LlmsLink[];
}

/** Escapes the characters that would end a link label early. */
function linkLabel(text: string): string {
  return oneLine(text).replace(/\\/g, '\\\\').replace(/\[/g, '\\[').replace(/\]/g, '\\]') || 'Untitled';
}

/** Detail text must not create headings or blockquotes: a leading `#` or `>` is escaped. */
function detailLine(text: string): string {
  return oneLine(text).replace(/^([#>])/, '\\$1');
}

export function llmsLinkLine(link: LlmsLink): string {
  const notes = link.notes ? oneLine(link.notes) : '';
  return `- [${linkLabel(link.name)}](${link.url})${notes ? `: ${notes}` : ''}`;
}

/** Renders a document in the llms.txt layout. */
export function renderLlmsDocument(doc: { title: string; summary: string; details: string[]; sections: LlmsSection[] }): string {
  const out: string[] = [`# ${oneLine(doc.title) || 'Untitled'}`, ''];
  const summary = oneLine(doc.summary);
  if (summary) out.push(`> ${summary}`, '');
  for (const block of doc.details) {
    if (block.trim()) out.push(block.trimEnd(), '');
  }
  for (const section of doc.sections) {
    if (section.links.length === 0) continue;
    out.push(`## ${oneLine(section.title)}`, '');
    for (const link of section.links) out.push(llmsLinkLine(link));
    out.push('');
  }
  return `${out.join('\n').trimEnd()}\n`;
}

/** Plain text → detail paragraphs (blank-line separated), safe for the llms.txt layout. */
export function detailParagraphs(text: string): string[] {
  return text
    .split(/\n\s*\n/)
    .map(detailLine)
    .filter(Boolean);
}

/** `USD 24.00`, `USD 24.00 (was USD 30.00)`, `USD 48.00–54.00`, or null (offers.ts). */
export function priceText(product: CatalogProduct): string | null {
  return priceStatement(product);
}

export function productSummary(product: CatalogProduct, narrative: SiteNarrative): string {
  return oneLine(narrative.productSummaries[product.productId] || truncate(markdownPlain(product.description), 200) || product.name);
}

/**
 * The price and stock note of a product in the llms index and catalogue files: the ONE place
 * those files render volatile offer facts (never in prose), so it can be swapped alone.
 */
export function offerNote(product: CatalogProduct): string | null {
  return [priceText(product), stockNote(product)].filter(Boolean).join(', ') || null;
}

export interface ProductLlmsOptions {
  now: string;
  /** The store, for the "Sold by" line. */
  business?: StoreIdentity;
  /** The catalogue's kinds, when the caller read them already (its facts are then read once per build). */
  kindOf?: KindOf;
}

/** One `/llms/<slug>.txt` per product (onboarding step 3b builds these on their own). */
export function buildProductLlmsFiles(
  products: readonly CatalogProduct[],
  narrative: SiteNarrative,
  options: ProductLlmsOptions,
): SiteFile[] {
  const slugs = productSlugs(products);
  const kindOf = options.kindOf ?? catalogueKinds(products, options.business?.name ?? '');
  const seen = new Set<string>();
  const files: SiteFile[] = [];
  for (const product of products) {
    if (seen.has(product.productId)) continue;
    seen.add(product.productId);
    const slug = slugs.get(product.productId) as string;
    const [identity, ...cardRest] = factCardLines(productFacts(product, kindOf));
    // The card's lines first (issue 44): its first line is the blockquote, the rest a list.
    const facts: string[] = cardRest.map((line) => `- ${line}`);
    for (const [label, value] of identifierFacts(product)) facts.push(`- ${label}: ${value}`);
    if (product.tags.length) facts.push(`- Tags: ${product.tags.map(oneLine).join(', ')}`);
    facts.push(`- Store page: ${product.url}`);
    if (options.business) facts.push(`- Sold by: ${oneLine(options.business.name)} (${options.business.url.replace(/\/+$/, '')})`);
    const details = [facts.join('\n'), ...detailParagraphs(productSummary(product, narrative)), variantDetailBlock(product) ?? ''];
    const description = markdownDetails(product.description);
    if (description.length) details.push('Description:', ...description);
    const content = renderLlmsDocument({
      title: product.name,
      summary: identity as string,
      details,
      sections: [
        {
          title: 'Optional',
          links: [
            { name: 'Product page (AI site)', url: publicUrlOfFile(SITE_PATHS.productPage(slug)), notes: 'the same facts as HTML with Product structured data' },
            { name: 'Store overview', url: publicUrl(SITE_PATHS.llmsTxt), notes: 'llms.txt of the whole store' },
          ],
        },
      ],
    });
    files.push({ path: SITE_PATHS.productLlms(slug), content, contentType: CONTENT_TYPES.text });
  }
  return files;
}

/**
 * Size budgets (D113 as amended by D158, docs/decisions.md): `/llms.txt` lists every
 * product while it stays within `LLMS_TXT_BUDGET_BYTES`, and `/data.json` describes every
 * product while it stays within `DATA_JSON_BUDGET_BYTES`. Only beyond a budget do the
 * per-collection cap and the total cap below apply, most relevant products first.
 * Sizes are measured as published: each public-origin link counted at `ORIGIN_ALLOWANCE` bytes.
 */
export const LLMS_TXT_BUDGET_BYTES = 100 * 1024;
export const DATA_JSON_BUDGET_BYTES = 1024 * 1024;
/** Bytes the public origin may take once resolved (a customer domain), for the budgets. */
export const ORIGIN_ALLOWANCE = 100;
/** Beyond the budget: products listed per collection in `/llms.txt` (the rest: collection page and catalogue files). */
export const LLMS_PRODUCTS_PER_COLLECTION = 10;
/** Beyond the budget: at most this many products in `/llms.txt` in all. */
export const LLMS_INDEX_MAX_PRODUCTS = 200;
/** Products per `/llms/catalog/<n>.txt`. */
export const LLMS_CATALOG_PAGE_SIZE = 500;
/** Blurbs of catalogue lines are cut to this many characters. */
const CATALOG_NOTE_LENGTH = 140;
/** Blurbs of llms.txt lines: shorter, so a catalogue of a few hundred products is listed whole. */
const INDEX_NOTE_LENGTH = 100;

/** Store pages listed in llms.txt at most: a 5,000-page store would otherwise list 5,000 replicas (the sitemap has them all). */
export const LLMS_INDEX_MAX_PAGES = 50;

export interface LlmsLimits {
  perCollection: number;
  indexMaxProducts: number;
  catalogPageSize: number;
  indexMaxPages: number;
  /** llms.txt lists every product while it stays within this many bytes (as published). */
  llmsTxtBudgetBytes: number;
  /** data.json describes every product while it stays within this many bytes (as published). */
  dataJsonBudgetBytes: number;
}

export const DEFAULT_LLMS_LIMITS: LlmsLimits = {
  perCollection: LLMS_PRODUCTS_PER_COLLECTION,
  indexMaxProducts: LLMS_INDEX_MAX_PRODUCTS,
  catalogPageSize: LLMS_CATALOG_PAGE_SIZE,
  indexMaxPages: LLMS_INDEX_MAX_PAGES,
  llmsTxtBudgetBytes: LLMS_TXT_BUDGET_BYTES,
  dataJsonBudgetBytes: DATA_JSON_BUDGET_BYTES,
};

/**
 * The size of a file as published: UTF-8 bytes, each `PUBLIC_ORIGIN_TOKEN` counted as an
 * origin of `ORIGIN_ALLOWANCE` bytes (the token is shorter than many customer domains).
 */
export function publishedBytes(content: string): number {
  const links = content.split(PUBLIC_ORIGIN_TOKEN).length - 1;
  return Buffer.byteLength(content, 'utf8') + links * Math.max(0, ORIGIN_ALLOWANCE - PUBLIC_ORIGIN_TOKEN.length);
}

/** Collections whose members a store features: best sellers, featured, popular, trending. */
const FEATURED_COLLECTION = /best[\s_-]*sell|featured|popular|trending|top[\s_-]*(?:sell|pick|rated)|favou?rites|staff[\s_-]*picks/i;

export function isFeaturedCollection(c: { handle?: string; title: string }): boolean {
  return FEATURED_COLLECTION.test(c.handle ?? '') || FEATURED_COLLECTION.test(c.title);
}

/**
 * Relevance, for what is kept beyond a budget: available first; then products of a featured
 * or best-seller collection (in that collection's order); then the most recently updated
 * (`updatedAt`, the newest date the catalogue carries); then catalogue order.
 * Returns a comparator over product ids.
 */
export function relevanceOrder(input: Pick<LlmsTxtInput, 'products' | 'collections'>): (a: CatalogProduct, b: CatalogProduct) => number {
  const featured = new Map<string, number>();
  for (const c of input.collections) {
    if (!isFeaturedCollection(c)) continue;
    for (const id of c.productIds ?? []) if (!featured.has(id)) featured.set(id, featured.size);
  }
  const position = new Map(input.products.map((p, i) => [p.product.productId, i]));
  const time = (p: CatalogProduct) => {
    const t = p.updatedAt ? new Date(p.updatedAt).getTime() : NaN;
    return Number.isNaN(t) ? -Infinity : t;
  };
  return (a, b) =>
    Number(b.available) - Number(a.available) ||
    (featured.get(a.productId) ?? Infinity) - (featured.get(b.productId) ?? Infinity) ||
    time(b) - time(a) ||
    (position.get(a.productId) ?? 0) - (position.get(b.productId) ?? 0);
}

/** Pages a reader looks for first: the store's own content, then its listings, then product copies. */
const PAGE_KIND_ORDER: Record<PageKind, number> = { home: 0, page: 1, blog: 2, article: 3, other: 4, collection: 5, product: 6 };

function indexPages(pages: LlmsTxtInput['pages'], max: number, sitemapUrl: string): LlmsLink[] {
  const ordered = pages
    .map((p, i) => ({ p, i }))
    .sort((a, b) => PAGE_KIND_ORDER[a.p.kind ?? 'other'] - PAGE_KIND_ORDER[b.p.kind ?? 'other'] || a.i - b.i)
    .map(({ p }) => p);
  const links = ordered.slice(0, max).map((p) => ({ name: p.title, url: p.path, notes: truncate(p.description, 160) }));
  if (pages.length > max) links.push({ name: `All ${pages.length} store pages`, url: sitemapUrl, notes: `${pages.length - max} more than listed here, in the sitemap` });
  return links;
}

/** A file the store itself serves for AI agents (its own llms.txt, agents.md, ...), D114. */
export interface StoreAgentFileLink {
  name: string;
  /** Absolute URL on the store. */
  url: string;
  notes?: string;
}

/** What each known agent file is, for its note (unknown paths get the generic note). */
const AGENT_FILE_KINDS: Record<string, string> = {
  '/agents.md': 'instructions for shopping agents',
  '/llms-full.txt': 'long-form index for language models',
  '/.well-known/ucp': 'Universal Commerce Protocol profile',
  '/sitemap_agentic_discovery.xml': 'agent discovery sitemap',
};

/**
 * The links to the store's own agent files (D115): at the URL the probe found them on the
 * store's address (the business URL, which is also the CDN's store origin, so the link never
 * passes through our router and always reaches the store's copy). A path the proxy routes to
 * the AI site (`/llms.txt`) is said to be replaced on a connected domain.
 */
export function storeAgentFileLinks(files: readonly StoreAgentFile[]): StoreAgentFileLink[] {
  return files.map((f) => {
    const kind = AGENT_FILE_KINDS[f.path];
    const notes = isRoutedPath(f.path)
      ? `published by the store itself; on a domain this AI site is connected to, ${f.path} serves this file instead, so the store's copy is linked at its store address`
      : `${kind ? `${kind}, ` : ''}published by the store itself`;
    return { name: `The store's own ${f.path}`, url: f.url, notes };
  });
}

export interface LlmsTxtInput {
  business: StoreIdentity;
  narrative: SiteNarrative;
  /** Every product, in catalogue order. */
  products: Array<{ product: CatalogProduct; slug: string }>;
  /** `handle` and `productIds` (members, in collection order) group the products. */
  collections: Array<{ handle?: string; title: string; description: string; path: string; productIds?: string[] }>;
  /** Kinds with a page of their own (kinds.ts): products in no collection are grouped by them. */
  kinds?: Array<{ kind: string; path: string; productIds: string[] }>;
  faqs: Array<{ question: string; answer: string; path: string }>;
  /** Markdown replicas of the store's pages; `kind` orders them (content pages before product and collection copies). */
  pages: Array<{ title: string; description: string; path: string; kind?: PageKind }>;
  /** The store's own agent files, linked from the Optional section. */
  storeAgentFiles?: StoreAgentFileLink[];
  limits?: LlmsLimits;
}

interface ProductGroup {
  title: string;
  /** AI collection page, when the group is a collection. */
  path: string | null;
  products: Array<{ product: CatalogProduct; slug: string }>;
}

/**
 * Products grouped by collection, each product once: in the first real (not catch-all)
 * collection that holds it, else under its kind (`input.kinds`, linked to the kind page),
 * else in "Other products". Within a group: available products first, then the collection's
 * (or the catalogue's) order.
 */
export function productGroups(input: Pick<LlmsTxtInput, 'products' | 'collections' | 'kinds'>): ProductGroup[] {
  const byId = new Map(input.products.map((p) => [p.product.productId, p]));
  const placed = new Set<string>();
  const groups: ProductGroup[] = [];
  const byPriority = (items: ProductGroup['products']) =>
    items.map((item, i) => ({ item, i })).sort((a, b) => Number(b.item.product.available) - Number(a.item.product.available) || a.i - b.i).map((x) => x.item);
  const group = (title: string, path: string | null, ids: readonly string[]) => {
    const members: ProductGroup['products'] = [];
    for (const id of ids) {
      const ref = byId.get(id);
      if (!ref || placed.has(id)) continue;
      placed.add(id);
      members.push(ref);
    }
    if (members.length) groups.push({ title: oneLine(title), path, products: byPriority(members) });
  };
  for (const c of input.collections) if (!isCatchAllCollection(c.handle ?? '', c.title)) group(c.title, c.path, c.productIds ?? []);
  for (const k of input.kinds ?? []) group(k.kind, k.path, k.productIds);
  const rest = input.products.filter((p) => !placed.has(p.product.productId));
  if (rest.length) groups.push({ title: groups.length ? 'Other products' : 'Products', path: null, products: byPriority(rest) });
  return groups;
}

/** `SKU YM-1` or `SKUs YM-1, YM-2` (every variant's, once each); null when the store gives none. */
export function skuNote(product: CatalogProduct): string | null {
  const skus = [...new Set((product.variants ?? []).map((v) => oneLine(v.sku ?? '')).filter(Boolean))];
  if (!skus.length) return null;
  return `${skus.length === 1 ? 'SKU' : 'SKUs'} ${skus.join(', ')}`;
}

/** The first sentence of what the store says a product is, cut at a word (never mid-word) within `max`. */
function blurb(product: CatalogProduct, narrative: SiteNarrative, max: number): string {
  if (max <= 0) return '';
  const own = markdownPlain(product.description);
  return leadSentences(own || productSummary(product, narrative), 1, max);
}

/**
 * A product's line in llms.txt and the catalogue files: price and stock, kind and brand, a
 * blurb; the catalogue files add the SKUs (llms.txt keeps its lines short, so every product fits).
 */
function productLink(ref: { product: CatalogProduct; slug: string }, narrative: SiteNarrative, noteLength: number, kindOf: KindOf, withSkus = false): LlmsLink {
  const notes = [offerNote(ref.product), kindAndBrand(kindOf(ref.product), oneLine(ref.product.vendor) || null), withSkus ? skuNote(ref.product) : null, blurb(ref.product, narrative, noteLength)].filter(Boolean).join('; ');
  return { name: ref.product.name, url: publicUrl(SITE_PATHS.productLlms(ref.slug)), notes };
}

/** The products `/llms.txt` lists, per group (the groups of `productGroups`, in order). */
export interface LlmsIndexSelection {
  groups: Array<{ group: ProductGroup; shown: ProductGroup['products'] }>;
  /** Every product is listed (the catalogue fits the budget). */
  complete: boolean;
}

/** The items with their brands taking turns, each brand's items in their given order. */
export function interleaveBrands<T extends { product: CatalogProduct }>(items: readonly T[]): T[] {
  const queues = new Map<string, T[]>();
  for (const item of items) {
    const brand = item.product.vendor.trim().toLowerCase();
    const queue = queues.get(brand);
    if (queue) queue.push(item);
    else queues.set(brand, [item]);
  }
  const out: T[] = [];
  for (let round = 0; out.length < items.length; round++) for (const queue of queues.values()) if (round < queue.length) out.push(queue[round] as T);
  return out;
}

/**
 * Beyond the budget: each group in relevance order, at most `perCollection` of it and
 * `maxTotal` in all.
 */
function cappedSelection(groups: ProductGroup[], compare: (a: CatalogProduct, b: CatalogProduct) => number, perCollection: number, maxTotal: number): LlmsIndexSelection {
  let listed = 0;
  return {
    complete: false,
    groups: groups.map((group) => {
      // Brands take turns, so the products shown represent the group's brands, not only its first.
      const ranked = interleaveBrands([...group.products].sort((a, b) => compare(a.product, b.product)));
      const shown = ranked.slice(0, Math.max(0, Math.min(perCollection, maxTotal - listed)));
      listed += shown.length;
      return { group, shown };
    }),
  };
}

function storeDetails(input: LlmsTxtInput): string[] {
  const { business, narrative } = input;
  const details: string[] = [...detailParagraphs(narrative.description)];
  if (narrative.keyFacts.length) {
    details.push('Key facts:', narrative.keyFacts.map((fact) => `- ${oneLine(fact)}`).join('\n'));
  }
  const about: string[] = ['About the store:'];
  if (narrative.industry) about.push(`- Industry: ${oneLine(narrative.industry)}`);
  if (narrative.audience) about.push(`- Audience: ${oneLine(narrative.audience)}`);
  if (narrative.categories.length) about.push(`- Categories: ${narrative.categories.map(oneLine).join(', ')}`);
  about.push(`- Store: ${business.url.replace(/\/+$/, '')}`);
  details.push(about[0] as string, about.slice(1).join('\n'));
  return details;
}

const OFFER_CAVEAT = 'Prices and availability change; the store pages are authoritative.';

/**
 * `/llms.txt` (llmstxt.org): H1, summary, details, then products by collection, collections,
 * Q&A, pages, and an Optional section with the full catalogue, its pages, data.json, the
 * sitemap and the store's own agent files. Every product is listed (with price, stock and
 * SKUs) while the file stays within `llmsTxtBudgetBytes`; beyond it, at most `perCollection`
 * per collection and `indexMaxProducts` in all, the most relevant first (`relevanceOrder`),
 * fewer in all if that is still too large. Plus `/llms/catalog/full.txt` (every product, one
 * line each) and `/llms/catalog/<n>.txt` (the same lines in pages). Links are absolute on the
 * public origin.
 */
export function buildLlmsFiles(input: LlmsTxtInput): SiteFile[] {
  return buildLlmsIndex(input).files;
}

/** `buildLlmsFiles` and which products its `/llms.txt` lists. */
export function buildLlmsIndex(input: LlmsTxtInput): { files: SiteFile[]; selection: LlmsIndexSelection } {
  const limits = input.limits ?? DEFAULT_LLMS_LIMITS;
  const groups = productGroups(input);
  let blurbLength = INDEX_NOTE_LENGTH;
  // What every render of the budget search states alike, read once.
  const kindOf = catalogueKinds(input.products.map((p) => p.product), input.business.name);
  const kindLinks = kindPageLinks(input);
  const render = (selection: LlmsIndexSelection) => renderLlmsTxt(input, limits, selection, blurbLength, kindOf, kindLinks);
  let selection: LlmsIndexSelection = { complete: true, groups: groups.map((group) => ({ group, shown: group.products })) };
  let llmsTxt = render(selection);
  // Over the budget, every product's facts without its blurb come before some products with theirs.
  if (publishedBytes(llmsTxt) > limits.llmsTxtBudgetBytes) {
    blurbLength = 0;
    llmsTxt = render(selection);
  }
  if (publishedBytes(llmsTxt) > limits.llmsTxtBudgetBytes) {
    const compare = relevanceOrder(input);
    const fits = (perCollection: number, maxTotal: number) =>
      publishedBytes(render(cappedSelection(groups, compare, perCollection, maxTotal))) <= limits.llmsTxtBudgetBytes;
    /** The largest n in [lo, hi] with ok(n), given ok(lo) (ok is monotone). */
    const largest = (lo: number, hi: number, ok: (n: number) => boolean) => {
      while (lo < hi) {
        const mid = Math.ceil((lo + hi) / 2);
        if (ok(mid)) lo = mid;
        else hi = mid - 1;
      }
      return lo;
    };
    // Even the capped index can exceed the budget (long names or notes): then the largest total that fits.
    const total = fits(limits.perCollection, limits.indexMaxProducts) ? limits.indexMaxProducts : largest(0, limits.indexMaxProducts, (n) => fits(limits.perCollection, n));
    selection = cappedSelection(groups, compare, limits.perCollection, total);
    llmsTxt = render(selection);
  }
  const files: SiteFile[] = [{ path: SITE_PATHS.llmsTxt, content: llmsTxt, contentType: CONTENT_TYPES.text }];
  files.push(...catalogueFiles(input, limits, groups, kindOf));
  return { files, selection };
}

function renderLlmsTxt(input: LlmsTxtInput, limits: LlmsLimits, selection: LlmsIndexSelection, blurbLength: number, kindOf: KindOf, kindLinks: LlmsLink[]): string {
  const { business, narrative } = input;
  const total = input.products.length;
  const pageCount = Math.ceil(total / limits.catalogPageSize);
  const catalogueNote = total ? `${total} product${total === 1 ? '' : 's'}` : '';
  const listed = selection.groups.reduce((n, g) => n + g.shown.length, 0);

  const details = storeDetails(input);
  details.push(
    selection.complete
      ? `Every product is listed here with its price, stock, kind and brand, grouped by collection and kind (${catalogueNote || 'no products'}); ` +
          `the same lines are in the full catalogue, linked in the Optional section. ${OFFER_CAVEAT}`
      : `${listed} of ${total} products are listed here: at most ${limits.perCollection} per collection, available products first, ` +
          `then best sellers and featured products, then the most recently updated. ` +
          `Every product is in the full catalogue (${catalogueNote}), linked in the Optional section. ${OFFER_CAVEAT}`,
  );

  const sections: LlmsSection[] = [];
  for (const { group, shown } of selection.groups) {
    const links = shown.map((ref) => productLink(ref, narrative, blurbLength, kindOf));
    const more = group.products.length - shown.length;
    if (more > 0) {
      links.push({
        name: `All ${group.products.length} products: ${group.title}`,
        url: group.path ? publicUrlOfFile(group.path) : publicUrl(SITE_PATHS.llmsFull),
        notes: `${more} more than listed here`,
      });
    }
    sections.push({ title: group.title, links });
  }
  sections.push(
    {
      title: 'Products by kind',
      links: kindLinks,
    },
    {
      title: 'Collections',
      links: input.collections.map((c) => ({ name: c.title, url: publicUrlOfFile(c.path), notes: truncate(markdownPlain(c.description), 160) })),
    },
    {
      title: 'Questions and answers',
      links: input.faqs.map((f) => ({ name: f.question, url: publicUrlOfFile(f.path), notes: truncate(f.answer, 160) })),
    },
    {
      title: 'Pages',
      links: indexPages(input.pages, limits.indexMaxPages, publicUrl(SITE_PATHS.sitemap)).map((l) => (l.url.startsWith('/') ? { ...l, url: publicUrl(l.url) } : l)),
    },
  );
  const optional: LlmsLink[] = [];
  if (total) {
    optional.push({ name: 'Full catalogue', url: publicUrl(SITE_PATHS.llmsFull), notes: `every product, one line each (${catalogueNote})` });
    for (let n = 1; n <= pageCount; n += 1) {
      const from = (n - 1) * limits.catalogPageSize + 1;
      optional.push({ name: `Catalogue part ${n} of ${pageCount}`, url: publicUrl(SITE_PATHS.llmsCatalogPage(n)), notes: `products ${from}-${Math.min(total, n * limits.catalogPageSize)}` });
    }
  }
  optional.push(
    { name: 'Structured data', url: publicUrl(SITE_PATHS.dataJson), notes: 'schema.org JSON-LD: the store and its products' },
    { name: 'Sitemap', url: publicUrl(SITE_PATHS.sitemap), notes: 'every store page and AI page' },
  );
  for (const file of input.storeAgentFiles ?? []) optional.push({ name: file.name, url: file.url, notes: file.notes ?? 'published by the store itself' });
  sections.push({ title: 'Optional', links: optional });
  return renderLlmsDocument({ title: business.name, summary: narrative.summary, details, sections });
}

/** The kind pages' lines: how many products, the cheapest named with its price. */
function kindPageLinks(input: LlmsTxtInput): LlmsLink[] {
  const byId = new Map(input.products.map((p) => [p.product.productId, p.product]));
  return (input.kinds ?? []).map((kind) => {
    let cheapest: CatalogProduct | null = null;
    for (const id of kind.productIds) {
      const product = byId.get(id);
      const low = product ? priceSpan(product)?.lowValue : undefined;
      if (product && low !== undefined && (!cheapest || low < priceSpan(cheapest)!.lowValue)) cheapest = product;
    }
    const notes = [`${kind.productIds.length} products with price, stock and options, cheapest first`, cheapest ? `cheapest: ${oneLine(cheapest.name)} (${priceText(cheapest)})` : null].filter(Boolean).join('; ');
    return { name: `${kind.kind}: prices, stock and options`, url: publicUrlOfFile(kind.path), notes };
  });
}

/** `/llms/catalog/full.txt` and `/llms/catalog/<n>.txt`: every product once, grouped. */
function catalogueFiles(input: LlmsTxtInput, limits: LlmsLimits, groups: ProductGroup[], kindOf: KindOf): SiteFile[] {
  const { business, narrative } = input;
  const total = input.products.length;
  if (!total) return [];
  const pageCount = Math.ceil(total / limits.catalogPageSize);
  const catalogueNote = `${total} product${total === 1 ? '' : 's'}`;
  const files: SiteFile[] = [];
  // Catalogue files: every product once, grouped, in the order above.
  const ordered = groups.flatMap((g) => g.products.map((ref) => ({ ref, group: g.title })));
  const catalogueSections = (items: typeof ordered): LlmsSection[] => {
    const out: LlmsSection[] = [];
    for (const { ref, group } of items) {
      let section = out[out.length - 1];
      if (!section || section.title !== group) out.push((section = { title: group, links: [] }));
      section.links.push(productLink(ref, narrative, CATALOG_NOTE_LENGTH, kindOf, true));
    }
    return out;
  };
  const back: LlmsSection = { title: 'Optional', links: [{ name: 'Store overview', url: publicUrl(SITE_PATHS.llmsTxt), notes: 'llms.txt of the whole store' }] };
  files.push({
    path: SITE_PATHS.llmsFull,
    content: renderLlmsDocument({
      title: `${business.name}: full catalogue`,
      summary: `Every product of ${oneLine(business.name)} (${catalogueNote}), grouped by collection, each listed once with a link to its facts file.`,
      details: [OFFER_CAVEAT],
      sections: [...catalogueSections(ordered), back],
    }),
    contentType: CONTENT_TYPES.text,
  });
  for (let n = 1; n <= pageCount; n += 1) {
    const items = ordered.slice((n - 1) * limits.catalogPageSize, n * limits.catalogPageSize);
    const nav: LlmsLink[] = [];
    if (n > 1) nav.push({ name: `Catalogue part ${n - 1}`, url: publicUrl(SITE_PATHS.llmsCatalogPage(n - 1)) });
    if (n < pageCount) nav.push({ name: `Catalogue part ${n + 1}`, url: publicUrl(SITE_PATHS.llmsCatalogPage(n + 1)) });
    files.push({
      path: SITE_PATHS.llmsCatalogPage(n),
      content: renderLlmsDocument({
        title: `${business.name}: catalogue, part ${n} of ${pageCount}`,
        summary: `Products ${(n - 1) * limits.catalogPageSize + 1}-${(n - 1) * limits.catalogPageSize + items.length} of ${total}, grouped by collection.`,
        details: [OFFER_CAVEAT],
        sections: [...catalogueSections(items), { title: 'Optional', links: [...nav, ...back.links] }],
      }),
      contentType: CONTENT_TYPES.text,
    });
  }
  return files;
}

/** The store's `/llms.txt` alone. */
export function buildLlmsTxt(input: LlmsTxtInput): SiteFile {
  return buildLlmsFiles(input)[0] as SiteFile;
}
