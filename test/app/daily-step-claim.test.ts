/**
 * D234: one invocation of a step of a business's day at a time. Step Functions delivers a task
 * at least once: a copy of 1b-prompts (each new product topped up to its 10 prompts, counted
 * when the step starts) running beside the first would add a second set. The copy waits for the
 * invocation that claimed the step and keeps its outcome; a failed holder frees the step for the
 * retry (the copy's own give-up path: step-claim.test.ts).
 */
import { runDailyStep, startBusinessRun } from '../../functions/app/daily/business-run';
import { deploySite } from '../../functions/app/site/deploy';
import { getContainer } from '../../functions/container';
import { dailyStepClaimsOf } from '../../functions/engines/step-claims';
import { startTestStack, type TestStack } from '../support/stack';

const ORG = 'daily-claim';
let stack: TestStack;
// Each test its own day: a business's day is held by one execution at a time (D162).
const RUN_DATES: Record<string, string> = { 'exec-claim-a': '2026-11-27', 'exec-claim-b': '2026-11-28', 'exec-claim-c': '2026-11-29' };
const input = (execution_id: string) => ({ org_slug: ORG, run_date: RUN_DATES[execution_id], execution_id });

beforeAll(async () => {
  stack = await startTestStack({ LOG_LEVEL: 'error' });
  const token = await stack.token(ORG);
  expect((await stack.call('POST', '/api/business', { token, body: { name: 'Claim Coffee', url: 'https://claim-coffee.example' } })).status).toBe(201);
  await deploySite(getContainer(), { orgSlug: ORG, files: [{ path: '/llms.txt', content: '# Claim Coffee\n', contentType: 'text/plain' }] });
}, 60_000);
afterAll(() => stack.close());

async function startDay(executionId: string) {
  const container = getContainer();
  await container.dailyRuns.createExecution({
    execution_id: executionId, run_date: RUN_DATES[executionId], status: 'running', trigger: 'manual', org_slugs: [ORG], started_at: new Date().toISOString(),
    finished_at: null, reason: null, counts: { succeeded: 0, partial: 0, failed: 0, skipped: 0 },
  });
  expect(await startBusinessRun(container, input(executionId))).toMatchObject({ run: 'go' });
}

const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('a copy delivered while another invocation runs the step does no work and keeps that invocation\'s outcome', async () => {
  const container = getContainer();
  await startDay('exec-claim-a');
  let works = 0;
  let finish!: () => void;
  const held = new Promise<void>((resolve) => { finish = resolve; });
  const first = runDailyStep(container, input('exec-claim-a'), '1b-prompts', async () => { works++; await held; return { prompts_saved: 10 }; });
  await later(200);
  const copy = runDailyStep(container, input('exec-claim-a'), '1b-prompts', async () => { works++; return { prompts_saved: 20 }; });
  await later(1_500);
  expect(works).toBe(1);
  finish();
  expect(await first).toMatchObject({ step: '1b-prompts', status: 'succeeded', prompts_saved: 10 });
  expect(await copy).toMatchObject({ step: '1b-prompts', status: 'succeeded', kept: true, prompts_saved: 10 });
  expect(works).toBe(1);
  const run = (await container.dailyRuns.getBusinessRun('exec-claim-a', ORG))!;
  expect(run.steps['1b-prompts']).toMatchObject({ status: 'succeeded', attempts: 1, result: { prompts_saved: 10 } });
  // released: nothing holds the step any more
  const now = new Date().toISOString();
  expect(await dailyStepClaimsOf(container).claim(ORG, 'exec-claim-a', '1b-prompts', 'probe', now, now)).toBe(true);
});

test('a failed holder frees the step: the retry runs it', async () => {
  const container = getContainer();
  await startDay('exec-claim-b');
  await expect(runDailyStep(container, input('exec-claim-b'), '2a', async () => { throw new Error('the model answered 500'); })).rejects.toThrow('the model answered 500');
  expect(await runDailyStep(container, input('exec-claim-b'), '2a', async () => ({ articles: 1 }))).toMatchObject({ step: '2a', status: 'succeeded', articles: 1 });
  expect((await container.dailyRuns.getBusinessRun('exec-claim-b', ORG))!.steps['2a']).toMatchObject({ status: 'succeeded', attempts: 2 });
});

test('a claim left by an invocation Lambda ended holds until it expires; only its own invocation releases it', async () => {
  const container = getContainer();
  await startDay('exec-claim-c');
  const claims = dailyStepClaimsOf(container);
  const t0 = Date.now();
  const at = (ms: number) => new Date(t0 + ms).toISOString();
  expect(await claims.claim(ORG, 'exec-claim-c', '2b', 'ended', at(60_000), at(0))).toBe(true);
  expect(await claims.claim(ORG, 'exec-claim-c', '2b', 'retry', at(61_000), at(1_000))).toBe(false);
  await claims.release(ORG, 'exec-claim-c', '2b', 'retry');
  expect(await claims.claim(ORG, 'exec-claim-c', '2b', 'retry', at(61_000), at(1_000))).toBe(false);
  expect(await claims.claim(ORG, 'exec-claim-c', '2b', 'retry', at(121_000), at(61_000))).toBe(true);
});
