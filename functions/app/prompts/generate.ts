/**
 * Prompt generation for the tracker (spec: "Prompt strategy", "Prompt tracker",
 * regenerate-prompts; D9):
 *
 * - Onboarding 3a: 50 business prompts (up to 10 of them from a search API when one is
 *   configured) and, for every product entity, `onboardingProductPromptCounts(n)` prompts
 *   (5 each, at least 50 in total).
 * - Daily schedule 1b: 10 prompts per new product.
 * - Manual regenerate: `count` NEW prompts for the business or one product (adds, never
 *   deletes).
 *
 * Evidence: the scraped pages and catalogue when the scrape artifact exists (`loadSnapshot`),
 * else the catalogue artifact, else the business and product entities alone — prompts are
 * still generated when the site scrape failed, just fewer when the evidence is thin.
 *
 * Idempotence and uniqueness (D33): onboarding and the schedule top an entity UP to its
 * target (an entity that already has its prompts gets none); every engine is given all the
 * business's tracked prompts (`tracked`) and keeps only prompts that differ from them by
 * `promptIdentity`; and the repository's `addMissing` skips any prompt whose identity is
 * already tracked on ANY entity of the business — so a re-run, a retry after a crash or a
 * prompt fitting several products never stores a copy, whichever engine is configured.
 *
 * Search API: without a `SearchPromptSource` nothing is labelled `search_api`; the
 * generator writes all 50 business prompts and the result says `searchApi.status:
 * 'skipped'` with the reason. Queries from the search API are filtered like any prompt
 * (never the business name) and saved with source `search_api`.
 */
import { artifactKeys } from '../../core/artifacts';
import { BUSINESS_PROMPTS, BUSINESS_SEARCH_API_PROMPTS, PLATFORM_KEYS, PRODUCT_PROMPTS_CRON, PRODUCT_PROMPTS_REGENERATE } from '../../core/constants';
import { NotFoundError, ValidationError } from '../../core/errors';
import type { Business, Product, TrackedPrompt } from '../../core/model';
import { productShortfallReason, promptEvidence } from '../../core/prompts/offline-prompts';
import { promptId } from '../../core/prompts/prompt-identity';
import { filterPrompts, onboardingProductPromptCounts } from '../../core/prompts/strategy';
import type { ProductPromptRequest, PromptEngineInfo, PromptGenerator, PromptSet, SearchPromptSource } from '../../core/prompts/types';
import type { CatalogProduct, SiteNarrative, StoreSnapshot } from '../../core/site/types';
import type { Container } from '../../container';
import { promptGeneratorOf } from '../../engines/prompt-generator';
import { createLogger } from '../../logger';
import { loadSnapshot, snapshotBusiness, type CatalogArtifact } from '../site';
import { requireBusiness } from '../business';

const log = createLogger({ component: 'generate-prompts' });

export interface PromptDeps {
  /** Real search queries (onboarding only). Absent: no prompt claims to come from a search API. */
  search?: SearchPromptSource;
  /** Overrides the configured engine (tests, tools). */
  generator?: PromptGenerator;
}

export type EvidenceSource = 'scrape' | 'catalog' | 'entities';

export interface SearchApiOutcome {
  status: 'used' | 'skipped' | 'failed';
  reason?: string;
  /** Queries the search API returned. */
  fetched: number;
  /** Of those, kept after filtering (never the business name) and saved as `search_api`. */
  saved: number;
}

export interface OnboardingPromptsResult {
  business: { target: number; generated: number; saved: number; shortfall: number };
  products: {
    count: number;
    perProduct: number;
    generated: number;
    saved: number;
    /** Per product slug: how many fewer than `perProduct` it has, when the evidence was too thin. */
    shortfall: Record<string, number>;
    /** Per product slug in `shortfall`: why (e.g. the siblings nothing in the catalogue tells it apart from). */
    shortfallReasons: Record<string, string>;
  };
  searchApi: SearchApiOutcome;
  engine: PromptEngineInfo;
  evidence: EvidenceSource;
}

export interface ProductPromptsResult {
  perProduct: number;
  generated: number;
  saved: number;
  shortfall: Record<string, number>;
  /** Per product id in `shortfall`: why it is short. */
  shortfallReasons: Record<string, string>;
  /** Requested product ids that are not product entities of the business. */
  notFound: string[];
  engine: PromptEngineInfo | null;
  evidence: EvidenceSource | null;
}

export interface RegenerateResult {
  status: 'success' | 'skipped';
  generated: number;
  saved: number;
  skippedReason?: string;
  shortfall: number;
  engine: PromptEngineInfo;
  evidence: EvidenceSource;
}

interface Evidence {
  snapshot: StoreSnapshot;
  narrative: SiteNarrative | null;
  source: EvidenceSource;
}

