/**
 * Batch 2b for one business and day (spec: 10 prompts × 8 platforms; D30, D31, D117):
 * 1. the day's sample is drawn once (untested first, then random, seeded by business and
 *    day) and stored, so a retry or re-run checks the same prompts;
 * 2. each (platform, prompt) is asked and evaluated, each platform in parallel under its
 *    fleet-wide limits, and kept as a check record; checks already answered today are not
 *    asked again, so a timed-out task resumes where it stopped;
 * 3. the report is built from the day's checks and stored;
 * 4. the tracker gets every boolean (never a null over a boolean), the business entity's
 *    score entry of the day is written or replaced, and products' citation counts are set.
 * No configured platform: skipped with the reason, no check and no score (D30).
 * In the daily run, platforms asked through their vendor's batch interface (issue 47,
 * batches.ts) get their checks queued instead of asked; the report, tracker and score then
 * wait for those batches (a score is never written from part of the day's checks).
 */
import pLimit from 'p-limit';
import { PLATFORM_KEYS, type PlatformKey } from '../../core/constants';
import { computeScoreUpdate, type CheckResult, type ScoreUpdate } from '../../core/visibility/score';
import { checkAnswerOf, isBatchPending, type SampledPrompt, type VisibilityCheck, type VisibilitySample } from '../../core/visibility/checks';
import { containsName } from '../../core/text/name-match';
import { evaluateAnswer } from '../../core/visibility/evaluate';
import { checkResult, type EntityIdentity, type PlatformAnswer, type PlatformClient } from '../../core/visibility/platform-answer';
import { platformStatus, type VisibilityReport } from '../../core/visibility/report';
import { todayUtc, type Container } from '../../container';
import type { Business } from '../../core/model';
import { visibilityEnginesOf, type VisibilityEngines } from '../../engines/visibility';
import { createLogger } from '../../logger';
import { requireBusiness } from '../business';
import type { SkippedDailyStep } from '../daily';
import { entityIdentityOf } from './identity';
import { claimDailySample, recordSkippedAnalysis } from './sample';
import { storeVisibilityReport } from './store-report';
import { countMetric } from '../../metrics';

const log = createLogger({ component: 'visibility' });

/** Statuses that settle a check for the day; the others are asked again on a retry. */
const SETTLED = new Set<VisibilityCheck['status']>(['checked', 'no_answer']);

export type VisibilitySummary = {
  run_date: string;
  /** Platforms whose checks wait for their vendor batch: no report or score until they are in. */
  pending_platforms: PlatformKey[];
  prompts_sampled: number;
  checks_planned: number;
  checks_done: number;
  platforms: Record<PlatformKey, { status: string; checks: number; reason: string | null }>;
  score: { overall_score: number; raw_score: number; n: number; interval: { low: number; high: number }; floor_applied: boolean; replaced: boolean } | null;
  score_skipped: string | null;
  /** The judge's counts of the day; null while checks wait for a batch (no report yet). */
  judge: VisibilityReport['totals']['judge'] | null;
};

export async function analyzeVisibility(
  container: Container, orgSlug: string, runDate: string, engines: VisibilityEngines = visibilityEnginesOf(container),
  /** Platforms whose checks go through the vendor's batch interface today (the daily run only). */
  batched: ReadonlySet<PlatformKey> = new Set(),
): Promise<VisibilitySummary | SkippedDailyStep> {
  const business = await requireBusiness(container, orgSlug);
  const configured = engines.platforms.filter((p) => p.unconfigured === null);
  if (configured.length === 0) {
    const reason = `no AI platform is configured (${engines.platforms.map((p) => p.unconfigured).join('; ')}): visibility not checked, no score stored`;
    log.warn('visibility skipped', { org: orgSlug, reason });
    return skip(container, orgSlug, runDate, reason);
  }
  const sample = await claimDailySample(container, orgSlug, runDate);
  if (sample.prompts.length === 0) return skip(container, orgSlug, runDate, 'the business has no tracked prompts to check');

  const known = await entityIdentityOf(container, business);
  const checks = await runChecks(container, engines, sample, known.identity, batched);
  const pending = pendingPlatforms(checks);
  if (pending.length > 0) return { ...summaryOf(runDate, sample, checks, null, null), pending_platforms: pending, score_skipped: `waiting for the vendor batches of ${pending.join(', ')}: the report and score follow when they are in` };
  const { report, score } = await scoreDay(container, business, sample, checks, known);
  return summaryOf(runDate, sample, checks, report, score);
}

/** The platforms with a check still waiting for its vendor batch. */
export const pendingPlatforms = (checks: readonly VisibilityCheck[]): PlatformKey[] =>
  PLATFORM_KEYS.filter((k) => checks.some((c) => c.platform === k && isBatchPending(c)));

/**
 * The day's report, tracker and score from its settled checks: once, when no check waits for
 * a batch (here, or when the last batch comes in).
 */
