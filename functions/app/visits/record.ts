/**
 * AI-bot visits (AI recommendations, D17): one use case for every path that sees a visit.
 * - the JS beacon (`/tracking.js` → POST /webhooks/ai-recommendation-store), `source: beacon`;
 * - the server side, `source: server`: the local AI-site host and CDN proxy as they answer,
 *   and on AWS the CloudFront access logs (tasks/ingest-access-logs.ts).
 * Each sighting is classified (core/site/ai-bots.ts), matched to a business by its host
 * (AI-site host → the distribution or connected custom domain → the store's domain) and
 * stored under its dedupe key (core/visits/dedupe.ts), so the paths converge on one visit.
 */
import { PLATFORM_KEYS } from '../../core/constants';
import { NotFoundError } from '../../core/errors';
import { parseClientAddress } from '../../core/net/client-address';
import { classifyUserAgent, PLATFORM_NAMES, type BotPlatformId, type UserAgentClass } from '../../core/site/ai-bots';
import { isRoutedPath } from '../../core/site/paths';
import { normalizeVisitPath, userAgentFamily, visitBuckets, visitDedupeKey, visitId } from '../../core/visits/dedupe';
import { visitDateRange } from '../../core/visits/range';
import { isCountedRequest, visitorAddress } from '../../core/visits/requests';
import type { PageType, VisitRecord, VisitSource, VisitVia } from '../../core/visits/visit';
import { todayUtc, type Container } from '../../container';
import { visitRepositoryOf } from '../../engines/visit-repository';
import { verifyCrawlerAddress } from './crawler-addresses';
import { countFunnelVisit } from '../visibility';
import { createLogger } from '../../logger';
import { countMetric } from '../../metrics';

export interface VisitOutcome {
  status: 'success' | 'ignored';
  platform_id: BotPlatformId;
  platform_name: string;
  message: string;
}

/** A sighting's outcome: the webhook's response, and whether it stored a new visit (not a duplicate). */
export interface SightingResult {
  response: VisitOutcome;
  recorded: boolean;
}

/** The request fields of the webhook body (spec), already validated. */
export interface VisitFields {
  page_type?: PageType;
  page_title?: string | null;
  ip_address?: string | null;
  referrer?: string | null;
  screen_width?: number | null;
  screen_height?: number | null;
  language?: string | null;
  timezone?: string | null;
}

/** One sighting of a request by one path. */
export interface Sighting {
  source: VisitSource;
  /** When the request happened (the log's time, not the delivery's). */
  at: Date;
  /** Absolute URL of the page. */
  pageUrl: string;
  userAgent: string;
  /** The `Signature-Agent` header, when the path saw headers. */
  signatureAgent?: string | null;
  /** The request's peer address (API source IP, socket peer, log `c-ip`). */
  peer: string | null;
  /** X-Forwarded-For as received: used only for hops from the customer's proxy to the AI-site host. */
  forwardedFor?: string | null;
  /**
   * The address the service itself saw the request come from, when `peer` may be something
   * else (the beacon's `peer` is the body's `ip_address`, which the caller writes): what the
   * vendor's published addresses are checked against (D193). Defaults to the visitor's address.
   */
  observedAddress?: string | null;
  fields?: VisitFields;
  /** The User-Agent's class when the caller already worked it out (the server paths filter on it first). */
  verdict?: UserAgentClass;
}

interface SiteOfHost {
  orgSlug: string;
  entityId: string;
  via: VisitVia;
}

const HOST_CACHE_TTL_MS = 60_000;
const HOST_MISS_TTL_MS = 10_000;
const HOST_CACHE_MAX = 10_000;
const hostCaches = new WeakMap<Container, Map<string, { site: SiteOfHost | null; until: number }>>();

/** The business a host serves: its AI-site host, a CDN distribution or connected custom domain, or its store's domain. */
export async function siteOfHost(container: Container, hostname: string): Promise<SiteOfHost | null> {
  const host = hostname.trim().toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
  if (!host) return null;
  let cache = hostCaches.get(container);
  if (!cache) hostCaches.set(container, (cache = new Map()));
  const now = Date.now();
  const hit = cache.get(host);
  if (hit && hit.until > now) return hit.site;
  const site = await lookUpHost(container, host);
  if (cache.size >= HOST_CACHE_MAX) cache.clear();
  cache.set(host, { site, until: now + (site ? HOST_CACHE_TTL_MS : HOST_MISS_TTL_MS) });
  return site;
}

