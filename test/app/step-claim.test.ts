/**
 * The claim-or-wait of a step (D234, D237, D238), on the real local database: a copy delivered
 * while another invocation holds the step does no work; it keeps the holder's outcome, or asks
 * to be asked again (StepClaimed) when none is recorded within its wait: the step is taken over
 * only at the start of an invocation, never late in one.
 */
import { randomUUID } from 'node:crypto';
import { claimOrAwait } from '../../functions/app/step-claim';
import { getContainer } from '../../functions/container';
import { executionClaimsOf } from '../../functions/engines/step-claims';
import { startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
beforeAll(async () => { stack = await startTestStack({ LOG_LEVEL: 'error' }); }, 60_000);
afterAll(() => stack.close());

test('a copy keeps what the holder recorded; one that sees nothing within its wait asks again and does nothing', async () => {
  const container = getContainer();
  const claims = executionClaimsOf(container);
  const executionId = randomUUID();
  let recorded: string | null = null;
  const settled = async () => recorded;
  const holder = await claimOrAwait(container, claims, 'regenerate-prompts', executionId, 'response', settled);
  expect('release' in holder).toBe(true);

  // nothing recorded within the wait: StepClaimed, no claim taken
  const started = Date.now();
  await expect(claimOrAwait(container, claims, 'regenerate-prompts', executionId, 'response', settled, { waitMs: 1_200 }))
    .rejects.toMatchObject({ name: 'StepClaimed', message: expect.stringContaining('running in another invocation') });
  expect(Date.now() - started).toBeGreaterThanOrEqual(1_200);

  // the holder records while a copy waits: the copy keeps it
  const copy = claimOrAwait(container, claims, 'regenerate-prompts', executionId, 'response', settled, { waitMs: 5_000 });
  setTimeout(() => { recorded = 'the holder\'s response'; }, 300);
  expect(await copy).toEqual({ settled: 'the holder\'s response' });
  if ('release' in holder) await holder.release();
});

test('a holder that fails while a copy waits frees the step for the retry, not for the waiting copy', async () => {
  const container = getContainer();
  const claims = executionClaimsOf(container);
  const executionId = randomUUID();
  const settled = async () => null;
  const holder = await claimOrAwait(container, claims, 'site-publish', executionId, 'response', settled);
  const copy = claimOrAwait(container, claims, 'site-publish', executionId, 'response', settled, { waitMs: 1_500 });
  setTimeout(() => { if ('release' in holder) void holder.release(); }, 300);
  await expect(copy).rejects.toMatchObject({ name: 'StepClaimed' });
  // the retry, a fresh invocation, takes it
  const retry = await claimOrAwait(container, claims, 'site-publish', executionId, 'response', settled);
  expect('release' in retry).toBe(true);
});

test('a claim taken and then unreadable is released', async () => {
  const container = getContainer();
  const claims = executionClaimsOf(container);
  const executionId = randomUUID();
  await expect(claimOrAwait(container, claims, 'site-publish', executionId, 'response', async () => { throw new Error('the table did not answer'); }))
    .rejects.toThrow('the table did not answer');
  const next = await claimOrAwait(container, claims, 'site-publish', executionId, 'response', async () => null);
  expect('release' in next).toBe(true);
});
