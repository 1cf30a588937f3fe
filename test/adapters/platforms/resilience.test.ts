/**
 * The failure policy every platform client shares, checked on the wire against each
 * vendor's fake: 429 + Retry-After, 5xx beyond retries, 401 not retried, non-JSON bodies,
 * network errors, the key never in a reason or log line, latency from the injected clock.
 */
import { PLATFORM_KEYS, type PlatformKey } from '../../../functions/core/constants';
import {
  createPlatform1Client, createPlatform2Client, createPlatform3Client, createPlatform4Client,
  createPlatform5Client, createPlatform6Client, createPlatform7Client, createPlatform8Client,
  type PlatformDeps, type PlatformSettings,
} from '../../../functions/adapters/external/platforms';
import { startFakePlatform, type FakePlatformServer } from '../../../functions/local/fakes/platforms';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { everythingSaid, expectFailure, expectOk, REQUEST_MS, testDeps } from './support';
import type { PlatformClient, PlatformOutcome } from '../../../functions/core/visibility/platform-answer';

type Factory = (settings: PlatformSettings, deps: PlatformDeps, fake: FakePlatformServer) => PlatformClient;

const FACTORIES: Record<PlatformKey, Factory> = {
  platform_1: (s, d) => createPlatform1Client(s, d),
  platform_2: (s, d) => createPlatform2Client(s, d),
  platform_3: (s, d) => createPlatform3Client(s, d),
  platform_4: (s, d) => createPlatform4Client(s, d),
  platform_5: (s, d) => createPlatform5Client(s, d),
  platform_6: (s, d, fake) => createPlatform6Client(s, { apiUrl: fake.origin, apiKey: fake.searchKey }, d),
  platform_7: (s, d) => createPlatform7Client(s, d),
  platform_8: (s, d) => createPlatform8Client(s, d),
};
/** HTTP requests one successful ask makes (platform_6: search + chat). */
const REQUESTS_PER_ASK: Record<PlatformKey, number> = {
  platform_1: 1, platform_2: 1, platform_3: 1, platform_4: 1, platform_5: 1, platform_6: 2, platform_7: 1, platform_8: 1,
};
/** platform_6's model server is started with a key here too, so its key handling is covered. */
const P6_MODEL_KEY = 'fake-p6-model-key-123456';
const KEY_OF = (fake: FakePlatformServer) => fake.key ?? P6_MODEL_KEY;
const PROMPT = 'best trail running shoes for wide feet';

