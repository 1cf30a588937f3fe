/** platform_3's batch client on the wire: Gemini Batch Mode (inline requests) against its fake. */
import { createGeminiBatchClient, GEMINI_BATCH_MAX_PROMPTS, GEMINI_INLINE_MAX_PROMPTS } from '../../../functions/adapters/external/platforms/batch/gemini-batch';
import { createPlatform3Client } from '../../../functions/adapters/external/platforms';
import { platform3Body } from '../../../functions/adapters/external/platforms/platform-3-gemini';
import { FAKE_PLATFORM_KEYS, FAKE_PLATFORM_MODELS, VENDOR_FORMATS, type AnswerFor, type FakePlatformServer } from '../../../functions/local/fakes/platforms';
import { geminiBatchRoutes } from '../../../functions/local/fakes/platforms/batch-gemini';
import { startFakeVendor } from '../../../functions/local/fakes/platforms/server';
import { cannedFetch, expectFailure, expectOk, testDeps } from './support';

const answers: AnswerFor = (prompt) => ({
  text: `Top picks for ${prompt}: Harbor & Pine Coffee Co. and Rival Roasters.`,
  citations: ['https://harborpine.example/', 'https://rival.example/shop'],
  searchResults: prompt.includes('decaf') ? ['https://beans.example/decaf'] : [],
});

let fake: FakePlatformServer;
beforeAll(async () => {
  fake = await startFakeVendor('platform_3', geminiBatchRoutes(VENDOR_FORMATS.platform_3), {
    answerFor: answers,
    key: FAKE_PLATFORM_KEYS.platform_3,
    model: FAKE_PLATFORM_MODELS.platform_3,
  });
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.reset();
  fake.setAnswerFor(answers);
});

const settings = () => ({ apiUrl: fake.url, apiKey: fake.key });
const PROMPTS = [
  { customId: 'p-1', prompt: 'decaf coffee beans' },
  { customId: 'p_2', prompt: 'best espresso grinder' },
  { customId: 'P3', prompt: 'coffee subscription gift' },
];

function client(extra: Parameters<typeof testDeps>[0] = {}) {
  const t = testDeps(extra);
  const c = createGeminiBatchClient(settings(), t.deps);
  if (!c) throw new Error('expected a configured batch client');
  return { c, t };
}

test('submit sends each prompt as the synchronous generateContent body; in progress while held, ended when released; each answer equals the synchronous one', async () => {
  const { c, t } = client();
  expect(c.platform).toBe('platform_3');
  expect(c.maxPrompts).toBe(GEMINI_BATCH_MAX_PROMPTS);
  expect(c.completionWindowHours).toBe(48);

  fake.holdBatches(true);
  const { id } = await c.submit(PROMPTS, 'daily 2026-05-01');
  expect(id).toMatch(/^batches\/[A-Za-z0-9_-]+$/);

  const create = fake.requests[0];
  expect(create.method).toBe('POST');
  expect(create.path).toBe('/v1beta/models/gemini-3.5-flash-lite:batchGenerateContent');
  expect(create.headers['x-goog-api-key']).toBe(fake.key);
  expect(create.query).toEqual({}); // the key is never in the URL
  expect(create.body).toEqual({
    batch: {
      display_name: 'daily 2026-05-01',
      input_config: { requests: { requests: PROMPTS.map((p) => ({ request: platform3Body(p.prompt), metadata: { key: p.customId } })) } },
    },
  });

  expect(await c.progress(id)).toEqual({ state: 'in_progress', vendorStatus: 'BATCH_STATE_RUNNING' });
  expect(await c.progress(id)).toEqual({ state: 'in_progress', vendorStatus: 'BATCH_STATE_RUNNING' });
  const read = fake.requests[1];
  expect(read.method).toBe('GET');
  expect(read.path).toBe(`/v1beta/${id}`);
  expect(read.headers['x-goog-api-key']).toBe(fake.key);
  expect(read.query).toEqual({});

  fake.holdBatches(false);
  expect(await c.progress(id)).toEqual({ state: 'ended', vendorStatus: 'BATCH_STATE_SUCCEEDED' });
  const results = await c.results(id);
  expect([...results.keys()].sort()).toEqual(PROMPTS.map((p) => p.customId).sort());

  const sync = createPlatform3Client(settings(), testDeps().deps);
  for (const p of PROMPTS) {
    const batched = expectOk(results.get(p.customId)!);
    const direct = expectOk(await sync.ask(p.prompt));
    expect(batched.text).toBe(direct.text);
    expect(batched.citations).toEqual(direct.citations);
    expect(batched).toEqual({ ...direct, latencyMs: 0, obtainedVia: 'generateContent (batch) + google_search grounding' });
  }
  expect(expectOk(results.get('p-1')!).retrieved).toEqual(['https://beans.example/decaf']);
  expect(t.log.lines.filter((l) => l.level === 'warn')).toEqual([]);
});

