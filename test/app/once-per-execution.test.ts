/**
 * D237: an execution's work once, even when its task is delivered twice at once. The
 * regenerate-prompts task adds N new prompts (two invocations at once would add 2N), the
 * certificate and domain tasks call out before they record: a copy delivered while another
 * invocation does the work waits for it and returns what it recorded.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { claimKeys } from '../../functions/adapters/dynamodb/step-claims';
import { oncePerExecution, outputOncePerExecution } from '../../functions/app/once-per-execution';
import { getContainer } from '../../functions/container';
import { startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
beforeAll(async () => { stack = await startTestStack({ LOG_LEVEL: 'error' }); }, 60_000);
afterAll(() => stack.close());

const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
function held<T>() {
  let settle!: { resolve: (v: T) => void; reject: (e: Error) => void };
  const promise = new Promise<T>((resolve, reject) => { settle = { resolve, reject }; });
  return { promise, ...settle };
}

test('a copy delivered while the first invocation works waits and returns its response; the work ran once', async () => {
  const container = getContainer();
  const executionId = randomUUID();
  let works = 0;
  const gate = held<void>();
  const work = async () => { works++; await gate.promise; return { httpStatus: 200, body: { prompts_saved: works * 10 } }; };
  const first = oncePerExecution(container, 'regenerate-prompts', executionId, work);
  await later(200);
  const copy = oncePerExecution(container, 'regenerate-prompts', executionId, work);
  await later(1_500);
  expect(works).toBe(1);
  gate.resolve();
  const [a, b] = await Promise.all([first, copy]);
  expect(a).toMatchObject({ http_status: 200, body: { prompts_saved: 10 } });
  expect(b).toEqual(a);
  // a later delivery returns the stored response
  expect(await oncePerExecution(container, 'regenerate-prompts', executionId, work)).toEqual(a);
  expect(works).toBe(1);
  // the claim item expires by the table's TTL (epoch seconds, a day past the claim)
  const item = (await container.dynamo.db.send(new GetCommand({ TableName: container.dynamo.table, Key: claimKeys.execution('regenerate-prompts', executionId) }))).Item!;
  expect(item.expires_at).toBeGreaterThan(Date.now() / 1000 + 86_400);
  expect(item.stepClaim_response).toBeUndefined();
});

test('a failed first invocation leaves nothing recorded and frees the execution: the retry does the work', async () => {
  const container = getContainer();
  const executionId = randomUUID();
  await expect(oncePerExecution(container, 'site-publish', executionId, async () => { throw new Error('the deploy failed'); })).rejects.toThrow('the deploy failed');
  expect(await oncePerExecution(container, 'site-publish', executionId, async () => ({ httpStatus: 200, body: { by: 'retry' } }))).toMatchObject({ http_status: 200, body: { by: 'retry' } });
});

test('a task output inside an execution is computed once under concurrent deliveries', async () => {
  const container = getContainer();
  const executionId = randomUUID();
  let calls = 0;
  const gate = held<void>();
  const notify = async () => { calls++; await gate.promise; return { notified: ['indexnow'], call: calls }; };
  const first = outputOncePerExecution(container, executionId, 'submit-domain-urls', notify);
  await later(200);
  const copy = outputOncePerExecution(container, executionId, 'submit-domain-urls', notify);
  await later(1_200);
  gate.resolve();
  expect(await first).toEqual({ notified: ['indexnow'], call: 1 });
  expect(await copy).toEqual({ notified: ['indexnow'], call: 1 });
  expect(calls).toBe(1);
});
