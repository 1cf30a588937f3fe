/**
 * Issue 15 end to end on the local runtime: `POST /api/domain/update-edge-function` (KEY)
 * through the real route, the real edge-rollout workflow (local runner, the very ASL file) and
 * its real tasks, the local CDN stand-in with fault injection, and the read-back route.
 *
 * The edge function's "code" is a copy of edge-function/ (EDGE_FUNCTION_SOURCE_DIR), so the
 * test can change it; the pause between batches is 0 s (EDGE_ROLLOUT_PAUSE_SECONDS) and the
 * Wait states are seen in the execution's history instead of on a clock.
 *
 * The story: the first call publishes version 1 (nothing to move yet); 25 businesses are
 * onboarded (step 1f) and get version 1; a call with unchanged code publishes nothing and
 * moves nothing; the code changes and a call moves the 25 to version 2 in 3 batches with a
 * pause between each, 3 of them failing (fault injection) and keeping version 1; the next
 * call, code unchanged, publishes nothing and retries exactly those 3.
 */
import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCdnDistribution } from '../../functions/app/domain/cdn';
import { rolloutBatchKey, rolloutPlanKey, type RolloutPlan, type RolloutState } from '../../functions/app/edge/rollout';
import { getContainer } from '../../functions/container';
import type { BatchOutcome } from '../../functions/core/edge/rollout';
import { ProviderNotConfiguredError } from '../../functions/core/errors';
import { cdnOf } from '../../functions/engines/cdn';
import { edgeVersionsOf } from '../../functions/engines/edge-versions';
import { LOCAL_EDGE_SOURCE_DIR } from '../../functions/adapters/local/local-edge-publisher';
import { handler as moveEdgeBatch } from '../../functions/tasks/move-edge-batch';
import { handler as planEdgeRollout } from '../../functions/tasks/plan-edge-rollout';
import { DEV_API_KEY, startTestStack, taskDeliveries, type TestStack } from '../support/stack';

const V1 = 'local:edge-function:1';
const V2 = 'local:edge-function:2';
const ORGS = Array.from({ length: 25 }, (_, i) => `edge-${String(i + 1).padStart(2, '0')}`);
/** One failing distribution in each batch (the plan lists distributions by organization slug). */
const FAILING_ORGS = ['edge-04', 'edge-13', 'edge-22'];