test('a wrong key: submit rejects naming HTTP 401, never the key, and is not retried', async () => {
  const t = testDeps();
  const wrongKey = 'wrong-gemini-key-7f3e9a1b';
  const c = createGeminiBatchClient({ apiUrl: fake.url, apiKey: wrongKey }, t.deps)!;
  const err = await c.submit(PROMPTS, 'daily').then(() => null, (e: Error) => e);
  expect(err).toBeInstanceOf(Error);
  expect(err!.message).toContain('HTTP 401');
  expect(err!.message).not.toContain(wrongKey);
  expect(JSON.stringify(t.log.lines)).not.toContain(wrongKey);
  expect(fake.requestCount()).toBe(1);
  expect(t.sleeps).toEqual([]);
});

test('a 503 on submit is retried, and the batch is created once', async () => {
  const { c, t } = client();
  fake.failNext(503);
  const { id } = await c.submit(PROMPTS, 'daily');
  expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
    'POST /v1beta/models/gemini-3.5-flash-lite:batchGenerateContent',
    'POST /v1beta/models/gemini-3.5-flash-lite:batchGenerateContent',
  ]);
  expect(t.sleeps).toHaveLength(1);
  expect(await c.progress(id)).toEqual({ state: 'ended', vendorStatus: 'BATCH_STATE_SUCCEEDED' });
  expect((await c.results(id)).size).toBe(3);
});

test('a prompt answered without text fails alone; the others are answers', async () => {
  const { c } = client();
  fake.setAnswerFor((prompt, platform) => (prompt === 'best espresso grinder' ? { text: '', citations: [] } : answers(prompt, platform)));
  const { id } = await c.submit(PROMPTS, 'daily');
  expect((await c.progress(id)).state).toBe('ended');
  const results = await c.results(id);
  const failure = expectFailure(results.get('p_2')!, 'failed');
  expect(failure.platform).toBe('platform_3');
  expect(failure.reason).toContain('no text');
  expect(expectOk(results.get('p-1')!).text).toContain('decaf coffee beans');
  expect(expectOk(results.get('P3')!).text).toContain('coffee subscription gift');
});

test("a request the vendor answers with an error fails that prompt, naming the vendor's code and message", async () => {
  const { c } = client();
  // the fake's generateContent answers 400 for a request without prompt text
  const { id } = await c.submit([{ customId: 'empty', prompt: '' }, { customId: 'fine', prompt: 'decaf coffee beans' }], 'daily');
  const results = await c.results(id); // released: the batch ends at this read
  const failure = expectFailure(results.get('empty')!, 'failed');
  expect(failure.reason).toBe('platform_3: the batch request failed (400 INVALID_ARGUMENT: contents[].parts[].text is required)');
  expect(expectOk(results.get('fine')!).citations).toEqual(['https://harborpine.example/', 'https://rival.example/shop']);
});

test('results of a batch still in progress are refused', async () => {
  const { c } = client();
  fake.holdBatches(true);
  const { id } = await c.submit(PROMPTS, 'daily');
  await expect(c.results(id)).rejects.toThrow(/has not ended \(BATCH_STATE_RUNNING\)/);
});

