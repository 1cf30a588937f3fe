/**
 * Site mapper: every page URL of a store, from robots.txt, its sitemaps and (optionally) the
 * store's own links, with a content fingerprint and HTTP status per fetched page so the daily
 * change detection needs no second fetch. All store traffic goes through the guarded client.
 *
 * 1. robots.txt (RFC 9309): 2xx obeyed for our product token; 4xx allow everything;
 *    5xx, 429, a network failure or a bot challenge map nothing (complete disallow).
 * 2. Sitemaps: the `Sitemap:` records of robots.txt, else `/sitemap.xml`; indexes are followed
 *    into their children breadth-first (depth- and count-bounded, de-duplicated; children must
 *    be on the index's site). Entries keep their `lastmod`.
 * 3. Pages (when `discoverLinks`): the root and every sitemap URL are fetched with bounded
 *    concurrency; same-site links found in them are added and fetched in turn. Each page is
 *    parsed once, links first, then fingerprinted; the body is dropped right after.
 *    With `capturePages`, the same parse also yields the page the built-in scraper would make
 *    of that response (scraper/page.ts: main content as markdown, same fingerprint), so
 *    onboarding does not fetch the store a second time to scrape it. Only the markdown is kept.
 *
 * Every URL is normalized (core/crawl/url.ts), re-homed on the store origin, and skipped when
 * robots.txt disallows it or its extension is never HTML. Bot challenges, 403/429/430/503 and
 * redirects to `/password` are errors, never pages: such a URL gets neither status nor
 * fingerprint. The map stops at `maxPages` URLs and says so with `truncated`.
 */
import { gunzipSync } from 'node:zlib';
import pLimit from 'p-limit';
import { MAX_PAGES_MAPPED, SITEMAP_MAX_BYTES } from '../../core/constants';
import { analyzeDocument, fingerprintDocument, parseHtml } from '../../core/crawl/fingerprint';
import { blockedReason, isHtmlContentType } from '../../core/crawl/responses';
import { extractLinksFrom } from '../../core/crawl/links';
import { matcherFor, robotsPolicy, type RobotsMatcher, type RobotsPolicy } from '../../core/crawl/robots';
import { parseSitemap } from '../../core/crawl/sitemap';
import { hasNonHtmlExtension, normalizeUrl, onOrigin, pageKind, sameSite } from '../../core/crawl/url';
import type { MappedUrl, ScrapedPage } from '../../core/site/types';
import type { FetchResponse, HttpFetcher, MapSiteOptions, MapSiteResult, ScrapeResult, SiteMapper } from '../../ports';
import { createPageConverter, scrapeRefusal, type PageConverter } from './scraper/page';

export type { MapSiteOptions, MapSiteResult };

const DEFAULTS = {
  maxPages: MAX_PAGES_MAPPED,
  concurrency: 8,
  userAgent: 'AIVisibilityBot',
  discoverLinks: true,
  maxSitemapDepth: 3,
  maxSitemaps: 500,
};

const HTML_ACCEPT = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1';
const XML_ACCEPT = 'application/xml,text/xml;q=0.9,*/*;q=0.1';
const SITEMAP_TIMEOUT_MS = 30_000;

/** The mapper port over the guarded client. */
export function createSiteMapper(fetchUrl: HttpFetcher): SiteMapper {
  return { map: (origin, options) => mapSite(fetchUrl, origin, options) };
}

export async function mapSite(fetchUrl: HttpFetcher, origin: string, options: MapSiteOptions = {}): Promise<MapSiteResult> {
  const opts = { ...DEFAULTS, ...stripUndefined(options) };
  const site = new URL(new URL(origin).origin);
  const state = new MapState(site, opts.maxPages);
  if (opts.capturePages) state.capture = { convert: createPageConverter(), pages: new Map(), failures: new Map() };

  // 1. robots.txt
  const robotsUrl = new URL('/robots.txt', site).href;
  const robots = await fetchRobots(fetchUrl, robotsUrl, state);
  const result = (): MapSiteResult => ({
    urls: [...state.urls.values()],
    sitemaps: state.sitemaps,
    robots: { status: robots.status, sitemaps: robots.policy.kind === 'rules' ? robots.policy.robots.sitemaps : [] },
    truncated: state.truncated,
    fetched: state.fetched,
    errors: state.errors,
    disallowed: state.disallowed.size,
    robotsTxt: robots.text,
    ...(state.capture ? { captured: capturedOf(state) } : {}),
  });
  if (robots.policy.kind === 'disallow-all') {
    state.errors.push({ url: robotsUrl, reason: `${robots.policy.reason}: assuming complete disallow (RFC 9309), nothing mapped` });
    return result();
  }
  state.allowed = matcherFor(robots.policy, opts.userAgent);

  // 2. root, then sitemaps
  state.add(site.href, 'root');
  const declared = robots.policy.kind === 'rules' ? robots.policy.robots.sitemaps : [];
  const topLevel = declared.length > 0 ? declared : [new URL('/sitemap.xml', site).href];
  await walkSitemaps(fetchUrl, topLevel, state, opts);

  // 3. pages
  if (opts.discoverLinks) await crawlPages(fetchUrl, state, opts);
  return result();
}

