/**
 * One business's day in the daily schedule: the execution's run record of the business is
 * claimed when it starts and the business's day is taken (a lease, D162), each batch step runs
 * through `runDailyStep` (which records it, and keeps a step this execution already settled
 * instead of redoing it), and the record is closed at the end, with the failure and its reason
 * when something failed, and the day released. One business failing never stops the others:
 * the state machine catches per business and comes here.
 */
import {
  businessOutcome, closeUnfinishedSteps, DAILY_STEPS, DAY_LEASE_SECONDS, isSettled, newBusinessRun, PUBLISHING_STEPS, resumedSteps,
  STORE_UNREADABLE, storeUnreadable, type BusinessRun, type BusinessRunStatus, type DailyStepId, type DailyStepState,
} from '../../core/daily/run';
import { NotFoundError } from '../../core/errors';
import type { Container } from '../../container';
import { dailyStepClaimsOf } from '../../engines/step-claims';
import { createLogger } from '../../logger';
import { dailyBaseline, deleteDailyBaseline, saveDailyBaseline, settleDailyBaseline } from '../site';
import { boundedResult } from '../../core/util/bounded-result';
import { runClaimed } from '../step-claim';

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
 * Then the business's day is taken (a lease): one execution at a time, so the schedule and
 * a manual trigger-all never deploy or check one business twice at once. An execution that
 * finds the day held skips the business, naming the holder; one that finds it abandoned (the
 * holder stopped and its lease ran out) resumes from that run's settled steps.
 */
export async function startBusinessRun(container: Container, input: BusinessTaskInput): Promise<StartedBusiness> {
  const now = container.clock.now().toISOString();
  const { run } = await container.dailyRuns.claimBusinessRun(newBusinessRun(input.org_slug, input.run_date, input.execution_id, now));
  // A retried start whose first attempt already skipped the business.
  if (run.status !== 'running') return { ...input, run: 'skip', reason: run.reason ?? `already ${run.status}` };
  const reason = await skipReason(container, input.org_slug) ?? await takeDay(container, input, run);
  if (reason) {
    await closeRun(container, input, { status: 'skipped', reason, finished_at: now, steps: run.steps });
    log.info('business skipped', { org: input.org_slug, execution_id: input.execution_id, reason });
    return { ...input, run: 'skip', reason };
  }
  await saveDailyBaseline(container, input.org_slug, input.execution_id);
  return { ...input, run: 'go', reason: null };
}

/** Takes the business's day for this execution (null), or says who holds it. */
async function takeDay(container: Container, input: BusinessTaskInput, run: BusinessRun): Promise<string | null> {
  const now = container.clock.now();
  const claim = await container.dailyRuns.acquireDayLease(input.run_date, input.org_slug, input.execution_id, now.toISOString(), leaseExpiry(now));
  if (!claim.acquired) return `already running in ${claim.holder.execution_id} (since ${claim.holder.acquired_at})`;
  if (claim.abandoned) await resumeAbandoned(container, input, run, claim.abandoned.execution_id);
  return null;
}

/** Keeps what the stopped execution settled, and closes its record as failed, saying who took over. */
async function resumeAbandoned(container: Container, input: BusinessTaskInput, run: BusinessRun, from: string): Promise<void> {
  const abandoned = await container.dailyRuns.getBusinessRun(from, input.org_slug);
  if (!abandoned) return;
  const steps = resumedSteps(abandoned.steps, run.steps, input.execution_id, from);
  await container.dailyRuns.resumeBusinessRun(input.execution_id, input.org_slug, { steps, changed_urls: abandoned.changed_urls, resumed_from: from });
  // What the stopped run already published is still this day's change to announce.
  const baseline = await dailyBaseline(container, input.org_slug, from);
  if (baseline) {
    await saveDailyBaseline(container, input.org_slug, input.execution_id, baseline);
    await deleteDailyBaseline(container, input.org_slug, from);
  }
  if (abandoned.status === 'running') {
    const now = container.clock.now().toISOString();
    await closeRun(container, { ...input, execution_id: from }, {
      status: 'failed', finished_at: now, steps: closeUnfinishedSteps(abandoned.steps, now),
      reason: `the execution stopped without finishing the day (its lease expired); ${input.execution_id} resumed it`,
    });
  }
  log.warn('abandoned day resumed', { org: input.org_slug, execution_id: input.execution_id, from });
}

const leaseExpiry = (now: Date) => new Date(now.getTime() + DAY_LEASE_SECONDS * 1000).toISOString();

/**
 * Renews this execution's hold on the business's day before work (every step does; the
 * lease outlasts any one task attempt, 330 s, by far). Throws when another execution took
 * the day over (this one was presumed dead): it must not deploy or check a second time.
 */
export async function holdDay(container: Container, input: BusinessTaskInput): Promise<void> {
  if (await container.dailyRuns.renewDayLease(input.run_date, input.org_slug, input.execution_id, leaseExpiry(container.clock.now()))) return;
  const { lease } = await container.dailyRuns.getDayLease(input.run_date, input.org_slug);
  throw Object.assign(new Error(`the day of ${input.org_slug} is no longer held by ${input.execution_id}${lease ? ` (${lease.execution_id} holds it)` : ''}`), { name: 'DayLeaseLost' });
}

