/**
 * The competitor rules of the spec (Limits: 2 manual, 10 auto-discovered that do not count
 * toward the 2), duplicate and own-domain checks, record ids and favicon URLs. Pure.
 */
import { createHash } from 'node:crypto';
import { MAX_AUTO_COMPETITORS, MAX_USER_COMPETITORS } from '../constants';
import { ConflictError, ValidationError } from '../errors';
import { competitorDomain, faviconHost } from './domain';
import type { Competitor, CompetitorCounts, CompetitorSource } from './types';

export { MAX_AUTO_COMPETITORS, MAX_USER_COMPETITORS };

/** Limit per source: user-added and auto-discovered competitors are counted separately. */
export const COMPETITOR_LIMITS: Record<CompetitorSource, number> = {
  user_added: MAX_USER_COMPETITORS,
  auto_discovered: MAX_AUTO_COMPETITORS,
};

export const ALREADY_EXISTS = 'competitor already exists';
export const userLimitMessage = (limit = MAX_USER_COMPETITORS) =>
  `you already have ${limit} competitors you added yourself, the maximum; remove one first to add another`;

export function countBySource(competitors: readonly Pick<Competitor, 'source'>[]): CompetitorCounts {
  const counts: CompetitorCounts = { user_added: 0, auto_discovered: 0 };
  for (const c of competitors) counts[c.source]++;
  return counts;
}

/** How many more competitors of `source` may be saved. */
export function remainingSlots(source: CompetitorSource, counts: CompetitorCounts): number {
  return Math.max(0, COMPETITOR_LIMITS[source] - counts[source]);
}

/**
 * ConflictError (409) when a user-added competitor would pass the limit of 2 (the early
 * check on a stored list; the repository's `add` enforces the limit atomically).
 */
export function assertUserSlot(counts: CompetitorCounts): void {
  if (remainingSlots('user_added', counts) === 0) throw new ConflictError(userLimitMessage());
}

/** The stored competitor with the same duplicate key, if any. */
export function findDuplicate<T extends Pick<Competitor, 'domain'>>(existing: readonly T[], domain: string): T | null {
  return existing.find((c) => c.domain === domain) ?? null;
}

/** The 409 message of a duplicate, naming the stored competitor when it is known. */
export const alreadyExistsMessage = (domain: string, storedAs?: string) =>
  `${ALREADY_EXISTS}: ${domain} is already in your competitors${storedAs ? ` as ${storedAs}` : ''}`;

/** ConflictError (409) `competitor already exists` when the domain is already stored. */
export function assertNotDuplicate(existing: readonly Pick<Competitor, 'domain' | 'name'>[], domain: string): void {
  const duplicate = findDuplicate(existing, domain);
  if (duplicate) throw new ConflictError(alreadyExistsMessage(domain, duplicate.name));
}

/** True when `url` is on the business's own website (any subdomain, scheme or path). */
export function isOwnDomain(url: string | URL, businessUrl: string): boolean {
  try {
    return competitorDomain(url) === competitorDomain(businessUrl);
  } catch {
    return false;
  }
}

/** ValidationError (400) naming `field` when the URL is the business's own website. */
export function assertNotOwnDomain(url: string | URL, businessUrl: string, field = 'url'): void {
  if (isOwnDomain(url, businessUrl)) {
    throw new ValidationError(`${field}: ${competitorDomain(url)} is your own website; enter a competitor's website instead`);
  }
}

/** Fixed namespace of competitor ids (random, generated once). */
const ID_NAMESPACE = '6f1c2b8e-4d3a-4f5e-9b7c-2a1d0e3f4c5b';

/**
 * UUID v5 (RFC 9562 §5.5) of `orgSlug` + duplicate key: the same website gets the same id
 * within one organization, so the conditional put refuses duplicates atomically.
 */
export function competitorId(orgSlug: string, domain: string): string {
  const ns = Buffer.from(ID_NAMESPACE.replace(/-/g, ''), 'hex');
  const hash = createHash('sha1').update(ns).update(`${orgSlug}\n${domain}`, 'utf8').digest();
  const bytes = hash.subarray(0, 16);
  bytes[6] = (bytes[6] & 0x0f) | 0x50;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The documented public favicon service, used when FAVICON_SERVICE_URL is not set. */
export const DEFAULT_FAVICON_SERVICE_URL = 'https://www.google.com/s2/favicons?domain={domain}&sz=64';

/** True when a template can be used: an http(s) URL with a `{domain}` placeholder. */
export function isFaviconTemplate(template: string | undefined): template is string {
  if (!template || !template.includes('{domain}')) return false;
  try {
    const probe = new URL(template.split('{domain}').join('example.com'));
    return probe.protocol === 'https:' || probe.protocol === 'http:';
  } catch {
    return false;
  }
}

/**
 * Favicon URL of a website from the service template (`{domain}` → the site's host without
 * `www.` and port, URL-encoded). An unusable template falls back to the default service.
 */
export function faviconUrlFor(siteUrl: string | URL, template: string = DEFAULT_FAVICON_SERVICE_URL): string {
  const usable = isFaviconTemplate(template) ? template : DEFAULT_FAVICON_SERVICE_URL;
  return usable.split('{domain}').join(encodeURIComponent(faviconHost(siteUrl)));
}
