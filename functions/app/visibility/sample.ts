import { artifactKeys } from '../../core/artifacts';
import type { VisibilitySample } from '../../core/visibility/checks';
import { PROMPTS_PER_DAY, samplePrompts } from '../../core/visibility/sample';
import { seededRandom } from '../../core/util/random';
import type { Container } from '../../container';

/** The stored sample of the day, or a new one drawn from every tracked prompt of the business. */
export async function claimDailySample(container: Container, orgSlug: string, runDate: string): Promise<VisibilitySample> {
  const existing = await container.visibilityChecks.getSample(orgSlug, runDate);
  if (existing) return existing;
  return container.visibilityChecks.claimSample(await drawSample(container, orgSlug, runDate));
}

/** What the day's sample is or would be (GET sample-prompts: nothing is stored). */
export async function drawSample(container: Container, orgSlug: string, runDate: string): Promise<VisibilitySample> {
  const prompts = await container.prompts.list(orgSlug);
  return {
    org_slug: orgSlug,
    run_date: runDate,
    prompts: samplePrompts(prompts, PROMPTS_PER_DAY, seededRandom(`${orgSlug}:${runDate}`)),
    created_at: container.clock.now().toISOString(),
  };
}

/**
 * Why a day's analysis did no check (no platform configured, no tracked prompt): kept per
 * business and day (`visibility-outcomes/<org>/<run date>`), so the on-demand read-back
 * (GET /api/cron/analyze-visibility/{execution_id}) says `skipped` with the reason the daily
 * run records on its step. `at` tells which execution wrote it (the one running at that time).
 */
export interface SkippedAnalysis {
  status: 'skipped';
  reason: string;
  at: string;
}


export async function recordSkippedAnalysis(container: Container, orgSlug: string, runDate: string, reason: string): Promise<void> {
  const outcome: SkippedAnalysis = { status: 'skipped', reason, at: container.clock.now().toISOString() };
  await container.artifacts.put(artifactKeys.skippedAnalysis(orgSlug, runDate), outcome);
}

/** The day's skip written while the execution ran (`startedAt` to `stoppedAt`, or now); null otherwise. */
export async function skippedAnalysisOf(container: Container, orgSlug: string, runDate: string, execution: { startedAt: string; stoppedAt: string | null }): Promise<SkippedAnalysis | null> {
  const outcome = await container.artifacts.get<SkippedAnalysis>(artifactKeys.skippedAnalysis(orgSlug, runDate));
  if (!outcome || outcome.status !== 'skipped') return null;
  const at = Date.parse(outcome.at);
  const from = Date.parse(execution.startedAt);
  const to = execution.stoppedAt ? Date.parse(execution.stoppedAt) : container.clock.now().getTime();
  return at >= from && at <= to ? outcome : null;
}
