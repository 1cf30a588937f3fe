/**
 * A crash mid-onboarding must not leave the organization stuck (D12). Before the lease, a
 * run whose process died stayed `running` in the status and generate-all answered 409 for
 * an hour. Here the real state machine runs with the real tasks; step 3a is made to hang
 * and the worker then "dies":
 *
 * - the process is killed and restarted on the same DATA_DIR: the new local runner knows
 *   that no execution of the previous one can still be running, so the run is abandoned
 *   at once;
 * - the worker stops within a live process (as a Lambda or an execution can on AWS): the
 *   run is abandoned once its lease has expired (the container's clock is moved past it).
 *
 * Either way the status says what happened, and generate-all starts a repair run that keeps
 * what succeeded and duplicates nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateOnboardingPrompts } from '../../functions/app/prompts/generate';
import { ONBOARDING_LEASE_MS } from '../../functions/core/onboarding/lease';
import { startDemoStore, type DemoStore } from '../../functions/local/demo-store';
import { searchPromptSourceOf } from '../../functions/engines/search-prompts';
import { stepTask } from '../../functions/tasks/step-task';
import { startTestStack, type TestStack } from '../support/stack';

const STEPS = ['1a', '1b', '1c', '1d', '1e', '1f', '2a', '3a', '3b'];
type Step = { id: string; status: string; reason: string | null; started_at: string | null; finished_at: string | null; attempts: number; kept_from: string | null; result: Record<string, unknown> | null };

let store: DemoStore;
beforeAll(async () => { store = await startDemoStore({ products: 6 }); });
afterAll(() => store.close());

const statusOf = async (stack: TestStack, token: string) => (await stack.call('GET', '/api/onboarding/status', { token })).body;
const stepOf = (status: { steps: Step[] }, id: string) => status.steps.find((s) => s.id === id)!;

/** Polls until every step but 3a has ended and 3a is running (or, with `hungBefore3a`, still pending). */
async function untilOnly3aLeft(stack: TestStack, token: string, threeA: 'running' | 'pending') {
  for (let i = 0; i < 600; i++) {
    const status = await statusOf(stack, token);
    const others = status.steps.filter((s: Step) => s.id !== '3a');
    if (stepOf(status, '3a').status === threeA && others.every((s: Step) => !['pending', 'running'].includes(s.status))) return status;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('onboarding never reached the hanging step 3a');
}

async function counts(stack: TestStack, org: string, token: string) {
  const [products, prompts, competitors] = await Promise.all([
    stack.call('GET', `/api/products/${org}`, { token }),
    stack.call('GET', `/api/prompts/${org}`, { token }),
    stack.call('GET', '/api/explore/competitors', { token }),
  ]);
  const all = prompts.body.prompts as Array<{ product_id: string | null; prompt: string }>;
  return {
    products: products.body.total,
    businessPrompts: all.filter((p) => p.product_id === null).length,
    productPrompts: all.filter((p) => p.product_id !== null).length,
    distinctPrompts: new Set(all.map((p) => `${p.product_id}|${p.prompt.toLowerCase()}`)).size,
    competitors: competitors.body.count,
  };
}

/** The repair run kept every step that had succeeded, untouched, and redid the rest. */
function expectRepaired(before: { execution_id: string; steps: Step[] }, after: { execution_id: string; status: string; steps: Step[] }, redone: string[]) {
  expect(after.execution_id).not.toBe(before.execution_id);
  expect(after.status).toBe('succeeded');
  for (const id of STEPS) {
    const was = stepOf(before, id);
    const now = stepOf(after, id);
    if (redone.includes(id)) {
      expect({ id, status: now.status, kept_from: now.kept_from, attempts: now.attempts }).toEqual({ id, status: 'succeeded', kept_from: null, attempts: 1 });
    } else if (was.status === 'succeeded') {
      // Not redone: the very same timings and attempts as in the crashed run.
      expect(now).toMatchObject({ id, status: 'succeeded', kept_from: before.execution_id, started_at: was.started_at, finished_at: was.finished_at, attempts: was.attempts });
    }
  }
}

describe('the process is killed while step 3a runs, then restarted on the same DATA_DIR', () => {
  const org = 'crashco';
  let dataDir: string;
  let first: TestStack;
  let firstClosed = false;
  let second: TestStack | undefined;
  let release: () => void = () => undefined;
  let hung: Promise<unknown> = Promise.resolve();
  /** Settles once 3a has written its prompts and hangs. */
  let reached!: () => void;
  const hanging = new Promise<void>((resolve) => { reached = resolve; });

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'aivis-crash-'));
    const hang = new Promise<void>((resolve) => { release = resolve; });
    first = await startTestStack({ LOG_LEVEL: 'error' }, {
      dataDir,
      workflows: {
        retryWithoutDelay: true,
        taskOverrides: {
          // 3a does its real work (the prompts are written), then the process dies before
          // the step can record its success.
          GenerateOnboardingPrompts: (payload) => {
            hung = stepTask('3a', async (container, slug) => {
              await generateOnboardingPrompts(container, slug, { search: searchPromptSourceOf(container) });
              reached();
              await hang;
            })(payload as never).catch(() => undefined);
            return hung;
          },
        },
      },
    });
  }, 60_000);

  afterAll(async () => {
    // Lets the dead process's hung step end (its writes fail against the closed database),
    // so none of its timers outlive the test.
    release();
    await hung;
    if (!firstClosed) {
      first.workflows.abortAll();
      await first.close();
    firstClosed = true;
    }
    await second?.close();
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  test('status says the run was abandoned and why; generate-all repairs it without redoing or duplicating anything', async () => {
    let token = await first.token(org);
    expect((await first.call('POST', '/api/business', { token, body: { name: 'Crash Test Roasters', url: store.origin } })).status).toBe(201);
    const started = await first.call('POST', '/api/onboarding/generate-all', { token, body: {} });
    expect(started.status).toBe(202);
    await hanging;
    const crashed = await untilOnly3aLeft(first, token, 'running');
    expect(crashed.status).toBe('running');
    // While its worker lives, a second run is refused.
    expect((await first.call('POST', '/api/onboarding/generate-all', { token, body: {} })).status).toBe(409);
    const written = await counts(first, org, token);
    expect(written.productPrompts).toBe(6 * 9);

    // kill -9: the executions stop where they are (no Catch, no FinishOnboarding), the process goes.
    first.workflows.abortAll();
    await first.close();
    firstClosed = true;

    second = await startTestStack({ LOG_LEVEL: 'error' }, { dataDir, workflows: { retryWithoutDelay: true } });
    token = await second.token(org);
    const abandoned = await statusOf(second, token);
    expect(abandoned).toMatchObject({
      status: 'abandoned',
      execution_id: started.body.execution_id,
      reason: expect.stringMatching(/the workflow runner stopped \(the local runtime was restarted.*run generate-all to resume/),
      finished_at: expect.any(String),
      heartbeat_at: expect.any(String),
    });
    expect(stepOf(abandoned, '3a')).toMatchObject({ status: 'failed', reason: expect.stringMatching(/^interrupted: the workflow runner stopped/), finished_at: expect.any(String) });
    for (const id of STEPS.filter((s) => s !== '3a')) expect(stepOf(abandoned, id)).toEqual(stepOf(crashed, id));

    const repair = await second.call('POST', '/api/onboarding/generate-all', { token, body: {} });
    expect(repair.status).toBe(202);
    expect(repair.body).toEqual({ status: 'started', execution_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    await second.workflows.finished(repair.body.execution_id);
    const repaired = await statusOf(second, token);
    expect(repaired.reason).toBeNull();
    expectRepaired(crashed, repaired, ['3a']);
    expect(stepOf(repaired, '3a').result).toMatchObject({ products: { count: 6 } });

    const after = await counts(second, org, token);
    expect(after).toEqual({ ...written, businessPrompts: 50, productPrompts: 6 * 9, distinctPrompts: 50 + 6 * 9, products: 6 });
  }, 120_000);
});

describe('the worker stops while the process lives on: the lease expires', () => {
  const org = 'leaseco';
  let stack: TestStack;
  let offsetMs = 0;
  let stuck = true;

  beforeAll(async () => {
    stack = await startTestStack({ LOG_LEVEL: 'error' }, {
      clock: { now: () => new Date(Date.now() + offsetMs) },
      workflows: {
        retryWithoutDelay: true,
        taskOverrides: {
          // The task never gets going (a worker lost before it recorded anything); later runs work.
          GenerateOnboardingPrompts: (payload) => (stuck
            ? new Promise(() => undefined)
            // eslint-disable-next-line @typescript-eslint/no-require-imports
            : require('../../functions/tasks/generate-onboarding-prompts').handler(payload)),
        },
      },
    });
  }, 60_000);
  afterAll(() => stack.close());

  test('running and 409 within the lease; past it abandoned with the last heartbeat, and generate-all repairs it', async () => {
    const token = await stack.token(org);
    expect((await stack.call('POST', '/api/business', { token, body: { name: 'Lease Test Roasters', url: store.origin } })).status).toBe(201);
    const started = await stack.call('POST', '/api/onboarding/generate-all', { token, body: {} });
    expect(started.status).toBe(202);
    const stalled = await untilOnly3aLeft(stack, token, 'pending');
    // The execution is gone (as an execution stopped on AWS): nothing will ever finish the run.
    stack.workflows.abortAll();
    await stack.workflows.finished(started.body.execution_id);
    stuck = false;

    offsetMs = ONBOARDING_LEASE_MS - 60_000;
    expect((await statusOf(stack, token)).status).toBe('running');
    const refused = await stack.call('POST', '/api/onboarding/generate-all', { token, body: {} });
    expect(refused.status).toBe(409);

    offsetMs = ONBOARDING_LEASE_MS + 60_000;
    const abandoned = await statusOf(stack, token);
    expect(abandoned).toMatchObject({ status: 'abandoned', execution_id: started.body.execution_id, reason: expect.stringMatching(/^the worker stopped: no heartbeat since \S+ \(lease 5 min\); run generate-all to resume$/) });
    expect(abandoned.reason).toContain(abandoned.heartbeat_at);
    expect(stepOf(abandoned, '3a')).toMatchObject({ status: 'skipped', reason: expect.stringMatching(/^not started: the worker stopped/) });

    const before = await counts(stack, org, token);
    const repair = await stack.call('POST', '/api/onboarding/generate-all', { token, body: {} });
    expect(repair.status).toBe(202);
    await stack.workflows.finished(repair.body.execution_id);
    expectRepaired(stalled, await statusOf(stack, token), ['3a']);
    const after = await counts(stack, org, token);
    expect(after).toEqual({ ...before, businessPrompts: 50, productPrompts: 6 * 9, distinctPrompts: 50 + 6 * 9 });
  }, 120_000);
});
