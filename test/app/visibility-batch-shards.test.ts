/**
 * Shard-sized vendor batches (D222): the batch platforms' checks of a shard of the day's list go
 * to each vendor as one job when the shard's last business arrives, whichever Map child ran it;
 * a repeated arrival sends nothing twice; a shard a failed child left incomplete is sent by the
 * listing after the fan-out, with the businesses that arrived.
 */
import { batchResultSliceKey, collectVisibilityBatches, customIdOf, jobIdOf, listPendingVisibilityBatches, submitVisibilityBatches, type PendingBatchItem } from '../../functions/app/visibility/batches';
import { getContainer } from '../../functions/container';
import type { PlatformKey } from '../../functions/core/constants';
import type { VisibilityCheck } from '../../functions/core/visibility/checks';
import { dailyBusinessItems } from '../../functions/core/workflows';
import { visibilityEnginesOf } from '../../functions/engines/visibility';
import { visibilityBatchesOf } from '../../functions/engines/visibility-batches';
import { workflowObjectsOf } from '../../functions/engines/workflow-objects';
import { startPlatformFakes, type PlatformFakes } from '../../functions/local/fakes/platforms';
import { startTestStack, type TestStack } from '../support/stack';

const RUN_DATE = '2026-11-27';
const EXECUTION = 'exec-shards';
const BATCHED: PlatformKey[] = ['platform_1', 'platform_2', 'platform_3'];
const PROMPTS = 2;

let stack: TestStack;
let fakes: PlatformFakes;

beforeAll(async () => {
  fakes = await startPlatformFakes();
  for (const k of BATCHED) fakes.servers[k].holdBatches(true);
  stack = await startTestStack({ LOG_LEVEL: 'error', ...fakes.env, ...fakes.searchEnv, LLM_BASE_URL: '', JUDGE_BASE_URL: '' });
}, 60_000);
afterAll(async () => {
  await stack?.close();
  await fakes?.stop();
});

async function queue(org: string) {
  const container = getContainer();
  for (const platform of BATCHED) {
    for (let p = 0; p < PROMPTS; p++) {
      const check: VisibilityCheck = {
        org_slug: org, run_date: RUN_DATE, prompt_id: `p${p}`, prompt: `best coffee ${org} ${p}`, entity_id: 'e1', product_id: null, platform,
        result: null, status: 'queued', reason: `queued for ${platform}'s vendor batch`, answer: null, verdict: null, matcher_agrees: null, judge_error: null,
        checked_at: new Date().toISOString(),
      };
      await container.visibilityChecks.putCheck(check);
    }
  }
}

async function createBusiness(org: string) {
  const at = new Date().toISOString();
  await getContainer().businesses.create({ id: `b-${org}`, orgSlug: org, name: `Shop ${org}`, url: `https://${org}.example`, domain: `${org}.example`, faviconUrl: null, createdAt: at, updatedAt: at });
}

/** Businesses with their checks queued, as 2b leaves them. */
async function seed(orgs: string[]) {
  for (const org of orgs) {
    await createBusiness(org);
    await queue(org);
  }
}

const statuses = async (org: string) => (await getContainer().visibilityChecks.listChecks(org, RUN_DATE)).map((c) => c.status);
const openJobs = async () => visibilityBatchesOf(getContainer()).jobs.listOpen(RUN_DATE, new Date(Date.now() - 3600_000).toISOString());
const submit = (items: ReturnType<typeof dailyBusinessItems>, execution = EXECUTION) => {
  const container = getContainer();
  return submitVisibilityBatches(container, visibilityBatchesOf(container), visibilityEnginesOf(container), { run_date: RUN_DATE, execution_id: execution, items });
};

test('a shard run by two children goes to each vendor as one job, sent by the child that completes it; a repeat sends nothing', async () => {
  const items = dailyBusinessItems(['shard-a', 'shard-b', 'shard-c'], 3);
  expect(items.map((i) => [i.shard, i.shard_size])).toEqual([[0, 3], [0, 3], [0, 3]]);
  for (const item of items) await queue(item.org_slug);

  // The first child (a, b): the shard waits for c.
  expect(await submit(items.slice(0, 2))).toEqual({ jobs: [], shards_sent: [] });
  expect(await statuses('shard-a')).toEqual(Array(BATCHED.length * PROMPTS).fill('queued'));
  expect(await openJobs()).toHaveLength(0);

  // The second child (c) completes it: one job per platform with the checks of all three.
  const sent = await submit(items.slice(2));
  expect(sent.shards_sent).toEqual([0]);
  expect(sent.jobs.map((j) => [j.platform, j.checks, j.status]).sort()).toEqual(BATCHED.map((p) => [p, 3 * PROMPTS, 'in_progress']));
  const jobs = await openJobs();
  expect(jobs).toHaveLength(BATCHED.length);
  for (const job of jobs) expect(job.org_slugs).toEqual(['shard-a', 'shard-b', 'shard-c']);
  for (const org of ['shard-a', 'shard-b', 'shard-c']) expect(await statuses(org)).toEqual(Array(BATCHED.length * PROMPTS).fill('submitted'));

  // At-least-once delivery: either child again sends nothing more.
  expect(await submit(items.slice(0, 2))).toEqual({ jobs: [], shards_sent: [] });
  expect(await submit(items.slice(2))).toEqual({ jobs: [], shards_sent: [] });
  expect(await openJobs()).toHaveLength(BATCHED.length);
});