class MapState {
  readonly urls = new Map<string, MappedUrl>();
  readonly sitemaps: string[] = [];
  readonly errors: Array<{ url: string; reason: string }> = [];
  readonly disallowed = new Set<string>();
  truncated = false;
  fetched = 0;
  allowed: RobotsMatcher = () => true;
  /** Called with each URL added after the crawl has started. */
  onAdded: ((entry: MappedUrl) => void) | null = null;
  /** With `capturePages`: the page (or the reason there is none) of each URL fetched. */
  capture: { convert: PageConverter; pages: Map<string, ScrapedPage>; failures: Map<string, string> } | null = null;

  constructor(readonly site: URL, readonly maxPages: number) {}

  /** Adds a URL when it is a new, same-site, allowed, HTML-looking page; returns it if added. */
  add(raw: string, source: MappedUrl['source'], lastmod?: string, images?: MappedUrl['images']): MappedUrl | null {
    const normalized = normalizeUrl(raw);
    if (!normalized || !sameSite(normalized, this.site)) return null;
    const url = onOrigin(normalized, this.site);
    const known = this.urls.get(url);
    if (known) {
      if (lastmod && !known.lastmod) known.lastmod = lastmod;
      if (images?.length && !known.images) known.images = images;
      return null;
    }
    if (hasNonHtmlExtension(url)) return null;
    if (!this.allowed(url)) {
      this.disallowed.add(url);
      return null;
    }
    if (this.urls.size >= this.maxPages) {
      this.truncated = true;
      return null;
    }
    const entry: MappedUrl = { url, kind: pageKind(url), source, ...(lastmod ? { lastmod } : {}), ...(images?.length ? { images } : {}) };
    this.urls.set(url, entry);
    this.onAdded?.(entry);
    return entry;
  }
}

async function fetchRobots(
  fetchUrl: HttpFetcher,
  robotsUrl: string,
  state: MapState,
): Promise<{ status: number | null; policy: RobotsPolicy; text: string | null }> {
  let res: FetchResponse;
  state.fetched++;
  try {
    res = await fetchUrl(robotsUrl, { headers: { accept: 'text/plain,*/*;q=0.1' } });
  } catch (err) {
    return { status: null, policy: { kind: 'disallow-all', reason: `robots.txt unreachable (${messageOf(err)})` }, text: null };
  }
  // A challenge is not "unavailable" (4xx): it means we may not crawl at all right now.
  const challenged = (res.headers['cf-mitigated'] ?? '').toLowerCase().includes('challenge') || res.status === 430;
  if (challenged) {
    return { status: res.status, policy: { kind: 'disallow-all', reason: `robots.txt blocked: ${blockedReason(res)}` }, text: null };
  }
  return { status: res.status, policy: robotsPolicy(res.status, res.body), text: res.status === 200 ? res.text() : null };
}

async function walkSitemaps(fetchUrl: HttpFetcher, topLevel: string[], state: MapState, opts: typeof DEFAULTS): Promise<void> {
  const seen = new Set<string>();
  let level: string[] = [];
  for (const url of topLevel) {
    const normalized = normalizeUrl(url);
    if (normalized && !seen.has(normalized)) {
      seen.add(normalized);
      level.push(normalized);
    }
  }
  const limit = pLimit(opts.concurrency);

  for (let depth = 1; level.length > 0 && depth <= opts.maxSitemapDepth; depth++) {
    const next: string[] = [];
    const pending = level.map((url) => limit(() => fetchSitemap(fetchUrl, url, state)));
    for (let i = 0; i < level.length; i++) {
      const parsed = await pending[i];
      if (!parsed) continue;
      const sitemapUrl = level[i];
      if (parsed.truncated) state.truncated = true;
      if (parsed.kind === 'urlset') {
        for (const entry of parsed.entries) state.add(entry.loc, 'sitemap', entry.lastmod, entry.images);
        continue;
      }
      for (const child of parsed.entries) {
        const normalized = normalizeUrl(child.loc);
        if (!normalized || seen.has(normalized)) continue;
        // sitemaps.org: an index's children live on the index's own site.
        if (!sameSite(normalized, sitemapUrl)) {
          state.errors.push({ url: normalized, reason: `sitemap skipped: not on the site of its index ${sitemapUrl}` });
          continue;
        }
        if (seen.size >= opts.maxSitemaps) {
          state.errors.push({ url: normalized, reason: `sitemap skipped: more than ${opts.maxSitemaps} sitemap files` });
          continue;
        }
        seen.add(normalized);
        if (depth === opts.maxSitemapDepth) {
          state.errors.push({ url: normalized, reason: `sitemap skipped: nested deeper than ${opts.maxSitemapDepth} levels` });
          continue;
        }
        next.push(normalized);
      }
    }
    // Once a URL has been refused for lack of room, the map is known to be truncated and
    // further sitemaps cannot change it: stop fetching them. (A map that is merely full goes
    // on reading, so that "exactly maxPages" and "more than maxPages" stay distinguishable.)
    if (state.truncated) break;
    level = next;
  }
}

