/**
 * The daily schedule as a whole (state-machines/daily-schedule.asl.json): an execution is
 * recorded when it starts, its businesses are written as the Distributed Map's item list
 * (business-list.ts: payload-safe at any fleet size, the state holds only the list's key),
 * and it is closed at the end. Started by the 14:00 UTC rule (EventBridge on AWS, a timer
 * locally) or by trigger-all.
 */
import { randomUUID } from 'node:crypto';
import { isRunDate, runDateOf, type DailyExecution } from '../../core/daily/run';
import { NotFoundError, ValidationError } from '../../core/errors';
import type { Container } from '../../container';
export interface DailyRunState {
  execution_id: string;
  run_date: string;
  org_slugs: string[] | null;
  edge_wait_seconds: number;
  /** Seconds between looks at the day's vendor batches (VISIBILITY_BATCH_POLL_SECONDS). */
  batch_poll_seconds: number;
}

export interface PrepareInput {
  /** The state machine's execution name: our execution id. */
  execution_id: string;
  /** `$$.Execution.StartTime`. */
  started_at: string;
  /** The execution input: `{}`/an EventBridge event (scheduled) or `{trigger:'manual', org_slugs?, run_date?}`. */
  input?: { trigger?: string; org_slugs?: unknown; run_date?: unknown };
}

export async function prepareDailyRun(container: Container, event: PrepareInput): Promise<DailyRunState> {
  const input = event.input ?? {};
  const orgSlugs = Array.isArray(input.org_slugs) ? input.org_slugs.filter((s): s is string => typeof s === 'string') : null;
  const runDate = typeof input.run_date === 'string' && isRunDate(input.run_date) ? input.run_date : runDateOf(event.started_at);
  const execution: DailyExecution = {
    execution_id: event.execution_id,
    run_date: runDate,
    status: 'running',
    trigger: input.trigger === 'manual' ? 'manual' : 'schedule',
    org_slugs: orgSlugs,
    started_at: container.clock.now().toISOString(),
    finished_at: null,
    reason: null,
    counts: { succeeded: 0, partial: 0, failed: 0, skipped: 0 },
  };
  await container.dailyRuns.createExecution(execution);
  return { execution_id: event.execution_id, run_date: runDate, org_slugs: orgSlugs, edge_wait_seconds: container.config.edgePropagationWaitSeconds, batch_poll_seconds: container.config.visibilityBatches.pollSeconds };
}

export async function finishDailyRun(container: Container, state: Pick<DailyRunState, 'execution_id'> & { error?: { Error?: string; Cause?: string } }) {
  const failed = Boolean(state.error);
  await container.dailyRuns.finishExecution(state.execution_id, {
    status: failed ? 'failed' : 'succeeded',
    finished_at: container.clock.now().toISOString(),
    reason: failed ? `${state.error!.Error ?? 'Error'}: ${state.error!.Cause ?? ''}`.trim() : null,
  });
  const execution = await container.dailyRuns.getExecution(state.execution_id);
  return { execution_id: state.execution_id, status: execution?.status, counts: execution?.counts };
}

/** Largest list of businesses one manual run may name (they travel in the state payload). */
export const MAX_MANUAL_BUSINESSES = 100;

/** trigger-all and the heavy cron routes: starts the daily schedule now (for all businesses, or some). */
export async function startDailySchedule(container: Container, options: { orgSlugs?: string[] } = {}): Promise<{ executionId: string }> {
  const orgSlugs = options.orgSlugs ? [...new Set(options.orgSlugs)] : undefined;
  if (orgSlugs && orgSlugs.length > MAX_MANUAL_BUSINESSES) throw new ValidationError(`business_ids: at most ${MAX_MANUAL_BUSINESSES} per run`);
  for (const slug of orgSlugs ?? []) {
    if (!(await container.businesses.get(slug))) throw new NotFoundError(`business ${slug} not found`);
  }
  const executionId = randomUUID();
  await container.workflows.start('daily-schedule', executionId, { trigger: 'manual', ...(orgSlugs ? { org_slugs: orgSlugs } : {}) });
  return { executionId };
}

/** The execution and one page of its businesses' run records (GET /api/cron/trigger-all/{execution_id}). */
export async function readDailyExecution(container: Container, executionId: string, page: { cursor?: string | null; limit: number }) {
  const execution = await container.dailyRuns.getExecution(executionId);
  // The engine's record matters while ours says running: the execution may not have reached
  // its first task yet, or ended without its last one (aborted, timed out, a stopped runner).
  const described = execution?.status !== 'succeeded' && execution?.status !== 'failed'
    ? await container.workflows.describe?.('daily-schedule', executionId) ?? null
    : null;
  const endedUnrecorded = described !== null && described.status !== 'RUNNING';
  const engine = endedUnrecorded ? { engine_status: described.status, reason: `the workflow engine reports ${described.status}` } : {};
  if (!execution) {
    if (!described) throw new NotFoundError(`no daily-schedule execution ${executionId}`);
    return { execution_id: executionId, status: endedUnrecorded ? 'failed' : 'running', ...engine, started_at: described.startedAt, finished_at: described.stoppedAt, businesses: { runs: [], next_cursor: null } };
  }
  const { runs, nextCursor } = await container.dailyRuns.listBusinessRuns(executionId, { ...page, runDate: execution.run_date });
  return {
    execution_id: executionId,
    status: endedUnrecorded ? 'failed' : execution.status,
    reason: execution.reason,
    ...engine,
    trigger: execution.trigger,
    run_date: execution.run_date,
    started_at: execution.started_at,
    finished_at: execution.finished_at ?? described?.stoppedAt ?? null,
    counts: execution.counts,
    businesses: { runs, next_cursor: nextCursor },
  };
}