describe('edge-function rollout over 25 distributions, end to end', () => {
  let stack: TestStack;
  let store: Server;
  let sourceDir: string;
  const plans: RolloutState[] = [];
  const batchesMoved: Array<{ execution_id: string; batch: number }> = [];
  /** Fault injection at the task level: the next plan fails as an unconfigured CDN would. */
  let failNextPlan = false;
  /** Holds batches while set (a rollout kept running). */
  let gate: Promise<void> | null = null;

  const post = (headers: Record<string, string> = {}) => stack.call('POST', '/api/domain/update-edge-function', { apiKey: DEV_API_KEY, headers });
  const read = (executionId: string) => stack.call('GET', `/api/domain/update-edge-function/${executionId}`, { apiKey: DEV_API_KEY });
  /** The states entered, in order, by name (the execution's history). */
  const statesOf = (executionId: string) => stack.workflows.history(executionId).filter((e) => e.type === 'StateEntered').map((e) => e.state);
  const distributionOf = async (org: string) => String((await getContainer().aiSites.get(org))?.cdnDistributionId);
  const recordedVersion = async (org: string) => (await getContainer().aiSites.get(org))?.cdnEdgeFunctionVersionArn;

  beforeAll(async () => {
    sourceDir = mkdtempSync(join(tmpdir(), 'edge-code-'));
    for (const name of readdirSync(LOCAL_EDGE_SOURCE_DIR)) copyFileSync(join(LOCAL_EDGE_SOURCE_DIR, name), join(sourceDir, name));
    store = createServer((_req, res) => { res.writeHead(200, { 'Content-Type': 'text/html' }); res.end('store'); });
    await new Promise<void>((resolve) => store.listen(0, '127.0.0.1', resolve));
    stack = await startTestStack({ LOG_LEVEL: 'warn', EDGE_FUNCTION_SOURCE_DIR: sourceDir, EDGE_ROLLOUT_PAUSE_SECONDS: '0' }, {
      workflows: {
        retryWithoutDelay: true,
        taskOverrides: {
          // The real task handlers, observed (and, for two tests, held or failed).
          PlanEdgeRollout: async (payload) => {
            if (failNextPlan) {
              failNextPlan = false;
              throw new ProviderNotConfiguredError('the CDN proxy is not configured (injected)');
            }
            const state = await planEdgeRollout(payload as never);
            plans.push(state);
            return state;
          },
          MoveEdgeBatch: async (payload) => {
            batchesMoved.push(payload as never);
            if (gate) await gate;
            return moveEdgeBatch(payload as never);
          },
        },
      },
    });
  }, 60_000);

  afterAll(async () => {
    await stack?.close();
    if (store) await new Promise<void>((resolve) => { store.closeAllConnections(); store.close(() => resolve()); });
    rmSync(sourceDir, { recursive: true, force: true });
  });

  test('KEY only: no key 401, a wrong key 403 (D6)', async () => {
    expect((await stack.call('POST', '/api/domain/update-edge-function')).status).toBe(401);
    expect((await stack.call('POST', '/api/domain/update-edge-function', { apiKey: 'wrong' })).status).toBe(403);
    expect((await stack.call('GET', '/api/domain/update-edge-function/abc', { apiKey: 'wrong' })).status).toBe(403);
  });

  test('the first call publishes version 1; with no distribution yet nothing moves (no batch, no pause)', async () => {
    const res = await post();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'success', edge_function_arn: V1, published: true,
      distributions: { total: 0, successful: 0, failed: 0, failed_details: null }, batches: 0,
      execution_id: expect.any(String),
    });
    expect(statesOf(res.body.execution_id)).toEqual(['PlanEdgeRollout', 'AnyBatch', 'FinishEdgeRollout']);
    await expect(edgeVersionsOf(getContainer()).current()).resolves.toMatchObject({ versionArn: V1, version: '1', publishedBy: res.body.execution_id, codeSha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });

  test('onboarding step 1f attaches the current version to each new distribution and records it', async () => {
    const storeOrigin = `http://127.0.0.1:${(store.address() as AddressInfo).port}`;
    for (const org of ORGS) {
      const created = await stack.call('POST', '/api/business', { token: await stack.token(org), body: { name: `Shop ${org}`, url: storeOrigin } });
      expect(created.status).toBe(201);
      await expect(createCdnDistribution(getContainer(), org)).resolves.toMatchObject({ created: true, edgeFunctionVersionArn: V1 });
    }
    for (const org of ORGS) expect(await recordedVersion(org)).toBe(V1);
    const gateway = cdnOf(getContainer()).gateway;
    await expect(gateway.getDistribution(await distributionOf('edge-01'))).resolves.toMatchObject({ edgeFunctionVersionArn: V1 });
  });

  test('a call with unchanged code publishes nothing new and, everything being on it, moves nothing', async () => {
    const res = await post();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'success', edge_function_arn: V1, published: false, distributions: { total: 0, successful: 0, failed: 0, failed_details: null } });
    await expect(edgeVersionsOf(getContainer()).current()).resolves.toMatchObject({ versionArn: V1 });
  });

  let firstMove = '';
  test('changed code: version 2, 25 distributions in 3 batches (10, 10, 5) with a pause between batches; the 3 failures keep version 1 and are listed', async () => {
    writeFileSync(join(sourceDir, 'route.ts'), '\n// a change to the router\n', { flag: 'a' });
    const local = cdnOf(getContainer()).local!;
    const failingIds = await Promise.all(FAILING_ORGS.map(distributionOf));
    for (const id of failingIds) local.edgeUpdateFaults.add(id);

    const res = await post();
    expect(res.status).toBe(200);
    firstMove = res.body.execution_id;
    expect(res.body).toEqual({
      status: 'success', // a partial failure is not an error (spec: Errors)
      edge_function_arn: V2,
      published: true,
      distributions: {
        total: 25, successful: 22, failed: 3,
        failed_details: failingIds.map((id) => ({ distribution_id: id, status: 'error', error: expect.stringContaining(`refused the update of distribution ${id}`) })),
      },
      batches: 3,
      execution_id: firstMove,
    });

    // Three batches, a pause between each two (none before the first, none after the last).
    expect(statesOf(firstMove)).toEqual([
      'PlanEdgeRollout', 'AnyBatch',
      'MoveEdgeBatch', 'CountBatch', 'MoreBatches', 'PauseBetweenBatches',
      'MoveEdgeBatch', 'CountBatch', 'MoreBatches', 'PauseBetweenBatches',
      'MoveEdgeBatch', 'CountBatch', 'MoreBatches',
      'FinishEdgeRollout',
    ]);
    // Each batch delivered once (twice under TEST_TASK_DELIVERY=twice: the repeat moves nothing again).
    expect(batchesMoved.filter((b) => b.execution_id === firstMove).map((b) => b.batch)).toEqual([0, 1, 2].flatMap((b) => Array(taskDeliveries).fill(b)));
    // The pause is the setting (EDGE_ROLLOUT_PAUSE_SECONDS; 1 s by default).
    expect(plans.at(-1)).toMatchObject({ execution_id: firstMove, batch_count: 3, pause_seconds: 0, total: 25 });
    const container = getContainer();
    const batches = await Promise.all([0, 1, 2].map((i) => container.artifacts.get<BatchOutcome>(rolloutBatchKey(firstMove, i))));
    expect(batches.map((b) => [b!.moved.length, b!.failed.length])).toEqual([[9, 1], [9, 1], [4, 1]]);

    for (const org of ORGS) expect({ org, version: await recordedVersion(org) }).toEqual({ org, version: FAILING_ORGS.includes(org) ? V1 : V2 });
    for (const [i, org] of FAILING_ORGS.entries()) {
      await expect(local.getDistribution(failingIds[i])).resolves.toMatchObject({ edgeFunctionVersionArn: V1 });
      expect(await distributionOf(org)).toBe(failingIds[i]);
    }
    await expect(local.getDistribution(await distributionOf('edge-01'))).resolves.toMatchObject({ edgeFunctionVersionArn: V2 });
  });

  test('the read-back gives the same response; an unknown execution is 404', async () => {
    const back = await read(firstMove);
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ status: 'success', edge_function_arn: V2, distributions: { total: 25, successful: 22, failed: 3 }, execution_id: firstMove });
    expect((await read('00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await read('not an id')).status).toBe(400);
  });

  test('a late repeated delivery of the plan or a batch (at least once, D196) follows what was stored and moves nothing', async () => {
    const failingIds = await Promise.all(FAILING_ORGS.map(distributionOf));
    const local = cdnOf(getContainer()).local!;
    local.edgeUpdateFaults.clear();
    try {
      // The plan as first stored: version 2, published by this execution, 25 distributions,
      // although 22 of them have moved since (a fresh plan would list 3 and say not published).
      await expect(planEdgeRollout({ execution_id: firstMove } as never)).resolves.toMatchObject({ edge_function_arn: V2, published: true, total: 25, batch_count: 3 });
      // Batch 0 again, with its failed distribution now accepting updates: its recorded outcome
      // stands and that distribution is not touched (a repeat that redid the work would move it).
      await expect(moveEdgeBatch({ execution_id: firstMove, batch: 0 } as never)).resolves.toEqual({ batch: 0, moved: 9, failed: 1 });
      await expect(local.getDistribution(failingIds[0])).resolves.toMatchObject({ edgeFunctionVersionArn: V1 });
    } finally {
      for (const id of failingIds) local.edgeUpdateFaults.add(id);
    }
  });

  test('calling again (code unchanged, failures cleared) publishes nothing and retries only the 3 failed distributions', async () => {
    const failingIds = await Promise.all(FAILING_ORGS.map(distributionOf));
    cdnOf(getContainer()).local!.edgeUpdateFaults.clear();

    const res = await post();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'success', edge_function_arn: V2, published: false,
      distributions: { total: 3, successful: 3, failed: 0, failed_details: null }, batches: 1,
    });
    const plan = await getContainer().artifacts.get<RolloutPlan>(rolloutPlanKey(res.body.execution_id));
    expect(plan!.items).toEqual(FAILING_ORGS.map((org, i) => ({ org_slug: org, distribution_id: failingIds[i], from: V1 })));
    expect(statesOf(res.body.execution_id).filter((s) => s === 'MoveEdgeBatch' || s === 'PauseBetweenBatches')).toEqual(['MoveEdgeBatch']);
    for (const org of ORGS) expect(await recordedVersion(org)).toBe(V2);
    await expect(edgeVersionsOf(getContainer()).current()).resolves.toMatchObject({ versionArn: V2, version: '2' });

    const again = await post();
    expect(again.body).toMatchObject({ edge_function_arn: V2, published: false, distributions: { total: 0, successful: 0, failed: 0 }, batches: 0 });
  });

  test('a rollout that outlasts the wait: 202 with the read-back URL; a second call meanwhile is 409 naming it; the read-back answers once done', async () => {
    writeFileSync(join(sourceDir, 'index.ts'), '\n// another change\n', { flag: 'a' });
    let open!: () => void;
    gate = new Promise<void>((resolve) => { open = resolve; });
    const res = await post({ Prefer: 'respond-async' });
    expect(res.status).toBe(202);
    const id = res.body.execution_id;
    expect(res.body).toEqual({ status: 'running', execution_id: id, status_url: `/api/domain/update-edge-function/${id}` });
    expect(res.headers.get('location')).toBe(res.body.status_url);

    for (let i = 0; i < 100 && !batchesMoved.some((b) => b.execution_id === id); i++) await new Promise((r) => setTimeout(r, 20));
    const second = await post();
    expect(second.status).toBe(409);
    expect(second.body).toEqual({ status: 'error', error: expect.stringContaining('already running'), execution_id: id, status_url: res.body.status_url });
    expect((await read(id)).status).toBe(202);

    gate = null;
    open();
    await stack.workflows.finished(id);
    const back = await read(id);
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ edge_function_arn: 'local:edge-function:3', published: true, distributions: { total: 25, successful: 25, failed: 0 }, batches: 3 });
    await expect(edgeVersionsOf(getContainer()).lease()).resolves.toBeNull();
  });

  test('a step that fails stores an error response (503 for an unconfigured CDN) and lets go of the lease', async () => {
    failNextPlan = true;
    const res = await post();
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ status: 'error', error: expect.stringContaining('not configured'), execution_id: expect.any(String) });
    expect(statesOf(res.body.execution_id)).toEqual(['PlanEdgeRollout', 'RecordEdgeRolloutFailure', 'RolloutFailed']);
    await expect(edgeVersionsOf(getContainer()).lease()).resolves.toBeNull();
    const next = await post();
    expect(next.status).toBe(200);
  });
});