test('a shard whose other child failed is sent after the fan-out with the businesses that arrived, once', async () => {
  const container = getContainer();
  const items = dailyBusinessItems(['x0', 'x1', 'x2', 'lonely', 'lost'], 3); // shard 1 = lonely, lost
  await queue('lonely');
  await queue('lost');
  expect(await submit([items[3]])).toEqual({ jobs: [], shards_sent: [] });
  const before = (await openJobs()).length;

  const list = () => listPendingVisibilityBatches(container, visibilityBatchesOf(container), visibilityEnginesOf(container), workflowObjectsOf(container), { run_date: RUN_DATE, execution_id: EXECUTION });
  const listed = await list();
  expect(listed.incomplete_shards_sent).toBe(1);
  expect(listed.open_jobs).toBe(before + BATCHED.length);
  expect(await statuses('lonely')).toEqual(Array(BATCHED.length * PROMPTS).fill('submitted'));
  // The business whose child never arrived keeps its checks queued (FinishDailyRun closes its run).
  expect(await statuses('lost')).toEqual(Array(BATCHED.length * PROMPTS).fill('queued'));
  expect((await list()).incomplete_shards_sent).toBe(0);
  expect((await openJobs()).length).toBe(before + BATCHED.length);
});

test("an ended job's answers are downloaded once, by its first collector, and stored per business; the other collectors read only their share", async () => {
  const container = getContainer();
  const execution = 'exec-slices';
  const orgs = ['slice-a', 'slice-b', 'slice-c'];
  await seed(orgs);
  const sent = await submit(dailyBusinessItems(orgs, 3), execution);
  expect(sent.shards_sent).toEqual([0]);
  for (const k of BATCHED) fakes.servers[k].holdBatches(false);
  const collect = (orgSlugs: string[]) => collectVisibilityBatches(
    container, visibilityBatchesOf(container), visibilityEnginesOf(container), workflowObjectsOf(container), { run_date: RUN_DATE, execution_id: execution, org_slugs: orgSlugs },
  );
  const vendorRequests = () => BATCHED.map((k) => fakes.servers[k].requestCount());
  try {
    const before = vendorRequests();
    const first = await collect(['slice-a']);
    expect(first.collected).toBe(BATCHED.length * PROMPTS);
    expect(vendorRequests().every((n, i) => n > before[i]!)).toBe(true); // each vendor asked: progress and results

    const jobs = await Promise.all(sent.jobs.map((j) => visibilityBatchesOf(container).jobs.get(RUN_DATE, j.platform, j.job_id)));
    for (const job of jobs) {
      expect(job!.status).toBe('ended');
      expect(job!.results_stored_at).toEqual(expect.any(String));
      for (const org of orgs) {
        const slice = await workflowObjectsOf(container).getJson<Record<string, unknown>>(batchResultSliceKey(job!, org));
        expect(Object.keys(slice!).sort()).toEqual(job!.members.filter((m) => m.org_slug === org).map((m) => m.custom_id).sort());
      }
    }

    const quiet = vendorRequests();
    const second = await collect(['slice-b', 'slice-c']);
    expect(second.collected).toBe(2 * BATCHED.length * PROMPTS);
    expect(vendorRequests()).toEqual(quiet); // read from the stored shares: no vendor request at all
    for (const org of orgs) {
      const checks = await container.visibilityChecks.listChecks(org, RUN_DATE);
      expect(checks.filter((c) => c.status === 'submitted')).toEqual([]);
      // each business got its own answers: the fakes answer with the prompt, which names the business
      const answered = checks.filter((x) => x.answer);
      expect(answered).toHaveLength(BATCHED.length * PROMPTS);
      for (const c of answered) expect(c.answer!.text).toContain(org);
    }
  } finally {
    for (const k of BATCHED) fakes.servers[k].holdBatches(true);
  }
});

