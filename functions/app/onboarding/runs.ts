/**
 * Onboarding runs (D12): generate-all starts the state machine and returns at once; every
 * task reports its step's progress here, so the status route can show each step's state,
 * timings and failure reason. A second generate-all after a finished run keeps the steps
 * that succeeded and redoes the rest; every step is itself safe to repeat.
 * Working steps keep the run's lease alive (core/onboarding/lease.ts): a run whose worker
 * stopped (a killed process) reads as `abandoned`, and generate-all repairs it like a
 * finished run.
 */
import { randomUUID } from 'node:crypto';
import { ConflictError, InputsNotReadyError, NotFoundError, ValidationError } from '../../core/errors';
import { abandonment, asAbandoned, leaseCutoff, ONBOARDING_HEARTBEAT_MS } from '../../core/onboarding/lease';
import {
  dependentsOf, inputsSettled, newRun, ONBOARDING_STEPS, pendingStep, runOutcome, STEP_IDS,
  type OnboardingRun, type StepId, type StepState,
} from '../../core/onboarding/steps';
import { boundedResult } from '../../core/util/bounded-result';
import type { Container } from '../../container';
import { onboardingStepClaimsOf } from '../../engines/step-claims';
import { createLogger } from '../../logger';
import { claimStep } from '../step-claim';

const log = createLogger({ component: 'onboarding' });

export interface StepInput {
  org_slug: string;
  execution_id: string;
}

/** What a step may return to say it did not apply (e.g. no search API configured). */
export interface SkippedStep {
  status: 'skipped';
  reason: string;
}

export async function startOnboarding(container: Container, orgSlug: string): Promise<{ executionId: string }> {
  const business = await container.businesses.get(orgSlug);
  if (!business) throw new NotFoundError(`business ${orgSlug} not found: create it with POST /api/business first`);
  const previous = await container.onboarding.latest(orgSlug);
  const now = container.clock.now();
  const executionId = randomUUID();
  const runner = container.workflows.instanceId ?? null;
  // An abandoned run is repaired like a finished one: its succeeded steps are kept. Whether
  // it may be replaced is decided again, atomically, by the conditional write in start().
  const run: OnboardingRun = { ...newRun(executionId, orgSlug, now.toISOString(), previous), heartbeat_at: now.toISOString(), runner };
  await container.onboarding.start(run, previous?.execution_id ?? null, { heartbeatBefore: leaseCutoff(now), runnerOtherThan: runner });
  if (previous && abandonment(previous, now, runner)) {
    log.warn('onboarding run abandoned by its worker: repairing it', { org: orgSlug, execution_id: previous.execution_id, heartbeat_at: previous.heartbeat_at, new_execution_id: executionId });
  }
  try {
    await container.workflows.start('onboarding', executionId, { org_slug: orgSlug, execution_id: executionId });
  } catch (err) {
    await container.onboarding.finish(orgSlug, executionId, 'failed', container.clock.now().toISOString());
    throw err;
  }
  return { executionId };
}

async function currentRun(container: Container, input: StepInput): Promise<OnboardingRun> {
  if (!input?.org_slug || !input?.execution_id) throw new ValidationError('step input needs org_slug and execution_id');
  const run = await container.onboarding.getRun(input.org_slug, input.execution_id);
  if (!run) throw new NotFoundError(`onboarding run ${input.execution_id} of ${input.org_slug} not found`);
  return run;
}

const isSkipped = (value: unknown): value is SkippedStep =>
  typeof value === 'object' && value !== null && (value as SkippedStep).status === 'skipped';

/**
 * Runs one step with progress recording. A step that already succeeded in this run (or
 * was kept from an earlier run) is not redone. A failure is recorded and rethrown, so the
 * state machine's Retry runs it again (attempts count up) and its Catch ends the branch.
 */
