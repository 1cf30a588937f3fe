/**
 * The edge-rollout lease (app/edge/rollout-run.ts, issue 15) through the real route `POST
 * /api/domain/update-edge-function`, the real edge-rollout workflow on the local runner (its
 * executions recorded in the embedded database, which `describe` reads) and the lease in the
 * table. One rollout at a time: a lease whose execution is running answers 409 naming it; a
 * lease its execution left behind is taken over by the next POST, which runs its rollout:
 *   - held by an execution that ended without letting go (aborted, or failed with its Catch
 *     failing too, so nothing released it);
 *   - held by an execution recorded as running by a runner that is gone (a previous process);
 *   - held by an execution the engine does not know, once past the 60 s grace (within it, the
 *     holder may be starting: 409).
 * The takeover is the lease naming the new execution (acquired at the container's clock's now);
 * the displaced holder can no longer let go of it, and the new execution releases it at its end.
 *
 * Time: the container's clock is the wall clock plus an offset the tests move (the grace);
 * no assertion is on wall-clock time. Nothing to move: no distribution exists, so a rollout is
 * PlanEdgeRollout → AnyBatch → FinishEdgeRollout (the first one publishes version 1). A rollout
 * is kept running by holding its PlanEdgeRollout task (the real handler behind a gate).
 */
import { createDocumentClient } from '../../functions/adapters/dynamodb/client';
import { createWorkflowExecutionRecords } from '../../functions/adapters/dynamodb/workflow-execution-records';
import { EDGE_ROLLOUT_WORKFLOW } from '../../functions/app/edge/rollout-run';
import { getContainer } from '../../functions/container';
import { EDGE_ROLLOUT_LEASE_SECONDS } from '../../functions/core/constants';
import { edgeVersionsOf } from '../../functions/engines/edge-versions';
import { handler as planEdgeRollout } from '../../functions/tasks/plan-edge-rollout';
import { handler as recordEdgeRolloutFailure } from '../../functions/tasks/record-edge-rollout-failure';
import { DEV_API_KEY, startTestStack, type TestStack } from '../support/stack';
import { UNKNOWN_HOLDER_GRACE_MS } from '../../functions/app/edge/rollout-run';

const GRACE_MS = UNKNOWN_HOLDER_GRACE_MS;
const SUCCESS_STATES = ['PlanEdgeRollout', 'AnyBatch', 'FinishEdgeRollout'];

