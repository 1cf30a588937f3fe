/**
 * The per-product AI funnel (issue 25, D170), pure: crawled (AI agents read the product's
 * pages) → surfaced (answers cite its pages or name it) → recommended (answers name it and
 * recommend the business), over a window of UTC days, with where the product drops out.
 */
import { PLATFORM_KEYS, type PlatformKey } from '../constants';
import type { BotPlatformId } from '../site/ai-bots';
import { wilsonInterval, type Interval } from './statistics';
import type { FunnelCounts, ProductFunnelDay } from './report';

/** What one day's item holds: the visits (added as recorded) and the checks (set with the day's report). */
export interface FunnelDayItem {
  date: string;
  crawled: number;
  crawledBy: Partial<Record<BotPlatformId, number>>;
  purposes: Record<string, number>;
  lastVisitAt: string | null;
  checks: ProductFunnelDay | null;
}

/** A day's answered checks per platform (every product's n that day). */
export interface FunnelDayTotals {
  date: string;
  answered: Partial<Record<PlatformKey, number>>;
}

/** Where a product leaves the funnel: never crawled, crawled but never surfaced, surfaced but never recommended; null when recommended. */
export type DropOut = 'crawl' | 'surface' | 'recommendation' | null;

export const DROP_OUT_RULE = 'recommended at least once: no drop-out; else surfaced (cited or named) at least once: drops at recommendation; '
  + 'else crawled at least once: drops at surface (crawled, never cited or named); else drops at crawl (no AI agent read its pages)';

export interface PlatformFunnelRow extends FunnelCounts {
  platform: PlatformKey;
  /** The platform's answered checks of the window: the n of its counts. */
  answered: number;
  crawled: number;
  /** Its agents read the product's pages and its answers never cited or named it: the most actionable signal. */
  crawled_not_surfaced: boolean;
}

export interface ProductFunnel {
  product_id: string;
  from: string;
  to: string;
  crawled: { visits: number; by_platform: Partial<Record<BotPlatformId, number>>; by_purpose: Record<string, number>; last_visit_at: string | null };
  /** Answered checks of the window: the n of every rate below. */
  answered: number;
  cited: { checks: number };
  mentioned: { checks: number; interval: Interval | null };
  recommended: { checks: number; interval: Interval | null };
  drop_out: DropOut;
  /** The competitor the answers to the product's own prompts named most often instead of it. */
  recommended_instead: { name: string; checks: number } | null;
  platforms: PlatformFunnelRow[];
}

const addInto = <K extends string>(into: Partial<Record<K, number>>, from: Partial<Record<K, number>>) => {
  for (const [k, v] of Object.entries(from) as Array<[K, number]>) into[k] = (into[k] ?? 0) + v;
};

export function dropOutOf(f: { crawled: number; surfaced: number; recommended: number }): DropOut {
  if (f.recommended > 0) return null;
  if (f.surfaced > 0) return 'recommendation';
  if (f.crawled > 0) return 'surface';
  return 'crawl';
}

/**
 * The window's funnel from the product's day items and the window's day totals (any order;
 * days without an item count nothing). Every answered check of the window is the n of the
 * rates, whether or not the product was asked about or named that day.
 */
export function funnelOfDays(productId: string, range: { from: string; to: string }, days: readonly FunnelDayItem[], totals: readonly FunnelDayTotals[]): ProductFunnel {
  const byPlatform: Partial<Record<BotPlatformId, number>> = {};
  const purposes: Record<string, number> = {};
  const instead: Record<string, number> = {};
  const checks = { answered: 0, cited: 0, mentioned: 0, recommended: 0 };
  const platformChecks = new Map<PlatformKey, FunnelCounts & { answered: number }>();
  const platformRow = (platform: PlatformKey) => {
    let row = platformChecks.get(platform);
    if (!row) platformChecks.set(platform, row = { answered: 0, cited: 0, mentioned: 0, recommended: 0 });
    return row;
  };
  let visits = 0;
  let last: string | null = null;
  for (const day of days) {
    visits += day.crawled;
    addInto(byPlatform, day.crawledBy);
    addInto(purposes, day.purposes);
    if (day.lastVisitAt && (!last || day.lastVisitAt > last)) last = day.lastVisitAt;
    const c = day.checks;
    if (!c) continue;
    checks.cited += c.cited;
    checks.mentioned += c.mentioned;
    checks.recommended += c.recommended;
    addInto(instead, c.competitors_instead);
    for (const [platform, counts] of Object.entries(c.by_platform) as Array<[PlatformKey, FunnelCounts]>) {
      const row = platformRow(platform);
      row.cited += counts.cited;
      row.mentioned += counts.mentioned;
      row.recommended += counts.recommended;
    }
  }
  for (const day of totals) {
    for (const [platform, n] of Object.entries(day.answered) as Array<[PlatformKey, number]>) {
      platformRow(platform).answered += n;
      checks.answered += n;
    }
  }
  const interval = (k: number) => (checks.answered > 0 ? wilsonInterval(Math.min(k, checks.answered), checks.answered) : null);
  const [top] = Object.entries(instead).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const platforms = PLATFORM_KEYS
    .filter((p) => platformChecks.has(p) || (byPlatform[p] ?? 0) > 0)
    .map((platform): PlatformFunnelRow => {
      const counts = platformChecks.get(platform) ?? { answered: 0, cited: 0, mentioned: 0, recommended: 0 };
      const crawled = byPlatform[platform] ?? 0;
      return { platform, crawled, ...counts, crawled_not_surfaced: crawled > 0 && counts.answered > 0 && counts.cited === 0 && counts.mentioned === 0 };
    });
  return {
    product_id: productId,
    from: range.from,
    to: range.to,
    crawled: { visits, by_platform: byPlatform, by_purpose: purposes, last_visit_at: last },
    answered: checks.answered,
    cited: { checks: checks.cited },
    mentioned: { checks: checks.mentioned, interval: interval(checks.mentioned) },
    recommended: { checks: checks.recommended, interval: interval(checks.recommended) },
    drop_out: dropOutOf({ crawled: visits, surfaced: checks.cited + checks.mentioned, recommended: checks.recommended }),
    recommended_instead: top ? { name: top[0], checks: top[1] } : null,
    platforms,
  };
}
