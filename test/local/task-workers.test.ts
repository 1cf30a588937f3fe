/**
 * Issue 34.3: the local runtime runs state-machine tasks off the API's event loop, on worker
 * threads, as Lambda isolates each invocation. A task that holds its thread (synchronous
 * work) must not hold the API: the status poll answers while it holds. On one thread nothing
 * else runs until the task gives up (holding-task.ts), and the test fails.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startDemoStore, type DemoStore } from '../../functions/local/demo-store';
import { startTestStack, type TestStack } from '../support/stack';
import { holdingDir } from '../support/tasks/holding-task';

const TASKS = join(__dirname, '..', 'support', 'tasks');
let stack: TestStack;
let store: DemoStore;
const ORG = 'worker-org';
const dir = holdingDir(ORG);

beforeAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  store = await startDemoStore();
  stack = await startTestStack({ LOG_LEVEL: 'info' }, {
    workflows: {
      retryWithoutDelay: true,
      taskOverrides: { GenerateOnboardingPrompts: join(TASKS, 'holding-task.ts'), FetchFavicon: join(TASKS, 'throwing-task.ts') },
    },
  });
}, 60_000);

afterAll(async () => {
  writeFileSync(join(dir, 'release'), '');
  await stack?.close();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function until(condition: () => boolean, what: string, deadlineMs = 60_000): Promise<void> {
  const end = Date.now() + deadlineMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

test('while a task holds its thread, the API answers the status poll; the run then completes on worker threads', async () => {
  const token = await stack.token(ORG);
  expect((await stack.call('POST', '/api/business', { token, body: { name: 'Demo Outdoor Co.', url: store.origin } })).status).toBe(201);
  const started = await stack.call('POST', '/api/onboarding/generate-all', { token, body: {} });
  expect(started.status).toBe(202);

  await until(() => existsSync(join(dir, 'holding')), 'step 3a to hold its thread');
  // A deadlock detector, not a speed check: on the API's thread this request could not be served.
  const poll = await fetch(`${stack.api.url}/api/onboarding/status`, { headers: { Authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(20_000) });
  expect(poll.status).toBe(200);
  const during = await poll.json() as { steps: Array<{ id: string; status: string }> };
  // Still going: 3a has not finished (it holds before its step wrapper records it running).
  expect(during.steps.find((s) => s.id === '3a')?.status).toBe('pending');

  writeFileSync(join(dir, 'release'), '');
  await stack.workflows.finished(started.body.execution_id);
  expect(existsSync(join(dir, 'gave-up'))).toBe(false);
  const after = (await stack.call('GET', '/api/onboarding/status', { token })).body;
  expect(after.steps.find((s: { id: string }) => s.id === '3a')?.status).toBe('succeeded');
  // A task's error crosses the thread with its name and message: Retry (UpstreamError, 3 more
  // attempts), Catch and the status see them.
  expect(after.steps.find((s: { id: string }) => s.id === '1d')).toMatchObject({ status: 'failed', reason: expect.stringContaining('could not reach the store'), attempts: 4 });
  expect(stack.workflows.taskThreads).toBeGreaterThanOrEqual(1);
  // A worker's log lines reach the process's output (here the test's sink) like any other.
  expect(stack.logs.some((line) => /"msg":"step finished".*"task":"3a"/.test(line))).toBe(true);
}, 120_000);