describe.each(PLATFORM_KEYS.map((p) => [p]))('%s: failure policy on the wire', (platform) => {
  let fake: FakePlatformServer;
  beforeAll(async () => {
    fake = await startFakePlatform(platform, platform === 'platform_6' ? { key: P6_MODEL_KEY } : {});
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  const client = (deps: PlatformDeps, overrides: PlatformSettings = {}) =>
    FACTORIES[platform]({ apiUrl: fake.url, apiKey: fake.key, model: fake.model || undefined, ...overrides }, deps, fake);

  test('answers, with latency from the injected clock', async () => {
    const t = testDeps();
    const answer = expectOk(await client(t.deps).ask(PROMPT));
    expect(answer.platform).toBe(platform);
    expect(answer.text.length).toBeGreaterThan(0);
    expect(answer.latencyMs).toBe(REQUESTS_PER_ASK[platform] * REQUEST_MS);
    expect(fake.requestCount()).toBe(REQUESTS_PER_ASK[platform]);
    expect(t.sleeps).toEqual([]);
  });

  test('429 with Retry-After, then success: retried once, Retry-After honoured', async () => {
    const t = testDeps();
    fake.failNext(429, 1, { retryAfter: 3 });
    const answer = expectOk(await client(t.deps).ask(PROMPT));
    expect(fake.requestCount()).toBe(REQUESTS_PER_ASK[platform] + 1);
    expect(t.sleeps).toEqual([3000]);
    expect(answer.latencyMs).toBe((REQUESTS_PER_ASK[platform] + 1) * REQUEST_MS + 3000);
    expect(t.log.lines.some((l) => l.msg === 'platform call retrying' && l.fields?.platform === platform)).toBe(true);
  });

  test('a Retry-After beyond the cap waits the cap', async () => {
    const t = testDeps({ retryMaxMs: 5000 });
    fake.failNext(429, 1, { retryAfter: 600 });
    expectOk(await client(t.deps).ask(PROMPT));
    expect(t.sleeps).toEqual([5000]);
  });

  test('5xx beyond the retries → failed naming the platform and the status; backoff grows', async () => {
    const t = testDeps();
    fake.failNext(503, 5);
    const failure = expectFailure(await client(t.deps).ask(PROMPT), 'failed');
    expect(failure.platform).toBe(platform);
    expect(failure.reason).toContain(platform);
    expect(failure.reason).toContain('HTTP 503');
    expect(failure.reason).toContain('after 3 attempts');
    expect(fake.requestCount()).toBe(3);
    // equal jitter with random() = 0.5: 75 % of 1 s, then of 2 s
    expect(t.sleeps).toEqual([750, 1500]);
    expect(t.log.lines.some((l) => l.level === 'warn' && l.msg === 'platform answer failed')).toBe(true);
  });

  test('maxRetries 0: one attempt only', async () => {
    const t = testDeps({ maxRetries: 0 });
    fake.failNext(500, 1);
    expect(expectFailure(await client(t.deps).ask(PROMPT), 'failed').reason).toContain('HTTP 500');
    expect(fake.requestCount()).toBe(1);
  });

  test('408 and 502 are retried too', async () => {
    const t = testDeps();
    fake.failNext(408, 1);
    fake.failNext(502, 1);
    expectOk(await client(t.deps).ask(PROMPT));
    expect(fake.requestCount()).toBe(REQUESTS_PER_ASK[platform] + 2);
  });

  test('a body that is not JSON is retried', async () => {
    const t = testDeps();
    fake.malformedNext(1);
    expectOk(await client(t.deps).ask(PROMPT));
    expect(fake.requestCount()).toBe(REQUESTS_PER_ASK[platform] + 1);
  });

  test('401 (wrong key) → failed at once, not retried; the key appears nowhere', async () => {
    const t = testDeps();
    const wrongKey = 'wrong-key-do-not-leak-7f3e';
    const outcomes: PlatformOutcome[] = [];
    // platform_6: the search API's key is the one the vendor checks
    const c = platform === 'platform_6'
      ? createPlatform6Client({ apiUrl: fake.url, model: fake.model }, { apiUrl: fake.origin, apiKey: wrongKey }, t.deps)
      : client(t.deps, { apiKey: wrongKey });
    outcomes.push(await c.ask(PROMPT));
    const failure = expectFailure(outcomes[0], 'failed');
    expect(failure.reason).toContain('HTTP 401');
    expect(failure.reason).toContain(platform);
    expect(fake.requestCount()).toBe(1);
    expect(t.sleeps).toEqual([]);
    expect(everythingSaid(t.log, outcomes)).not.toContain(wrongKey);
    expect(everythingSaid(t.log, outcomes)).not.toContain(encodeURIComponent(wrongKey));
  });

  test('other 4xx are not retried', async () => {
    const t = testDeps();
    fake.failNext(400, 3);
    expect(expectFailure(await client(t.deps).ask(PROMPT), 'failed').reason).toContain('HTTP 400');
    expect(fake.requestCount()).toBe(1);
  });

  test('network errors are retried, then failed; no key in any reason or log line', async () => {
    const dead = createServer();
    await new Promise<void>((resolve) => dead.listen(0, '127.0.0.1', resolve));
    const { port } = dead.address() as AddressInfo;
    await new Promise<void>((resolve) => dead.close(() => resolve()));
    const deadUrl = fake.url.replace(/:\d+/, `:${port}`);
    const t = testDeps();
    const key = KEY_OF(fake);
    const c = platform === 'platform_6'
      ? createPlatform6Client({ apiUrl: deadUrl, apiKey: key, model: fake.model }, { apiUrl: deadUrl.replace(/\/v1$/, ''), apiKey: fake.searchKey }, t.deps)
      : client(t.deps, { apiUrl: deadUrl, apiKey: key });
    const outcome = await c.ask(PROMPT);
    const failure = expectFailure(outcome, 'failed');
    expect(failure.reason).toMatch(/network error|unreachable/);
    expect(failure.reason).toContain('after 3 attempts');
    expect(t.urls).toHaveLength(3);
    const said = everythingSaid(t.log, [outcome]);
    expect(said).not.toContain(key);
    if (fake.searchKey) expect(said).not.toContain(fake.searchKey);
  });

  test('the right key never appears in reasons or logs, whatever fails', async () => {
    const t = testDeps();
    const outcomes: PlatformOutcome[] = [];
    const c = client(t.deps, platform === 'platform_6' ? { apiKey: KEY_OF(fake) } : {});
    fake.failNext(429, 1, { retryAfter: 1 });
    outcomes.push(await c.ask(PROMPT));
    fake.failNext(500, 3);
    outcomes.push(await c.ask(PROMPT));
    fake.malformedNext(3);
    outcomes.push(await c.ask(PROMPT));
    const said = everythingSaid(t.log, outcomes);
    for (const secret of [fake.key, fake.searchKey, KEY_OF(fake)].filter((s): s is string => !!s)) {
      expect(said).not.toContain(secret);
    }
  });

  test('unconfigured: no URL → names the missing settings, never calls anything', async () => {
    const t = testDeps();
    const n = platform.slice('platform_'.length);
    const c = platform === 'platform_6' ? createPlatform6Client({ model: 'm' }, { apiUrl: fake.origin }, t.deps) : FACTORIES[platform]({}, t.deps, fake);
    expect(c.platform).toBe(platform);
    const failure = expectFailure(await c.ask(PROMPT), 'unconfigured');
    expect(failure.reason).toBe(platform === 'platform_6' ? 'PLATFORM_6_API_URL is not set' : `PLATFORM_${n}_API_URL and PLATFORM_${n}_API_KEY are not set`);
    expect(c.unconfigured).toBe(failure.reason);
    expect(t.urls).toEqual([]);
  });

  test('configured clients say so', () => {
    const t = testDeps();
    expect(client(t.deps).unconfigured).toBeNull();
  });
});
