/**
 * Entry points of the AI-site file builders. Pure: no I/O, no environment, time passed in.
 *
 * - `buildSiteFiles(snapshot, narrative, options)`: every content file (onboarding step 2a).
 * - `buildProductLlmsFiles(products, narrative, options)`: `/llms/<slug>.txt` on their own
 *   (step 3b); the same slugs as `buildSiteFiles` for the same product list.
 * - `finalizeSite(contentFiles, metadata, options)`: at publish time, adds what needs the full
 *   file list: the unified sitemap, robots.txt and the AI home (`/ai/index.html`, `/index.html`).
 * - `refreshTimestamps(files, now)` (refresh.ts): the daily date refresh.
 *
 * Decisions:
 * - Canonicals, per page kind (D112's companion; see docs/decisions.md D113):
 *   - `/ai/products/<slug>/` replicates the store's product page (same product, same facts):
 *     canonical = the store product URL;
 *   - `/ai/collections/<handle>/` replicates the store's collection page: canonical = it;
 *   - Q&A pages, the Q&A index and the AI home are content of their own that no store page
 *     carries (a store FAQ page has other text): canonical = their own URL on the public
 *     origin (`metadata.publicOrigin`, resolved by `finalizeSite`), in the routed `/ai/...`
 *     form, which resolves on the AI host and on the customer domain (D28). Declaring them
 *     copies of the store home or FAQ page would keep them out of search indexes;
 *   - markdown replicas `/pages/*.md` replicate store pages but are not HTML (no canonical
 *     tag possible); they are left out of the sitemap and start with their `Source:` URL.
 * - Dates (D112): every HTML page keeps its modified date until its content changes; pass the
 *   previous release's pages as `previousPages` (`pageDatesOf(files)`, core/site/dates.ts).
 * - Scale (D113, amended by D158): llms.txt lists every product while it stays within
 *   `LLMS_TXT_BUDGET_BYTES` (100 KB) and data.json describes every product while it stays within
 *   `DATA_JSON_BUDGET_BYTES` (1 MB); beyond a budget, llms.txt lists at most
 *   `LLMS_PRODUCTS_PER_COLLECTION` per collection and `LLMS_INDEX_MAX_PRODUCTS` in all, most
 *   relevant first, and data.json those products; the full catalogue is always in
 *   `/llms/catalog/full.txt` and `/llms/catalog/<n>.txt`.
 * - Collections: the snapshot carries no collection membership, so products are matched to a
 *   collection when their product type, a tag or the vendor names the collection (handle or
 *   title, singular or plural); `all`-like handles hold every product; callers that know the
 *   membership pass `collectionMembers`.
 * - Markdown replicas: every scraped page with a status below 400, slug = store path with
 *   `/` → `-` (home → `home`); relative links in the markdown become absolute store URLs.
 */
import { ValidationError } from '../errors';
import { CONTENT_TYPES, oneLine } from './html';
import { buildIndexPage } from './index-page';
import { DEFAULT_LLMS_LIMITS, buildLlmsIndex, buildProductLlmsFiles, publishedBytes, relevanceOrder, storeAgentFileLinks, type LlmsLimits } from './llms';
import { pageDatesOf, type PageDate, type PageDates } from './dates';
import { kindGroups } from './kinds';
import { catalogueKinds } from '../products/kind';
import {
  buildCollectionPage,
  buildKindPage,
  buildFaqPage,
  buildPageReplica,
  buildProductPage,
  buildQuestionsIndex,
  replicaLabel,
  type CollectionRef,
  type FaqRef,
  type PageContext,
  type ProductRef,
  type ReplicaRef,
} from './pages';
import { RESERVED_AI_NAMES, SITE_PATHS, SlugAllocator, pageReplicaSlug, productSlugs, publicUrl, resolvePublicOrigin, slugify } from './paths';
import { buildFavicon } from './favicon';
import { buildRobotsTxt } from './robots';
import { buildSitemap, type SitemapLimits } from './sitemap';
import { buildDataJson } from './structured-data';
import { organizationProfile } from './organization';
import { buildTrackingScript } from './tracking-script';
import type { CatalogCollection, CatalogProduct, DeployMetadata, ScrapedPage, SiteFile, SiteNarrative, StoreSnapshot } from './types';
import { withoutDeadRelatedLinks } from './related-links';
import { asFacts, type FileFacts } from './file-facts';

export { buildProductLlmsFiles } from './llms';
export { refreshTimestamps } from './refresh';
export { buildSitemap } from './sitemap';
export { buildRobotsTxt } from './robots';
export { buildIndexPage } from './index-page';

