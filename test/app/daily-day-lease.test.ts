/**
 * One execution at a time per business and day (issue 23), on the real local database: the
 * day's lease is taken by the first execution, a second one skips the business naming the
 * holder, a holder that stopped without finishing is taken over once its lease ran out (its
 * settled steps kept, its record closed as failed), and a presumed-dead holder that wakes up
 * may not work on the day again.
 */
import { finishBusinessRun, runDailyStep, startBusinessRun } from '../../functions/app/daily/business-run';
import { deploySite } from '../../functions/app/site/deploy';
import { getContainer } from '../../functions/container';
import { DAY_LEASE_SECONDS, newBusinessRun } from '../../functions/core/daily/run';
import { readDailyExecution } from '../../functions/app/daily/execution';
import { dailyBaseline, publishedDigests } from '../../functions/app/site/digests';
import { startTestStack, type TestStack } from '../support/stack';

const ORG = 'lease';
const RUN_DATE = '2026-11-25';
let stack: TestStack;
let now = new Date('2026-11-25T14:00:00Z');
const clock = { now: () => now };
const advance = (seconds: number) => { now = new Date(now.getTime() + seconds * 1000); };
const input = (execution_id: string) => ({ org_slug: ORG, run_date: RUN_DATE, execution_id });

beforeAll(async () => {
  stack = await startTestStack({ LOG_LEVEL: 'error' }, { clock });
  const token = await stack.token(ORG);
  expect((await stack.call('POST', '/api/business', { token, body: { name: 'Lease Coffee', url: 'https://lease-coffee.example' } })).status).toBe(201);
  await deploySite(getContainer(), { orgSlug: ORG, files: [{ path: '/llms.txt', content: '# Lease Coffee\n', contentType: 'text/plain' }] });
  // The executions' own records (PrepareDailyRun writes them), which count their businesses.
  for (const id of ['exec-a', 'exec-b', 'exec-c', 'exec-d', 'exec-e']) {
    await getContainer().dailyRuns.createExecution({
      execution_id: id, run_date: RUN_DATE, status: 'running', trigger: 'manual', org_slugs: [ORG], started_at: now.toISOString(),
      finished_at: null, reason: null, counts: { succeeded: 0, partial: 0, failed: 0, skipped: 0 },
    });
  }
}, 60_000);
afterAll(() => stack.close());