async function lookUpHost(container: Container, host: string): Promise<SiteOfHost | null> {
  const aiSuffix = `.${container.config.aiSiteDomain.toLowerCase()}`;
  if (host.endsWith(aiSuffix)) {
    const slug = host.slice(0, -aiSuffix.length);
    if (/^[a-z0-9][a-z0-9_-]*$/.test(slug)) {
      const business = await container.businesses.get(slug);
      if (business) return { orgSlug: business.orgSlug, entityId: business.id, via: 'ai_site_host' };
    }
  }
  const routed = await container.distributions.findOrg(host);
  if (routed) {
    const business = await container.businesses.get(routed.orgSlug);
    if (business) return { orgSlug: business.orgSlug, entityId: business.id, via: 'proxy' };
  }
  const business = await container.businesses.findByDomain(host.replace(/^www\./, ''));
  if (business) return { orgSlug: business.orgSlug, entityId: business.id, via: 'store_domain' };
  return null;
}

const ignored = (message: string, platformId: BotPlatformId = 'unknown'): SightingResult =>
  ({ response: { status: 'ignored', platform_id: platformId, platform_name: PLATFORM_NAMES[platformId], message }, recorded: false });

/** Records one sighting: `ignored` for a human, a link previewer, a non-AI tool or a host no business serves (D17). */
export async function recordSighting(container: Container, sighting: Sighting): Promise<SightingResult> {
  const verdict = sighting.verdict ?? classifyUserAgent(sighting.userAgent, { signatureAgent: sighting.signatureAgent });
  if (!verdict.visitClass) {
    const what = verdict.kind === 'human' ? 'a human browser' : verdict.kind === 'link-preview' ? `a link previewer (${verdict.token})` : `a bot that is no AI crawler (${verdict.token})`;
    return ignored(`not recorded: the User-Agent is ${what}`);
  }
  let url: URL;
  try {
    url = new URL(sighting.pageUrl);
  } catch {
    return ignored('not recorded: page_url is not a URL', verdict.platformId);
  }
  const site = await siteOfHost(container, url.hostname);
  if (!site) return ignored(`not recorded: no business is served on ${url.hostname}`, verdict.platformId);

  const address = visitorAddress(sighting.peer, sighting.forwardedFor, site.via === 'ai_site_host');
  const verified = await verifyCrawlerAddress(container, verdict.token, sighting.observedAddress !== undefined ? sighting.observedAddress : address);
  const path = normalizeVisitPath(url.pathname);
  const key = visitDedupeKey({ orgSlug: site.orgSlug, path, family: userAgentFamily(sighting.userAgent, verdict), address });
  const { bucket, neighbour } = visitBuckets(sighting.at);
  const fields = sighting.fields ?? {};
  const pageType: PageType = fields.page_type
    ?? (site.via === 'ai_site_host' || (site.via === 'proxy' && isRoutedPath(url.pathname)) ? 'ai_site' : 'boosted_page');
  const visit: VisitRecord = {
    id: visitId(key, bucket),
    created_at: sighting.at.toISOString(),
    entity_id: site.entityId,
    ai_site_id: site.orgSlug,
    platform_id: verdict.platformId,
    platform_name: verdict.platformName,
    page_url: sighting.pageUrl.slice(0, 2048),
    page_type: pageType,
    page_title: fields.page_title ?? null,
    user_agent: sighting.userAgent.slice(0, 1024),
    ip_address: fields.ip_address ?? (address === 'unknown' ? null : address),
    referrer: fields.referrer ?? null,
    screen_width: fields.screen_width ?? null,
    screen_height: fields.screen_height ?? null,
    language: fields.language ?? null,
    timezone: fields.timezone ?? null,
    source: sighting.source,
    sources: [sighting.source],
    bot: verdict.token ?? null,
    purpose: verdict.purpose ?? null,
    vendor: verdict.vendor ?? null,
    alt_platform_id: verdict.altPlatformId ?? null,
    host: url.host.toLowerCase(),
    path,
    via: site.via,
    visit_class: verdict.visitClass,
    verified,
  };
  const { outcome, source } = await visitRepositoryOf(container).record(site.orgSlug, visit, { key, bucket, neighbour });
  if (outcome === 'recorded' && verdict.visitClass === 'unidentified') {
    countMetric('UnidentifiedBotVisits', 1);
  } else if (outcome === 'recorded' && verified !== false) {
    await countFunnelVisit(container, site.orgSlug, visit);
    countMetric('AiVisits', 1, { platform: verdict.platformId });
  } else if (outcome === 'recorded') {
    countMetric('AiVisitsUnverified', 1, { platform: verdict.platformId });
  }
  return {
    response: {
      status: 'success',
      platform_id: verdict.platformId,
      platform_name: verdict.platformName,
      message: (verified === false ? `claims to be ${verdict.token} (${verdict.vendor}) from an address outside ${verdict.vendor}'s published ones: kept apart as unverified, not counted: ` : '')
        + (verdict.visitClass === 'search_engine' ? `search-engine crawler (${verdict.token}), counted apart from AI visits: ` : '')
        + (verdict.visitClass === 'unidentified' ? `unidentified bot (${verdict.token}), stored apart, not counted as an AI visit: ` : '')
        + (outcome === 'recorded' ? 'visit recorded' : `visit already recorded (first seen by ${source})`),
    },
    recorded: outcome === 'recorded',
  };
}

