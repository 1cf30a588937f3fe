import { createServer, type Server } from 'node:http';
import { createIndexNowClient, DEFAULT_INDEXNOW_ENDPOINT } from '../../functions/adapters/external/indexnow';
import { planIndexNowSubmissions, type IndexNowSubmission } from '../../functions/core/indexnow/submission';
import type { Logger } from '../../functions/logger';
import { closeServer } from '../../functions/local/runtime/close-server';
import { fetchOnLoopback, startIndexNowFake, type IndexNowFake } from '../../functions/local/fakes/indexnow';
import { listen } from '../../functions/local/runtime/listen';

const KEY = 'f3c1e9a27b5d4c08a6e2b91d7f40c3a5';

/** A logger that keeps every line. */
function captureLogger(lines: Array<{ level: string; msg: string; fields: Record<string, unknown> }> = [], base: Record<string, unknown> = {}): Logger & { lines: typeof lines } {
  const write = (level: string) => (msg: string, fields: Record<string, unknown> = {}) => lines.push({ level, msg, fields: { ...base, ...fields } });
  return { lines, debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error'), child: (f) => captureLogger(lines, { ...base, ...f }) };
}

/** A stand-in AI-site host: answers `/<KEY>.txt` with whatever `keyFileBody` holds, for any Host. */
let siteServer: Server;
let sitePort: number;
let keyFileBody = KEY;
let keyFileRequests: Array<{ host?: string; path?: string }> = [];
let fake: IndexNowFake;

beforeAll(async () => {
  siteServer = createServer((req, res) => {
    keyFileRequests.push({ host: req.headers.host, path: req.url });
    if (req.url === `/${KEY}.txt` || req.url === '/indexing-key.txt') {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(keyFileBody);
    } else {
      res.writeHead(404).end('not found');
    }
  });
  sitePort = await listen(siteServer);
});

afterAll(async () => {
  await closeServer(siteServer);
});

beforeEach(async () => {
  keyFileBody = KEY;
  keyFileRequests = [];
  fake = await startIndexNowFake();
});

afterEach(async () => {
  await fake.close();
});

const siteHost = () => `acme.localhost:${sitePort}`;
const submission = (overrides: Partial<IndexNowSubmission> = {}): IndexNowSubmission => ({
  host: siteHost(),
  key: KEY,
  keyLocation: `http://${siteHost()}/${KEY}.txt`,
  urlList: [`http://${siteHost()}/best-shoes/`, `http://${siteHost()}/llms.txt`],
  ...overrides,
});
const noSleep = { sleep: async () => undefined, random: () => 0 };

describe('IndexNow client against the local fake (which fetches the key file like real engines)', () => {
  test('a valid submission is accepted after the fake found exactly the key at keyLocation', async () => {
    const log = captureLogger();
    const client = createIndexNowClient({ endpoint: fake.url, log, retry: noSleep });
    const result = await client.submit(submission());
    expect(result).toEqual({ ok: true, status: 200, attempts: 1, urlCount: 2 });
    expect(fake.accepted()).toHaveLength(1);
    const got = fake.submissions[0]!;
    expect(got.method).toBe('POST');
    expect(got.contentType).toBe('application/json; charset=utf-8');
    expect(got.body).toEqual(submission());
    expect(got.keyCheck).toEqual({ url: `http://${siteHost()}/${KEY}.txt`, status: 200, matched: true });
    // The key file was fetched on loopback with the AI-site Host kept.
    expect(keyFileRequests).toEqual([{ host: siteHost(), path: `/${KEY}.txt` }]);
    // Logs name the host and the count, never the key or the URL list.
    const logged = JSON.stringify(log.lines);
    expect(logged).not.toContain(KEY);
    expect(logged).not.toContain('best-shoes');
    expect(log.lines.find((l) => l.msg === 'IndexNow submission accepted')?.fields).toMatchObject({ host: siteHost(), urls: 2, status: 200 });
  });

  test('403 when the key file holds another value (or the key plus a newline); not retried', async () => {
    const client = createIndexNowClient({ endpoint: fake.url, log: captureLogger(), retry: noSleep });
    keyFileBody = 'some-other-key-123';
    const other = await client.submit(submission());
    expect(other).toMatchObject({ ok: false, status: 403, attempts: 1 });
    expect(other.ok === false && other.reason).toMatch(/HTTP 403: key not valid/);
    expect(fake.submissions[0]!.keyCheck).toMatchObject({ status: 200, matched: false });

    keyFileBody = `${KEY}\n`;
    expect(await client.submit(submission())).toMatchObject({ ok: false, status: 403, attempts: 1 });
    expect(fake.accepted()).toHaveLength(0);
  });

  test('403 when the key file is missing at keyLocation', async () => {
    const client = createIndexNowClient({ endpoint: fake.url, log: captureLogger(), retry: noSleep });
    const result = await client.submit(submission({ keyLocation: `http://${siteHost()}/missing.txt` }));
    expect(result).toMatchObject({ ok: false, status: 403 });
    expect(fake.submissions[0]!.keyCheck).toMatchObject({ status: 404, matched: false });
  });

  test('422 for a URL of another host; not retried', async () => {
    const client = createIndexNowClient({ endpoint: fake.url, log: captureLogger(), retry: noSleep });
    const result = await client.submit(submission({ urlList: [`http://${siteHost()}/a/`, 'https://www.acme-store.com/products/x'] }));
    expect(result).toMatchObject({ ok: false, status: 422, attempts: 1 });
    expect(result.ok === false && result.reason).toMatch(/HTTP 422: unprocessable/);
    expect(fake.submissions[0]!.reason).toMatch(/another host/);
    expect(keyFileRequests).toEqual([]);
  });

  test('422 for a key that does not fit the schema and for a keyLocation on another host', async () => {
    const client = createIndexNowClient({ endpoint: fake.url, log: captureLogger(), retry: noSleep });
    expect(await client.submit(submission({ key: 'bad_key!' }))).toMatchObject({ ok: false, status: 422 });
    expect(await client.submit(submission({ keyLocation: `http://other.localhost:${sitePort}/${KEY}.txt` }))).toMatchObject({ ok: false, status: 422 });
  });

  test('429 then success: retried with backoff, Retry-After honoured', async () => {
    const sleeps: number[] = [];
    const client = createIndexNowClient({ endpoint: fake.url, log: captureLogger(), retry: { sleep: async (ms) => void sleeps.push(ms), random: () => 0, retryBaseMs: 100 } });
    fake.failNext(429, 1, { retryAfter: 7 });
    const result = await client.submit(submission());
    expect(result).toEqual({ ok: true, status: 200, attempts: 2, urlCount: 2 });
    expect(sleeps).toEqual([7000]);
    expect(fake.submissions.map((s) => s.status)).toEqual([429, 200]);
  });

  test('5xx beyond the retries: a result with the last status, never a throw', async () => {
    const sleeps: number[] = [];
    const client = createIndexNowClient({ endpoint: fake.url, log: captureLogger(), retry: { maxRetries: 2, retryBaseMs: 100, sleep: async (ms) => void sleeps.push(ms), random: () => 0 } });
    fake.failNext(503, 5);
    const result = await client.submit(submission());
    expect(result).toMatchObject({ ok: false, status: 503, attempts: 3 });
    expect(result.ok === false && result.reason).toMatch(/HTTP 503.*\(after 3 attempts\)/);
    expect(sleeps).toEqual([50, 100]);
    expect(fake.submissions).toHaveLength(3);
  });

  test('400 (a malformed body) is not retried; the fake answers 400 to non-JSON and to a wrong shape', async () => {
    const raw = await fetch(fake.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{not json' });
    expect(raw.status).toBe(400);
    const noUrls = await fetch(fake.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ host: siteHost(), key: KEY, urlList: [] }) });
    expect(noUrls.status).toBe(400);
    const schemeHost = await fetch(fake.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...submission(), host: `http://${siteHost()}` }) });
    expect(schemeHost.status).toBe(400);
    const notJsonType = await fetch(fake.url, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify(submission()) });
    expect(notJsonType.status).toBe(400);

    fake.failNext(400);
    const client = createIndexNowClient({ endpoint: fake.url, log: captureLogger(), retry: noSleep });
    expect(await client.submit(submission())).toMatchObject({ ok: false, status: 400, attempts: 1 });
  });

  test('202 (key validation pending) is success', async () => {
    const accepting = await startIndexNowFake({ answer: 202 });
    try {
      const client = createIndexNowClient({ endpoint: accepting.url, log: captureLogger(), retry: noSleep });
      expect(await client.submit(submission())).toMatchObject({ ok: true, status: 202, attempts: 1 });
    } finally {
      await accepting.close();
    }
  });

  test('the single-URL GET form is understood by the fake', async () => {
    const url = new URL(fake.url);
    url.searchParams.set('url', `http://${siteHost()}/a/`);
    url.searchParams.set('key', KEY);
    url.searchParams.set('keyLocation', `http://${siteHost()}/${KEY}.txt`);
    expect((await fetch(url)).status).toBe(200);
    expect(fake.accepted()[0]).toMatchObject({ method: 'GET', host: siteHost(), urlList: [`http://${siteHost()}/a/`] });
  });

  test('nothing is sent for a submission without URLs or with more than 10,000', async () => {
    const client = createIndexNowClient({ endpoint: fake.url, log: captureLogger(), retry: noSleep });
    expect(await client.submit(submission({ urlList: [] }))).toMatchObject({ ok: false, attempts: 0, reason: 'the submission has no URLs' });
    const many = Array.from({ length: 10_001 }, (_, i) => `http://${siteHost()}/p${i}`);
    expect(await client.submit(submission({ urlList: many }))).toMatchObject({ ok: false, attempts: 0, reason: expect.stringMatching(/at most 10000/) });
    expect(fake.submissions).toHaveLength(0);
  });

  test('an unreachable endpoint is retried, then a result without status', async () => {
    const closed = await startIndexNowFake();
    const endpoint = closed.url;
    await closed.close();
    const client = createIndexNowClient({ endpoint, log: captureLogger(), retry: { ...noSleep, maxRetries: 1 }, timeoutMs: 2000 });
    const result = await client.submit(submission());
    expect(result).toMatchObject({ ok: false, attempts: 2 });
    expect(result.ok === false && result.status).toBeUndefined();
    expect(result.ok === false && result.reason).toMatch(/network error/);
  });

  test('the default endpoint is the shared IndexNow endpoint', () => {
    expect(createIndexNowClient({ log: captureLogger() }).endpoint).toBe(DEFAULT_INDEXNOW_ENDPOINT);
    expect(createIndexNowClient({ endpoint: '  ', log: captureLogger() }).endpoint).toBe('https://api.indexnow.org/indexnow');
    expect(createIndexNowClient({ endpoint: fake.url, log: captureLogger() }).endpoint).toBe(fake.url);
  });

  test('end to end: a planned submission for a business without a customer domain reaches the fake once, with host, key location and URLs', async () => {
    const plan = planIndexNowSubmissions({
      key: KEY,
      aiSiteOrigin: `http://${siteHost()}`,
      articlePaths: ['/best-shoes/', '/care-guide/'],
      aiPaths: ['/llms.txt'],
      changedUrls: ['https://acme-store.com/products/x'],
    });
    const client = createIndexNowClient({ endpoint: fake.url, log: captureLogger(), retry: noSleep });
    for (const s of plan.submissions) expect(await client.submit(s)).toMatchObject({ ok: true });
    expect(fake.submissions).toHaveLength(1);
    expect(fake.accepted()[0]).toMatchObject({
      host: siteHost(),
      keyLocation: `http://${siteHost()}/${KEY}.txt`,
      urlList: [`http://${siteHost()}/best-shoes/`, `http://${siteHost()}/care-guide/`, `http://${siteHost()}/llms.txt`],
    });
  });

  test('with a customer domain the key is proven at /indexing-key.txt, fetched through the host mapped to a local port', async () => {
    const mapped = await startIndexNowFake({ loopbackHosts: { 'www.acme-store.test': sitePort } });
    try {
      const plan = planIndexNowSubmissions({ key: KEY, aiSiteOrigin: `http://${siteHost()}`, publicOrigin: 'https://www.acme-store.test', articlePaths: ['/best-shoes/'] });
      const client = createIndexNowClient({ endpoint: mapped.url, log: captureLogger(), retry: noSleep });
      expect(await client.submit(plan.submissions[0]!)).toMatchObject({ ok: true });
      expect(mapped.accepted()[0]).toMatchObject({ host: 'www.acme-store.test', keyLocation: 'https://www.acme-store.test/indexing-key.txt', urlList: ['https://www.acme-store.test/ai/best-shoes/'] });
      expect(keyFileRequests).toEqual([{ host: 'www.acme-store.test', path: '/indexing-key.txt' }]);
    } finally {
      await mapped.close();
    }
  });
});