test('a failed or expired batch without responses gives no outcomes; entries without a key are ignored; a bad entry fails alone', async () => {
  const expired = { name: 'batches/abc', metadata: { state: 'BATCH_STATE_EXPIRED' }, done: true };
  const t1 = testDeps({ fetchImpl: cannedFetch(200, expired) });
  const c1 = createGeminiBatchClient(settings(), t1.deps)!;
  expect(await c1.progress('batches/abc')).toEqual({ state: 'ended', vendorStatus: 'BATCH_STATE_EXPIRED' });
  expect((await c1.results('batches/abc')).size).toBe(0);
  expect(t1.log.lines.some((l) => l.level === 'warn' && l.msg === 'platform batch ended without results')).toBe(true);

  const good = { candidates: [{ content: { parts: [{ text: 'An answer.' }] }, finishReason: 'STOP' }], modelVersion: 'gemini-3.5-flash-lite' };
  const ended = {
    name: 'batches/abc',
    metadata: { state: 'BATCH_STATE_SUCCEEDED' },
    done: true,
    response: {
      '@type': 'type.googleapis.com/google.ai.generativelanguage.v1main.GenerateContentBatchOutput',
      inlinedResponses: {
        inlinedResponses: [
          { response: good, metadata: { key: 'a' } },
          { response: good },
          { response: { candidates: 'not a list' }, metadata: { key: 'b' } },
          { error: { code: 500, message: `internal error near ${fake.key}`, status: 'INTERNAL' }, metadata: { key: 'c' } },
        ],
      },
    },
  };
  const c2 = createGeminiBatchClient(settings(), testDeps({ fetchImpl: cannedFetch(200, ended) }).deps)!;
  const results = await c2.results('abc');
  expect([...results.keys()]).toEqual(['a', 'b', 'c']);
  expect(expectOk(results.get('a')!)).toMatchObject({ text: 'An answer.', model: 'gemini-3.5-flash-lite', latencyMs: 0 });
  expectFailure(results.get('b')!, 'failed');
  const c = expectFailure(results.get('c')!, 'failed');
  expect(c.reason).toContain('500 INTERNAL: internal error near [redacted]');
  expect(c.reason).not.toContain(fake.key!);
});

