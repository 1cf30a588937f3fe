import { inputsSettled, newRun, pendingStep, runOutcome, STEP_IDS, type OnboardingRun, type StepId, type StepState } from '../../../functions/core/onboarding/steps';

const done = (status: StepState['status']): StepState => ({ ...pendingStep(), status, started_at: 't', finished_at: 't' });
function run(statuses: Partial<Record<StepId, StepState['status']>>, id = 'prev'): OnboardingRun {
  const steps = Object.fromEntries(STEP_IDS.map((s) => [s, statuses[s] ? done(statuses[s]!) : pendingStep()])) as Record<StepId, StepState>;
  return { execution_id: id, org_slug: 'o', status: 'partial', started_at: 't', finished_at: 't', steps };
}
const all = (status: StepState['status']) => Object.fromEntries(STEP_IDS.map((s) => [s, status])) as Record<StepId, StepState['status']>;

describe('newRun: what a second generate-all keeps', () => {
  test('the first run starts every step pending', () => {
    const r = newRun('e1', 'o', 'now', null);
    expect(STEP_IDS.map((s) => r.steps[s].status)).toEqual(STEP_IDS.map(() => 'pending'));
    expect(r.status).toBe('running');
  });

  test('succeeded steps are kept with the run they came from; failed and skipped ones are redone', () => {
    const r = newRun('e2', 'o', 'now', run({ ...all('succeeded'), '1b': 'failed', '1e': 'skipped' }));
    expect(r.steps['1a']).toMatchObject({ status: 'succeeded', kept_from: 'prev' });
    expect(r.steps['1b'].status).toBe('pending');
    expect(r.steps['1e'].status).toBe('pending');
  });

  test('a step is redone when a step whose output it uses is redone (2a uses 1a and 1c)', () => {
    const r = newRun('e2', 'o', 'now', run({ ...all('succeeded'), '1c': 'failed' }));
    for (const s of ['1c', '2a', '3a', '3b'] as StepId[]) expect(r.steps[s].status).toBe('pending');
    for (const s of ['1a', '1b', '1d', '1e', '1f'] as StepId[]) expect(r.steps[s].status).toBe('succeeded');
  });

  test('kept_from points at the run that did the work, across several reruns', () => {
    const second = newRun('e2', 'o', 'now', run(all('succeeded'), 'e1'));
    const third = newRun('e3', 'o', 'now', { ...second, status: 'succeeded' });
    expect(third.steps['1a'].kept_from).toBe('e1');
  });
});

describe('runOutcome', () => {
  test.each([
    [all('succeeded'), 'succeeded'],
    [{ ...all('succeeded'), '1b': 'skipped' }, 'succeeded'],
    [{ ...all('succeeded'), '1c': 'failed' }, 'partial'],
    [{ ...all('failed'), '2a': 'skipped' }, 'failed'],
    [{ ...all('succeeded'), '3a': 'running' }, 'running'],
  ] as const)('%j → %s', (statuses, outcome) => {
    expect(runOutcome(run(statuses as never).steps)).toBe(outcome);
  });
});

test('inputsSettled: 2a waits while 1c is pending or running', () => {
  expect(inputsSettled(run({ '1a': 'succeeded' }), '2a')).toBe(false);
  expect(inputsSettled(run({ '1a': 'succeeded', '1c': 'running' }), '2a')).toBe(false);
  expect(inputsSettled(run({ '1a': 'succeeded', '1c': 'failed' }), '2a')).toBe(true);
  expect(inputsSettled(run({}), '1b')).toBe(true);
});
