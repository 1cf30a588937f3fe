/**
 * The daily schedule's run records (spec: Daily schedule): one record per business per UTC
 * day, with one state per batch step, and one record per execution. Pure rules only.
 *
 * One execution at a time holds a business's day (a lease, renewed by every step); a second
 * execution finding it held skips the business, naming the holder. Within one execution a
 * settled step is kept (retries); an execution resuming an abandoned day keeps that run's
 * settled steps; a later execution the same day runs the steps again, which are idempotent
 * by content. Each execution keeps its own record per business.
 */
export const DAILY_STEPS = {
  '1a': 'change detection',
  '1b': 'product discovery',
  '1b-prompts': 'prompts for new products',
  '1b-files': 'product llms files',
  '1b-commit': 'product snapshot',
  deploy: 'merged deploy',
  '2a': 'timestamps and articles',
  '2b': 'visibility analysis',
  '3': 'search-engine notification',
} as const;

export type DailyStepId = keyof typeof DAILY_STEPS;
export const DAILY_STEP_IDS = Object.keys(DAILY_STEPS) as DailyStepId[];

export type DailyStepStatus = 'pending' | 'running' | 'succeeded' | 'skipped' | 'failed';

export interface DailyStepState {
  status: DailyStepStatus;
  started_at: string | null;
  finished_at: string | null;
  attempts: number;
  reason: string | null;
  /** Counts and ids for the dashboard (pages mapped, changed, scraped; products added; ...). */
  result: Record<string, unknown> | null;
  /** The execution that last ran it. */
  execution_id: string | null;
  /** Settled by an execution that stopped, and kept by the one that resumed its day. */
  resumed_from?: string;
}

/** `skipped`: the business was not processed (the reason says why). */
export type BusinessRunStatus = 'running' | 'succeeded' | 'partial' | 'failed' | 'skipped';

export interface BusinessRun {
  org_slug: string;
  run_date: string;
  execution_id: string;
  status: BusinessRunStatus;
  reason: string | null;
  started_at: string;
  finished_at: string | null;
  steps: Record<DailyStepId, DailyStepState>;
  /** Store URLs this execution found added, changed or removed (batch 3 notifies search engines of them). */
  changed_urls: string[];
  /** The execution whose day this one resumed (it stopped without finishing; its lease expired). */
  resumed_from: string | null;
}

export type ExecutionStatus = 'running' | 'succeeded' | 'failed';

export interface DailyExecution {
  execution_id: string;
  run_date: string;
  status: ExecutionStatus;
  /** `schedule`: the 14:00 UTC rule; `manual`: trigger-all or a heavy cron route. */
  trigger: 'schedule' | 'manual';
  /** Only these businesses (a manual run for some), or null for every business. */
  org_slugs: string[] | null;
  started_at: string;
  finished_at: string | null;
  reason: string | null;
  /** Businesses finished by this execution, by outcome. */
  counts: Record<Exclude<BusinessRunStatus, 'running'>, number>;
}

export const pendingDailyStep = (): DailyStepState => ({
  status: 'pending', started_at: null, finished_at: null, attempts: 0, reason: null, result: null, execution_id: null,
});

export function newBusinessRun(orgSlug: string, runDate: string, executionId: string, startedAt: string): BusinessRun {
  return {
    org_slug: orgSlug,
    run_date: runDate,
    execution_id: executionId,
    status: 'running',
    reason: null,
    started_at: startedAt,
    finished_at: null,
    steps: Object.fromEntries(DAILY_STEP_IDS.map((id) => [id, pendingDailyStep()])) as Record<DailyStepId, DailyStepState>,
    changed_urls: [],
    resumed_from: null,
  };
}

/** Succeeded or skipped: the execution that settled it keeps it instead of redoing it. */
export const isSettled = (state: DailyStepState): boolean => state.status === 'succeeded' || state.status === 'skipped';

/** The UTC date (YYYY-MM-DD) a run belongs to. */
export const runDateOf = (at: Date | string): string => new Date(at).toISOString().slice(0, 10);

export function isRunDate(text: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(text) && runDateOf(`${text}T00:00:00Z`) === text;
}

