/**
 * Batch 2 as one Parallel state, end to end on the local runtime (issue 23): 2a (plan,
 * articles, one publish, then batch 3) and 2b (the visibility checks) of one business overlap
 * in time on its run record, and a slow platform holds back neither the publish nor IndexNow.
 *
 * The overlap is made certain rather than lucky: the one configured platform sits behind a
 * gate that holds every answer until the run record shows batch 3 settled (or 30 s have
 * passed since the first held request). With 2a and 2b in parallel the gate opens when batch
 * 3 is done, so 2b ends after it and the intervals overlap. Run one after the other (the old
 * definition), 2b starts only after 2a ended: the intervals cannot overlap, so the test
 * fails. Had 2a or batch 3 to wait for 2b, the gate would only open on its 30 s timeout,
 * which the test also rejects.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startDemoStore, type DemoStore } from '../../functions/local/demo-store';
import { startIndexNowFake, type IndexNowFake } from '../../functions/local/fakes/indexnow';
import { startFakePlatform, type FakePlatformServer } from '../../functions/local/fakes/platforms';
import { DEV_API_KEY, startTestStack, type TestStack } from '../support/stack';

const ORG = 'parallel-roasters';
const GATE_TIMEOUT_MS = 30_000;

let stack: TestStack;
let store: DemoStore;
let indexNow: IndexNowFake;
let platform: FakePlatformServer;
let gateServer: Server;

/** The gate in front of platform_1: open (onboarding) until the daily run arms it. */
const gate = {
  /** The status URL of the daily execution to watch; null: the gate is open. */
  statusUrl: null as string | null,
  armed: false,
  firstRequestAt: null as number | null,
  releases: [] as { at: number; by: '3 settled' | 'timeout' }[],
};

const SETTLED = ['succeeded', 'skipped', 'failed'];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until the watched run record shows batch 3 settled, or the gate times out (30 s after the first held request). */
async function holdUntil2aSettled(): Promise<void> {
  while (Date.now() - gate.firstRequestAt! < GATE_TIMEOUT_MS) {
    if (gate.statusUrl) {
      const status = await stack.call('GET', gate.statusUrl, { apiKey: DEV_API_KEY });
      const run = status.body?.businesses?.runs?.find((r: any) => r.org_slug === ORG);
      if (SETTLED.includes(run?.steps?.['3']?.status)) {
        gate.releases.push({ at: Date.now(), by: '3 settled' });
        return;
      }
    }
    await sleep(50);
  }
  gate.releases.push({ at: Date.now(), by: 'timeout' });
}

/** A pass-through proxy to the platform_1 fake that, once armed, answers only after batch 3 settled. */
async function startGate(target: FakePlatformServer): Promise<Server> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      try {
        if (gate.armed) {
          gate.firstRequestAt ??= Date.now();
          await holdUntil2aSettled();
        }
        const headers = Object.fromEntries(Object.entries(req.headers as IncomingHttpHeaders)
          .filter(([k, v]) => typeof v === 'string' && !['host', 'connection', 'content-length', 'transfer-encoding'].includes(k))) as Record<string, string>;
        const body = chunks.length ? Buffer.concat(chunks) : undefined;
        const upstream = await fetch(`${target.origin}${req.url}`, { method: req.method, headers, body });
        res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' }).end(Buffer.from(await upstream.arrayBuffer()));
      } catch (err) {
        res.writeHead(502, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: (err as Error).message } }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