/** What a server (the local AI-site host or CDN proxy) saw when it answered a request. */
export interface ServedRequestSeen {
  /** The Host header as received (port allowed). */
  host: string;
  /** The request target (path and query). */
  path: string;
  method: string;
  status: number;
  contentType?: string | null;
  userAgent?: string | null;
  signatureAgent?: string | null;
  peer?: string | null;
  forwardedFor?: string | null;
  referrer?: string | null;
  at: Date;
  scheme: 'http' | 'https';
}

const log = createLogger({ component: 'visits' });
const pending = new Set<Promise<unknown>>();

/**
 * Fire-and-forget server-side recording: humans and non-page requests are dropped at once,
 * without any I/O; an AI crawler's visit is written in the background, and a failure is
 * logged, never thrown, so the response it follows is neither slowed nor failed.
 */
export function recordServedRequest(container: Container | (() => Container), seen: ServedRequestSeen): void {
  if (!isCountedRequest({ method: seen.method, path: seen.path, status: seen.status, contentType: seen.contentType })) return;
  const verdict = classifyUserAgent(seen.userAgent, { signatureAgent: seen.signatureAgent });
  if (!verdict.visitClass) return;
  let resolved: Container;
  try {
    resolved = typeof container === 'function' ? container() : container;
  } catch {
    return; // no container installed (a server started on its own): nothing to record into
  }
  const path = seen.path.replace(/[?#].*$/s, '') || '/';
  const work = recordSighting(resolved, {
    source: 'server',
    at: seen.at,
    pageUrl: `${seen.scheme}://${seen.host.toLowerCase()}${path.startsWith('/') ? path : `/${path}`}`,
    userAgent: seen.userAgent ?? '',
    signatureAgent: seen.signatureAgent,
    peer: seen.peer ?? null,
    forwardedFor: seen.forwardedFor,
    fields: seen.referrer ? { referrer: seen.referrer.slice(0, 2048) } : undefined,
    verdict,
  }).catch((err: Error) => {
    log.warn('server-side visit not recorded', { host: seen.host, path, error: { name: err.name, message: err.message } });
  });
  pending.add(work);
  void work.finally(() => pending.delete(work));
}

/** Resolves once every background visit write started so far has settled (tests, shutdown). */
export async function visitWritesSettled(): Promise<void> {
  while (pending.size > 0) await Promise.allSettled([...pending]);
}

export interface VisitListQuery {
  from?: string | null;
  to?: string | null;
  limit?: number;
  cursor?: string | null;
  /** List the claims from outside their vendor's published addresses instead of the counted visits. */
  unverified?: boolean;
  /** List the crawlers no table or list names instead of the counted visits (issue 46). */
  unidentified?: boolean;
}

const PLATFORM_IDS: readonly BotPlatformId[] = [...PLATFORM_KEYS, 'unknown'];

/** GET /api/ai-recommendations/{business_id} (D25): the range's totals per platform and one page of its visits, newest first. */
export async function listVisits(container: Container, orgSlug: string, query: VisitListQuery) {
  const range = visitDateRange(query, todayUtc(container));
  const business = await container.businesses.get(orgSlug);
  if (!business) throw new NotFoundError(`business ${orgSlug} not found`);
  const visits = visitRepositoryOf(container);
  const [counts, page] = await Promise.all([
    visits.counts(orgSlug, range),
    visits.list(orgSlug, range, { limit: query.limit ?? 100, cursor: query.cursor, unverified: query.unverified, unidentified: query.unidentified }),
  ]);
  return {
    business_id: orgSlug,
    from: range.from,
    to: range.to,
    total: counts.total,
    by_platform: Object.fromEntries(PLATFORM_IDS.map((id) => [id, counts.byPlatform[id] ?? 0])) as Record<BotPlatformId, number>,
    /** Classic search-engine crawling (Googlebot, bingbot, ...), beside the AI visits, not in them (D160). */
    search_engines: counts.searchEngines ?? 0,
    /** Of `total`, the visits from an address their vendor publishes; the rest come from vendors that publish none (D193). */
    verified: counts.verified,
    unverifiable: counts.total - counts.verified,
    /** Claims of a vendor's agent from outside its published addresses: in neither `total` nor `by_platform`. */
    unverified: counts.unverified,
    unverified_by_platform: Object.fromEntries(PLATFORM_IDS.map((id) => [id, counts.unverifiedByPlatform[id] ?? 0])) as Record<BotPlatformId, number>,
    /** Crawlers no table or list names, stored as the spec says (platform `unknown`) but counted only here (issue 46). */
    unidentified: counts.unidentified ?? 0,
    visits: page.visits,
    next_cursor: page.nextCursor,
  };
}

/** The client identity a webhook call is counted and deduplicated under: the body's address when it is one, else the caller's. */
export function beaconAddress(bodyAddress: string | null | undefined, sourceIp: string): string {
  return parseClientAddress(bodyAddress) ?? sourceIp;
}
