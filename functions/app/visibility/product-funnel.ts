/**
 * The per-product AI funnel (issue 25, D170): its day items are written where visits and checks
 * are stored, and read for a window by one Query per product.
 */
import pLimit from 'p-limit';
import { ValidationError } from '../../core/errors';
import { articleSlugOfPath, productOfVisitPath } from '../../core/site/paths';
import { funnelOfDays, type FunnelDayTotals, type ProductFunnel } from '../../core/visibility/product-funnel';
import type { VisibilityCheck } from '../../core/visibility/checks';
import { answeredByPlatform, type VisibilityReport } from '../../core/visibility/report';
import type { VisitRecord } from '../../core/visits/visit';
import { visitDateRange } from '../../core/visits/range';
import { todayUtc, type Container } from '../../container';
import { productFunnelRepositoryOf } from '../../engines/product-funnel';
import { createLogger } from '../../logger';

const log = createLogger({ component: 'product-funnel' });

/** The funnel's default window: the last 28 UTC days. */
export const FUNNEL_DEFAULT_DAYS = 28;

/** The product a visit read: its AI page, its llms file, its store page through the proxy, or one of its articles. */
async function productOfVisit(container: Container, orgSlug: string, path: string): Promise<string | null> {
  const direct = productOfVisitPath(path);
  if (direct) return direct;
  const slug = articleSlugOfPath(path);
  return slug ? (await container.articles.get(orgSlug, slug))?.product_id ?? null : null;
}

/** Counts a newly recorded AI visit on its product's day (never a search engine's, never a duplicate); a failure is logged, the visit stands. */
export async function countFunnelVisit(container: Container, orgSlug: string, visit: VisitRecord): Promise<void> {
  if (visit.visit_class !== 'ai') return;
  try {
    const productId = await productOfVisit(container, orgSlug, visit.path);
    if (!productId) return;
    await productFunnelRepositoryOf(container).countVisit(orgSlug, productId, { at: visit.created_at, platform: visit.platform_id, purpose: visit.purpose });
  } catch (err) {
    log.warn('funnel visit not counted', { org: orgSlug, path: visit.path, error: { name: (err as Error).name, message: (err as Error).message } });
  }
}

/** Sets the day's answered checks and the checks of every product the report names (a re-run of the day sets the same). */
export async function storeFunnelChecks(container: Container, report: VisibilityReport, checks: readonly VisibilityCheck[]): Promise<void> {
  const repo = productFunnelRepositoryOf(container);
  await repo.setDayTotals(report.org_slug, report.run_date, answeredByPlatform(checks));
  const limit = pLimit(8);
  await Promise.all(report.products.map((p) => limit(() => repo.setChecks(report.org_slug, p.product_id, report.run_date, p.funnel))));
}

export function funnelRange(container: Container, query: { from?: string | null; to?: string | null }) {
  return visitDateRange(query, todayUtc(container), FUNNEL_DEFAULT_DAYS);
}

export async function productFunnel(
  container: Container, orgSlug: string, productId: string, range: { from: string; to: string },
  /** The window's day totals when the caller read them for several products. */
  known?: FunnelDayTotals[],
): Promise<ProductFunnel> {
  const repo = productFunnelRepositoryOf(container);
  const [days, totals] = await Promise.all([repo.days(orgSlug, productId, range), known ?? repo.dayTotals(orgSlug, range)]);
  return funnelOfDays(productId, range, days, totals);
}

export const FUNNEL_SORTS = ['crawled', 'cited', 'mentioned', 'recommended'] as const;
export type FunnelSort = (typeof FUNNEL_SORTS)[number];

const stageOf: Record<FunnelSort, (f: ProductFunnel) => number> = {
  crawled: (f) => f.crawled.visits,
  cited: (f) => f.cited.checks,
  mentioned: (f) => f.mentioned.checks,
  recommended: (f) => f.recommended.checks,
};

/**
 * Every product's funnel over the window, sorted by one stage (most first, then by id), one
 * page at a time (`cursor`: the offset of the next page). One Query per product.
 */
export async function productFunnels(
  container: Container, orgSlug: string, range: { from: string; to: string },
  page: { sort: FunnelSort; limit: number; cursor: string | null },
) {
  const offset = page.cursor ? Number(page.cursor) : 0;
  if (!Number.isInteger(offset) || offset < 0) throw new ValidationError('invalid cursor: pass the next_cursor of a previous page');
  const [products, totals] = await Promise.all([container.products.list(orgSlug), productFunnelRepositoryOf(container).dayTotals(orgSlug, range)]);
  const limit = pLimit(16);
  const funnels = await Promise.all(products.map((p) => limit(async () => ({ name: p.name, funnel: await productFunnel(container, orgSlug, p.productId, range, totals) }))));
  const stage = stageOf[page.sort];
  funnels.sort((a, b) => stage(b.funnel) - stage(a.funnel) || a.funnel.product_id.localeCompare(b.funnel.product_id));
  const slice = funnels.slice(offset, offset + page.limit);
  return {
    total: funnels.length,
    products: slice.map(({ name, funnel }) => ({ name, ...funnel })),
    next_cursor: offset + page.limit < funnels.length ? String(offset + page.limit) : null,
  };
}