export async function runStep<T>(container: Container, input: StepInput, step: StepId, work: () => Promise<T | SkippedStep>): Promise<Record<string, unknown>> {
  const run = await currentRun(container, input);
  const before = run.steps[step] ?? pendingStep();
  if (before.status === 'succeeded') return { step, status: 'succeeded', kept_from: before.kept_from, result: before.result };
  if (!inputsSettled(run, step)) {
    throw new InputsNotReadyError(`step ${step} waits for ${ONBOARDING_STEPS[step].uses.join(', ')} to finish`);
  }

  const now = () => container.clock.now().toISOString();
  // One invocation of a step at a time (D233): a copy delivered again while another runs it waits (the state
  // machine asks again) and then finds the step done; a claim left by an invocation Lambda ended expires.
  const release = await claimStep(container, onboardingStepClaimsOf(container), input.org_slug, input.execution_id, step);
  if (!release) throw new InputsNotReadyError(`step ${step} is running in another invocation of this run; asked again until it ends`);
  const beat = () => container.onboarding.heartbeat(input.org_slug, input.execution_id, now());
  // The lease: refreshed now, while the step works, and when it ends. A run that is no
  // longer the organization's running run (abandoned and replaced) must not do more work.
  if (!(await beat())) {
    await release();
    throw new ConflictError(`onboarding run ${input.execution_id} of ${input.org_slug} is no longer running (it finished, or was abandoned and replaced): step ${step} not started`);
  }
  const running: StepState = { ...before, status: 'running', started_at: before.started_at ?? now(), finished_at: null, attempts: before.attempts + 1, reason: null };
  await container.onboarding.updateStep(input.org_slug, input.execution_id, step, running);
  const timer = setInterval(() => {
    beat().catch((err: Error) => log.warn('onboarding heartbeat failed', { execution_id: input.execution_id, step, error: { name: err.name, message: err.message } }));
  }, ONBOARDING_HEARTBEAT_MS);
  timer.unref();
  try {
    const outcome = await work();
    const done: StepState = isSkipped(outcome)
      ? { ...running, status: 'skipped', finished_at: now(), reason: outcome.reason }
      : { ...running, status: 'succeeded', finished_at: now(), result: toResult(outcome) };
    await container.onboarding.updateStep(input.org_slug, input.execution_id, step, done);
    return { step, status: done.status, reason: done.reason, result: done.result };
  } catch (err) {
    const error = err as Error;
    await container.onboarding.updateStep(input.org_slug, input.execution_id, step, {
      ...running, status: 'failed', finished_at: now(), reason: `${error.name}: ${error.message}`,
    });
    throw err;
  } finally {
    clearInterval(timer);
    await beat().catch(() => false);
    await release();
  }
}

/** What the step returned, as stored and handed on: plain JSON, its maps and lists bounded to a sample and a total (D39). */
function toResult(value: unknown): Record<string, unknown> | null {
  if (value === undefined || value === null) return null;
  return boundedResult(typeof value === 'object' ? JSON.parse(JSON.stringify(value)) : { value });
}

/** The Catch of a step: records the final failure (e.g. a timeout the step could not record) and skips its dependents. */
export async function recordStepFailure(container: Container, input: StepInput & { step: StepId; error?: { Error?: string; Cause?: string } }): Promise<void> {
  if (!(input.step in ONBOARDING_STEPS)) throw new ValidationError(`unknown onboarding step ${input.step}`);
  const run = await currentRun(container, input);
  const now = container.clock.now().toISOString();
  await container.onboarding.heartbeat(input.org_slug, input.execution_id, now);
  const state = run.steps[input.step];
  if (state.status !== 'failed') {
    const cause = causeText(input.error);
    await container.onboarding.updateStep(input.org_slug, input.execution_id, input.step, { ...state, status: 'failed', finished_at: now, reason: cause });
  }
  for (const dependent of dependentsOf(input.step)) {
    if (run.steps[dependent].status === 'succeeded') continue;
    await container.onboarding.updateStep(input.org_slug, input.execution_id, dependent, {
      ...pendingStep(), status: 'skipped', finished_at: now, reason: `step ${input.step} (${ONBOARDING_STEPS[input.step].name}) failed`,
    });
  }
}

function causeText(error?: { Error?: string; Cause?: string }): string {
  if (!error) return 'failed';
  // Lambda puts the thrown error as JSON into Cause: {"errorType","errorMessage",...}.
  try {
    const parsed = JSON.parse(error.Cause ?? '');
    if (parsed.errorMessage) return `${parsed.errorType ?? error.Error}: ${parsed.errorMessage}`;
  } catch {
    // plain text cause
  }
  return `${error.Error ?? 'Error'}${error.Cause ? `: ${error.Cause}` : ''}`;
}

export async function finishOnboarding(container: Container, input: StepInput): Promise<{ status: string }> {
  const run = await currentRun(container, input);
  const now = container.clock.now().toISOString();
  // A step still pending or running here never reported back: count it as failed.
  for (const id of STEP_IDS) {
    const s = run.steps[id];
    if (s.status === 'pending' || s.status === 'running') {
      run.steps[id] = { ...s, status: 'failed', finished_at: now, reason: s.reason ?? 'the step did not report a result' };
      await container.onboarding.updateStep(input.org_slug, input.execution_id, id, run.steps[id]);
    }
  }
  const status = runOutcome(run.steps);
  await container.onboarding.finish(input.org_slug, input.execution_id, status, now);
  return { status };
}

export async function onboardingStatus(container: Container, orgSlug: string) {
  const latest = await container.onboarding.latest(orgSlug);
  if (!latest) throw new NotFoundError(`onboarding has not been started for ${orgSlug}`);
  // A run whose worker stopped says so, instead of `running` forever.
  const abandoned = abandonment(latest, container.clock.now(), container.workflows.instanceId);
  const run = abandoned ? asAbandoned(latest, abandoned) : latest;
  return {
    status: run.status,
    execution_id: run.execution_id,
    started_at: run.started_at,
    finished_at: run.finished_at,
    heartbeat_at: run.heartbeat_at ?? null,
    reason: run.reason ?? null,
    steps: STEP_IDS.map((id) => {
      const s = run.steps[id];
      const duration = s.started_at && s.finished_at ? Date.parse(s.finished_at) - Date.parse(s.started_at) : null;
      return { id, name: ONBOARDING_STEPS[id].name, ...s, duration_ms: duration };
    }),
  };
}