test('a second execution finds the day held and skips the business, naming the holder; the holder\'s steps run', async () => {
  const container = getContainer();
  expect(await startBusinessRun(container, input('exec-a'))).toMatchObject({ run: 'go' });
  const second = await startBusinessRun(container, input('exec-b'));
  expect(second).toMatchObject({ run: 'skip', reason: expect.stringMatching(/^already running in exec-a \(since 2026-11-25T14:00:00/) });
  expect(await container.dailyRuns.getBusinessRun('exec-b', ORG)).toMatchObject({ status: 'skipped', reason: second.reason });
  // A retried start of the skipped execution stays skipped, and is counted once.
  expect(await startBusinessRun(container, input('exec-b'))).toMatchObject({ run: 'skip' });
  expect((await container.dailyRuns.getExecution('exec-b'))!.counts).toEqual({ succeeded: 0, partial: 0, failed: 0, skipped: 1 });
  let ran = 0;
  await runDailyStep(container, input('exec-a'), '1a', async () => { ran++; return { pages_mapped: 1 }; });
  expect(ran).toBe(1);
});

test('a holder that stopped mid-day is taken over once its lease ran out: settled steps kept, its record closed as failed', async () => {
  const container = getContainer();
  advance(DAY_LEASE_SECONDS - 60);
  // Still held (a sign of life a minute ago would have renewed it; none is needed yet).
  expect(await startBusinessRun(container, input('exec-c'))).toMatchObject({ run: 'skip', reason: expect.stringMatching(/exec-a/) });
  advance(120);
  expect(await startBusinessRun(container, input('exec-d'))).toMatchObject({ run: 'go' });
  const resumed = (await container.dailyRuns.getBusinessRun('exec-d', ORG))!;
  expect(resumed.resumed_from).toBe('exec-a');
  expect(resumed.steps['1a']).toMatchObject({ status: 'succeeded', execution_id: 'exec-d', resumed_from: 'exec-a', result: { pages_mapped: 1 } });
  expect(resumed.steps['1b'].status).toBe('pending');
  let again = 0;
  expect(await runDailyStep(container, input('exec-d'), '1a', async () => { again++; return {}; })).toMatchObject({ status: 'succeeded', kept: true });
  expect(again).toBe(0);
  expect(await container.dailyRuns.getBusinessRun('exec-a', ORG)).toMatchObject({ status: 'failed', reason: expect.stringMatching(/lease expired.*exec-d resumed it/) });
  expect((await container.dailyRuns.getExecution('exec-a'))!.counts.failed).toBe(1);
  // The old holder wakes up: it may not deploy or check the day a second time.
  await expect(runDailyStep(container, input('exec-a'), 'deploy', async () => ({}))).rejects.toThrow(/no longer held by exec-a \(exec-d holds it\)/);
});

test('a finished day frees the lease: a later execution the same day runs again from the start', async () => {
  const container = getContainer();
  expect(await finishBusinessRun(container, input('exec-d'))).toMatchObject({ status: 'succeeded' });
  expect((await container.dailyRuns.getDayLease(RUN_DATE, ORG))).toEqual({ lease: null, latestExecutionId: 'exec-d' });
  expect(await startBusinessRun(container, input('exec-e'))).toMatchObject({ run: 'go' });
  const fresh = (await container.dailyRuns.getBusinessRun('exec-e', ORG))!;
  expect(fresh.resumed_from).toBeNull();
  expect(fresh.steps['1a'].status).toBe('pending');
  // Every execution keeps its own record.
  for (const [id, status] of [['exec-a', 'failed'], ['exec-b', 'skipped'], ['exec-c', 'skipped'], ['exec-d', 'succeeded'], ['exec-e', 'running']]) {
    expect((await container.dailyRuns.listBusinessRuns(id, { limit: 10 })).runs.map((r) => r.status)).toEqual([status]);
  }
});

test('an execution recorded before runs were kept per execution still reads back, from its day\'s records', async () => {
  const container = getContainer();
  const { PutCommand } = await import('@aws-sdk/lib-dynamodb');
  await container.dailyRuns.createExecution({
    execution_id: 'exec-old', run_date: '2026-11-20', status: 'succeeded', trigger: 'schedule', org_slugs: null, started_at: '2026-11-20T14:00:00.000Z',
    finished_at: '2026-11-20T14:05:00.000Z', reason: null, counts: { succeeded: 1, partial: 0, failed: 0, skipped: 0 },
  });
  const old = newBusinessRun(ORG, '2026-11-20', 'exec-old', '2026-11-20T14:00:00.000Z');
  // The record as the earlier layout wrote it: one per business per day.
  await container.dynamo.db.send(new PutCommand({
    TableName: container.dynamo.table,
    Item: { PK: 'DAILYRUN#2026-11-20', SK: `ORG#${ORG}`, type: 'daily_run', ...old, changed_urls: undefined, status: 'succeeded', finished_at: '2026-11-20T14:05:00.000Z' },
    removeUndefinedValues: true,
  } as never));
  const read = await readDailyExecution(container, 'exec-old', { limit: 10 });
  expect(read.businesses.runs).toEqual([expect.objectContaining({ org_slug: ORG, execution_id: 'exec-old', status: 'succeeded' })]);
});

test('a retried close counts nothing twice (D162)', async () => {
  const container = getContainer();
  // exec-e holds the day since the test before: its close, then the same close again (a retried task).
  const first = await finishBusinessRun(container, input('exec-e'));
  const afterOne = (await container.dailyRuns.getExecution('exec-e'))!.counts;
  expect(Object.values(afterOne).reduce((a, b) => a + b, 0)).toBe(1);
  expect(afterOne[first.status]).toBe(1);
  const record = (await container.dailyRuns.getBusinessRun('exec-e', ORG))!;
  advance(60);
  await finishBusinessRun(container, input('exec-e'));
  expect((await container.dailyRuns.getExecution('exec-e'))!.counts).toEqual(afterOne);
  // The closed record is not closed again either.
  expect(await container.dailyRuns.getBusinessRun('exec-e', ORG)).toEqual(record);
});

test('taking over a stopped holder keeps its changed URLs and its site baseline (D162)', async () => {
  const container = getContainer();
  const org = 'lease-two';
  const take = (execution_id: string) => ({ org_slug: org, run_date: RUN_DATE, execution_id });
  const token = await stack.token(org);
  expect((await stack.call('POST', '/api/business', { token, body: { name: 'Lease Two', url: 'https://lease-two.example' } })).status).toBe(201);
  await deploySite(container, { orgSlug: org, files: [{ path: '/llms.txt', content: '# Lease Two\n', contentType: 'text/plain' }] });
  for (const id of ['exec-f', 'exec-g']) {
    await container.dailyRuns.createExecution({
      execution_id: id, run_date: RUN_DATE, status: 'running', trigger: 'manual', org_slugs: [org], started_at: now.toISOString(),
      finished_at: null, reason: null, counts: { succeeded: 0, partial: 0, failed: 0, skipped: 0 },
    });
  }
  expect(await startBusinessRun(container, take('exec-f'))).toMatchObject({ run: 'go' });
  await container.dailyRuns.addChangedUrls('exec-f', org, ['https://lease-two.example/products/a', 'https://lease-two.example/products/b']);
  const abandonedBaseline = await dailyBaseline(container, org, 'exec-f');
  expect(abandonedBaseline).toBeTruthy();
  // The stopped run had published a change: its baseline, not today's digests, is what the day announces from.
  await deploySite(container, { orgSlug: org, files: [{ path: '/llms.txt', content: '# Lease Two, changed\n', contentType: 'text/plain' }] });
  expect(await publishedDigests(container, org)).not.toEqual(abandonedBaseline);
  advance(DAY_LEASE_SECONDS + 60);
  expect(await startBusinessRun(container, take('exec-g'))).toMatchObject({ run: 'go' });
  const abandoned = (await container.dailyRuns.getBusinessRun('exec-f', org))!;
  const resumed = (await container.dailyRuns.getBusinessRun('exec-g', org))!;
  expect(resumed.resumed_from).toBe('exec-f');
  expect(resumed.changed_urls).toEqual(abandoned.changed_urls);
  expect(resumed.changed_urls).toEqual(['https://lease-two.example/products/a', 'https://lease-two.example/products/b']);
  expect(await dailyBaseline(container, org, 'exec-g')).toEqual(abandonedBaseline);
  expect(await dailyBaseline(container, org, 'exec-f')).toBeNull();
});