export interface BuildSiteOptions {
  /** ISO timestamp of this build. */
  now: string;
  /** IndexNow key: 8-128 characters of a-z, A-Z, 0-9 and `-`. */
  indexNowKey: string;
  /** Absolute URL of the AI-recommendation webhook, for `/tracking.js`. */
  trackingEndpoint: string;
  /** Product ids per collection handle, when the caller knows the membership. */
  collectionMembers?: Record<string, string[]>;
  /**
   * The previous release's HTML pages (`pageDatesOf(previousFiles)`): unchanged pages keep
   * their modified date (D112). Absent on a first build.
   */
  previousPages?: PageDates;
  /** Tests and benches: other llms.txt limits. */
  llmsLimits?: LlmsLimits;
  /**
   * Slugs of the AI articles (root `/<slug>/`, served at `/ai/<slug>/` on a customer domain):
   * a Q&A page never takes one, or it would hide the article's `/ai/` form (D28, D124).
   */
  articleSlugs?: readonly string[];
}

/**
 * The products data.json describes: every product while the document stays within the
 * budget; beyond it the ones llms.txt lists, the least relevant left out first when even
 * those do not fit (D158).
 */
function dataJsonDocument(
  build: (products: readonly CatalogProduct[]) => Record<string, unknown>,
  products: readonly CatalogProduct[],
  listed: readonly CatalogProduct[],
  compare: (a: CatalogProduct, b: CatalogProduct) => number,
  limits: LlmsLimits,
): string {
  const render = (subset: readonly CatalogProduct[]) => `${JSON.stringify(build(subset), null, 2)}\n`;
  const all = render(products);
  if (publishedBytes(all) <= limits.dataJsonBudgetBytes) return all;
  const ranked = [...listed].sort(compare);
  // The listed order is kept; the prefix of the relevance order decides who stays.
  const subset = (n: number) => {
    const keep = new Set(ranked.slice(0, n).map((p) => p.productId));
    return listed.filter((p) => keep.has(p.productId));
  };
  let content = render(listed);
  if (publishedBytes(content) <= limits.dataJsonBudgetBytes) return content;
  let lo = 0;
  let hi = listed.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (publishedBytes(render(subset(mid))) <= limits.dataJsonBudgetBytes) lo = mid;
    else hi = mid - 1;
  }
  content = render(subset(lo));
  return content;
}

/**
 * data.json: the organization and the leading products, plus a pointer to the full catalogue
 * when products are left out. `dateModified` = the latest of its nodes' (D112), never "now"
 * for nothing.
 */
function boundedDataJson(data: Record<string, unknown>, total: number, listed: number, catalogPages: number): Record<string, unknown> {
  const graph = Array.isArray(data['@graph']) ? [...(data['@graph'] as Array<Record<string, unknown>>)] : [];
  const dates = graph.map((n) => n.dateModified).filter((d): d is string => typeof d === 'string' && !Number.isNaN(new Date(d).getTime()));
  const latest = dates.sort((a, b) => new Date(b).getTime() - new Date(a).getTime())[0];
  if (total > listed) {
    graph.push({
      '@type': 'DataCatalog',
      name: 'Full product catalogue',
      description: `${listed} of ${total} products are described here; every product is listed in the catalogue files.`,
      url: publicUrl(SITE_PATHS.llmsFull),
      dataset: Array.from({ length: catalogPages }, (_, i) => ({ '@type': 'Dataset', name: `Catalogue part ${i + 1}`, url: publicUrl(SITE_PATHS.llmsCatalogPage(i + 1)) })),
    });
  }
  return { ...data, ...(latest ? { dateModified: latest } : {}), '@graph': graph };
}

const INDEXNOW_KEY = /^[A-Za-z0-9-]{8,128}$/;

