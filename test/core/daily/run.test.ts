import {
  businessOutcome, closeUnfinishedSteps, isRunDate, newBusinessRun, runDateOf, type DailyStepId, type DailyStepState,
} from '../../../functions/core/daily/run';

const steps = (states: Partial<Record<DailyStepId, Partial<DailyStepState>>>) => {
  const base = newBusinessRun('shop', '2026-11-23', 'e1', '2026-11-23T14:00:00Z').steps;
  for (const [id, s] of Object.entries(states)) base[id as DailyStepId] = { ...base[id as DailyStepId], ...s };
  return base;
};

test('the run date is the UTC day', () => {
  expect(runDateOf('2026-11-23T23:59:59.999Z')).toBe('2026-11-23');
  expect(runDateOf('2026-11-24T00:00:00+08:00')).toBe('2026-11-23');
  expect(isRunDate('2026-11-23')).toBe(true);
  expect(isRunDate('2026-02-30')).toBe(false);
  expect(isRunDate('2026-1-3')).toBe(false);
});

describe('businessOutcome', () => {
  test('succeeded when every step that ran succeeded or was skipped; pending steps do not count', () => {
    expect(businessOutcome(steps({ '1a': { status: 'succeeded' }, '1b': { status: 'skipped' } }))).toEqual({ status: 'succeeded', reason: null });
  });

  test('partial when some failed, with each failure and its reason', () => {
    expect(businessOutcome(steps({ '1a': { status: 'failed', reason: 'UpstreamError: store down' }, '1b': { status: 'succeeded' } }))).toEqual({
      status: 'partial', reason: '1a (change detection): UpstreamError: store down',
    });
  });

  test('failed when nothing succeeded; a step left running counts as failed', () => {
    const outcome = businessOutcome(steps({ '1a': { status: 'running' } }));
    expect(outcome.status).toBe('failed');
    expect(outcome.reason).toMatch(/1a \(change detection\): stopped without reporting/);
  });
});

test('closeUnfinishedSteps marks steps that never reported back as failed with the reason', () => {
  const closed = closeUnfinishedSteps(steps({ deploy: { status: 'running' }, '1a': { status: 'succeeded' } }), '2026-11-23T15:00:00Z');
  expect(closed.deploy).toMatchObject({ status: 'failed', finished_at: '2026-11-23T15:00:00Z', reason: expect.stringMatching(/timeout or crash/) });
  expect(closed['1a'].status).toBe('succeeded');
});

test('the local timer fires at the next 14:00 UTC', () => {
  const { nextDailyRunAt } = jest.requireActual('../../../functions/core/daily/run') as typeof import('../../../functions/core/daily/run');
  expect(nextDailyRunAt(new Date('2026-11-23T13:59:59Z')).toISOString()).toBe('2026-11-23T14:00:00.000Z');
  expect(nextDailyRunAt(new Date('2026-11-23T14:00:00Z')).toISOString()).toBe('2026-11-24T14:00:00.000Z');
  expect(nextDailyRunAt(new Date('2026-12-31T20:00:00Z')).toISOString()).toBe('2027-01-01T14:00:00.000Z');
});