/** A catalogue product from the entity alone (no scrape, no catalogue): its name and URL. */
function entityProduct(p: Product): CatalogProduct {
  return {
    productId: p.productId, name: p.name, url: p.url ?? '', description: '', productType: '', vendor: '', tags: [],
    price: null, compareAtPrice: null, currency: null, available: true, imageUrls: [], updatedAt: null,
  };
}

/** `snapshot`: evidence the caller built (regenerate from a URL: that site's pages), used instead of the stored scrape. */
async function loadEvidence(container: Container, business: Business, products: Product[], override?: StoreSnapshot): Promise<Evidence> {
  const { orgSlug } = business;
  let snapshot: StoreSnapshot | null = override ?? null;
  let source: EvidenceSource = 'scrape';
  if (!snapshot) {
    try {
      snapshot = await loadSnapshot(container, orgSlug);
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err; // no scrape artifact: build from what exists
    }
  }
  if (!snapshot) {
    const catalog = await container.artifacts.get<CatalogArtifact>(artifactKeys.catalog(orgSlug));
    source = catalog ? 'catalog' : 'entities';
    snapshot = {
      business: snapshotBusiness(business),
      pages: [],
      products: catalog?.products ?? [],
      collections: catalog?.collections ?? [],
      storeSitemapUrls: [],
    };
  }
  // Every product entity is in the snapshot, with its catalogue data when there is some.
  const known = new Set(snapshot.products.map((p) => p.productId));
  const missing = products.filter((p) => !known.has(p.productId)).map(entityProduct);
  if (missing.length) snapshot = { ...snapshot, products: [...snapshot.products, ...missing] };
  const narrative = await container.artifacts.get<SiteNarrative>(artifactKeys.narrative(orgSlug));
  return { snapshot, narrative, source };
}

function rows(container: Container, orgSlug: string, entityId: string, productId: string | null, prompts: string[], source: TrackedPrompt['source']): TrackedPrompt[] {
  const createdAt = container.clock.now().toISOString();
  const untested = Object.fromEntries(PLATFORM_KEYS.map((k) => [k, null])) as Record<(typeof PLATFORM_KEYS)[number], null>;
  return prompts.map((prompt) => ({
    id: promptId(entityId, prompt), orgSlug, prompt, entityId, productId, source, ...untested, lastTestedAt: null, createdAt,
  }));
}

function groupByEntity(prompts: TrackedPrompt[]): Map<string, TrackedPrompt[]> {
  const m = new Map<string, TrackedPrompt[]>();
  for (const p of prompts) {
    const list = m.get(p.entityId) ?? [];
    list.push(p);
    m.set(p.entityId, list);
  }
  return m;
}

function productRequests(evidence: Evidence, products: Product[], existing: Map<string, TrackedPrompt[]>, target: number): Array<{ entity: Product; request: ProductPromptRequest }> {
  const byId = new Map(evidence.snapshot.products.map((p) => [p.productId, p]));
  return products.map((entity) => {
    const have = (existing.get(entity.id) ?? []).map((p) => p.prompt);
    return {
      entity,
      request: { product: byId.get(entity.productId) ?? entityProduct(entity), count: Math.max(0, target - have.length), existing: have },
    };
  });
}

async function saveProducts(container: Container, orgSlug: string, reqs: Array<{ entity: Product; request: ProductPromptRequest }>, set: PromptSet): Promise<{ generated: number; saved: number }> {
  let generated = 0;
  const all: TrackedPrompt[] = [];
  for (const { entity } of reqs) {
    const list = set.products[entity.productId] ?? [];
    generated += list.length;
    all.push(...rows(container, orgSlug, entity.id, entity.productId, list, 'generated'));
  }
  return { generated, saved: all.length ? await container.prompts.addMissing(all) : 0 };
}

function shortfallOf(reqs: Array<{ entity: Product; request: ProductPromptRequest }>, set: PromptSet): Record<string, number> {
  const out: Record<string, number> = {};
  for (const { entity, request } of reqs) {
    const got = set.products[entity.productId]?.length ?? 0;
    if (got < request.count) out[entity.productId] = request.count - got;
  }
  return out;
}

/**
 * Why each short product is short (per product slug, beside `shortfallOf`): the engine's own
 * reason, else the offline reading of the catalogue (siblings nothing tells apart, evidence
 * that ran out). Never silent: every product in the shortfall has a reason.
 */