/** Closes the execution's record of the business and counts it, once (a retried close counts nothing). */
async function closeRun(
  container: Container, input: BusinessTaskInput,
  fields: Pick<BusinessRun, 'reason' | 'finished_at' | 'steps'> & { status: Exclude<BusinessRunStatus, 'running'> },
): Promise<void> {
  if (!(await container.dailyRuns.finishBusinessRun(input.execution_id, input.org_slug, fields))) return;
  await container.dailyRuns.countBusiness(input.execution_id, fields.status);
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
 * succeeded (or was skipped) is kept and not run again (Step Functions retries, redrives),
 * and so is one that the abandoned run this execution resumed had settled. A later execution
 * the same day runs it again: the steps are idempotent by content (an unchanged store means
 * nothing scraped, generated or deployed), so a re-run duplicates nothing and redoes no paid
 * work, yet still picks up what changed since (docs/decisions.md). A step that publishes is
 * skipped on a day the store could not be read (core/daily/run.ts `storeUnreadable`).
 */
export async function runDailyStep(
  container: Container,
  input: BusinessTaskInput,
  step: DailyStepId,
  work: (run: BusinessRun) => Promise<Record<string, unknown> | SkippedDailyStep>,
): Promise<Record<string, unknown>> {
  const found = await requireRun(container, input);
  if (settledHere(found, input, step)) return keptStep(found, step);
  await holdDay(container, input);
  // One invocation of a step of a business's day at a time (D234): a copy delivered meanwhile keeps the holder's outcome.
  let run = found;
  const outcome = await runClaimed(container, dailyStepClaimsOf(container), input.org_slug, input.execution_id, step, async () => {
    run = await requireRun(container, input);
    return settledHere(run, input, step) ? run : null;
  }, () => recordStep(container, input, step, run, work));
  return 'settled' in outcome ? keptStep(outcome.settled, step) : outcome.result;
}

const settledHere = (run: BusinessRun, input: BusinessTaskInput, step: DailyStepId) => isSettled(run.steps[step]) && run.steps[step].execution_id === input.execution_id;
const keptStep = (run: BusinessRun, step: DailyStepId) => ({ step, status: run.steps[step].status, kept: true, ...(run.steps[step].result ?? {}) });

/** Runs the claimed step and records its start, outcome and failure on the business's run record. */
async function recordStep(
  container: Container, input: BusinessTaskInput, step: DailyStepId, run: BusinessRun,
  work: (run: BusinessRun) => Promise<Record<string, unknown> | SkippedDailyStep>,
): Promise<Record<string, unknown>> {
  const before = run.steps[step];
  const now = () => container.clock.now().toISOString();
  const save = (state: DailyStepState) => container.dailyRuns.updateStep(input.execution_id, input.org_slug, step, state);
  const running: DailyStepState = {
    ...before, status: 'running', started_at: now(), finished_at: null, attempts: before.attempts + 1, reason: null, execution_id: input.execution_id,
  };
  await save(running);
  try {
    const outcome = PUBLISHING_STEPS.includes(step) && storeUnreadable(run.steps)
      ? { skipped: STORE_UNREADABLE, result: { deployed: false, deploys: 0 } }
      : await work(run);
    // Stored and handed on as counts and a bounded sample (D39): 20,000 new products' ids would not fit the run item.
    const done: DailyStepState = isSkip(outcome)
      ? { ...running, status: 'skipped', finished_at: now(), reason: outcome.skipped, result: outcome.result ? boundedResult(outcome.result) : null }
      : { ...running, status: 'succeeded', finished_at: now(), result: boundedResult(outcome) };
    await save(done);
    return { step, status: done.status, ...(done.result ?? {}), ...(done.reason ? { reason: done.reason } : {}) };
  } catch (err) {
    await save({ ...running, status: 'failed', finished_at: now(), reason: reasonOf(err) });
    logFailure(input, step, err);
    throw err;
  }
}

const reasonOf = (err: unknown) => `${(err as Error).name}: ${(err as Error).message}`;
const logFailure = (input: BusinessTaskInput, step: DailyStepId, err: unknown) =>
  log.warn('daily step failed', { org: input.org_slug, step, name: DAILY_STEPS[step], error: { name: (err as Error).name, message: (err as Error).message } });

/**
 * Work that belongs to a step but runs as its own task (2a's plan and article batches, before
 * 2a's publish records the step): a failure is recorded on the step, so the day's record says
 * why 2a did not publish, then thrown on to the state machine.
 */
export async function failingInto<T>(container: Container, input: BusinessTaskInput, step: DailyStepId, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    const run = await container.dailyRuns.getBusinessRun(input.execution_id, input.org_slug);
    if (run) {
      const now = container.clock.now().toISOString();
      await container.dailyRuns.updateStep(input.execution_id, input.org_slug, step, {
        ...run.steps[step], status: 'failed', started_at: run.steps[step].started_at ?? now, finished_at: now, reason: reasonOf(err), execution_id: input.execution_id,
      });
    }
    logFailure(input, step, err);
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
  await closeRun(container, input, { status, reason, finished_at: now, steps });
  await settleDailyBaseline(container, input.org_slug, input.execution_id, announcedOrNothingTo(steps['3']));
  await container.dailyRuns.releaseDayLease(input.run_date, input.org_slug, input.execution_id);
  if (status !== 'succeeded') log.warn('business run ended', { org: input.org_slug, execution_id: input.execution_id, status, reason });
  return { org_slug: input.org_slug, status, reason };
}

/** Batch 3 told the engines (or found nothing to tell); skipped because the store was unreadable, it never looked. */
const announcedOrNothingTo = (step: DailyStepState): boolean =>
  step.status === 'succeeded' || (step.status === 'skipped' && step.reason !== STORE_UNREADABLE);

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
  const run = await container.dailyRuns.getBusinessRun(input.execution_id, input.org_slug);
  if (!run) throw new NotFoundError(`no daily run record for ${input.org_slug} in execution ${input.execution_id}: StartBusinessRun has not run`);
  return run;
}