function uniqueBy<T>(items: readonly T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const k = key(item);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

function singular(slug: string): string {
  return slug.replace(/(?:es|s)$/, '');
}

const ALL_PRODUCTS_HANDLES = new Set(['all', 'all-products', 'catalog', 'shop', 'shop-all']);

/** Products of a collection: explicit membership when given, else the matching rule above. */
export function collectionProducts(
  collection: CatalogCollection,
  products: readonly CatalogProduct[],
  explicit?: Record<string, string[]>,
): CatalogProduct[] {
  const ids = explicit?.[collection.handle];
  if (ids) {
    const byId = new Map(products.map((p) => [p.productId, p]));
    return uniqueBy(ids, (id) => id).flatMap((id) => (byId.has(id) ? [byId.get(id) as CatalogProduct] : []));
  }
  const handle = slugify(collection.handle, '');
  if (ALL_PRODUCTS_HANDLES.has(handle)) return [...products];
  const forms = (text: string) => {
    const slug = slugify(text, '');
    return slug ? [slug, singular(slug)] : [];
  };
  const keys = new Set([...forms(collection.handle), ...forms(collection.title)]);
  const names = (p: CatalogProduct) => [p.productType, p.vendor, ...p.tags].flatMap(forms);
  return products.filter((p) => names(p).some((n) => keys.has(n)));
}

/** The store handle a product page's URL names (`/products/<handle>`, also under a collection). */
function productHandleOf(url: string): string | null {
  try {
    const m = /\/products\/([^/?#]+)\/?$/.exec(new URL(url).pathname);
    return m ? decodeURIComponent(m[1] as string).toLowerCase() : null;
  } catch {
    return null;
  }
}

/** The replicas, each store product page with the product it shows (its replica opens with the product's fact card). */
function replicaPages(pages: readonly ScrapedPage[], products: readonly CatalogProduct[]): ReplicaRef[] {
  const allocator = new SlugAllocator();
  const byHandle = new Map(products.map((p) => [productHandleOf(p.url) ?? p.productId.toLowerCase(), p]));
  return uniqueBy(
    pages.filter((p) => p.statusCode < 400),
    (p) => p.url,
  ).map((page) => {
    const handle = productHandleOf(page.url);
    const product = handle ? byHandle.get(handle) : undefined;
    return { page, slug: allocator.take(pageReplicaSlug(page.url)), ...(product ? { product } : {}) };
  });
}

/** Every content file of the AI site. */
export function buildSiteFiles(snapshot: StoreSnapshot, narrative: SiteNarrative, options: BuildSiteOptions): SiteFile[] {
  return [...siteFiles(snapshot, narrative, options)];
}

/**
 * `buildSiteFiles` one file at a time (D204): a caller that stores them as they come (the main
 * part, 45,000 files at 20,000 products) never holds them all. The options are checked before
 * the first file.
 */
export function siteFiles(snapshot: StoreSnapshot, narrative: SiteNarrative, options: BuildSiteOptions): Generator<SiteFile> {
  if (!INDEXNOW_KEY.test(options.indexNowKey)) throw new ValidationError('indexNowKey must be 8-128 characters of a-z, A-Z, 0-9 and -');
  if (Number.isNaN(new Date(options.now).getTime())) throw new ValidationError('now must be an ISO timestamp');
  return siteFileStream(snapshot, narrative, options);
}

function* siteFileStream(snapshot: StoreSnapshot, narrative: SiteNarrative, options: BuildSiteOptions): Generator<SiteFile> {
  const products = uniqueBy(snapshot.products, (p) => p.productId);
  const kindOf = catalogueKinds(products, snapshot.business.name);
  const ctx: PageContext = { business: snapshot.business, narrative, now: options.now, kindOf, ...(options.previousPages ? { previous: options.previousPages } : {}) };

  const slugs = productSlugs(products);
  const productRefs: ProductRef[] = products.map((product) => ({ product, slug: slugs.get(product.productId) as string }));
  const refByProductId = new Map(productRefs.map((r) => [r.product.productId, r]));

  const collectionAllocator = new SlugAllocator();
  const collectionRefs: CollectionRef[] = uniqueBy(snapshot.collections, (c) => c.handle).map((collection) => ({
    collection,
    handle: collectionAllocator.take(slugify(collection.handle, 'collection')),
    products: collectionProducts(collection, products, options.collectionMembers).map(
      (p) => refByProductId.get(p.productId) as ProductRef,
    ),
  }));

  const faqAllocator = new SlugAllocator([...RESERVED_AI_NAMES, ...(options.articleSlugs ?? [])]);
  const faqRefs: FaqRef[] = narrative.faqs
    .filter((entry) => oneLine(entry.question) && entry.answer.trim())
    .map((entry) => ({ entry, slug: faqAllocator.take(slugify(entry.question, 'question')) }));

  const replicas = replicaPages(snapshot.pages, products);
  const kinds = kindGroups(productRefs, kindOf);

  const llmsLimits = options.llmsLimits ?? DEFAULT_LLMS_LIMITS;
  const llmsInput = {
    business: snapshot.business,
    narrative,
    products: productRefs,
    collections: collectionRefs.map((c) => ({
      handle: c.collection.handle,
      title: c.collection.title,
      description: c.collection.description,
      path: SITE_PATHS.collectionPage(c.handle),
      productIds: c.products.map((p) => p.product.productId),
    })),
    kinds: kinds.map((k) => ({ kind: k.kind, path: SITE_PATHS.kindPage(k.slug), productIds: k.products.map((p) => p.product.productId) })),
    faqs: faqRefs.map((f) => ({ question: f.entry.question, answer: f.entry.answer, path: SITE_PATHS.faqPage(f.slug) })),
    // A replica of a store product page is not listed beside the product's own page (issue 44).
    pages: replicas.filter((r) => !r.product).map((r) => ({ title: replicaLabel(r.page), description: r.page.description, path: SITE_PATHS.pageReplica(r.slug), kind: r.page.kind })),
    storeAgentFiles: storeAgentFileLinks(snapshot.storeAgentFiles ?? []),
    limits: llmsLimits,
  };
  const llms = buildLlmsIndex(llmsInput);
  yield* llms.files;
  yield* buildProductLlmsFiles(products, narrative, { now: options.now, business: snapshot.business, kindOf });
  const listed = llms.selection.groups.flatMap((g) => g.shown.map((ref) => ref.product));
  const profile = organizationProfile(snapshot);
  const catalogPages = Math.ceil(products.length / llmsLimits.catalogPageSize);
  const dataJson = dataJsonDocument(
    (subset) => boundedDataJson(buildDataJson(snapshot.business, subset, narrative, options.now, profile, kindOf), products.length, subset.length, catalogPages),
    products,
    listed,
    relevanceOrder(llmsInput),
    llmsLimits,
  );
  yield { path: SITE_PATHS.dataJson, content: dataJson, contentType: CONTENT_TYPES.json };
  for (const ref of productRefs) yield buildProductPage(ctx, ref, collectionRefs);
  for (const ref of collectionRefs) yield buildCollectionPage(ctx, ref);
  for (const group of kinds) yield buildKindPage(ctx, group);
  for (let i = 0; i < faqRefs.length; i++) yield buildFaqPage(ctx, faqRefs, i);
  yield buildQuestionsIndex(ctx, faqRefs);
  for (const ref of replicas) yield buildPageReplica(ctx, ref);
  yield {
    path: SITE_PATHS.trackingJs,
    content: buildTrackingScript({ trackingEndpoint: options.trackingEndpoint }),
    contentType: CONTENT_TYPES.javascript,
  };
  yield { path: SITE_PATHS.indexNowKey(options.indexNowKey), content: options.indexNowKey, contentType: CONTENT_TYPES.text };
  yield { path: SITE_PATHS.indexingKey, content: options.indexNowKey, contentType: CONTENT_TYPES.text };
}

export interface FinalizeOptions {
  /** The store's own robots.txt, whose groups the served robots.txt keeps. */
  storeRobotsTxt?: string;
  /** Tests only: smaller sitemap limits. */
  sitemapLimits?: SitemapLimits;
}

/** Files `finalizeSite` generates; copies of them among the content files are replaced. */
/** Paths `finalizeSite` writes itself: a content file at one is dropped (its page date is read, for the AI home). */
export function isGenerated(path: string): boolean {
  return (
    path === SITE_PATHS.sitemap ||
    path === SITE_PATHS.robots ||
    path === SITE_PATHS.rootIndex ||
    path === SITE_PATHS.aiHome ||
    path === SITE_PATHS.favicon ||
    path.startsWith('/ai/sitemaps/')
  );
}

/**
 * The complete site to publish: the content files (deduplicated by path, the last copy
 * wins), the AI home, the unified sitemap (or index and parts) and robots.txt.
 */
export function finalizeSite(contentFiles: readonly SiteFile[], metadata: DeployMetadata, options: FinalizeOptions = {}): SiteFile[] {
  const byPath = new Map<string, SiteFile>();
  const previousGenerated: SiteFile[] = [];
  for (const file of contentFiles) {
    if (isGenerated(file.path)) {
      previousGenerated.push(file);
      continue;
    }
    byPath.delete(file.path);
    // Absolute links and self canonicals name the public origin only now (PUBLIC_ORIGIN_TOKEN).
    const resolved = resolvePublicOrigin(file.content, metadata.publicOrigin);
    byPath.set(file.path, resolved === file.content ? file : { ...file, content: resolved });
  }
  // A related article that left (its product did, D150) is no longer linked from any page.
  const content = withoutDeadRelatedLinks([...byPath.values()]);
  // The AI home keeps its date while its content is unchanged (D112), like every page.
  return [...content, ...generatedSiteFiles(content, metadata, pageDatesOf(previousGenerated)[SITE_PATHS.aiHome], options)];
}

/**
 * What `finalizeSite` adds to the content: the AI home (dated by `previousAiHome`, the last
 * release's), the sitemap(s), robots.txt and the favicon, from the content's files or facts.
 */
export function generatedSiteFiles(
  content: ReadonlyArray<SiteFile | FileFacts>, metadata: DeployMetadata, previousAiHome: PageDate | undefined, options: FinalizeOptions = {},
): SiteFile[] {
  const facts = asFacts(content);
  const index = buildIndexPage(facts, metadata, previousAiHome);
  const sitemap = buildSitemap([...facts, ...index], metadata, options.sitemapLimits);
  const robots = buildRobotsTxt(metadata, options.storeRobotsTxt);
  return [...index, ...sitemap, robots, buildFavicon(metadata.businessName)];
}