async function fetchSitemap(fetchUrl: HttpFetcher, url: string, state: MapState) {
  if (state.truncated) return null;
  if (!state.allowed(url)) {
    state.errors.push({ url, reason: 'sitemap disallowed by robots.txt' });
    return null;
  }
  state.fetched++;
  let res: FetchResponse;
  try {
    res = await fetchUrl(url, { headers: { accept: XML_ACCEPT }, maxBytes: SITEMAP_MAX_BYTES, timeoutMs: SITEMAP_TIMEOUT_MS });
  } catch (err) {
    state.errors.push({ url, reason: `sitemap: ${messageOf(err)}` });
    return null;
  }
  const blocked = blockedReason(res);
  if (blocked) {
    state.errors.push({ url, reason: `sitemap blocked: ${blocked}` });
    return null;
  }
  if (res.status !== 200) {
    state.errors.push({ url, reason: `sitemap: HTTP ${res.status}` });
    return null;
  }
  try {
    const parsed = parseSitemap(maybeGunzip(res.body));
    state.sitemaps.push(url);
    return parsed;
  } catch (err) {
    state.errors.push({ url, reason: `sitemap: ${messageOf(err)}` });
    return null;
  }
}

/** `.xml.gz` sitemaps arrive as gzip bytes (not a content-encoding): inflate them, bounded. */
function maybeGunzip(body: Buffer): Buffer {
  if (body.length >= 2 && body[0] === 0x1f && body[1] === 0x8b) {
    return gunzipSync(body, { maxOutputLength: SITEMAP_MAX_BYTES });
  }
  return body;
}

async function crawlPages(fetchUrl: HttpFetcher, state: MapState, opts: typeof DEFAULTS & MapSiteOptions): Promise<void> {
  const limit = pLimit(opts.concurrency);
  const pending: Array<Promise<void>> = [];
  const schedule = (entry: MappedUrl) => {
    pending.push(limit(() => visitPage(fetchUrl, entry, state, opts.timeoutMs)));
  };
  for (const entry of state.urls.values()) schedule(entry);
  state.onAdded = schedule;
  // `pending` grows while we wait: every page found by a visit is scheduled by it.
  for (let i = 0; i < pending.length; i++) await pending[i];
  state.onAdded = null;
}

async function visitPage(fetchUrl: HttpFetcher, entry: MappedUrl, state: MapState, timeoutMs: number | undefined): Promise<void> {
  state.fetched++;
  let res: FetchResponse;
  try {
    res = await fetchUrl(entry.url, { headers: { accept: HTML_ACCEPT }, ...(timeoutMs ? { timeoutMs } : {}) });
  } catch (err) {
    state.errors.push({ url: entry.url, reason: messageOf(err) });
    return;
  }
  // Answers that are no page are settled for the capture too: the scraper would only fetch
  // them again to fail the same way (and re-fetching a blocked page is what bot protection punishes).
  const notAPage = (reason: string) => {
    state.errors.push({ url: entry.url, reason });
    state.capture?.failures.set(entry.url, reason);
  };
  const blocked = blockedReason(res);
  if (blocked) return notAPage(`blocked: ${blocked}`);
  if (!sameSite(res.url, state.site)) return notAPage(`redirected off-site to ${res.url}`);
  entry.statusCode = res.status;
  if (res.status < 200 || res.status >= 300) return notAPage(`HTTP ${res.status}`);
  if (!isHtmlContentType(res.headers['content-type'])) {
    // Not a page: it leaves the map (its slot is freed).
    state.urls.delete(entry.url);
    state.errors.push({ url: entry.url, reason: `not HTML (${res.headers['content-type'] ?? 'no content type'})` });
    return;
  }
  // Parse once: links first (the fingerprint removes navigation), then the fingerprint (with
  // the main content when capturing). Neither the body nor the DOM outlives this function.
  const $ = parseHtml(res.text());
  const links = extractLinksFrom($, res.url, { site: state.site.href });
  const refused = state.capture ? scrapeRefusal(res, entry.url) : null;
  if (state.capture && !refused) {
    const analysis = analyzeDocument($, res.url);
    entry.fingerprint = analysis.fingerprint;
    state.capture.pages.set(entry.url, state.capture.convert(entry, analysis, res.status));
  } else {
    entry.fingerprint = fingerprintDocument($);
    if (refused) state.capture?.failures.set(entry.url, refused);
  }
  for (const link of links) state.add(link, 'link');
}

/** The captured pages and failures, in map order (URLs that left the map are not in it). */
function capturedOf(state: MapState): ScrapeResult {
  const result: ScrapeResult = { pages: [], failures: [] };
  const capture = state.capture;
  if (!capture) return result;
  for (const { url } of state.urls.values()) {
    const page = capture.pages.get(url);
    if (page) result.pages.push(page);
    const reason = capture.failures.get(url);
    if (reason !== undefined) result.failures.push({ url, reason });
  }
  return result;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
