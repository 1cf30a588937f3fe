/**
 * Change detection (daily batch 1a): today's site map against the stored one, by the
 * noise-free content fingerprint (D32, docs/decisions.md), and the stored page set merged
 * with what was scraped today.
 */
import type { MappedUrl, ScrapedPage } from '../site/types';

export interface SiteMapDiff {
  /** Mapped today, not in the stored map. */
  added: string[];
  /** In both, with a different fingerprint. */
  changed: string[];
  /** In the stored map, not mapped today. */
  removed: string[];
  /** In both with the same fingerprint, or not fetched today (kept as they were). */
  unchanged: string[];
}

/**
 * A URL mapped today without a fingerprint (its fetch failed or was refused) is not evidence
 * of a change: it is unchanged when known, and added only when new (so it gets scraped).
 * A URL that answers 404 or 410 is removed (a link to a deleted page does not keep it).
 */
export function diffSiteMap(stored: readonly MappedUrl[], current: readonly MappedUrl[]): SiteMapDiff {
  const before = new Map(stored.map((u) => [u.url, u]));
  current = withoutGone(current);
  const now = new Set(current.map((u) => u.url));
  const diff: SiteMapDiff = { added: [], changed: [], removed: [], unchanged: [] };
  for (const u of current) {
    const old = before.get(u.url);
    if (!old) diff.added.push(u.url);
    else if (u.fingerprint && old.fingerprint !== u.fingerprint) diff.changed.push(u.url);
    else diff.unchanged.push(u.url);
  }
  for (const u of stored) if (!now.has(u.url)) diff.removed.push(u.url);
  return diff;
}

/** A page the store answers 404 or 410 for is gone, even while other pages still link to it. */
const GONE_STATUSES = new Set([404, 410]);
const withoutGone = (urls: readonly MappedUrl[]) => urls.filter((u) => !(u.statusCode !== undefined && GONE_STATUSES.has(u.statusCode)));

export const hasChanges = (diff: SiteMapDiff): boolean => diff.added.length + diff.changed.length + diff.removed.length > 0;

/**
 * Today's map, where a URL not fetched today keeps its stored fingerprint (so tomorrow
 * compares against the last content actually seen).
 */
export function mergeSiteMap(stored: readonly MappedUrl[], current: readonly MappedUrl[]): MappedUrl[] {
  const before = new Map(stored.map((u) => [u.url, u]));
  return withoutGone(current).map((u) => (u.fingerprint || !before.get(u.url)?.fingerprint ? u : { ...u, fingerprint: before.get(u.url)!.fingerprint }));
}

/**
 * The page set after today: stored pages of unchanged URLs are kept, changed and added ones
 * are replaced by today's scrape, removed ones leave. A changed page whose scrape failed
 * keeps its stored copy rather than vanishing. Order follows today's map.
 */
export function mergePages(stored: readonly ScrapedPage[], scraped: readonly ScrapedPage[], map: readonly MappedUrl[]): ScrapedPage[] {
  const fresh = new Map(scraped.map((p) => [p.url, p]));
  const old = new Map(stored.map((p) => [p.url, p]));
  return map.flatMap((u) => {
    const page = fresh.get(u.url) ?? old.get(u.url);
    return page ? [page] : [];
  });
}