describe('edge-rollout lease: a stale lease is taken over, a live one answers 409', () => {
  let stack: TestStack;
  /** The container clock's offset from the wall clock (moved past the grace). */
  let offsetMs = 0;
  /** While set, PlanEdgeRollout waits for it (the rollout keeps running). */
  let gate: Promise<void> | null = null;
  let openGate: () => void = () => undefined;
  /** Fault injection: the next plan fails, and so does the Catch that would let go of the lease. */
  let failNextPlanAndCatch = false;
  let failCatch = false;
  /** Executions whose PlanEdgeRollout was invoked, and those whose handler has returned. */
  const planStarted: string[] = [];
  const planReturned: string[] = [];

  const post = (headers: Record<string, string> = {}) => stack.call('POST', '/api/domain/update-edge-function', { apiKey: DEV_API_KEY, headers });
  const read = (executionId: string) => stack.call('GET', `/api/domain/update-edge-function/${executionId}`, { apiKey: DEV_API_KEY });
  const lease = () => edgeVersionsOf(getContainer()).lease();
  const statesOf = (executionId: string) => stack.workflows.history(executionId).filter((e) => e.type === 'StateEntered').map((e) => e.state);
  const now = () => getContainer().clock.now();
  const until = async (what: () => boolean) => {
    for (let i = 0; i < 250 && !what(); i++) await new Promise((r) => setTimeout(r, 20));
    expect(what()).toBe(true);
  };
  const hold = () => { gate = new Promise<void>((resolve) => { openGate = resolve; }); };
  const release = () => { gate = null; openGate(); };

  beforeAll(async () => {
    stack = await startTestStack({ LOG_LEVEL: 'warn', EDGE_ROLLOUT_PAUSE_SECONDS: '0' }, {
      clock: { now: () => new Date(Date.now() + offsetMs) },
      workflows: {
        retryWithoutDelay: true,
        taskOverrides: {
          PlanEdgeRollout: async (payload) => {
            const executionId = String((payload as { execution_id: string }).execution_id);
            planStarted.push(executionId);
            try {
              if (gate) await gate;
              if (failNextPlanAndCatch) {
                failNextPlanAndCatch = false;
                failCatch = true;
                throw new Error('injected: the plan failed');
              }
              return await planEdgeRollout(payload as never);
            } finally {
              planReturned.push(executionId);
            }
          },
          RecordEdgeRolloutFailure: async (payload) => {
            if (failCatch) {
              failCatch = false;
              throw new Error('injected: the failure could not be recorded');
            }
            return recordEdgeRolloutFailure(payload as never);
          },
        },
      },
    });
  }, 60_000);

  afterAll(async () => {
    release();
    await stack?.close();
  });

  test('a first rollout runs and lets go of the lease', async () => {
    const res = await post();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'success', published: true, distributions: { total: 0 }, batches: 0, execution_id: expect.any(String) });
    expect(statesOf(res.body.execution_id)).toEqual(SUCCESS_STATES);
    await expect(lease()).resolves.toBeNull();
  });

  let aborted = '';

  test('a lease whose execution is running: 409 naming it (with its read-back URL); the lease stays its', async () => {
    hold();
    const res = await post({ Prefer: 'respond-async' });
    expect(res.status).toBe(202);
    aborted = res.body.execution_id;
    await until(() => planStarted.includes(aborted));
    const held = await lease();
    expect(held).toMatchObject({ executionId: aborted });
    await expect(getContainer().workflows.describe!(EDGE_ROLLOUT_WORKFLOW, aborted)).resolves.toMatchObject({ status: 'RUNNING' });

    const second = await post();
    expect(second.status).toBe(409);
    expect(second.body).toEqual({
      status: 'error', error: expect.stringContaining('already running'),
      execution_id: aborted, status_url: `/api/domain/update-edge-function/${aborted}`,
    });
    expect(second.headers.get('location')).toBe(second.body.status_url);
    await expect(lease()).resolves.toEqual(held);

    // The grace is for a holder the engine does not know: a running one keeps the lease past it.
    offsetMs += 2 * GRACE_MS;
    const later = await post();
    expect(later.status).toBe(409);
    expect(later.body).toMatchObject({ execution_id: aborted });
    await expect(lease()).resolves.toEqual(held);
    expect(planStarted.filter((id) => id !== aborted && !planReturned.includes(id))).toEqual([]); // no other rollout started
  });

  let takeover = '';

  test('its execution aborted without letting go: the next POST takes the lease over and its rollout runs; the displaced holder cannot let go of it', async () => {
    const held = await lease();
    stack.workflows.abortAll(); // as a killed process would: no Catch, no FinishEdgeRollout
    await stack.workflows.finished(aborted);
    release(); // the aborted execution's task finishes, its result goes nowhere
    await until(() => planReturned.includes(aborted));
    await expect(getContainer().workflows.describe!(EDGE_ROLLOUT_WORKFLOW, aborted)).resolves.toMatchObject({ status: 'ABORTED' });
    await expect(lease()).resolves.toEqual(held); // left behind
    const back = await read(aborted);
    expect(back.status).toBe(500);
    expect(back.body).toMatchObject({ status: 'error', error: expect.stringContaining('ABORTED'), execution_id: aborted });

    // Taken over, by an execution kept running to look at the lease.
    hold();
    const before = now();
    const res = await post({ Prefer: 'respond-async' });
    expect(res.status).toBe(202);
    takeover = res.body.execution_id;
    expect(takeover).not.toBe(aborted);
    await until(() => planStarted.includes(takeover));
    const taken = await lease();
    expect(taken?.executionId).toBe(takeover);
    expect(Date.parse(taken!.acquiredAt)).toBeGreaterThanOrEqual(before.getTime());
    // The takeover names the displaced execution in the logs.
    expect(stack.logs.map((l) => JSON.parse(l)).filter((l) => /lease taken over/.test(l.msg))).toEqual([
      expect.objectContaining({ level: 'warn', from: aborted, execution_id: takeover }),
    ]);
    expect(Date.parse(taken!.expiresAt) - Date.parse(taken!.acquiredAt)).toBe(EDGE_ROLLOUT_LEASE_SECONDS * 1000);

    // The displaced holder letting go (late) does not free the new holder's lease; the new one is live: 409.
    await edgeVersionsOf(getContainer()).releaseLease(aborted);
    await expect(lease()).resolves.toEqual(taken);
    const meanwhile = await post();
    expect(meanwhile.status).toBe(409);
    expect(meanwhile.body).toMatchObject({ execution_id: takeover });

    release();
    await stack.workflows.finished(takeover);
    expect(statesOf(takeover)).toEqual(SUCCESS_STATES);
    const done = await read(takeover);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ status: 'success', published: false, distributions: { total: 0 }, execution_id: takeover });
    await expect(lease()).resolves.toBeNull(); // let go at its end
  });

  test('a lease whose execution failed without letting go (its Catch failed too) is taken over', async () => {
    failNextPlanAndCatch = true;
    const res = await post();
    expect(res.status).toBe(500);
    const failed = res.body.execution_id;
    expect(res.body).toMatchObject({ status: 'error', error: expect.stringContaining('FAILED'), execution_id: failed });
    expect(statesOf(failed)).toEqual(['PlanEdgeRollout', 'RecordEdgeRolloutFailure']);
    expect(failCatch).toBe(false);
    await expect(getContainer().workflows.describe!(EDGE_ROLLOUT_WORKFLOW, failed)).resolves.toMatchObject({ status: 'FAILED' });
    await expect(lease()).resolves.toMatchObject({ executionId: failed });

    const next = await post();
    expect(next.status).toBe(200);
    expect(next.body.execution_id).not.toBe(failed);
    expect(next.body).toMatchObject({ status: 'success', distributions: { total: 0 } });
    expect(statesOf(next.body.execution_id)).toEqual(SUCCESS_STATES);
    await expect(lease()).resolves.toBeNull();
  });

  test('a lease of an execution recorded as running by a runner that is gone (a previous process) is taken over at once', async () => {
    const ghost = 'edge-rollout-of-a-previous-process';
    const db = createDocumentClient({ region: stack.config.region, endpoint: stack.config.dynamodbEndpoint });
    const acquiredAt = now();
    await createWorkflowExecutionRecords(db, stack.config.tableName).put({
      workflow: EDGE_ROLLOUT_WORKFLOW, executionId: ghost, runner: 'a-runner-that-is-gone', status: 'RUNNING', startedAt: acquiredAt.toISOString(), stoppedAt: null,
    });
    expect(await edgeVersionsOf(getContainer()).acquireLease(ghost, acquiredAt, new Date(acquiredAt.getTime() + EDGE_ROLLOUT_LEASE_SECONDS * 1000))).toBe(true);
    await expect(getContainer().workflows.describe!(EDGE_ROLLOUT_WORKFLOW, ghost)).resolves.toMatchObject({ status: 'ABORTED' });

    const res = await post();
    expect(res.status).toBe(200);
    expect(res.body.execution_id).not.toBe(ghost);
    expect(statesOf(res.body.execution_id)).toEqual(SUCCESS_STATES);
    await expect(lease()).resolves.toBeNull();
  });

  test('a lease of an execution the engine does not know: 409 within the grace (it may be starting), taken over past it', async () => {
    const unknown = '00000000-0000-4000-8000-00000000dead';
    const acquiredAt = new Date(now().getTime() - GRACE_MS / 2);
    expect(await edgeVersionsOf(getContainer()).acquireLease(unknown, acquiredAt, new Date(acquiredAt.getTime() + EDGE_ROLLOUT_LEASE_SECONDS * 1000))).toBe(true);
    await expect(getContainer().workflows.describe!(EDGE_ROLLOUT_WORKFLOW, unknown)).resolves.toBeNull();

    const within = await post();
    expect(within.status).toBe(409);
    expect(within.body).toMatchObject({ status: 'error', execution_id: unknown, status_url: `/api/domain/update-edge-function/${unknown}` });
    await expect(lease()).resolves.toMatchObject({ executionId: unknown, acquiredAt: acquiredAt.toISOString() });

    offsetMs += GRACE_MS; // now 1.5 × the grace after the lease was taken
    const past = await post();
    expect(past.status).toBe(200);
    expect(past.body.execution_id).not.toBe(unknown);
    expect(past.body).toMatchObject({ status: 'success' });
    expect(statesOf(past.body.execution_id)).toEqual(SUCCESS_STATES);
    await expect(lease()).resolves.toBeNull();
  });
});
