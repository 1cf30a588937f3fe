/**
 * Competitors: discovery (onboarding step 1b), add-competitor, and the public competitor
 * research. Every fetch of a competitor's (user-supplied or discovered) URL goes through
 * the guarded client (`container.fetchUrl`, D24); the search API and the model API are
 * operator-configured and use their own adapters.
 *
 * Limits (spec, D22): 10 auto-discovered competitors and, separately, 2 user-added ones.
 * Duplicates are refused by registrable domain (core/competitors/domain.ts). Both are checked
 * on the stored list first (to refuse before crawling) and then decided atomically by the
 * repository's `add`, which claims one of its source's slots and writes the record (the id
 * is derived from org + domain) with conditional writes: concurrent adds keep exactly the
 * limit, and only the adds over it are refused.
 */
import pLimit from 'p-limit';
import { assertFetchableUrl } from '../../core/net/url-policy';
import { COMPETITOR_RESEARCH_RESULTS, NO_SEARCH_API } from '../../core/constants';
import type { HttpFetcher, SearchResult } from '../../ports';
import { artifactKeys } from '../../core/artifacts';
import { discoveryQueries, rankCandidates, type BusinessContext, type Candidate } from '../../core/competitors/candidates';
import { competitorDomain, isExcludedPlatform, parseCompetitorUrl } from '../../core/competitors/domain';
import { extractName, extractProfile, extractStrengths, nameFromDomain, nameFromTitle } from '../../core/competitors/extract';
import { pageText, readPage, type PageFacts } from '../../core/competitors/html';
import { blockedReason, isHtmlContentType } from '../../core/crawl/responses';
import {
  alreadyExistsMessage, assertNotDuplicate, assertNotOwnDomain, assertUserSlot, competitorId, countBySource,
  faviconUrlFor, isOwnDomain, remainingSlots, userLimitMessage,
} from '../../core/competitors/rules';
import type { Competitor, CompetitorSource } from '../../core/competitors/types';
import { BlockedUrlError, ConflictError, ProviderNotConfiguredError, UpstreamError } from '../../core/errors';
import type { Business } from '../../core/model';
import type { SiteNarrative } from '../../core/site/types';
import type { Container } from '../../container';
import { competitorEnginesOf } from '../../engines/competitors';
import { createLogger } from '../../logger';
import { requireBusiness } from '../business';
import type { CatalogArtifact } from '../site';

export const RESEARCH_UNAVAILABLE = 'competitor research is not available: no search API configured';

const PAGE_ACCEPT = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1';
const PAGE_MAX_BYTES = 2 * 1024 * 1024;
const SITEMAP_MAX_BYTES = 5 * 1024 * 1024;
/** Search results asked per query (the Brave API's maximum per request). */
const RESULTS_PER_QUERY = 20;

// ---------------------------------------------------------------------------------------
// Crawling one competitor website

export interface CrawledSite {
  page: PageFacts;
  /** The URL whose page was read (after redirects). */
  finalUrl: string;
  /** How it was reached: the home page, a variant of it, or a page from the sitemap. */
  via: 'home' | 'variant' | 'sitemap';
}

export interface CrawlOptions {
  /** Per request. */
  timeoutMs: number;
  /** Try variants and sitemap pages when the home page cannot be read. */
  liveFallback: boolean;
  /** Whole crawl, fallback included. Default 3 × timeoutMs. */
  budgetMs?: number;
}

type PageAttempt = { ok: true; site: CrawledSite } | { ok: false; reason: string };

/** A host the resolver does not know: no other URL on it can be read either. */
const HOST_NOT_FOUND = /: host not found$/;

async function fetchPage(fetchUrl: HttpFetcher, url: string, timeoutMs: number, via: CrawledSite['via']): Promise<PageAttempt> {
  let res;
  try {
    res = await fetchUrl(url, { headers: { accept: PAGE_ACCEPT }, timeoutMs, maxBytes: PAGE_MAX_BYTES });
  } catch (err) {
    if (err instanceof BlockedUrlError) throw err;
    return { ok: false, reason: messageOf(err) };
  }
  const blocked = blockedReason(res);
  if (blocked) return { ok: false, reason: `blocked: ${blocked}` };
  if (res.status !== 200) return { ok: false, reason: `HTTP ${res.status}` };
  if (!isHtmlContentType(res.headers['content-type'])) return { ok: false, reason: `not HTML (${res.headers['content-type'] ?? 'no content type'})` };
  return { ok: true, site: { page: readPage(res.text(), res.url), finalUrl: res.url, via } };
}