test('a job whose checks were all asked again on demand still ends, so the polling loop stops (its answers are never downloaded)', async () => {
  const container = getContainer();
  const execution = 'exec-orphan';
  const org = 'orphan-shop';
  await queue(org);
  const sent = await submit(dailyBusinessItems([org], 1), execution);
  expect(sent.jobs).toHaveLength(BATCHED.length);
  // An on-demand analysis asks the day's checks synchronously and writes them over the batch ones (analyze.ts runChecks).
  for (const c of await container.visibilityChecks.listChecks(org, RUN_DATE)) {
    const { batch: _batch, ...rest } = c;
    await container.visibilityChecks.putCheck({ ...rest, status: 'no_answer', reason: `${c.platform}: asked on demand`, checked_at: new Date().toISOString() });
  }
  const list = () => listPendingVisibilityBatches(container, visibilityBatchesOf(container), visibilityEnginesOf(container), workflowObjectsOf(container), { run_date: RUN_DATE, execution_id: execution });
  const listed = await list();
  const items = (await workflowObjectsOf(container).getJson<PendingBatchItem[]>(listed.key))!;
  const mine = items.find((i) => i.org_slug === org)!;
  expect(mine.jobs.sort()).toEqual(sent.jobs.map((j) => `${j.platform}#${j.job_id}`).sort());

  for (const k of BATCHED) fakes.servers[k].holdBatches(false);
  try {
    const collected = await collectVisibilityBatches(container, visibilityBatchesOf(container), visibilityEnginesOf(container), workflowObjectsOf(container), {
      run_date: RUN_DATE, execution_id: execution, org_slugs: [org], jobs_by_org: { [org]: mine.jobs },
    });
    expect(collected).toMatchObject({ collected: 0, jobs_without_checks: BATCHED.length });
  } finally {
    for (const k of BATCHED) fakes.servers[k].holdBatches(true);
  }
  const after = await workflowObjectsOf(container).getJson<PendingBatchItem[]>((await list()).key);
  expect(after!.some((i) => i.org_slug === org)).toBe(false);
  for (const j of sent.jobs) {
    const job = await visibilityBatchesOf(container).jobs.get(RUN_DATE, j.platform, j.job_id);
    expect(job!.status).toBe('ended');
    expect(job!.results_stored_at ?? null).toBeNull();
  }
  // the on-demand answers stand
  expect(await statuses(org)).toEqual(Array(BATCHED.length * PROMPTS).fill('no_answer'));
});

test('a business whose collector saw the job still running is listed again after another collector ends it, and is collected (D227)', async () => {
  const container = getContainer();
  const execution = 'exec-race';
  const orgs = ['race-a', 'race-b'];
  await seed(orgs);
  const sent = await submit(dailyBusinessItems(orgs, 2), execution);
  expect(sent.shards_sent).toEqual([0]);
  const objects = workflowObjectsOf(container);
  const listItems = async () => {
    const listed = await listPendingVisibilityBatches(container, visibilityBatchesOf(container), visibilityEnginesOf(container), objects, { run_date: RUN_DATE, execution_id: execution });
    return new Map((await objects.getJson<PendingBatchItem[]>(listed.key))!.filter((i) => orgs.includes(i.org_slug)).map((i) => [i.org_slug, i.jobs]));
  };
  const collect = (org: string, jobs: string[]) => collectVisibilityBatches(container, visibilityBatchesOf(container), visibilityEnginesOf(container), objects, {
    run_date: RUN_DATE, execution_id: execution, org_slugs: [org], jobs_by_org: { [org]: jobs },
  });
  const first = await listItems();
  expect([...first.keys()]).toEqual(orgs);

  // race-a's collector asks while the vendor still runs the jobs ...
  expect((await collect('race-a', first.get('race-a')!)).waiting).toBe(BATCHED.length * PROMPTS);
  for (const k of BATCHED) fakes.servers[k].holdBatches(false);
  try {
    // ... then race-b's collector finds them ended and settles its own checks.
    expect((await collect('race-b', first.get('race-b')!)).collected).toBe(BATCHED.length * PROMPTS);
    const second = await listItems();
    expect([...second.keys()]).toEqual(['race-a']);
    expect(second.get('race-a')!.sort()).toEqual(first.get('race-a')!.sort());
    expect((await collect('race-a', second.get('race-a')!)).collected).toBe(BATCHED.length * PROMPTS);
  } finally {
    for (const k of BATCHED) fakes.servers[k].holdBatches(true);
  }
  expect((await listItems()).size).toBe(0);
  for (const org of orgs) expect((await statuses(org)).filter((s) => s === 'submitted')).toEqual([]);
  for (const j of sent.jobs) {
    expect((await visibilityBatchesOf(container).jobs.get(RUN_DATE, j.platform, j.job_id))!.collected_orgs).toEqual(orgs);
  }
});