/**
 * How a business's day ended: `succeeded` when every step that ran succeeded or was skipped,
 * `failed` when something failed and nothing succeeded, `partial` otherwise. Steps still
 * `running` at the end never reported back (a timeout or a crashed task): they count as failed.
 */
export function businessOutcome(steps: Record<DailyStepId, DailyStepState>): { status: Exclude<BusinessRunStatus, 'running' | 'skipped'>; reason: string | null } {
  const ran = DAILY_STEP_IDS.filter((id) => steps[id].status !== 'pending');
  const failed = ran.filter((id) => steps[id].status === 'failed' || steps[id].status === 'running');
  if (failed.length === 0) return { status: 'succeeded', reason: null };
  const reason = failed.map((id) => `${id} (${DAILY_STEPS[id]}): ${steps[id].reason ?? 'stopped without reporting (timeout or crash)'}`).join('; ');
  // A store that could not be read is a failed day whatever else ran: nothing was published.
  if (storeUnreadable(steps)) return { status: 'failed', reason: `${STORE_UNREADABLE}; ${reason}` };
  const succeeded = ran.filter((id) => steps[id].status === 'succeeded');
  return { status: succeeded.length === 0 ? 'failed' : 'partial', reason };
}

/** The steps that publish (or announce) content: none of them runs on a day the store could not be read. */
export const PUBLISHING_STEPS: readonly DailyStepId[] = ['deploy', '2a', '3'];

export const STORE_UNREADABLE = 'the store could not be read today (1a and 1b failed): nothing was published from stale facts, the previous release stays served';

/**
 * Both of batch 1's reads of the store failed (it is down, or refuses us): what the site
 * would publish today is yesterday's facts under today's date, so nothing is published.
 */
export function storeUnreadable(steps: Record<DailyStepId, DailyStepState>): boolean {
  return steps['1a'].status === 'failed' && steps['1b'].status === 'failed';
}

/** How long a business's day is held by one execution without a sign of life (every step renews it). */
export const DAY_LEASE_SECONDS = 15 * 60;

/** Who holds a business's day: one execution at a time (issue 23). */
export interface DayLease {
  execution_id: string;
  acquired_at: string;
  expires_at: string;
}

/**
 * The outcome of asking for a business's day. `abandoned`: the previous holder's lease ran
 * out without being released (its execution stopped mid-day), so the new holder resumes it.
 */
export type DayLeaseClaim = { acquired: true; abandoned: DayLease | null } | { acquired: false; holder: DayLease };

/**
 * The settled steps of an abandoned run, handed to the execution that resumes its day: they
 * are kept (not run again), marked with where they came from; the rest start over.
 */
export function resumedSteps(abandoned: Record<DailyStepId, DailyStepState>, fresh: Record<DailyStepId, DailyStepState>, executionId: string, from: string): Record<DailyStepId, DailyStepState> {
  return Object.fromEntries(DAILY_STEP_IDS.map((id) => [id, isSettled(abandoned[id])
    ? { ...abandoned[id], execution_id: executionId, resumed_from: abandoned[id].resumed_from ?? from }
    : fresh[id]])) as Record<DailyStepId, DailyStepState>;
}

/** A step that never reported back is marked failed with that reason, so a record never says `running` forever. */
export function closeUnfinishedSteps(steps: Record<DailyStepId, DailyStepState>, at: string): Record<DailyStepId, DailyStepState> {
  return Object.fromEntries(DAILY_STEP_IDS.map((id) => {
    const state = steps[id];
    return [id, state.status === 'running'
      ? { ...state, status: 'failed', finished_at: at, reason: 'the task stopped without reporting (timeout or crash)' }
      : state];
  })) as Record<DailyStepId, DailyStepState>;
}

/** The schedule's time of day (spec: 22:00 Singapore time = 14:00 UTC). */
export const DAILY_RUN_HOUR_UTC = 14;

/** The next 14:00 UTC strictly after `now`. */
export function nextDailyRunAt(now: Date): Date {
  const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), DAILY_RUN_HOUR_UTC));
  if (next.getTime() <= now.getTime()) next.setUTCDate(next.getUTCDate() + 1);
  return next;
}
