/**
 * The onboarding steps of the spec's "Onboarding flow" and how a run's progress reads.
 * Group 1 runs in parallel; 2a follows 1a; 3a and 3b follow 1c.
 */
export const ONBOARDING_STEPS: Record<string, { name: string; after: string | null; uses: readonly string[] }> = {
  '1a': { name: 'scrape the website', after: null, uses: [] },
  '1b': { name: 'discover competitors', after: null, uses: [] },
  '1c': { name: 'discover products', after: null, uses: [] },
  '1d': { name: 'fetch the favicon', after: null, uses: [] },
  '1e': { name: 'copy the pre-payment score', after: null, uses: [] },
  '1f': { name: 'create the CDN distribution', after: null, uses: [] },
  // 2a runs after 1a (spec) but renders the catalogue too: it waits for 1c while 1c is
  // still running, and is redone whenever 1c is, so the site never misses products.
  '2a': { name: 'create the AI website', after: '1a', uses: ['1a', '1c'] },
  '3a': { name: 'generate prompts', after: '1c', uses: ['1c'] },
  '3b': { name: 'generate product llms files', after: '1c', uses: ['1c'] },
};

export type StepId = '1a' | '1b' | '1c' | '1d' | '1e' | '1f' | '2a' | '3a' | '3b';
export const STEP_IDS = Object.keys(ONBOARDING_STEPS) as StepId[];

/** Whether a step may start now: every step it uses has ended (succeeded, skipped or failed). */
export function inputsSettled(run: { steps: Record<StepId, StepState> }, step: StepId): boolean {
  return ONBOARDING_STEPS[step].uses.every((u) => !['pending', 'running'].includes(run.steps[u as StepId].status));
}

export type StepStatus = 'pending' | 'running' | 'succeeded' | 'skipped' | 'failed';

export interface StepState {
  status: StepStatus;
  started_at: string | null;
  finished_at: string | null;
  attempts: number;
  /** Why it failed or was skipped. */
  reason: string | null;
  /** What it produced (counts, ids), for the dashboard. */
  result: Record<string, unknown> | null;
  /** Set when the step's success was kept from an earlier run instead of being redone. */
  kept_from: string | null;
}

/** `abandoned`: the run's worker stopped before it finished (see lease.ts). */
export type RunStatus = 'running' | 'succeeded' | 'partial' | 'failed' | 'abandoned';

export interface OnboardingRun {
  execution_id: string;
  org_slug: string;
  status: RunStatus;
  started_at: string;
  finished_at: string | null;
  steps: Record<StepId, StepState>;
  /** The lease's last refresh while running (kept on the latest pointer: read it through `latest()`). */
  heartbeat_at?: string | null;
  /** The instance id of the workflow runner that runs it, when its executions cannot outlive that runner (local). */
  runner?: string | null;
  /** Why the run ended without finishing (abandoned). */
  reason?: string | null;
}

export const pendingStep = (): StepState => ({
  status: 'pending', started_at: null, finished_at: null, attempts: 0, reason: null, result: null, kept_from: null,
});

/**
 * A new run: steps that succeeded (or were skipped for a lasting reason, like a missing
 * provider) in the previous run are kept, everything else is redone. So a second
 * generate-all repairs what failed without redoing, or duplicating, what worked.
 */
export function newRun(executionId: string, orgSlug: string, now: string, previous: OnboardingRun | null): OnboardingRun {
  const succeeded = (id: string) => previous?.steps[id as StepId]?.status === 'succeeded';
  // A step is kept only when it and every step whose output it uses are kept.
  const keep = (id: StepId): boolean => succeeded(id) && ONBOARDING_STEPS[id].uses.every((u) => keep(u as StepId));
  const steps = Object.fromEntries(STEP_IDS.map((id) => {
    const before = previous?.steps[id];
    return [id, before && keep(id) ? { ...before, kept_from: before.kept_from ?? previous!.execution_id } : pendingStep()];
  })) as Record<StepId, StepState>;
  return { execution_id: executionId, org_slug: orgSlug, status: 'running', started_at: now, finished_at: null, steps };
}

/** The run's outcome once every branch has ended. */
export function runOutcome(steps: Record<StepId, StepState>): RunStatus {
  const states = STEP_IDS.map((id) => steps[id].status);
  if (states.some((s) => s === 'pending' || s === 'running')) return 'running';
  if (states.every((s) => s === 'succeeded' || s === 'skipped')) return 'succeeded';
  if (states.every((s) => s === 'failed' || s === 'skipped')) return 'failed';
  return 'partial';
}

/** Steps that cannot run because the step they follow failed. */
export function dependentsOf(step: StepId): StepId[] {
  return STEP_IDS.filter((id) => ONBOARDING_STEPS[id].after === step);
}