function shortfallReasonsOf(evidence: Evidence, reqs: Array<{ entity: Product; request: ProductPromptRequest }>, set: PromptSet): Record<string, string> {
  const out: Record<string, string> = {};
  let ev: ReturnType<typeof promptEvidence> | null = null;
  for (const { entity, request } of reqs) {
    const got = set.products[entity.productId]?.length ?? 0;
    if (got >= request.count) continue;
    const given = set.shortfall.reasons?.[entity.productId];
    if (given) { out[entity.productId] = given; continue; }
    ev ??= promptEvidence(evidence.snapshot, evidence.narrative);
    out[entity.productId] = productShortfallReason(evidence.snapshot, ev, request.product, got, request.count);
  }
  return out;
}

/** Onboarding 3a: business prompts (with the search API's when configured) and product prompts. */
export async function generateOnboardingPrompts(container: Container, orgSlug: string, deps: PromptDeps = {}): Promise<OnboardingPromptsResult> {
  const business = await requireBusiness(container, orgSlug);
  const products = await container.products.list(orgSlug);
  const evidence = await loadEvidence(container, business, products);
  const trackedRows = await container.prompts.list(orgSlug);
  const tracked = trackedRows.map((p) => p.prompt);
  const existing = groupByEntity(trackedRows);
  const generator = deps.generator ?? promptGeneratorOf(container);

  // Business: top up to 50; up to 10 of the missing ones from the search API.
  const businessExisting = existing.get(business.id) ?? [];
  const businessNeed = Math.max(0, BUSINESS_PROMPTS - businessExisting.length);
  const existingTexts = businessExisting.map((p) => p.prompt);
  let searchApi: SearchApiOutcome;
  let searchPrompts: string[] = [];
  const searchNeed = Math.min(businessNeed, Math.max(0, BUSINESS_SEARCH_API_PROMPTS - businessExisting.filter((p) => p.source === 'search_api').length));
  if (!deps.search) {
    searchApi = { status: 'skipped', reason: 'no search API configured', fetched: 0, saved: 0 };
  } else if (searchNeed === 0) {
    searchApi = { status: 'skipped', reason: businessNeed === 0 ? `the business already has ${BUSINESS_PROMPTS} prompts` : 'the business already has its search-API prompts', fetched: 0, saved: 0 };
  } else {
    const ev = promptEvidence(evidence.snapshot, evidence.narrative);
    const topic = ev.industry ?? ev.categories[0]?.phrase ?? null;
    if (!topic) {
      searchApi = { status: 'skipped', reason: 'no topic: the store shows no industry or category to search for', fetched: 0, saved: 0 };
    } else {
      try {
        const queries = await deps.search.fetchQueries(topic, searchNeed * 2);
        searchPrompts = filterPrompts(queries, { businessName: business.name, existing: tracked, limit: searchNeed, excludeNames: ev.productLines });
        searchApi = { status: 'used', fetched: queries.length, saved: 0 };
        if (searchPrompts.length < searchNeed) searchApi.reason = `${searchPrompts.length} usable queries of ${searchNeed} wanted; the generator wrote the rest`;
      } catch (err) {
        const reason = (err as Error)?.message ?? String(err);
        log.warn('search API failed; business prompts come from the generator', { orgSlug, reason });
        searchApi = { status: 'failed', reason, fetched: 0, saved: 0 };
      }
    }
  }

  const perProduct = onboardingProductPromptCounts(products.length);
  const reqs = productRequests(evidence, products, existing, perProduct);
  const generateCount = businessNeed - searchPrompts.length;
  const set = await generator.generate({
    snapshot: evidence.snapshot,
    narrative: evidence.narrative,
    business: { count: generateCount, existing: [...existingTexts, ...searchPrompts] },
    products: reqs.map((r) => r.request).filter((r) => r.count > 0),
    tracked: [...tracked, ...searchPrompts],
  });

  const searchRows = rows(container, orgSlug, business.id, null, searchPrompts, 'search_api');
  const businessRows = rows(container, orgSlug, business.id, null, set.business, 'generated');
  const searchSaved = searchRows.length ? await container.prompts.addMissing(searchRows) : 0;
  const businessSaved = businessRows.length ? await container.prompts.addMissing(businessRows) : 0;
  if (searchApi.status === 'used') searchApi.saved = searchSaved;
  const productTotals = await saveProducts(container, orgSlug, reqs, set);

  const result: OnboardingPromptsResult = {
    business: {
      target: BUSINESS_PROMPTS,
      generated: searchPrompts.length + set.business.length,
      saved: searchSaved + businessSaved,
      shortfall: Math.max(0, businessNeed - searchPrompts.length - set.business.length),
    },
    products: { count: products.length, perProduct, generated: productTotals.generated, saved: productTotals.saved, shortfall: shortfallOf(reqs, set), shortfallReasons: shortfallReasonsOf(evidence, reqs, set) },
    searchApi,
    engine: set.engine,
    evidence: evidence.source,
  };
  log.info('onboarding prompts generated', { orgSlug, business: result.business, products: { ...result.products, shortfall: Object.keys(result.products.shortfall).length }, searchApi, engine: set.engine, evidence: evidence.source });
  return result;
}

