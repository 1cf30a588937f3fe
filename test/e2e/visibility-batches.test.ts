/**
 * The daily checks of the batch platforms (issue 47) while their vendors are still working:
 * the day is not scored from part of its checks, the run record names the platforms still
 * pending, and the score comes when the last batch is in. Platforms 1-3 answer through their
 * batch interfaces on the local fakes, 4-8 synchronously; with platform_3 on Gemini on Vertex
 * AI (D239), platform_3 answers synchronously too.
 */
import { startDemoStore, type DemoStore } from '../../functions/local/demo-store';
import { startPlatformFakes, type PlatformFakes } from '../../functions/local/fakes/platforms';
import { onboardViaApi } from '../support/onboard';
import { DEV_API_KEY, startTestStack, type TestStack } from '../support/stack';

const ORG = 'batchy';
const NAME = 'Batchy Beans';
// VISIBILITY_BATCHES stays on: platform 3 has no batch client on Vertex AI, so only 1 and 2 go as batches.
const VERTEX_ENV = { PLATFORM_3_VERTEX_PROJECT: 'shop-visibility-7' };

let stack: TestStack;
let store: DemoStore;
let fakes: PlatformFakes;
let token: string;
const BATCHED = ['platform_1', 'platform_2', 'platform_3'] as const;

/** A stack on the platform fakes where every platform names the business (80 of 80 once all are in), with one business onboarded. */
async function startWith(env: Record<string, string>, org: string, name: string): Promise<void> {
  store = await startDemoStore({ port: 0 });
  fakes = await startPlatformFakes({ answerFor: () => ({ text: `${name} roasts the freshest beans.`, citations: [] }) });
  stack = await startTestStack(
    { LOG_LEVEL: 'error', EDGE_PROPAGATION_WAIT_SECONDS: '0', ARTICLE_QUOTA_POLICY: 'weekly-100', ...fakes.env, ...fakes.searchEnv, LLM_BASE_URL: '', JUDGE_BASE_URL: '', ...env },
    { workflows: { retryWithoutDelay: true } },
  );
  ({ token } = await onboardViaApi(stack, org, name, store.origin));
}

async function stop(): Promise<void> {
  await stack?.close();
  await fakes?.stop();
  await store?.close();
}

/** The business's run record once its day is done (the run may still be looking at its batches). */
async function runWhenDayDone(statusUrl: string): Promise<any> {
  let run: any;
  for (let i = 0; i < 600; i++) {
    run = (await stack.call('GET', statusUrl, { apiKey: DEV_API_KEY })).body.businesses.runs[0];
    if (run?.status === 'succeeded') break;
    await new Promise((r) => setTimeout(r, 200));
  }
  return run;
}

