/**
 * Whether a run recorded as `running` still has a worker. A process killed mid-run (or a
 * Step Functions execution that stopped without reaching FinishOnboarding) leaves the run
 * `running` with nobody to finish it; the lease tells such a run apart from a live one.
 *
 * While a step works, its task refreshes the run's heartbeat when it starts, every
 * ONBOARDING_HEARTBEAT_MS while it runs (so a long step, like scraping 5,000 pages, keeps
 * the lease however long it takes) and when it ends. The longest silence of a live run is
 * then one heartbeat interval plus the state machine's pause between attempts (Retry
 * MaxDelaySeconds 60; Lambda throttling back-off adds up to ~2 min at most) plus a cold
 * start: about 3 minutes. ONBOARDING_LEASE_MS leaves a margin over that. Steps waiting for
 * another step's output (InputsNotReady) write nothing: the step they wait for beats.
 *
 * On AWS a Step Functions execution's own status (DescribeExecution) could say the same;
 * the lease covers it without a second source of truth. Locally the in-process runner
 * knows more: an execution started by another runner instance (a previous process on the
 * same DATA_DIR) cannot still be running, so that run is abandoned at once.
 */
import type { OnboardingRun, StepId, StepState } from './steps';
import { STEP_IDS } from './steps';

/** A running run whose last heartbeat is older than this is abandoned. */
export const ONBOARDING_LEASE_MS = 5 * 60 * 1000;
/** How often a working step refreshes the heartbeat. */
export const ONBOARDING_HEARTBEAT_MS = 60 * 1000;

/** The lease's cut-off at `at`: a running run whose last heartbeat is before it is abandoned. */
export function leaseCutoff(at: Date): string {
  return new Date(at.getTime() - ONBOARDING_LEASE_MS).toISOString();
}

/** The last sign of life of a run: its heartbeat, or its start for runs that never beat. */
export function lastHeartbeat(run: Pick<OnboardingRun, 'started_at' | 'heartbeat_at'>): string {
  return run.heartbeat_at ?? run.started_at;
}

/**
 * Why a run has no worker any more at `at`, or null when it has ended normally or may still
 * be running. `currentRunner` is the instance id of a workflow runner whose executions
 * cannot outlive it (the local in-process runner); omitted on AWS.
 */
export function abandonment(
  run: Pick<OnboardingRun, 'status' | 'started_at' | 'heartbeat_at' | 'runner'>,
  at: Date,
  currentRunner?: string | null,
): string | null {
  if (run.status !== 'running') return null;
  if (currentRunner && run.runner && run.runner !== currentRunner) {
    return `the workflow runner stopped (the local runtime was restarted since the run started; last heartbeat ${lastHeartbeat(run)}); run generate-all to resume`;
  }
  const last = lastHeartbeat(run);
  if (Date.parse(last) < at.getTime() - ONBOARDING_LEASE_MS) {
    return `the worker stopped: no heartbeat since ${last} (lease ${ONBOARDING_LEASE_MS / 60_000} min); run generate-all to resume`;
  }
  return null;
}

/**
 * The run as it reads once abandoned: status `abandoned` with the reason, ended at its last
 * heartbeat; a step that was running is failed (interrupted), one not yet started is skipped.
 */
export function asAbandoned(run: OnboardingRun, reason: string): OnboardingRun {
  const stoppedAt = lastHeartbeat(run);
  const steps = Object.fromEntries(STEP_IDS.map((id) => {
    const s = run.steps[id];
    if (s.status === 'running') {
      const finishedAt = s.started_at && s.started_at > stoppedAt ? s.started_at : stoppedAt;
      return [id, { ...s, status: 'failed', finished_at: finishedAt, reason: `interrupted: ${reason}` }];
    }
    if (s.status === 'pending') return [id, { ...s, status: 'skipped', reason: `not started: ${reason}` }];
    return [id, s];
  })) as Record<StepId, StepState>;
  return { ...run, status: 'abandoned', finished_at: stoppedAt, reason, steps };
}
