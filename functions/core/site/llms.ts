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
 * `/llms.txt` is an index that stays small at any catalogue size (D113); the full catalogue
 * is in `/llms/catalog/full.txt` and `/llms/catalog/<n>.txt`.
 */
import { CONTENT_TYPES, oneLine, truncate } from './html';
import { isCatchAllCollection } from '../generate/industry';
import { markdownDetails, markdownPlain } from './markdown';
import { SITE_PATHS, isRoutedPath, productSlugs, publicUrl, publicUrlOfFile } from './paths';
import { identifierFacts, priceStatement, stockNote, stockStatement, variantDetailBlock } from './offers';
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

/** `In stock`, `Out of stock`, or `In stock (Matte Black: sold out)` (offers.ts). */
export function availabilityText(product: CatalogProduct): string {
  return stockStatement(product);
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
}

/** One `/llms/<slug>.txt` per product (onboarding step 3b builds these on their own). */
export function buildProductLlmsFiles(
  products: readonly CatalogProduct[],
  narrative: SiteNarrative,
  options: ProductLlmsOptions,
): SiteFile[] {
  const slugs = productSlugs(products);
  const seen = new Set<string>();
  const files: SiteFile[] = [];
  for (const product of products) {
    if (seen.has(product.productId)) continue;
    seen.add(product.productId);
    const slug = slugs.get(product.productId) as string;
    const facts: string[] = [];
    const price = priceText(product);
    facts.push(`- Price: ${price ?? 'not listed'}`);
    facts.push(`- Availability: ${availabilityText(product)}`);
    for (const [label, value] of identifierFacts(product)) facts.push(`- ${label}: ${value}`);
    if (product.productType) facts.push(`- Product type: ${oneLine(product.productType)}`);
    if (product.vendor) facts.push(`- Vendor: ${oneLine(product.vendor)}`);
    if (product.tags.length) facts.push(`- Tags: ${product.tags.map(oneLine).join(', ')}`);
    facts.push(`- Store page: ${product.url}`);
    if (options.business) facts.push(`- Sold by: ${oneLine(options.business.name)} (${options.business.url.replace(/\/+$/, '')})`);
    const details = [facts.join('\n'), variantDetailBlock(product) ?? ''];
    const description = markdownDetails(product.description);
    if (description.length) details.push('Description:', ...description);
    const content = renderLlmsDocument({
      title: product.name,
      summary: productSummary(product, narrative),
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

/** Products listed per collection in `/llms.txt` (the rest: collection page and catalogue files). */
export const LLMS_PRODUCTS_PER_COLLECTION = 10;
/** At most this many products in `/llms.txt` in all. */
export const LLMS_INDEX_MAX_PRODUCTS = 200;
/** Products per `/llms/catalog/<n>.txt`. */
export const LLMS_CATALOG_PAGE_SIZE = 500;
/** Notes of catalogue lines are cut to this many characters. */
const CATALOG_NOTE_LENGTH = 140;

/** Store pages listed in llms.txt at most: a 5,000-page store would otherwise list 5,000 replicas (the sitemap has them all). */
export const LLMS_INDEX_MAX_PAGES = 50;

export interface LlmsLimits {
  perCollection: number;
  indexMaxProducts: number;
  catalogPageSize: number;
  indexMaxPages: number;
}

export const DEFAULT_LLMS_LIMITS: LlmsLimits = {
  perCollection: LLMS_PRODUCTS_PER_COLLECTION,
  indexMaxProducts: LLMS_INDEX_MAX_PRODUCTS,
  catalogPageSize: LLMS_CATALOG_PAGE_SIZE,
  indexMaxPages: LLMS_INDEX_MAX_PAGES,
};

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
 * collection that holds it, else in "Other products". Within a group: available products
 * first, then the collection's (or the catalogue's) order.
 */
export function productGroups(input: Pick<LlmsTxtInput, 'products' | 'collections'>): ProductGroup[] {
  const byId = new Map(input.products.map((p) => [p.product.productId, p]));
  const placed = new Set<string>();
  const groups: ProductGroup[] = [];
  const byPriority = (items: ProductGroup['products']) =>
    items.map((item, i) => ({ item, i })).sort((a, b) => Number(b.item.product.available) - Number(a.item.product.available) || a.i - b.i).map((x) => x.item);
  for (const c of input.collections) {
    if (isCatchAllCollection(c.handle ?? '', c.title)) continue;
    const members: ProductGroup['products'] = [];
    for (const id of c.productIds ?? []) {
      const ref = byId.get(id);
      if (!ref || placed.has(id)) continue;
      placed.add(id);
      members.push(ref);
    }
    if (members.length) groups.push({ title: oneLine(c.title), path: c.path, products: byPriority(members) });
  }
  const rest = input.products.filter((p) => !placed.has(p.product.productId));
  if (rest.length) groups.push({ title: groups.length ? 'Other products' : 'Products', path: null, products: byPriority(rest) });
  return groups;
}

function productLink(ref: { product: CatalogProduct; slug: string }, narrative: SiteNarrative, noteLength: number): LlmsLink {
  const notes = [offerNote(ref.product), truncate(productSummary(ref.product, narrative), noteLength)].filter(Boolean).join('; ');
  return { name: ref.product.name, url: publicUrl(SITE_PATHS.productLlms(ref.slug)), notes };
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
 * `/llms.txt` (a concise index, llmstxt.org): H1, summary, details, then products by collection
 * (at most `perCollection` each and `indexMaxProducts` in all, each product once), collections,
 * Q&A, pages, and an Optional section with the full catalogue, its pages, data.json, the sitemap
 * and the store's own agent files. Plus `/llms/catalog/full.txt` (every product, one line each)
 * and `/llms/catalog/<n>.txt` (the same lines in pages). Links are absolute on the public origin.
 */
export function buildLlmsFiles(input: LlmsTxtInput): SiteFile[] {
  const { business, narrative } = input;
  const limits = input.limits ?? DEFAULT_LLMS_LIMITS;
  const groups = productGroups(input);
  const total = input.products.length;
  const pageCount = Math.ceil(total / limits.catalogPageSize);
  const catalogueNote = total ? `${total} product${total === 1 ? '' : 's'}` : '';

  const details = storeDetails(input);
  details.push(
    `Products are grouped by collection; at most ${limits.perCollection} are listed per collection here. ` +
      `Every product is in the full catalogue (${catalogueNote || 'no products'}), linked in the Optional section. ${OFFER_CAVEAT}`,
  );

  const sections: LlmsSection[] = [];
  let listed = 0;
  for (const group of groups) {
    const room = Math.max(0, Math.min(limits.perCollection, limits.indexMaxProducts - listed));
    const shown = group.products.slice(0, room);
    listed += shown.length;
    const links = shown.map((ref) => productLink(ref, narrative, 160));
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
    { name: 'Structured data', url: publicUrl(SITE_PATHS.dataJson), notes: 'schema.org JSON-LD: the store and its leading products' },
    { name: 'Sitemap', url: publicUrl(SITE_PATHS.sitemap), notes: 'every store page and AI page' },
  );
  for (const file of input.storeAgentFiles ?? []) optional.push({ name: file.name, url: file.url, notes: file.notes ?? 'published by the store itself' });
  sections.push({ title: 'Optional', links: optional });

  const files: SiteFile[] = [
    { path: SITE_PATHS.llmsTxt, content: renderLlmsDocument({ title: business.name, summary: narrative.summary, details, sections }), contentType: CONTENT_TYPES.text },
  ];
  if (!total) return files;

  // Catalogue files: every product once, grouped, in the order above.
  const ordered = groups.flatMap((g) => g.products.map((ref) => ({ ref, group: g.title })));
  const catalogueSections = (items: typeof ordered): LlmsSection[] => {
    const out: LlmsSection[] = [];
    for (const { ref, group } of items) {
      let section = out[out.length - 1];
      if (!section || section.title !== group) out.push((section = { title: group, links: [] }));
      section.links.push(productLink(ref, narrative, CATALOG_NOTE_LENGTH));
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