describe('fetchOnLoopback', () => {
  test('never leaves the machine: other hosts are unreachable (status 0)', async () => {
    expect(await fetchOnLoopback('https://example.com/key.txt')).toEqual({ status: 0, body: '' });
    expect(await fetchOnLoopback('not a url')).toEqual({ status: 0, body: '' });
  });

  test('loopback addresses and *.localhost names reach 127.0.0.1 with their Host', async () => {
    expect(await fetchOnLoopback(`http://127.0.0.1:${sitePort}/${KEY}.txt`)).toEqual({ status: 200, body: KEY });
    expect(await fetchOnLoopback(`http://shop.localhost:${sitePort}/${KEY}.txt`)).toEqual({ status: 200, body: KEY });
    expect(keyFileRequests.map((r) => r.host)).toEqual([`127.0.0.1:${sitePort}`, `shop.localhost:${sitePort}`]);
  });

  test('mapped names (exact, or every name under a .suffix) go to 127.0.0.1:<port> over http', async () => {
    expect(await fetchOnLoopback(`https://acme.ai.test/${KEY}.txt`, { '.ai.test': sitePort })).toEqual({ status: 200, body: KEY });
    expect(await fetchOnLoopback('https://www.acme-store.test/indexing-key.txt', { 'www.acme-store.test': sitePort })).toEqual({ status: 200, body: KEY });
    expect(await fetchOnLoopback('https://acme-store.test/indexing-key.txt', { 'www.acme-store.test': sitePort })).toEqual({ status: 0, body: '' });
    expect(keyFileRequests.map((r) => r.host)).toEqual(['acme.ai.test', 'www.acme-store.test']);
  });
});