/**
 * Reads a website's home page. With `liveFallback`, when the home page is blocked or
 * unreachable: the https (for an http URL) and `www.`/naked variants, then the first pages
 * of its sitemap (from robots.txt `Sitemap:` or `/sitemap.xml`). UpstreamError (502) when
 * nothing could be read; BlockedUrlError (400) when the guarded client refuses the URL.
 */
export async function crawlSite(fetchUrl: HttpFetcher, origin: URL, options: CrawlOptions): Promise<CrawledSite> {
  const deadline = Date.now() + (options.budgetMs ?? options.timeoutMs * 3);
  const timeLeft = () => Math.min(options.timeoutMs, deadline - Date.now());
  const home = await fetchPage(fetchUrl, origin.href, timeLeft(), 'home');
  if (home.ok) return home.site;
  const failure = `could not read ${origin.host}: ${home.reason}`;
  if (!options.liveFallback) throw new UpstreamError(failure);

  let tried = 0;
  // A host that does not resolve is not asked again (its robots.txt and sitemap cannot be read either).
  const unknownHosts = new Set(HOST_NOT_FOUND.test(home.reason) ? [origin.host] : []);
  const attempt = async (url: string, via: CrawledSite['via']): Promise<CrawledSite | null> => {
    if (timeLeft() < 500 || unknownHosts.has(new URL(url).host)) return null;
    tried++;
    try {
      const result = await fetchPage(fetchUrl, url, timeLeft(), via);
      if (!result.ok && HOST_NOT_FOUND.test(result.reason)) unknownHosts.add(new URL(url).host);
      return result.ok ? result.site : null;
    } catch {
      return null; // a refused variant is just one less fallback
    }
  };
  for (const variant of homeVariants(origin)) {
    const site = await attempt(variant, 'variant');
    if (site) return site;
  }
  const exhausted = (what: string) => new UpstreamError(`${failure}; the live crawl fallback (${tried} other URL${tried === 1 ? '' : 's'}: ${what}) found no readable page either`);
  if (unknownHosts.has(origin.host)) throw exhausted('https/www variants');
  for (const pageUrl of await sitemapPages(fetchUrl, origin, timeLeft)) {
    const site = await attempt(pageUrl, 'sitemap');
    if (site) return site;
  }
  throw exhausted('https/www variants and sitemap pages');
}

/** https for http, and the `www.`/naked twin of a domain name. */
function homeVariants(origin: URL): string[] {
  const out = new Set<string>();
  const host = origin.hostname;
  const isName = /[a-z]/i.test(host) && host.includes('.') && !host.includes(':');
  const twin = isName ? (host.startsWith('www.') ? host.slice(4) : `www.${host}`) : null;
  const port = origin.port ? `:${origin.port}` : '';
  if (origin.protocol === 'http:') out.add(`https://${host}${port}/`);
  if (twin) {
    out.add(`https://${twin}${port}/`);
    if (origin.protocol === 'http:') out.add(`http://${twin}${port}/`);
  }
  out.delete(origin.href);
  return [...out];
}