test('the fake answers 400 like Google for a batch without input_config or a request without contents', async () => {
  const post = (body: unknown) => fetch(`${fake.url}/v1beta/models/gemini-3.5-flash-lite:batchGenerateContent`, {
    method: 'POST',
    headers: { 'x-goog-api-key': fake.key!, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const noInput = await post({ batch: { display_name: 'x' } });
  expect(noInput.status).toBe(400);
  expect(((await noInput.json()) as { error: { status: string } }).error.status).toBe('INVALID_ARGUMENT');
  const noContents = await post({ batch: { display_name: 'x', input_config: { requests: { requests: [{ request: {}, metadata: { key: 'k' } }] } } } });
  expect(noContents.status).toBe(400);
  expect(await post({})).toHaveProperty('status', 400);
});

test('unconfigured (no URL, no key, or a URL that is not absolute http(s)) → null', () => {
  const { deps } = testDeps();
  expect(createGeminiBatchClient(undefined, deps)).toBeNull();
  expect(createGeminiBatchClient({ apiUrl: fake.url }, deps)).toBeNull();
  expect(createGeminiBatchClient({ apiKey: 'k-123456' }, deps)).toBeNull();
  expect(createGeminiBatchClient({ apiUrl: 'generativelanguage.googleapis.com', apiKey: 'k-123456' }, deps)).toBeNull();
  expect(createGeminiBatchClient({ apiUrl: 'https://generativelanguage.googleapis.com', apiKey: 'k-123456' }, deps)).not.toBeNull();
});

test('invalid or duplicate customIds are refused before anything is sent', async () => {
  const { c } = client();
  await expect(c.submit([{ customId: 'has space', prompt: 'x' }], 'daily')).rejects.toThrow(/invalid batch customId/);
  await expect(c.submit([{ customId: 'a', prompt: 'x' }, { customId: 'a', prompt: 'y' }], 'daily')).rejects.toThrow(/duplicate batch customId/);
  expect(fake.requestCount()).toBe(0);
});

describe('above the inline size: a JSONL input file and a responses file (D223)', () => {
  const many = Array.from({ length: GEMINI_INLINE_MAX_PROMPTS + 1 }, (_, i) => ({ customId: `k${i}`, prompt: i === 7 ? '' : `coffee question ${i}` }));

  test('the prompts are uploaded once through the resumable Files API, the batch names the file, and every answer comes back from the responses file', async () => {
    const { c, t } = client();
    expect(c.maxPrompts).toBe(GEMINI_BATCH_MAX_PROMPTS);
    fake.holdBatches(true);
    const { id } = await c.submit(many, 'daily 2026-05-01 shard 3');
    const [start, finalize, create] = fake.requests;
    expect(`${start!.method} ${start!.path}`).toBe('POST /upload/v1beta/files');
    expect(start!.headers).toMatchObject({
      'x-goog-api-key': fake.key, 'x-goog-upload-protocol': 'resumable', 'x-goog-upload-command': 'start', 'x-goog-upload-header-content-type': 'application/jsonl',
    });
    expect(start!.body).toEqual({ file: { display_name: 'daily 2026-05-01 shard 3' } });
    expect(`${finalize!.method} ${finalize!.path}`).toBe('POST /upload/v1beta/files');
    expect(finalize!.headers).toMatchObject({ 'x-goog-upload-command': 'upload, finalize', 'x-goog-upload-offset': '0', 'x-goog-api-key': fake.key });
    expect(Number(start!.headers['x-goog-upload-header-content-length'])).toBe(Buffer.byteLength(finalize!.raw));
    const lines = finalize!.raw.trim().split('\n').map((l) => JSON.parse(l) as unknown);
    expect(lines).toHaveLength(many.length);
    expect(lines[1]).toEqual({ key: 'k1', request: platform3Body('coffee question 1') });
    expect(create!.path).toBe('/v1beta/models/gemini-3.5-flash-lite:batchGenerateContent');
    const fileName = (create!.body as { batch: { input_config: { file_name: string } } }).batch.input_config.file_name;
    expect(fileName).toMatch(/^files\/[a-z0-9]+$/);
    expect(create!.body).toEqual({ batch: { display_name: 'daily 2026-05-01 shard 3', input_config: { file_name: fileName } } });
    expect(fake.requests.every((r) => r.query.key === undefined)).toBe(true);

    expect(await c.progress(id)).toEqual({ state: 'in_progress', vendorStatus: 'BATCH_STATE_RUNNING' });
    fake.holdBatches(false);
    expect((await c.progress(id)).state).toBe('ended');
    const before = fake.requestCount();
    const results = await c.results(id);
    const reads = fake.requests.slice(before).map((r) => `${r.method} ${r.path}${r.query.alt ? `?alt=${r.query.alt}` : ''}`);
    expect(reads).toEqual([`GET /v1beta/${id}`, expect.stringMatching(/^GET \/download\/v1beta\/files\/batch-[A-Za-z0-9]+:download\?alt=media$/)]);
    expect(results.size).toBe(many.length);
    const sync = createPlatform3Client(settings(), testDeps().deps);
    expect(expectOk(results.get('k1')!)).toEqual({ ...expectOk(await sync.ask('coffee question 1')), latencyMs: 0, obtainedVia: 'generateContent (batch) + google_search grounding' });
    expect(expectFailure(results.get('k7')!, 'failed').reason).toBe('platform_3: the batch request failed (400 INVALID_ARGUMENT: contents[].parts[].text is required)');
    expect(t.log.lines.filter((l) => l.level === 'warn')).toEqual([]);
  });

  test('an upload session on another origin is refused: the file and the key are never sent there', async () => {
    const calls: string[] = [];
    const t = testDeps({
      fetchImpl: async (url) => {
        calls.push(url);
        return { status: 200, headers: { get: (n: string) => (n === 'x-goog-upload-url' ? 'https://collector.example/upload?upload_id=1' : null) }, text: async () => '' };
      },
    });
    const c = createGeminiBatchClient(settings(), t.deps)!;
    await expect(c.submit(many, 'daily')).rejects.toThrow(/upload session is not on 127\.0\.0\.1:\d+; not sent/);
    // a fresh session is tried once more, on the configured origin only
    expect(calls).toEqual([`${fake.url}/upload/v1beta/files`, `${fake.url}/upload/v1beta/files`]);
  });

  test('a failed upload is tried again in a fresh session (a retried finalize may meet a session already final), and the batch goes out once', async () => {
    let finalizes = 0;
    const t = testDeps({
      fetchImpl: async (url, init) => {
        if (init.headers['x-goog-upload-command'] === 'upload, finalize' && ++finalizes === 1) {
          return { status: 400, headers: { get: () => null }, text: async () => JSON.stringify({ error: { code: 400, message: 'Upload session already finalized', status: 'INVALID_ARGUMENT' } }) };
        }
        const res = await fetch(url, init);
        return { status: res.status, headers: res.headers, text: () => res.text() };
      },
    });
    const c = createGeminiBatchClient(settings(), t.deps)!;
    const { id } = await c.submit(many, 'daily');
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /upload/v1beta/files', 'POST /upload/v1beta/files', 'POST /upload/v1beta/files', 'POST /v1beta/models/gemini-3.5-flash-lite:batchGenerateContent',
    ]);
    expect(t.log.lines.some((l) => l.level === 'warn' && l.msg === 'platform batch upload failed; retrying in a fresh session')).toBe(true);
    expect((await c.results(id)).size).toBe(many.length);
  });

  test('a base URL ending in /v1beta still uploads and downloads at the API root', async () => {
    const { id } = await createGeminiBatchClient({ apiUrl: `${fake.url}/v1beta`, apiKey: fake.key }, testDeps().deps)!.submit(many, 'daily');
    expect(fake.requests[0]!.path).toBe('/upload/v1beta/files');
    const results = await createGeminiBatchClient({ apiUrl: `${fake.url}/v1beta/`, apiKey: fake.key }, testDeps().deps)!.results(id);
    expect(results.size).toBe(many.length);
  });

  test('a responses file line that cannot be read leaves only its prompt without an outcome; a line without a key is ignored', async () => {
    const good = { candidates: [{ content: { parts: [{ text: 'An answer.' }] }, finishReason: 'STOP' }], modelVersion: 'gemini-3.5-flash-lite' };
    const file = [JSON.stringify({ key: 'a', response: good }), '{"key": "b", "resp', JSON.stringify({ response: good }), JSON.stringify({ key: 'c', error: { code: 429, message: 'quota', status: 'RESOURCE_EXHAUSTED' } }), ''].join('\n');
    const op = { name: 'batches/abc', done: true, metadata: { state: 'BATCH_STATE_SUCCEEDED' }, response: { responsesFile: 'files/batch-abc' } };
    const calls: string[] = [];
    const t = testDeps({ fetchImpl: async (url) => {
      calls.push(url);
      const text = url.includes('/download/') ? file : JSON.stringify(op);
      return { status: 200, headers: { get: () => null }, text: async () => text };
    } });
    const results = await createGeminiBatchClient(settings(), t.deps)!.results('batches/abc');
    expect(calls).toEqual([`${fake.url}/v1beta/batches/abc`, `${fake.url}/download/v1beta/files/batch-abc:download?alt=media`]);
    expect([...results.keys()]).toEqual(['a', 'c']);
    expect(expectOk(results.get('a')!).text).toBe('An answer.');
    expect(expectFailure(results.get('c')!, 'failed').reason).toContain('429 RESOURCE_EXHAUSTED: quota');
  });
});

test('platform_3 on Gemini on Vertex AI (D239) has no batch client: its daily checks stay synchronous', () => {
  expect(createGeminiBatchClient({ ...settings(), vertexProject: 'shop-visibility-7' }, testDeps().deps)).toBeNull();
});