/** Daily schedule 1b: `count` prompts (D9: 10) for each new product, topped up to that count. */
export async function generateProductPrompts(container: Container, orgSlug: string, productIds: string[], count = PRODUCT_PROMPTS_CRON, deps: PromptDeps = {}): Promise<ProductPromptsResult> {
  const business = await requireBusiness(container, orgSlug);
  const found: Product[] = [];
  const notFound: string[] = [];
  for (const id of [...new Set(productIds)]) {
    const p = await container.products.find(orgSlug, id);
    if (p && !found.some((f) => f.id === p.id)) found.push(p);
    else if (!p) notFound.push(id);
  }
  if (!found.length) return { perProduct: count, generated: 0, saved: 0, shortfall: {}, shortfallReasons: {}, notFound, engine: null, evidence: null };
  const evidence = await loadEvidence(container, business, found);
  const trackedRows = await container.prompts.list(orgSlug);
  const existing = groupByEntity(trackedRows);
  const reqs = productRequests(evidence, found, existing, count);
  const active = reqs.map((r) => r.request).filter((r) => r.count > 0);
  const generator = deps.generator ?? promptGeneratorOf(container);
  const set: PromptSet = active.length
    ? await generator.generate({ snapshot: evidence.snapshot, narrative: evidence.narrative, products: active, tracked: trackedRows.map((p) => p.prompt) })
    : { business: [], products: {}, shortfall: { business: 0, products: {} }, engine: { name: generator.name } };
  const totals = await saveProducts(container, orgSlug, reqs, set);
  return { perProduct: count, ...totals, shortfall: shortfallOf(reqs, set), shortfallReasons: shortfallReasonsOf(evidence, reqs, set), notFound, engine: set.engine, evidence: evidence.source };
}

/**
 * Manual regenerate: `count` NEW prompts (default 50 for the business, 10 for a product)
 * that differ from the entity's existing ones; nothing is deleted. `skipped` when the
 * evidence yields no new prompt. `snapshot`: evidence built by the caller (the pages of a
 * URL it scraped, app/prompts/regenerate.ts) instead of the stored scrape; `productName`
 * names the product when neither its catalogue entry nor its entity has a name.
 */
export async function regeneratePrompts(container: Container, options: { orgSlug: string; productId?: string | null; count?: number; snapshot?: StoreSnapshot; productName?: string | null }, deps: PromptDeps = {}): Promise<RegenerateResult> {
  const { orgSlug } = options;
  const business = await requireBusiness(container, orgSlug);
  let product: Product | null = null;
  if (options.productId) {
    product = await container.products.find(orgSlug, options.productId);
    if (!product) throw new NotFoundError(`product ${options.productId} not found for business ${orgSlug}`);
  }
  const count = options.count ?? (product ? PRODUCT_PROMPTS_REGENERATE : BUSINESS_PROMPTS);
  if (!Number.isInteger(count) || count < 1 || count > 500) throw new ValidationError('prompt_count must be an integer from 1 to 500');
  const evidence = await loadEvidence(container, business, product ? [product] : [], options.snapshot);
  const entityId = product?.id ?? business.id;
  const trackedRows = await container.prompts.list(orgSlug);
  const existing = trackedRows.filter((p) => p.entityId === entityId).map((p) => p.prompt);
  const tracked = trackedRows.map((p) => p.prompt);
  const generator = deps.generator ?? promptGeneratorOf(container);

  let prompts: string[];
  let set: PromptSet;
  if (product) {
    let catalogProduct = evidence.snapshot.products.find((p) => p.productId === product!.productId) ?? entityProduct(product);
    const label = options.productName?.trim();
    if (!catalogProduct.name.trim() && label) catalogProduct = { ...catalogProduct, name: label };
    set = await generator.generate({ snapshot: evidence.snapshot, narrative: evidence.narrative, products: [{ product: catalogProduct, count, existing }], tracked });
    prompts = set.products[product.productId] ?? [];
  } else {
    set = await generator.generate({ snapshot: evidence.snapshot, narrative: evidence.narrative, business: { count, existing }, tracked });
    prompts = set.business;
  }
  const saved = prompts.length ? await container.prompts.addMissing(rows(container, orgSlug, entityId, product?.productId ?? null, prompts, 'generated')) : 0;
  const shortfall = Math.max(0, count - prompts.length);
  const result: RegenerateResult = { status: saved > 0 ? 'success' : 'skipped', generated: prompts.length, saved, shortfall, engine: set.engine, evidence: evidence.source };
  if (saved === 0) result.skippedReason = prompts.length ? 'every generated prompt is already tracked' : 'the store evidence yields no new prompt';
  return result;
}