test('collectors that find a job ended in the same round download its results once: one claims and stores, the others wait and read their shares (D224)', async () => {
  const container = getContainer();
  const execution = 'exec-claim';
  const orgs = ['claim-a', 'claim-b', 'claim-c'];
  await seed(orgs);
  const sent = await submit(dailyBusinessItems(orgs, 3), execution);
  expect(sent.shards_sent).toEqual([0]);
  const downloads = () => [
    fakes.servers.platform_1.requests.filter((r) => r.method === 'GET' && /^\/v1\/files\/[^/]+\/content$/.test(r.path)).length,
    fakes.servers.platform_2.requests.filter((r) => r.method === 'GET' && /^\/v1\/messages\/batches\/[^/]+\/results$/.test(r.path)).length,
  ];
  for (const k of BATCHED) fakes.servers[k].holdBatches(false);
  try {
    const before = downloads();
    // three collecting children at once, one business each
    const results = await Promise.all(orgs.map((org) => collectVisibilityBatches(
      container, visibilityBatchesOf(container), visibilityEnginesOf(container), workflowObjectsOf(container), { run_date: RUN_DATE, execution_id: execution, org_slugs: [org] },
    )));
    expect(results.map((r) => r.collected)).toEqual(orgs.map(() => BATCHED.length * PROMPTS));
    expect(downloads().map((n, i) => n - before[i]!)).toEqual([1, 1]);
  } finally {
    for (const k of BATCHED) fakes.servers[k].holdBatches(true);
  }
  for (const org of orgs) {
    const answered = (await container.visibilityChecks.listChecks(org, RUN_DATE)).filter((c) => c.answer);
    expect(answered).toHaveLength(BATCHED.length * PROMPTS);
    for (const c of answered) expect(c.answer!.text).toContain(org);
  }
});

test('a shard\'s submit delivered twice at once sends each vendor one batch: one copy claims and sends, the other waits for its outcome (D230)', async () => {
  const execution = 'exec-twice';
  const orgs = ['twice-a', 'twice-b'];
  await seed(orgs);
  const items = dailyBusinessItems(orgs, 2);
  expect(await submit(items.slice(0, 1), execution)).toEqual({ jobs: [], shards_sent: [] });
  const creates = () => [
    fakes.servers.platform_1.requests.filter((r) => r.method === 'POST' && r.path === '/v1/batches').length,
    fakes.servers.platform_2.requests.filter((r) => r.method === 'POST' && r.path === '/v1/messages/batches').length,
    fakes.servers.platform_3.requests.filter((r) => r.method === 'POST' && r.path.endsWith(':batchGenerateContent')).length,
  ];
  const before = creates();
  // The completing child's task delivered twice at once; the first vendor answer is slow (a 503, retried), so both copies meet at the send.
  fakes.servers.platform_1.failNext(503, 1);
  const [first, second] = await Promise.all([submit(items.slice(1), execution), submit(items.slice(1), execution)]);
  expect(creates().map((n, i) => n - before[i]!)).toEqual([1, 1, 1]);
  for (const result of [first, second]) {
    expect(result.shards_sent).toEqual([0]);
    expect(result.jobs.map((j) => [j.platform, j.status]).sort()).toEqual(BATCHED.map((p) => [p, 'in_progress']));
  }
  const jobs = (await openJobs()).filter((j) => j.execution_id === execution);
  expect(jobs).toHaveLength(BATCHED.length);
  for (const org of orgs) {
    const checks = await getContainer().visibilityChecks.listChecks(org, RUN_DATE);
    expect(checks.map((c) => c.status)).toEqual(Array(BATCHED.length * PROMPTS).fill('submitted'));
    // every check names the one vendor batch its job went to
    for (const c of checks) expect(c.reason).toBe(`in ${c.platform}'s vendor batch ${(await visibilityBatchesOf(getContainer()).jobs.get(RUN_DATE, c.platform, c.batch!.job_id))!.vendor_batch_id}`);
  }
});