export async function scoreDay(
  container: Container, business: Business, sample: VisibilitySample, checks: VisibilityCheck[], known: Awaited<ReturnType<typeof entityIdentityOf>>,
): Promise<{ report: VisibilityReport; score: ScoreUpdate | null }> {
  const results = resultsOf(sample.prompts, checks);
  await recordTracker(container, business.orgSlug, sample.prompts, results);
  const scored = results.some((r) => PLATFORM_KEYS.some((k) => typeof r[k] === 'boolean'));
  let score: ScoreUpdate | null = null;
  if (scored) {
    const today = todayUtc(container);
    score = await container.visibility.update<ScoreUpdate>(business.orgSlug, business.id, (history) => {
      const next = computeScoreUpdate({ history, results, entryDate: sample.run_date, today });
      return { history: next.history, recentScore: next.recentScore, result: next };
    });
  }
  // Last: a stored report says the day is scored (batches.ts finalizes a day only while it has none).
  const report = await storeVisibilityReport(container, business, sample.run_date, checks, known);
  return { report, score };
}

/** A skipped day, recorded where the on-demand read-back finds it (the daily run records it on its step). */
async function skip(container: Container, orgSlug: string, runDate: string, reason: string): Promise<SkippedDailyStep> {
  await recordSkippedAnalysis(container, orgSlug, runDate, reason);
  return { skipped: reason };
}

/**
 * Asks what is not settled yet and returns the day's checks: the stored ones with today's
 * answers over them, in the store's key order (platform, prompt), so nothing is listed twice.
 */
async function runChecks(container: Container, engines: VisibilityEngines, sample: VisibilitySample, identity: EntityIdentity, batched: ReadonlySet<PlatformKey>): Promise<VisibilityCheck[]> {
  const keyOf = (platform: string, promptId: string) => `${platform}#${promptId}`;
  const byKey = new Map((await container.visibilityChecks.listChecks(sample.org_slug, sample.run_date)).map((c) => [keyOf(c.platform, c.prompt_id), c]));
  await Promise.all(engines.platforms.map(async (platform) => {
    // Local concurrency matches the fleet's: more would only wait on the limiter's slots.
    const gate = pLimit(engines.limiter.limits.concurrency);
    const viaBatch = batched.has(platform.platform) && platform.unconfigured === null;
    const todo = sample.prompts.filter((p) => {
      const stored = byKey.get(keyOf(platform.platform, p.prompt_id));
      // A check already in (or queued for) a vendor batch is not asked again here.
      return !(stored && (SETTLED.has(stored.status) || (viaBatch && isBatchPending(stored))));
    });
    await Promise.all(todo.map((prompt) => gate(async () => {
      const asked = viaBatch ? queuedCheck(container, platform.platform, prompt, sample.run_date) : await checkOne(container, engines, platform, prompt, identity, sample.run_date);
      const check = { ...asked, org_slug: sample.org_slug };
      await container.visibilityChecks.putCheck(check);
      countCheck(check);
      byKey.set(keyOf(check.platform, check.prompt_id), check);
    })));
  }));
  return [...byKey.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, c]) => c);
}

/** A check in the metrics: by platform and outcome; a platform or judge that failed is a vendor error. */
function countCheck(check: VisibilityCheck): void {
  countMetric('VisibilityChecks', 1, { platform: check.platform, outcome: check.status });
  if (check.status === 'failed') countMetric('VendorErrors', 1, { vendor: check.platform });
  if (check.judge_error) countMetric('VendorErrors', 1, { vendor: 'judge' });
}

/** A check kept for the platform's vendor batch (batches.ts submits it with its batch). */
function queuedCheck(container: Container, platform: PlatformKey, prompt: SampledPrompt, runDate: string): VisibilityCheck {
  return {
    org_slug: '', run_date: runDate, prompt_id: prompt.prompt_id, prompt: prompt.prompt, entity_id: prompt.entity_id, product_id: prompt.product_id,
    platform, result: null, status: 'queued', reason: `queued for ${platform}'s vendor batch`, answer: null, verdict: null, matcher_agrees: null, judge_error: null,
    checked_at: container.clock.now().toISOString(),
  };
}

async function checkOne(
  container: Container, engines: VisibilityEngines, platform: PlatformClient, prompt: SampledPrompt, identity: EntityIdentity, runDate: string,
): Promise<VisibilityCheck> {
  const base = {
    org_slug: '', run_date: runDate, prompt_id: prompt.prompt_id, prompt: prompt.prompt, entity_id: prompt.entity_id, product_id: prompt.product_id,
    platform: platform.platform, answer: null, verdict: null, matcher_agrees: null, judge_error: null,
  };
  const at = () => container.clock.now().toISOString();
  if (platform.unconfigured !== null) return { ...base, result: null, status: 'unconfigured', reason: platform.unconfigured, checked_at: at() };
  const slot = await engines.limiter.acquire(platform.platform);
  if (!slot.ok) return { ...base, result: null, status: 'budget', reason: slot.reason, checked_at: at() };
  let outcome;
  try {
    outcome = await platform.ask(prompt.prompt);
  } finally {
    await slot.release();
  }
  if (!outcome.ok) {
    log.warn('platform check without answer', { platform: platform.platform, kind: outcome.failure.kind, reason: outcome.failure.reason });
    return { ...base, result: null, status: outcome.failure.kind, reason: outcome.failure.reason, checked_at: at() };
  }
  return answeredCheck(container, engines, base, outcome.answer, identity);
}