beforeAll(async () => {
  store = await startDemoStore({ port: 0 });
  indexNow = await startIndexNowFake();
  platform = await startFakePlatform('platform_1', {
    answerFor: () => ({ text: 'Parallel Roasters and Sample Goods Co. both roast to order.', citations: ['https://example.com/guide'] }),
  });
  gateServer = await startGate(platform);
  const gateOrigin = `http://127.0.0.1:${(gateServer.address() as AddressInfo).port}`;
  stack = await startTestStack({
    LOG_LEVEL: 'error', EDGE_PROPAGATION_WAIT_SECONDS: '0', ARTICLE_QUOTA_POLICY: 'weekly-100', INDEXNOW_ENDPOINT: indexNow.url,
    // One platform, reached through the gate (its base URL keeps the vendor's path, /v1).
    PLATFORM_1_API_URL: platform.url.replace(platform.origin, gateOrigin), PLATFORM_1_API_KEY: platform.key, PLATFORM_1_MODEL: platform.model,
    LLM_BASE_URL: '', JUDGE_BASE_URL: '',
    // The slow platform answers synchronously here (its vendor batch would not hold 2b at all: visibility.test.ts).
    VISIBILITY_BATCHES: 'off',
  }, { workflows: { retryWithoutDelay: true } });
  const token = await stack.token(ORG);
  expect((await stack.call('POST', '/api/business', { token, body: { name: 'Parallel Roasters', url: store.origin } })).status).toBe(201);
  const started = await stack.call('POST', '/api/onboarding/generate-all', { token, body: {} });
  await stack.workflows.finished(started.body.execution_id);
}, 240_000);

afterAll(async () => {
  gate.armed = false;
  await stack?.close();
  await new Promise((r) => (gateServer ? gateServer.close(r) : r(undefined)));
  await platform?.close();
  await indexNow?.close();
  await store?.close();
});

describe('a daily run: 2a and 2b in one Parallel state', () => {
  let run: any;
  const time = (step: string, edge: 'started_at' | 'finished_at') => Date.parse(run.steps[step][edge]);

  beforeAll(async () => {
    platform.reset();
    indexNow.reset();
    gate.armed = true;
    const started = await stack.call('POST', '/api/cron/trigger-all', { apiKey: DEV_API_KEY, body: { business_ids: [ORG] } });
    expect(started.status).toBe(202);
    gate.statusUrl = started.body.status_url;
    await stack.workflows.finished(started.body.execution_id);
    gate.armed = false;
    const status = await stack.call('GET', started.body.status_url, { apiKey: DEV_API_KEY });
    expect(status.status).toBe(200);
    run = status.body.businesses.runs.find((r: any) => r.org_slug === ORG);
  }, 240_000);

  test('the day succeeds: 2a published the articles, 2b checked on the slow platform, batch 3 notified', () => {
    expect(run.status).toBe('succeeded');
    expect(run.steps['2a']).toMatchObject({ status: 'succeeded', result: { deployed: true } });
    expect(run.steps['2b']).toMatchObject({ status: 'succeeded', result: { checks_done: 10, platforms: { platform_1: { status: 'checked', checks: 10 } } } });
    expect(platform.requests.length).toBe(10);
    // Batch 3 announced the day's articles while 2b still waited: one accepted IndexNow request holding every one.
    expect(run.steps['3'].status).toBe('succeeded');
    expect(indexNow.accepted()).toHaveLength(1);
    const articlePaths = run.steps['2a'].result.article_paths as string[];
    expect(articlePaths.length).toBeGreaterThan(0);
    const submitted = indexNow.accepted()[0]!.urlList!.map((u) => new URL(u).pathname);
    expect(submitted).toEqual(expect.arrayContaining(articlePaths));
  });

  test('2a and 2b overlap in time on the run record', () => {
    const a = { start: time('2a', 'started_at'), end: time('2a', 'finished_at') };
    const b = { start: time('2b', 'started_at'), end: time('2b', 'finished_at') };
    expect(a.start).toBeLessThan(b.end);
    expect(b.start).toBeLessThan(a.end);
  });

  test('the held platform delayed neither the publish nor IndexNow: both were done while 2b still waited for its answers', () => {
    expect(gate.firstRequestAt).not.toBeNull();
    expect(gate.firstRequestAt!).toBeLessThan(time('2a', 'finished_at'));
    expect(gate.releases.length).toBeGreaterThan(0);
    expect(gate.releases.every((r) => r.by === '3 settled')).toBe(true);
    expect(time('2a', 'finished_at')).toBeLessThanOrEqual(time('2b', 'finished_at'));
    expect(time('3', 'finished_at')).toBeLessThanOrEqual(time('2b', 'finished_at'));
  });

  test('batch 3 comes after every deploy of the day (batch 1\'s and 2a\'s)', () => {
    expect(time('3', 'started_at')).toBeGreaterThanOrEqual(time('2a', 'finished_at'));
  });
});