test('a send claim left by a crash expires and the next attempt sends the job; while a claim holds, another copy sends nothing and takes the holder\'s outcome (D230)', async () => {
  const container = getContainer();
  const batches = visibilityBatchesOf(container);
  const execution = 'exec-crash';
  const orgs = ['crash-a'];
  await seed(orgs);
  // What an attempt that crashed after recording and claiming its jobs, before any vendor call, leaves: each job `submitting`, its claim
  // expired (platform_1, platform_3) or still held by a live sender (platform_2).
  const queued = (await container.visibilityChecks.listChecks('crash-a', RUN_DATE)).filter((c) => c.status === 'queued');
  const at = new Date().toISOString();
  const jobOf = (platform: PlatformKey) => {
    const members = queued.filter((c) => c.platform === platform).map((c) => ({ org_slug: c.org_slug, prompt_id: c.prompt_id, custom_id: customIdOf(c) }));
    return { run_date: RUN_DATE, platform, job_id: jobIdOf(execution, platform, members), execution_id: execution, status: 'submitting' as const, vendor_batch_id: null,
      vendor_status: null, created_at: at, submitted_at: null, ended_at: null, member_orgs: 1, members };
  };
  for (const platform of BATCHED) {
    expect(await batches.jobs.create(jobOf(platform))).toBe(true);
    const live = platform === 'platform_2';
    expect(await batches.jobs.claimSend(jobOf(platform), new Date(Date.now() + (live ? 600_000 : -1_000)).toISOString(), new Date(Date.now() - 60_000).toISOString())).toBe(true);
  }
  // a held claim is not claimed again; a job no longer submitting cannot be claimed
  expect(await batches.jobs.claimSend(jobOf('platform_2'), new Date(Date.now() + 60_000).toISOString(), at)).toBe(false);
  const creates = () => [
    fakes.servers.platform_1.requests.filter((r) => r.method === 'POST' && r.path === '/v1/batches').length,
    fakes.servers.platform_2.requests.filter((r) => r.method === 'POST' && r.path === '/v1/messages/batches').length,
    fakes.servers.platform_3.requests.filter((r) => r.method === 'POST' && r.path.endsWith(':batchGenerateContent')).length,
  ];
  const before = creates();
  // The retried submit: platforms 1 and 3 are sent now; platform_2's live sender records its batch a moment later, and the retry takes it.
  const holder = new Promise<void>((resolve) => setTimeout(() => {
    void batches.jobs.update(jobOf('platform_2'), { status: 'in_progress', vendor_batch_id: 'msgbatch_from_the_holder', vendor_status: 'submitted', submitted_at: new Date().toISOString() }).then(resolve);
  }, 1500));
  const [result] = await Promise.all([submit(dailyBusinessItems(orgs, 1), execution), holder]);
  expect(creates().map((n, i) => n - before[i]!)).toEqual([1, 0, 1]);
  expect(result.shards_sent).toEqual([0]);
  expect(result.jobs.map((j) => [j.platform, j.status]).sort()).toEqual(BATCHED.map((p) => [p, 'in_progress']));
  const checks = await container.visibilityChecks.listChecks('crash-a', RUN_DATE);
  expect(checks.map((c) => c.status)).toEqual(Array(BATCHED.length * PROMPTS).fill('submitted'));
  expect(checks.filter((c) => c.platform === 'platform_2').map((c) => c.reason)).toEqual(Array(PROMPTS).fill('in platform_2\'s vendor batch msgbatch_from_the_holder'));
  expect(await batches.jobs.claimSend(jobOf('platform_1'), new Date(Date.now() + 600_000).toISOString(), new Date(Date.now() + 500_000).toISOString())).toBe(false);
});

test('a batch the vendor refused fails its checks with the vendor\'s reason, whichever copy of a doubled submit sent it; nothing is sent twice (D230)', async () => {
  const execution = 'exec-refused';
  await seed(['refused-a']);
  const items = dailyBusinessItems(['refused-a'], 1);
  const sends = () => fakes.servers.platform_2.requests.filter((r) => r.method === 'POST' && r.path === '/v1/messages/batches').length;
  const before = sends();
  fakes.servers.platform_2.failNext(401, 1);
  const results = await Promise.all([submit(items, execution), submit(items, execution)]);
  expect(sends() - before).toBe(1);
  for (const result of results) expect(result.jobs.find((j) => j.platform === 'platform_2')!.status).toBe('not submitted');
  const checks = (await getContainer().visibilityChecks.listChecks('refused-a', RUN_DATE)).filter((c) => c.platform === 'platform_2');
  expect(checks).toHaveLength(PROMPTS);
  for (const c of checks) {
    expect(c.status).toBe('failed');
    expect(c.reason).toMatch(/^platform_2: the vendor batch was not accepted: .*HTTP 401/);
  }
});