/** A check with the platform's answer, evaluated for the entity (judge, or the matcher): synchronous or from a vendor batch. */
export async function answeredCheck(
  container: Container, engines: Pick<VisibilityEngines, 'judge'>, base: Omit<VisibilityCheck, 'result' | 'status' | 'reason' | 'checked_at'>, answer: PlatformAnswer, identity: EntityIdentity,
): Promise<VisibilityCheck> {
  const evaluation = await evaluateAnswer(answer, identityForPrompt(identity, base.prompt), engines.judge);
  const v = evaluation.verdict;
  return {
    ...base,
    result: checkResult(v),
    status: 'checked',
    reason: null,
    answer: checkAnswerOf(answer),
    verdict: { mentioned: v.mentioned, recommended: v.recommended, competitors_mentioned: v.competitorsMentioned, citations: v.citations, by: v.by },
    matcher_agrees: engines.judge ? !evaluation.disagreement : null,
    judge_error: evaluation.judgeError ?? null,
    checked_at: container.clock.now().toISOString(),
  };
}

/**
 * A product name the prompt itself contains proves nothing when the answer repeats it
 * ("Is the Kyoto Drip Kettle good?" → "The Kyoto Drip Kettle is..."): the question is whether
 * AI surfaces the store unprompted, so such names do not count for that prompt's answers.
 */
export function identityForPrompt(identity: EntityIdentity, prompt: string): EntityIdentity {
  const named = identity.productNames.filter((name) => containsName(prompt, name));
  return named.length ? { ...identity, productNames: identity.productNames.filter((name) => !named.includes(name)) } : identity;
}

/** One result per sampled prompt: each platform's boolean of the day, or null (D30). */
function resultsOf(prompts: readonly SampledPrompt[], checks: readonly VisibilityCheck[]): CheckResult[] {
  const byKey = new Map(checks.map((c) => [`${c.platform}|${c.prompt_id}`, c]));
  return prompts.map((p) => ({
    prompt: p.prompt,
    ...Object.fromEntries(PLATFORM_KEYS.map((k) => [k, byKey.get(`${k}|${p.prompt_id}`)?.result ?? null])),
  }) as CheckResult);
}

/** Each prompt's booleans go to its own entity's tracker row; a prompt with none keeps its `last_tested_at`. */
async function recordTracker(container: Container, orgSlug: string, prompts: readonly SampledPrompt[], results: readonly CheckResult[]): Promise<void> {
  const testedAt = container.clock.now().toISOString();
  for (const [i, p] of prompts.entries()) {
    const r = results[i]!;
    if (!PLATFORM_KEYS.some((k) => typeof r[k] === 'boolean')) continue;
    await container.prompts.recordResults({ orgSlug, entityId: p.entity_id, productId: p.product_id }, [r], testedAt);
  }
}

/** The score part of a day's summary (the run record's 2b result), from the synchronous day or its last batch. */
export function scoreFields(score: ScoreUpdate | null): Pick<VisibilitySummary, 'score' | 'score_skipped'> {
  return {
    score: score && {
      overall_score: score.overallScore, raw_score: score.entry.raw_score!, n: score.checksDone, interval: score.entry.interval!,
      floor_applied: score.floorApplied, replaced: score.replaced,
    },
    score_skipped: score ? null : 'no platform produced a boolean today: no score stored (D30)',
  };
}

function summaryOf(runDate: string, sample: VisibilitySample, checks: readonly VisibilityCheck[], report: VisibilityReport | null, score: ScoreUpdate | null): VisibilitySummary {
  const platforms = Object.fromEntries(PLATFORM_KEYS.map((k) => {
    const mine = checks.filter((c) => c.platform === k);
    const booleans = mine.filter((c) => c.result !== null).length;
    const reasons = [...new Set(mine.map((c) => c.reason).filter((r): r is string => !!r))];
    // The report's status (report.ts `platformStatus`): one rule for both, so they never disagree;
    // before the report (a day waiting for its batches), the same rule on the checks so far.
    const status = report ? report.platforms[k].status : mine.some(isBatchPending) ? 'pending' : platformStatus(mine, sample.prompts.length);
    return [k, { status, checks: booleans, reason: reasons.join('; ') || null }];
  })) as VisibilitySummary['platforms'];
  return {
    run_date: runDate,
    pending_platforms: [],
    prompts_sampled: sample.prompts.length,
    checks_planned: sample.prompts.length * PLATFORM_KEYS.length,
    checks_done: checks.filter((c) => c.result !== null).length,
    platforms,
    ...scoreFields(score),
    judge: report?.totals.judge ?? null,
  };
}