describe('platforms 1-3 through their vendor batches', () => {
  beforeAll(() => startWith({}, ORG, NAME), 240_000);
  afterAll(stop);

  const today = () => new Date().toISOString().slice(0, 10);

  test('while the vendors hold the batches: no score for the day, the run record names the pending platforms; released: the day is scored from all 80 checks', async () => {
    for (const k of BATCHED) fakes.servers[k].holdBatches(true);
    const started = await stack.call('POST', '/api/cron/trigger-all', { apiKey: DEV_API_KEY, body: { business_ids: [ORG] } });
    const status = () => stack.call('GET', started.body.status_url, { apiKey: DEV_API_KEY });

    // Wait until the business's day is done and the run is looking at its batches.
    const run = await runWhenDayDone(started.body.status_url);
    expect(run.steps['2b'].result).toMatchObject({ pending_platforms: [...BATCHED], checks_done: 50, score: null, score_skipped: expect.stringMatching(/waiting for the vendor batches of platform_1, platform_2, platform_3/) });
    // A few looks later the batches are still out: the execution runs on, nothing is scored.
    await new Promise((r) => setTimeout(r, 3000));
    expect((await status()).body.status).toBe('running');
    const held = (await stack.call('GET', `/api/visibility/${ORG}`, { token })).body;
    expect(held.history_scores.filter((e: { date: string; seeded?: boolean }) => e.date === today() && !e.seeded)).toEqual([]);
    const checks = (await stack.call('GET', `/api/visibility/${ORG}/checks`, { token })).body.checks as Array<{ platform: string; status: string; batch?: object }>;
    expect(checks.filter((c) => (BATCHED as readonly string[]).includes(c.platform)).map((c) => c.status)).toEqual(Array(30).fill('submitted'));
    expect(checks.filter((c) => c.batch)).toHaveLength(30);

    for (const k of BATCHED) fakes.servers[k].holdBatches(false);
    await stack.workflows.finished(started.body.execution_id);
    const done = (await status()).body;
    expect(done.status).toBe('succeeded');
    expect(done.businesses.runs[0].steps['2b'].result).toMatchObject({ pending_platforms: [], checks_done: 80, score: { raw_score: 100, n: 80 }, score_skipped: null });
    const scored = (await stack.call('GET', `/api/visibility/${ORG}`, { token })).body;
    expect(scored.history_scores.filter((e: { date: string; seeded?: boolean }) => e.date === today() && !e.seeded)).toMatchObject([{ n: 80, true_count: 80 }]);
  }, 240_000);

  test('a batch the vendor refuses fails its checks at once with the vendor\'s reason; the day is scored from the rest', async () => {
    const other = 'refused';
    const { token: otherToken } = await onboardViaApi(stack, other, 'Refused Roasters', store.origin);
    // platform_2's vendor answers its batch with a 400 (not retried): the only request the daily run sends it.
    fakes.servers.platform_2.reset();
    fakes.servers.platform_2.failNext(400);
    const started = await stack.call('POST', '/api/cron/trigger-all', { apiKey: DEV_API_KEY, body: { business_ids: [other] } });
    await stack.workflows.finished(started.body.execution_id);
    const checks = (await stack.call('GET', `/api/visibility/${other}/checks`, { token: otherToken })).body.checks as Array<{ platform: string; status: string; reason: string | null }>;
    const p2 = checks.filter((c) => c.platform === 'platform_2');
    expect(p2.map((c) => c.status)).toEqual(Array(10).fill('failed'));
    expect(p2[0]!.reason).toMatch(/^platform_2: the vendor batch was not accepted: platform_2: HTTP 400/);
    const run = (await stack.call('GET', started.body.status_url, { apiKey: DEV_API_KEY })).body.businesses.runs[0];
    expect(run.steps['2b'].result).toMatchObject({ pending_platforms: [], checks_done: 70, score: { n: 70 } });
  }, 240_000);
});

describe('platform_3 on Gemini on Vertex AI (D239)', () => {
  const org = 'vertexy';
  beforeAll(() => startWith(VERTEX_ENV, org, 'Vertexy Beans'), 240_000);
  afterAll(stop);

  test('its daily checks are answered synchronously on the Vertex AI path while platforms 1 and 2 wait in their batches', async () => {
    for (const k of BATCHED) fakes.servers[k].holdBatches(true);
    fakes.servers.platform_3.reset();
    const started = await stack.call('POST', '/api/cron/trigger-all', { apiKey: DEV_API_KEY, body: { business_ids: [org] } });
    const run = await runWhenDayDone(started.body.status_url);
    expect(run.steps['2b'].result).toMatchObject({ pending_platforms: ['platform_1', 'platform_2'], checks_done: 60, score: null });

    const checks = (await stack.call('GET', `/api/visibility/${org}/checks`, { token })).body.checks as Array<{ platform: string; status: string; batch?: object }>;
    const p3 = checks.filter((c) => c.platform === 'platform_3');
    expect(p3.map((c) => c.status)).toEqual(Array(10).fill('checked'));
    expect(p3.filter((c) => c.batch)).toEqual([]);
    const paths = fakes.servers.platform_3.requests.map((r) => r.path);
    expect(paths).toHaveLength(10);
    expect(new Set(paths)).toEqual(new Set(['/v1/projects/shop-visibility-7/locations/global/publishers/google/models/gemini-3.5-flash-lite:generateContent']));

    for (const k of ['platform_1', 'platform_2'] as const) fakes.servers[k].holdBatches(false);
    await stack.workflows.finished(started.body.execution_id);
    const done = (await stack.call('GET', started.body.status_url, { apiKey: DEV_API_KEY })).body;
    expect(done.businesses.runs[0].steps['2b'].result).toMatchObject({ pending_platforms: [], checks_done: 80, score: { raw_score: 100, n: 80 } });
  }, 240_000);
});
