import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { abandonment, asAbandoned, lastHeartbeat, leaseCutoff, ONBOARDING_HEARTBEAT_MS, ONBOARDING_LEASE_MS } from '../../../functions/core/onboarding/lease';
import { newRun, pendingStep, STEP_IDS, type OnboardingRun, type StepId, type StepState } from '../../../functions/core/onboarding/steps';

const T0 = '2026-11-02T10:00:00.000Z';
const at = (ms: number) => new Date(Date.parse(T0) + ms);
const running = (extra: Partial<OnboardingRun> = {}): OnboardingRun => ({ ...newRun('e1', 'o', T0, null), heartbeat_at: T0, ...extra });

describe('abandonment: is a running run still worked on at time t?', () => {
  test('a run that ended is never abandoned', () => {
    for (const status of ['succeeded', 'partial', 'failed', 'abandoned'] as const) {
      expect(abandonment({ ...running(), status }, at(10 * ONBOARDING_LEASE_MS))).toBeNull();
    }
  });

  test('alive up to the lease after its last heartbeat, abandoned 1 ms later', () => {
    expect(abandonment(running(), at(0))).toBeNull();
    expect(abandonment(running(), at(ONBOARDING_LEASE_MS))).toBeNull();
    expect(abandonment(running(), at(ONBOARDING_LEASE_MS + 1))).toBe(
      `the worker stopped: no heartbeat since ${T0} (lease ${ONBOARDING_LEASE_MS / 60_000} min); run generate-all to resume`);
  });

  test('a later heartbeat extends the lease', () => {
    const beat = at(4 * 60_000).toISOString();
    expect(abandonment(running({ heartbeat_at: beat }), at(ONBOARDING_LEASE_MS + 1))).toBeNull();
    expect(abandonment(running({ heartbeat_at: beat }), at(4 * 60_000 + ONBOARDING_LEASE_MS + 1))).toMatch(`no heartbeat since ${beat}`);
  });

  test('a run recorded before heartbeats existed counts from its start', () => {
    const legacy = running({ heartbeat_at: undefined });
    expect(lastHeartbeat(legacy)).toBe(T0);
    expect(abandonment(legacy, at(ONBOARDING_LEASE_MS + 1))).toMatch('no heartbeat since');
  });

  test('the store-side cut-off agrees with the rule at its boundary', () => {
    for (const t of [ONBOARDING_LEASE_MS - 1, ONBOARDING_LEASE_MS, ONBOARDING_LEASE_MS + 1]) {
      expect({ t, abandoned: abandonment(running(), at(t)) !== null }).toEqual({ t, abandoned: T0 < leaseCutoff(at(t)) });
    }
  });

  test('a runner whose executions cannot outlive it: another instance\'s run is abandoned at once', () => {
    const run = running({ runner: 'boot-1' });
    expect(abandonment(run, at(1000), 'boot-2')).toMatch(/the workflow runner stopped \(the local runtime was restarted.*\); run generate-all to resume/);
    expect(abandonment(run, at(1000), 'boot-1')).toBeNull();
    // On AWS there is no runner id: only the lease decides.
    expect(abandonment(run, at(1000), undefined)).toBeNull();
    expect(abandonment(running({ runner: null }), at(1000), 'boot-2')).toBeNull();
  });

  test('the lease outlasts a heartbeat interval plus the longest pause the state machine makes between attempts, twice over', () => {
    const asl = readFileSync(join(__dirname, '../../../state-machines/onboarding.asl.json'), 'utf8');
    const maxDelays = [...asl.matchAll(/"MaxDelaySeconds":\s*(\d+)/g)].map((m) => Number(m[1]) * 1000);
    expect(maxDelays.length).toBeGreaterThan(0);
    expect(ONBOARDING_LEASE_MS).toBeGreaterThanOrEqual(2 * (ONBOARDING_HEARTBEAT_MS + Math.max(...maxDelays)));
  });
});

describe('asAbandoned: what the status of an abandoned run says', () => {
  const step = (status: StepState['status'], started: string | null = T0): StepState => ({ ...pendingStep(), status, started_at: started, attempts: 1 });
  const crashed = (): OnboardingRun => {
    const steps = Object.fromEntries(STEP_IDS.map((id) => [id, { ...step('succeeded'), finished_at: T0 }])) as Record<StepId, StepState>;
    steps['3a'] = step('running');
    steps['3b'] = pendingStep();
    return { ...running({ heartbeat_at: at(30_000).toISOString() }), steps };
  };

  test('status abandoned with the reason; the running step failed as interrupted, the unstarted one skipped', () => {
    const view = asAbandoned(crashed(), 'the worker stopped');
    expect(view).toMatchObject({ status: 'abandoned', reason: 'the worker stopped', finished_at: at(30_000).toISOString() });
    expect(view.steps['3a']).toMatchObject({ status: 'failed', reason: 'interrupted: the worker stopped', finished_at: at(30_000).toISOString(), started_at: T0 });
    expect(view.steps['3b']).toMatchObject({ status: 'skipped', reason: 'not started: the worker stopped' });
    expect(view.steps['1a']).toEqual(crashed().steps['1a']);
  });

  test('a repair run keeps what succeeded and redoes the interrupted and unstarted steps', () => {
    for (const previous of [crashed(), asAbandoned(crashed(), 'gone')]) {
      const repair = newRun('e2', 'o', T0, previous);
      expect(STEP_IDS.filter((id) => repair.steps[id].kept_from === 'e1')).toEqual(['1a', '1b', '1c', '1d', '1e', '1f', '2a']);
      expect([repair.steps['3a'].status, repair.steps['3b'].status]).toEqual(['pending', 'pending']);
    }
  });
});
