/**
 * The onboarding repository against the embedded database: starting a run over a running
 * one is one conditional write that succeeds only when that run is abandoned (its lease
 * expired, or its runner instance is gone), and a replaced run can no longer beat.
 */
import { createDocumentClient } from '../../functions/adapters/dynamodb/client';
import { createOnboardingRepository } from '../../functions/adapters/dynamodb/onboarding-repo';
import { ConflictError } from '../../functions/core/errors';
import { leaseCutoff, ONBOARDING_LEASE_MS } from '../../functions/core/onboarding/lease';
import { newRun, type OnboardingRun } from '../../functions/core/onboarding/steps';
import { ensureTable, startEmbeddedDatabase, type EmbeddedDatabase } from '../../functions/local/runtime/database';
import type { OnboardingRepository } from '../../functions/ports';

const TABLE = 'onboarding-repo-test';
let database: EmbeddedDatabase;
let repo: OnboardingRepository;

beforeAll(async () => {
  database = await startEmbeddedDatabase();
  await ensureTable(database.endpoint, TABLE);
  repo = createOnboardingRepository(createDocumentClient({ region: 'us-east-1', endpoint: database.endpoint }), TABLE);
});
afterAll(() => database.close());

const T0 = Date.parse('2026-11-02T10:00:00.000Z');
const iso = (ms: number) => new Date(T0 + ms).toISOString();
const run = (org: string, id: string, ms: number, runner: string | null = null): OnboardingRun =>
  ({ ...newRun(id, org, iso(ms), null), heartbeat_at: iso(ms), runner });
const dead = (ms: number, runner: string | null = null) => ({ heartbeatBefore: leaseCutoff(new Date(T0 + ms)), runnerOtherThan: runner });

describe('start over a running run', () => {
  test('refused while the lease holds, allowed once it expired; heartbeats extend it', async () => {
    await repo.start(run('o1', 'a', 0), null, dead(0));
    await expect(repo.start(run('o1', 'b', 60_000), 'a', dead(60_000))).rejects.toBeInstanceOf(ConflictError);
    expect(await repo.heartbeat('o1', 'a', iso(4 * 60_000))).toBe(true);
    // Past the lease of the start, but not of the last heartbeat.
    await expect(repo.start(run('o1', 'b', ONBOARDING_LEASE_MS + 1000), 'a', dead(ONBOARDING_LEASE_MS + 1000))).rejects.toBeInstanceOf(ConflictError);
    expect((await repo.latest('o1'))).toMatchObject({ execution_id: 'a', status: 'running', heartbeat_at: iso(4 * 60_000) });
    const later = 4 * 60_000 + ONBOARDING_LEASE_MS + 1;
    await repo.start(run('o1', 'b', later), 'a', dead(later));
    expect(await repo.latest('o1')).toMatchObject({ execution_id: 'b', status: 'running', heartbeat_at: iso(later) });
    // The replaced run's worker, if it were still alive, is told it lost the run.
    expect(await repo.heartbeat('o1', 'a', iso(later + 1))).toBe(false);
    expect((await repo.latest('o1'))!.heartbeat_at).toBe(iso(later));
  });

  test('two starts over the same abandoned run: exactly one wins', async () => {
    await repo.start(run('o2', 'a', 0), null, dead(0));
    const t = ONBOARDING_LEASE_MS + 1;
    const results = await Promise.allSettled([repo.start(run('o2', 'b', t), 'a', dead(t)), repo.start(run('o2', 'c', t), 'a', dead(t))]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
  });

  test('a local runner replaces at once a run of another runner instance, never one of its own', async () => {
    await repo.start(run('o3', 'a', 0, 'boot-1'), null, dead(0, 'boot-1'));
    await expect(repo.start(run('o3', 'b', 1000, 'boot-1'), 'a', dead(1000, 'boot-1'))).rejects.toBeInstanceOf(ConflictError);
    await repo.start(run('o3', 'b', 1000, 'boot-2'), 'a', dead(1000, 'boot-2'));
    expect(await repo.latest('o3')).toMatchObject({ execution_id: 'b', runner: 'boot-2' });
  });

  test('a run without a runner id (Step Functions) is replaced by the lease only', async () => {
    await repo.start(run('o4', 'a', 0, null), null, dead(0));
    await expect(repo.start(run('o4', 'b', 1000, 'boot-1'), 'a', dead(1000, 'boot-1'))).rejects.toBeInstanceOf(ConflictError);
  });

  test('a finished run is replaced at once, and no longer beats', async () => {
    await repo.start(run('o5', 'a', 0), null, dead(0));
    await repo.finish('o5', 'a', 'partial', iso(1000));
    expect(await repo.heartbeat('o5', 'a', iso(2000))).toBe(false);
    await repo.start(run('o5', 'b', 3000), 'a', dead(3000));
    expect((await repo.latest('o5'))!.execution_id).toBe('b');
  });
});