/** Up to 3 page URLs of the site's sitemap (robots.txt `Sitemap:` first, else /sitemap.xml), best effort. */
async function sitemapPages(fetchUrl: HttpFetcher, origin: URL, timeLeft: () => number): Promise<string[]> {
  const text = async (url: string, maxBytes: number): Promise<string | null> => {
    if (timeLeft() < 500) return null;
    try {
      const res = await fetchUrl(url, { headers: { accept: 'application/xml,text/xml,text/plain;q=0.9,*/*;q=0.1' }, timeoutMs: timeLeft(), maxBytes });
      return res.status === 200 ? res.text() : null;
    } catch {
      return null;
    }
  };
  const robots = await text(new URL('/robots.txt', origin).href, 512 * 1024);
  const declared = robots ? [...robots.matchAll(/^\s*sitemap\s*:\s*(\S+)/gim)].map((m) => m[1]) : [];
  let sitemapUrl = declared.find((u) => sameSite(u, origin)) ?? new URL('/sitemap.xml', origin).href;
  for (let depth = 0; depth < 2; depth++) {
    const xml = await text(sitemapUrl, SITEMAP_MAX_BYTES);
    if (!xml) return [];
    const locs = [...xml.matchAll(/<(?:\w+:)?loc>\s*(?:<!\[CDATA\[)?\s*([^<\]\s]+)/gi)].map((m) => decodeXml(m[1])).filter((u) => sameSite(u, origin));
    if (/<(?:\w+:)?sitemapindex\b/i.test(xml)) {
      if (!locs[0]) return [];
      sitemapUrl = locs[0];
      continue;
    }
    return locs.slice(0, 3);
  }
  return [];
}

const sameSite = (url: string, origin: URL) => {
  try {
    return competitorDomain(url) === competitorDomain(origin);
  } catch {
    return false;
  }
};
const decodeXml = (s: string) => s.replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'");

/** The stored record of a crawled website. */
export function competitorFromSite(orgSlug: string, site: CrawledSite, source: CompetitorSource, faviconTemplate: string, now: string): Competitor {
  const origin = new URL(site.finalUrl).origin;
  const domain = competitorDomain(origin);
  const profile = extractProfile(site.page, origin);
  return {
    id: competitorId(orgSlug, domain),
    orgSlug,
    name: profile.name,
    url: origin,
    domain,
    description: profile.description,
    faviconUrl: faviconUrlFor(origin, faviconTemplate),
    scrapedContent: pageText(site.page),
    source,
    products: profile.products,
    targetMarket: profile.targetMarket,
    createdAt: now,
  };
}

// ---------------------------------------------------------------------------------------
// Onboarding step 1b

export type DiscoveryOutcome =
  | { status: 'skipped'; reason: string }
  | {
    status: 'succeeded';
    /** Competitors saved by this run. */
    added: number;
    /** Auto-discovered competitors stored after the run (at most 10). */
    total: number;
    queries: string[];
    candidates: number;
    refinedByModel: boolean;
    failures: Array<{ url: string; reason: string }>;
  };

/**
 * Finds up to 10 competitors with the search API and saves them as `auto_discovered`.
 * Idempotent: websites already stored are skipped and only missing slots are filled.
 * Without a search API the step is `skipped` (nothing is saved, nothing is made up).
 */
export async function discoverCompetitors(container: Container, orgSlug: string): Promise<DiscoveryOutcome> {
  const business = await requireBusiness(container, orgSlug);
  const { repo, search, refiner, faviconTemplate } = competitorEnginesOf(container);
  if (!search) return { status: 'skipped', reason: NO_SEARCH_API };
  const log = createLogger({ component: 'competitors', org: orgSlug });

  const existing = await repo.list(orgSlug);
  const storedAuto = countBySource(existing).auto_discovered;
  const remaining = remainingSlots('auto_discovered', countBySource(existing));
  if (remaining === 0) return { status: 'succeeded', added: 0, total: storedAuto, queries: [], candidates: 0, refinedByModel: false, failures: [] };

  const context = await businessContext(container, business);
  const queries = discoveryQueries(context);
  const lists = await runQueries(search.search.bind(search), queries);
  let candidates = rankCandidates(lists, { businessUrl: business.url, excludeDomains: existing.map((c) => c.domain) });
  let refinedByModel = false;
  if (refiner && candidates.length > 0) {
    const refined = await refiner.refine(context, candidates.slice(0, 30));
    if (refined) {
      candidates = refined;
      refinedByModel = true;
    }
  }

  // Crawl a few more than needed: some sites are down, block bots or are not HTML.
  const pool = candidates.slice(0, Math.min(remaining + 10, 25));
  const limit = pLimit(4);
  const crawled = await Promise.all(pool.map((candidate) => limit(async () => {
    try {
      return { candidate, site: await crawlSite(container.fetchUrl, new URL(candidate.url), { timeoutMs: 6_000, liveFallback: false }) };
    } catch (err) {
      return { candidate, reason: messageOf(err) };
    }
  })));

  const failures: Array<{ url: string; reason: string }> = [];
  const taken = new Set(existing.map((c) => c.domain));
  let added = 0;
  for (const result of crawled) {
    if (added >= remaining) break;
    if (!('site' in result) || !result.site) {
      failures.push({ url: result.candidate.url, reason: result.reason ?? 'unreadable' });
      continue;
    }
    const competitor = competitorFromSite(orgSlug, result.site, 'auto_discovered', faviconTemplate, container.clock.now().toISOString());
    // A redirect can land on another website: check the final one again.
    if (taken.has(competitor.domain) || isOwnDomain(competitor.url, business.url) || isExcludedPlatform(competitor.domain)) continue;
    const outcome = await repo.add(competitor);
    if (outcome === 'limit') break; // another run filled the slots meanwhile
    taken.add(competitor.domain);
    if (outcome === 'added') added++;
  }
  const total = countBySource(await repo.list(orgSlug)).auto_discovered;
  log.info('competitor discovery finished', { added, total, queries: queries.length, candidates: candidates.length, refinedByModel, failures: failures.length });
  return { status: 'succeeded', added, total, queries, candidates: candidates.length, refinedByModel, failures };
}

/** Industry and categories from the stored narrative (2a) or catalogue (1c) when they exist. */
async function businessContext(container: Container, business: Business): Promise<BusinessContext> {
  const read = async <T>(key: string): Promise<T | null> => {
    try {
      return await container.artifacts.get<T>(key);
    } catch {
      return null; // no artifact storage, or nothing stored yet: the name and domain still work
    }
  };
  const [narrative, catalog] = await Promise.all([
    read<SiteNarrative>(artifactKeys.narrative(business.orgSlug)),
    read<CatalogArtifact>(artifactKeys.catalog(business.orgSlug)),
  ]);
  let categories = narrative?.categories?.filter(Boolean) ?? [];
  if (categories.length === 0 && catalog) {
    const counts = new Map<string, number>();
    for (const p of catalog.products ?? []) if (p.productType) counts.set(p.productType, (counts.get(p.productType) ?? 0) + 1);
    categories = [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([type]) => type);
    if (categories.length === 0) categories = (catalog.collections ?? []).map((c) => c.title).filter((t) => t && !/^(?:all|home|frontpage|sale)/i.test(t));
  }
  return { name: business.name, url: business.url, industry: narrative?.industry || undefined, categories: categories.slice(0, 5) };
}

/** Runs the queries in parallel; a failed query is tolerated unless all fail (then its error is thrown). */
async function runQueries(search: (query: string, options: { limit: number }) => Promise<SearchResult[]>, queries: string[]): Promise<SearchResult[][]> {
  const settled = await Promise.allSettled(queries.map((q) => search(q, { limit: RESULTS_PER_QUERY })));
  const lists = settled.filter((s): s is PromiseFulfilledResult<SearchResult[]> => s.status === 'fulfilled').map((s) => s.value);
  if (lists.length === 0 && settled.length > 0) {
    const first = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    throw first?.reason instanceof Error ? first.reason : new UpstreamError('search API failed');
  }
  return lists;
}

// ---------------------------------------------------------------------------------------
// POST /api/explore/add-competitor

/**
 * Adds a competitor by URL for the organization: 400 invalid, refused (guarded client) or
 * own URL; 409 duplicate or 2 user-added already; 502 when the site cannot be read even
 * with the live crawl fallback; 404 when the business does not exist.
 */
export async function addCompetitor(container: Container, orgSlug: string, rawUrl: string): Promise<Competitor> {
  const business = await requireBusiness(container, orgSlug);
  const target = parseCompetitorUrl(rawUrl);
  assertFetchableUrl(target.href, { allowPrivateNetwork: container.config.allowPrivateNetwork });
  assertNotOwnDomain(target, business.url);
  const { repo, faviconTemplate } = competitorEnginesOf(container);

  const existing = await repo.list(orgSlug);
  assertNotDuplicate(existing, competitorDomain(target));
  assertUserSlot(countBySource(existing));

  // The whole crawl answers well inside API Gateway's 29 s, and a client's usual 20 s.
  const site = await crawlSite(container.fetchUrl, target, { timeoutMs: 8_000, budgetMs: 12_000, liveFallback: true });
  const competitor = competitorFromSite(orgSlug, site, 'user_added', faviconTemplate, container.clock.now().toISOString());
  if (competitor.domain !== competitorDomain(target)) {
    // Redirected to another website: that one must pass the same checks.
    assertNotOwnDomain(competitor.url, business.url);
    assertNotDuplicate(existing, competitor.domain);
  }
  // The checks above refuse early; this one decides, atomically, under concurrent adds.
  const outcome = await repo.add(competitor);
  if (outcome === 'limit') throw new ConflictError(userLimitMessage());
  if (outcome === 'duplicate') {
    const stored = await repo.get(orgSlug, competitor.id);
    throw new ConflictError(alreadyExistsMessage(competitor.domain, stored?.name));
  }
  return competitor;
}

// ---------------------------------------------------------------------------------------
// POST /api/competitor-research

export interface ResearchedCompetitor {
  name: string;
  website: string;
  /** Claims taken from the competitor's own page text; empty when its page could not be read. */
  strengths: string[];
  favicon_url: string;
}

/**
 * Top 5 competitors of any website (public, no storage). Needs the search API (503
 * otherwise). Candidates whose pages can be read come first; strengths are sentences of
 * their own pages, never generated.
 */
export async function researchCompetitors(container: Container, rawUrl: string): Promise<{ competitors: ResearchedCompetitor[] }> {
  const target = parseCompetitorUrl(rawUrl);
  assertFetchableUrl(target.href, { allowPrivateNetwork: container.config.allowPrivateNetwork });
  const { search, faviconTemplate } = competitorEnginesOf(container);
  if (!search) throw new ProviderNotConfiguredError(RESEARCH_UNAVAILABLE);

  // The business's own name makes the best query; its page is read quickly, best effort.
  const own = await crawlSite(container.fetchUrl, target, { timeoutMs: 2_500, liveFallback: false }).catch((err) => {
    if (err instanceof BlockedUrlError) throw err;
    return null;
  });
  const name = own ? extractName(own.page, target.origin) : nameFromDomain(target.origin);
  const queries = discoveryQueries({ name, url: target.origin });
  const lists = await runQueries(search.search.bind(search), queries);
  const candidates = rankCandidates(lists, { businessUrl: target.origin }).slice(0, COMPETITOR_RESEARCH_RESULTS + 3);

  // All candidates at once (at most 8): the operation should answer within a few seconds.
  const crawled = await Promise.all(candidates.map(async (candidate) => {
    try {
      return { candidate, site: await crawlSite(container.fetchUrl, new URL(candidate.url), { timeoutMs: 4_000, liveFallback: false }) as CrawledSite | null };
    } catch {
      return { candidate, site: null };
    }
  }));

  const read: ResearchedCompetitor[] = [];
  for (const { site } of crawled) {
    if (!site || isOwnDomain(site.finalUrl, target.origin)) continue;
    const origin = new URL(site.finalUrl).origin;
    read.push({ name: extractName(site.page, origin), website: origin, strengths: extractStrengths(site.page), favicon_url: faviconUrlFor(origin, faviconTemplate) });
  }
  const unread = crawled.filter((c) => !c.site).map(({ candidate }) => fromSearchOnly(candidate, faviconTemplate));
  const seen = new Set<string>();
  const competitors = [...read, ...unread].filter((c) => {
    const key = competitorDomain(c.website);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  }).slice(0, COMPETITOR_RESEARCH_RESULTS);
  return { competitors };
}

function fromSearchOnly(candidate: Candidate, faviconTemplate: string): ResearchedCompetitor {
  return {
    name: nameFromTitle(candidate.title, candidate.url) || nameFromDomain(candidate.url),
    website: candidate.url,
    strengths: [],
    favicon_url: faviconUrlFor(candidate.url, faviconTemplate),
  };
}

// ---------------------------------------------------------------------------------------

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
