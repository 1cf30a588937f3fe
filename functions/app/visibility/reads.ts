/**
 * Batch 2b on demand and its reads: start the visibility-analysis workflow for a business
 * (202 + execution id, D20), read that execution with the day's report, rebuild a day's
 * report from its stored checks, and the checks behind a day's score.
 */
import { randomUUID } from 'node:crypto';
import { NotFoundError } from '../../core/errors';
import { rollingValue } from '../../core/visibility/statistics';
import { addDays } from '../../core/visibility/score';
import { todayUtc, type Container } from '../../container';
import { requireBusiness } from '../business';
import { storeVisibilityReport } from './store-report';

function analysisStatusUrl(executionId: string, orgSlug: string, runDate: string): string {
  return `/api/cron/analyze-visibility/${executionId}?business_id=${encodeURIComponent(orgSlug)}&run_date=${runDate}`;
}

export async function startVisibilityAnalysis(container: Container, orgSlug: string, runDate: string) {
  await requireBusiness(container, orgSlug);
  const executionId = randomUUID();
  await container.workflows.start('visibility-analysis', executionId, { org_slug: orgSlug, run_date: runDate });
  return { status: 'running' as const, execution_id: executionId, business_id: orgSlug, run_date: runDate, status_url: analysisStatusUrl(executionId, orgSlug, runDate) };
}

export async function readVisibilityAnalysis(container: Container, executionId: string, orgSlug: string, runDate: string) {
  await requireBusiness(container, orgSlug);
  const described = await container.workflows.describe?.('visibility-analysis', executionId) ?? null;
  if (!described) throw new NotFoundError(`no visibility-analysis execution ${executionId}`);
  const [sample, report] = await Promise.all([
    container.visibilityChecks.getSample(orgSlug, runDate),
    container.visibilityChecks.getReport(orgSlug, runDate),
  ]);
  return {
    execution_id: executionId,
    status: described.status.toLowerCase(),
    started_at: described.startedAt,
    finished_at: described.stoppedAt,
    business_id: orgSlug,
    run_date: runDate,
    prompts_sampled: sample?.prompts.length ?? 0,
    report,
  };
}

/** Rebuilds and stores a day's report from its stored checks (no platform is asked). */
export async function rebuildVisibilityReport(container: Container, orgSlug: string, runDate: string) {
  const business = await requireBusiness(container, orgSlug);
  const checks = await container.visibilityChecks.listChecks(orgSlug, runDate);
  if (checks.length === 0) throw new NotFoundError(`no visibility checks for ${orgSlug} on ${runDate}: run analyze-visibility first`);
  return { status: 'success' as const, business_id: orgSlug, run_date: runDate, report: await storeVisibilityReport(container, business, runDate, checks) };
}

/** Days a rolling value pools: 28 (D118). */
const ROLLING_DAYS = 28;

/**
 * What GET /api/visibility adds to the score history: for a product entity, its visibility
 * pooled from the daily reports (D117: products get no daily score entry), and for either
 * entity the latest report's share of voice and fact mismatches.
 */
export async function visibilityExtras(container: Container, orgSlug: string, productId: string | null) {
  const today = todayUtc(container);
  const days = Array.from({ length: ROLLING_DAYS }, (_, i) => addDays(today, -i));
  const reports = await container.visibilityChecks.getReports(orgSlug, days);
  const latest = reports.at(-1) ?? null;
  const extras: Record<string, unknown> = {
    latest_report: latest && {
      date: latest.runDate,
      share_of_voice: latest.report.share_of_voice,
      fact_mismatches: latest.report.fact_mismatches,
      citations: latest.report.citations,
    },
  };
  if (productId) {
    const counts = reports.map(({ runDate, report }) => {
      const p = report.products.find((x) => x.product_id === productId);
      return { date: runDate, n: p?.checks ?? 0, trues: p?.trues ?? 0, citations: p?.citation_count ?? 0 };
    }).filter((c) => c.n > 0 || c.citations > 0);
    extras.product_visibility = {
      rolling_7: rollingValue(counts, addDays(today, -6), today, 7),
      rolling_28: rollingValue(counts, addDays(today, -27), today, 28),
      days: counts,
    };
  }
  return extras;
}
