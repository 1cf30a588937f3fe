/**
 * One business's day in the daily schedule: its run record is claimed when the business
 * starts, each batch step runs through `runDailyStep` (which records it, and keeps a step
 * that already succeeded today instead of redoing it), and the record is closed at the end,
 * with the failure and its reason when something failed. One business failing never stops
 * the others: the state machine catches per business and comes here.
 */
import {
  businessOutcome, closeUnfinishedSteps, DAILY_STEPS, isSettled, newBusinessRun,
  type BusinessRun, type BusinessRunStatus, type DailyStepId, type DailyStepState,
} from '../../core/daily/run';
import { NotFoundError } from '../../core/errors';
import type { Container } from '../../container';
import { createLogger } from '../../logger';

const log = createLogger({ component: 'daily-schedule' });

/** What every per-business task of the daily state machine receives. */
export interface BusinessTaskInput {
  org_slug: string;
  run_date: string;
  execution_id: string;
}

export interface StartedBusiness extends BusinessTaskInput {
  run: 'go' | 'skip';
  reason: string | null;
}

/** The step ends `skipped` with this reason instead of `succeeded`. */
export interface SkippedDailyStep {
  skipped: string;
  result?: Record<string, unknown>;
}

const isSkip = (v: unknown): v is SkippedDailyStep => Boolean(v && typeof v === 'object' && typeof (v as SkippedDailyStep).skipped === 'string');

/**
 * Which businesses run (docs/decisions.md): those with a published AI site. A business
 * still onboarding, or whose onboarding never published a site, is skipped with the reason.
 */
export async function startBusinessRun(container: Container, input: BusinessTaskInput): Promise<StartedBusiness> {
  const now = container.clock.now().toISOString();
  const run = await container.dailyRuns.claimBusinessRun(newBusinessRun(input.org_slug, input.run_date, input.execution_id, now));
  const reason = await skipReason(container, input.org_slug);
  if (reason) {
    await container.dailyRuns.finishBusinessRun(input.run_date, input.org_slug, { status: 'skipped', reason, finished_at: now, steps: run.steps });
    await container.dailyRuns.countBusiness(input.execution_id, 'skipped');
    log.info('business skipped', { org: input.org_slug, execution_id: input.execution_id, reason });
    return { ...input, run: 'skip', reason };
  }
  return { ...input, run: 'go', reason: null };
}

async function skipReason(container: Container, orgSlug: string): Promise<string | null> {
  const business = await container.businesses.get(orgSlug);
  if (!business) return 'the business no longer exists';
  const onboarding = await container.onboarding.latest(orgSlug);
  if (onboarding?.status === 'running') return `onboarding is still running (execution ${onboarding.execution_id}); the site follows the store from the next run`;
  const site = await container.aiSites.get(orgSlug);
  if (!site?.releaseId) return 'no published AI site yet: onboarding (generate-all) has not deployed one';
  return null;
}

/**
 * Runs one step of a business's day and records it. Within one execution a step that
 * succeeded (or was skipped) is kept and not run again (Step Functions retries, redrives).
 * A later execution the same day runs it again: the steps are idempotent by content (an
 * unchanged store means nothing scraped, generated or deployed), so a re-run duplicates
 * nothing and redoes no paid work, yet still picks up what changed since (docs/decisions.md).
 */
export async function runDailyStep(
  container: Container,
  input: BusinessTaskInput,
  step: DailyStepId,
  work: (run: BusinessRun) => Promise<Record<string, unknown> | SkippedDailyStep>,
): Promise<Record<string, unknown>> {
  const run = await requireRun(container, input);
  const before = run.steps[step];
  if (isSettled(before) && before.execution_id === input.execution_id) return { step, status: before.status, kept: true, ...(before.result ?? {}) };

  const now = () => container.clock.now().toISOString();
  const save = (state: DailyStepState) => container.dailyRuns.updateStep(input.run_date, input.org_slug, step, state);
  const running: DailyStepState = {
    ...before, status: 'running', started_at: now(), finished_at: null, attempts: before.attempts + 1, reason: null, execution_id: input.execution_id,
  };
  await save(running);
  try {
    const outcome = await work(run);
    const done: DailyStepState = isSkip(outcome)
      ? { ...running, status: 'skipped', finished_at: now(), reason: outcome.skipped, result: outcome.result ?? null }
      : { ...running, status: 'succeeded', finished_at: now(), result: outcome };
    await save(done);
    return { step, status: done.status, ...(done.result ?? {}), ...(done.reason ? { reason: done.reason } : {}) };
  } catch (err) {
    const error = err as Error;
    await save({ ...running, status: 'failed', finished_at: now(), reason: `${error.name}: ${error.message}` });
    log.warn('daily step failed', { org: input.org_slug, step, name: DAILY_STEPS[step], error: { name: error.name, message: error.message } });
    throw err;
  }
}

/** Closes the business's day: its outcome from the steps, or the caught error when the state machine caught one. */
export async function finishBusinessRun(container: Container, input: BusinessTaskInput & { error?: { Error?: string; Cause?: string } }): Promise<{ org_slug: string; status: Exclude<BusinessRunStatus, 'running'>; reason: string | null }> {
  const run = await requireRun(container, input);
  const now = container.clock.now().toISOString();
  const steps = closeUnfinishedSteps(run.steps, now);
  const outcome = businessOutcome(steps);
  const caught = input.error ? `${input.error.Error ?? 'Error'}: ${causeMessage(input.error.Cause)}` : null;
  const status: Exclude<BusinessRunStatus, 'running'> = caught && outcome.status === 'succeeded' ? 'failed' : outcome.status;
  const reason = [outcome.reason, caught && !outcome.reason ? caught : null].filter(Boolean).join('; ') || null;
  await container.dailyRuns.finishBusinessRun(input.run_date, input.org_slug, { status, reason, finished_at: now, steps });
  await container.dailyRuns.countBusiness(input.execution_id, status);
  if (status !== 'succeeded') log.warn('business run ended', { org: input.org_slug, execution_id: input.execution_id, status, reason });
  return { org_slug: input.org_slug, status, reason };
}

/** A Lambda error's Cause is a JSON string `{errorType, errorMessage, ...}`; show the message. */
function causeMessage(cause: string | undefined): string {
  if (!cause) return 'no details';
  try {
    const parsed = JSON.parse(cause) as { errorMessage?: string };
    return parsed.errorMessage ?? cause;
  } catch {
    return cause;
  }
}

async function requireRun(container: Container, input: BusinessTaskInput): Promise<BusinessRun> {
  const run = await container.dailyRuns.getBusinessRun(input.run_date, input.org_slug);
  if (!run) throw new NotFoundError(`no daily run record for ${input.org_slug} on ${input.run_date}: StartBusinessRun has not run`);
  return run;
}
