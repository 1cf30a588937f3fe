/**
 * D233: one invocation of an onboarding step at a time. Step Functions delivers a task at
 * least once, and may start a retry while the first invocation still runs: 3a's top-up (each
 * product up to its 5 prompts, counted when the step starts) run twice at once gives a product
 * more than 5. A step's invocation claims it (a conditional write); a copy that finds a live
 * claim does no work and asks to be asked again (InputsNotReady), then finds the step done. A
 * claim left by an invocation that was ended expires.
 */
import { runStep } from '../../functions/app/onboarding/runs';
import { getContainer } from '../../functions/container';
import { onboardingStepClaimsOf } from '../../functions/engines/step-claims';
import { newRun, ONBOARDING_STEPS, type StepId } from '../../functions/core/onboarding/steps';
import { startTestStackWithBusiness, type TestStack } from '../support/stack';

let stack: TestStack;
const ORG = 'claim-store';

beforeAll(async () => {
  stack = await startTestStackWithBusiness(ORG, { name: 'Claim Store Co.', url: 'https://claim-store.example' });
}, 60_000);
afterAll(async () => stack.close());

/** A run whose 3a inputs have all succeeded. */
async function runReadyFor3a(executionId: string) {
  const container = getContainer();
  const now = new Date().toISOString();
  const run = { ...newRun(executionId, ORG, now, null), heartbeat_at: now, runner: null };
  await container.onboarding.start(run, (await container.onboarding.latest(ORG))?.execution_id ?? null, { heartbeatBefore: now, runnerOtherThan: null });
  for (const id of ONBOARDING_STEPS['3a'].uses as StepId[]) await container.onboarding.updateStep(ORG, executionId, id, { ...run.steps[id], status: 'succeeded', finished_at: now });
}

test('a copy of a step delivered while another invocation runs it does no work, then finds it done', async () => {
  const container = getContainer();
  await runReadyFor3a('exec-claim-1');
  const input = { org_slug: ORG, execution_id: 'exec-claim-1' };
  let works = 0;
  let finish!: () => void;
  const held = new Promise<void>((resolve) => { finish = resolve; });
  const first = runStep(container, input, '3a', async () => { works++; await held; return { products: { count: 1 } }; });
  await new Promise((resolve) => setTimeout(resolve, 200));
  // the copy, while the first runs: no work, asked again
  await expect(runStep(container, input, '3a', async () => { works++; return { products: { count: 2 } }; })).rejects.toMatchObject({ name: 'InputsNotReady', message: expect.stringContaining('running in another invocation') });
  finish();
  expect(await first).toMatchObject({ status: 'succeeded', result: { products: { count: 1 } } });
  // asked again: the step is done, its result kept
  expect(await runStep(container, input, '3a', async () => { works++; return { products: { count: 3 } }; })).toMatchObject({ status: 'succeeded', result: { products: { count: 1 } } });
  expect(works).toBe(1);
  const stored = (await container.onboarding.getRun(ORG, 'exec-claim-1'))!;
  expect(stored.steps['3a']).toMatchObject({ status: 'succeeded', attempts: 1 });
  await container.onboarding.finish(ORG, 'exec-claim-1', 'succeeded', new Date().toISOString());
});

test('a failed invocation frees the step at once; a claim left by an ended invocation holds until it expires', async () => {
  const container = getContainer();
  await runReadyFor3a('exec-claim-2');
  const input = { org_slug: ORG, execution_id: 'exec-claim-2' };
  await expect(runStep(container, input, '3a', async () => { throw new Error('the vendor answered 500'); })).rejects.toThrow('the vendor answered 500');
  // the retry runs now (the failed invocation released its claim)
  expect(await runStep(container, input, '3a', async () => ({ products: { count: 5 } }))).toMatchObject({ status: 'succeeded' });
  expect((await container.onboarding.getRun(ORG, 'exec-claim-2'))!.steps['3a']).toMatchObject({ status: 'succeeded', attempts: 2 });

  // An invocation Lambda ended (no release): its claim holds while live, and is taken over once expired.
  const now = new Date();
  const later = (ms: number) => new Date(now.getTime() + ms).toISOString();
  expect(await onboardingStepClaimsOf(container).claim(ORG, 'exec-claim-2', '3b', 'ended-invocation', later(60_000), now.toISOString())).toBe(true);
  expect(await onboardingStepClaimsOf(container).claim(ORG, 'exec-claim-2', '3b', 'a-retry', later(60_000), later(1_000))).toBe(false);
  expect(await onboardingStepClaimsOf(container).claim(ORG, 'exec-claim-2', '3b', 'a-retry', later(120_000), later(61_000))).toBe(true);
  // only its own claim is released by an invocation
  await onboardingStepClaimsOf(container).release(ORG, 'exec-claim-2', '3b', 'ended-invocation');
  expect(await onboardingStepClaimsOf(container).claim(ORG, 'exec-claim-2', '3b', 'a-third', later(180_000), later(62_000))).toBe(false);
  await onboardingStepClaimsOf(container).release(ORG, 'exec-claim-2', '3b', 'a-retry');
  expect(await onboardingStepClaimsOf(container).claim(ORG, 'exec-claim-2', '3b', 'a-third', later(180_000), later(62_000))).toBe(true);
});
