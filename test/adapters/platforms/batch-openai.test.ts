/** platform_1 through OpenAI's Batch API, on the wire against the fake (files, batches, JSONL results). */
import { createPlatform1Client } from '../../../functions/adapters/external/platforms';
import { createOpenAiBatchClient } from '../../../functions/adapters/external/platforms/batch/openai-batch';
import { platform1Body } from '../../../functions/adapters/external/platforms/platform-1-openai-responses';
import type { ProviderFetch } from '../../../functions/adapters/external/provider-fetch';
import type { BatchPrompt } from '../../../functions/core/visibility/platform-batch';
import { defaultAnswerFor, FAKE_PLATFORM_KEYS, FAKE_PLATFORM_MODELS, VENDOR_FORMATS } from '../../../functions/local/fakes/platforms';
import { openAiBatchRoutes, parseMultipart } from '../../../functions/local/fakes/platforms/batch-openai';
import { startFakeVendor, type FakePlatformServer } from '../../../functions/local/fakes/platforms/server';
import { expectFailure, expectOk, testDeps } from './support';

let fake: FakePlatformServer;
beforeAll(async () => {
  fake = await startFakeVendor('platform_1', openAiBatchRoutes(VENDOR_FORMATS.platform_1), {
    answerFor: defaultAnswerFor,
    key: FAKE_PLATFORM_KEYS.platform_1,
    model: FAKE_PLATFORM_MODELS.platform_1,
  });
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.reset();
  fake.setAnswerFor(defaultAnswerFor);
});

const settings = () => ({ apiUrl: fake.url, apiKey: fake.key });
const model = FAKE_PLATFORM_MODELS.platform_1;
const routes = () => fake.requests.map((r) => `${r.method} ${r.path}`);
const PROMPTS: BatchPrompt[] = [
  { customId: 'p1', prompt: 'best coffee beans for espresso' },
  { customId: 'p_2', prompt: 'where to buy a pour-over kettle' },
  { customId: 'P-3', prompt: 'decaf that tastes like coffee' },
];

/** Straight to the fake, as another OpenAI client would: upload a JSONL file and create a batch of it. */
async function rawBatch(lines: string[]): Promise<string> {
  const boundary = 'test-boundary-7d1f';
  const body = [`--${boundary}`, 'Content-Disposition: form-data; name="purpose"', '', 'batch', `--${boundary}`,
    'Content-Disposition: form-data; name="file"; filename="raw.jsonl"', 'Content-Type: application/octet-stream', '', lines.join('\n'), `--${boundary}--`, ''].join('\r\n');
  const auth = { authorization: `Bearer ${fake.key}` };
  const file = await (await fetch(`${fake.url}/files`, { method: 'POST', headers: { ...auth, 'content-type': `multipart/form-data; boundary=${boundary}` }, body })).json() as { id: string };
  const res = await fetch(`${fake.url}/batches`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ input_file_id: file.id, endpoint: '/v1/responses', completion_window: '24h' }) });
  expect(res.status).toBe(200);
  return ((await res.json()) as { id: string }).id;
}
const line = (customId: string, body: unknown, url = '/v1/responses') => JSON.stringify({ custom_id: customId, method: 'POST', url, body });

test('submit → in progress while held → ended; each answer is the synchronous answer; the upload carries platform1Body per line', async () => {
  fake.holdBatches(true);
  const t = testDeps();
  const client = createOpenAiBatchClient(settings(), t.deps)!;
  expect(client.platform).toBe('platform_1');
  const { id } = await client.submit(PROMPTS, 'daily 2025-06-01 platform_1 #1');
  expect(id).toMatch(/^batch_/);

  const upload = fake.requests[0];
  expect(`${upload.method} ${upload.path}`).toBe('POST /v1/files');
  expect(upload.headers.authorization).toBe(`Bearer ${fake.key}`);
  expect(upload.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
  const parts = parseMultipart(upload.raw, String(upload.headers['content-type']))!;
  expect(parts.map((p) => p.name)).toEqual(['purpose', 'file']);
  expect(parts[0].body).toBe('batch');
  expect(parts[1].filename).toBe('daily_2025-06-01_platform_1_1.jsonl');
  expect(parts[1].body.trimEnd().split('\n').map((l) => JSON.parse(l) as unknown))
    .toEqual(PROMPTS.map((p) => ({ custom_id: p.customId, method: 'POST', url: '/v1/responses', body: platform1Body(p.prompt, model) })));
  const create = fake.requests[1];
  expect(`${create.method} ${create.path}`).toBe('POST /v1/batches');
  expect(create.body).toEqual({ input_file_id: expect.stringMatching(/^file-/), endpoint: '/v1/responses', completion_window: '24h', metadata: { label: 'daily 2025-06-01 platform_1 #1' } });

  expect(await client.progress(id)).toEqual({ state: 'in_progress', vendorStatus: 'in_progress' });
  expect(await client.progress(id)).toEqual({ state: 'in_progress', vendorStatus: 'in_progress' });
  await expect(client.results(id)).rejects.toThrow(`platform_1: batch ${id} has not ended (in_progress)`);
  fake.holdBatches(false);
  expect(await client.progress(id)).toEqual({ state: 'ended', vendorStatus: 'completed' });
  const results = await client.results(id);
  expect(routes()).toEqual([
    'POST /v1/files', 'POST /v1/batches', `GET /v1/batches/${id}`, `GET /v1/batches/${id}`, `GET /v1/batches/${id}`, `GET /v1/batches/${id}`,
    `GET /v1/batches/${id}`, expect.stringMatching(/^GET \/v1\/files\/file-\w+\/content$/), // no error file: every request answered
  ]);
  expect([...results.keys()].sort()).toEqual(PROMPTS.map((p) => p.customId).sort());

  const sync = createPlatform1Client(settings(), testDeps().deps);
  for (const p of PROMPTS) {
    const batchAnswer = expectOk(results.get(p.customId)!);
    const syncAnswer = expectOk(await sync.ask(p.prompt));
    expect(batchAnswer.text).toBe(syncAnswer.text);
    expect(batchAnswer.text).toContain(p.prompt);
    expect(batchAnswer.citations).toEqual(['https://example.com/guide', 'https://sample.example/reviews']);
    expect(batchAnswer.citations).toEqual(syncAnswer.citations);
    expect(batchAnswer.obtainedVia).toBe('responses API (batch) + web_search tool');
    expect(batchAnswer.latencyMs).toBe(0);
    expect({ ...batchAnswer, obtainedVia: '', latencyMs: 0 }).toEqual({ ...syncAnswer, obtainedVia: '', latencyMs: 0 });
  }
  expect(t.sleeps).toEqual([]);
});

test('a wrong key: submit rejects naming HTTP 401, not retried, the key nowhere', async () => {
  const t = testDeps();
  const wrongKey = 'sk-wrong-key-5e8a1c';
  const client = createOpenAiBatchClient({ apiUrl: fake.url, apiKey: wrongKey }, t.deps)!;
  const err = await client.submit(PROMPTS, 'label').then(() => null, (e: unknown) => e as Error);
  expect(err?.message).toBe('platform_1: HTTP 401 from the platform API (credentials rejected; not retried)');
  await expect(client.progress('batch_x')).rejects.toThrow('HTTP 401');
  expect(routes()).toEqual(['POST /v1/files', 'GET /v1/batches/batch_x']);
  expect(JSON.stringify({ lines: t.log.lines, message: err?.message })).not.toContain(wrongKey);
});

test('a 503 on the upload and on the results file is retried', async () => {
  const t = testDeps();
  let contentFailed = false;
  // The fake's next answer is a 503 when the first results file is asked for.
  const fetchImpl: ProviderFetch = async (url, init) => {
    if (url.endsWith('/content') && !contentFailed) {
      contentFailed = true;
      fake.failNext(503);
    }
    return t.deps.fetchImpl!(url, init);
  };
  const client = createOpenAiBatchClient(settings(), { ...t.deps, fetchImpl })!;
  fake.failNext(503);
  const { id } = await client.submit(PROMPTS.slice(0, 1), 'retry');
  expect(routes()).toEqual(['POST /v1/files', 'POST /v1/files', 'POST /v1/batches']);
  expect(t.sleeps).toHaveLength(1);
  expect((await client.progress(id)).state).toBe('ended');
  fake.requests.length = 0;
  const results = await client.results(id);
  expect(routes()).toEqual([`GET /v1/batches/${id}`, expect.stringMatching(/\/content$/), expect.stringMatching(/\/content$/)]);
  expect(t.sleeps).toHaveLength(2);
  expect(expectOk(results.get('p1')!).text).toContain(PROMPTS[0].prompt);
});

test('a request answered without text fails that prompt only, as the synchronous call fails; the others are answers', async () => {
  fake.setAnswerFor((prompt, platform) => (prompt === PROMPTS[1].prompt ? { text: '', citations: [] } : defaultAnswerFor(prompt, platform)));
  const t = testDeps();
  const client = createOpenAiBatchClient(settings(), t.deps)!;
  const { id } = await client.submit(PROMPTS, 'quiet');
  expect((await client.progress(id)).state).toBe('ended');
  const results = await client.results(id);
  const failure = expectFailure(results.get('p_2')!, 'failed');
  expect(failure).toEqual({ platform: 'platform_1', kind: 'failed', reason: 'platform_1: the response has no output_text' });
  const syncFailure = expectFailure(await createPlatform1Client(settings(), testDeps().deps).ask(PROMPTS[1].prompt), 'failed');
  expect(failure.reason).toBe(syncFailure.reason);
  expect(expectOk(results.get('p1')!).text).toContain(PROMPTS[0].prompt);
  expect(expectOk(results.get('P-3')!).text).toContain(PROMPTS[2].prompt);
});

test('a line the vendor answers with an HTTP error (error file) fails that prompt naming the status and error; 2xx lines are answers', async () => {
  const id = await rawBatch([line('good', platform1Body('a good question', model)), line('bad', { model, tools: [] })]);
  const t = testDeps();
  const client = createOpenAiBatchClient(settings(), t.deps)!;
  expect(await client.progress(id)).toEqual({ state: 'ended', vendorStatus: 'completed' });
  const results = await client.results(id);
  expect(routes().filter((r) => r.endsWith('/content'))).toHaveLength(2); // output and error file
  expect(expectOk(results.get('good')!).text).toContain('a good question');
  expect(expectFailure(results.get('bad')!, 'failed').reason).toBe('platform_1: the batch request answered HTTP 400 (invalid_request_error: model and input are required)');
});

test('a cancelled batch: cancelling is in progress, cancelled is ended, every request failed as batch_cancelled', async () => {
  fake.holdBatches(true);
  const client = createOpenAiBatchClient(settings(), testDeps().deps)!;
  const { id } = await client.submit(PROMPTS, 'cancel');
  const res = await fetch(`${fake.url}/batches/${id}/cancel`, { method: 'POST', headers: { authorization: `Bearer ${fake.key}` } });
  expect(res.status).toBe(200);
  expect(await client.progress(id)).toEqual({ state: 'in_progress', vendorStatus: 'cancelling' });
  fake.holdBatches(false);
  expect(await client.progress(id)).toEqual({ state: 'ended', vendorStatus: 'cancelled' });
  const results = await client.results(id);
  expect(results.size).toBe(3);
  for (const p of PROMPTS) {
    expect(expectFailure(results.get(p.customId)!, 'failed').reason)
      .toBe('platform_1: the batch request failed (batch_cancelled: This request was not executed because the batch was cancelled.)');
  }
});

test('a batch that failed validation has no results (the caller records its prompts as failed); its errors are logged', async () => {
  const id = await rawBatch([line('a', platform1Body('q', model)), line('a', platform1Body('q2', model)), line('b', platform1Body('q3', model), '/v1/chat/completions'), 'not json']);
  const t = testDeps();
  const client = createOpenAiBatchClient(settings(), t.deps)!;
  expect(await client.progress(id)).toEqual({ state: 'ended', vendorStatus: 'failed' });
  expect((await client.results(id)).size).toBe(0);
  const warn = t.log.lines.find((l) => l.msg === 'platform batch failed');
  expect(warn?.level).toBe('warn');
  expect(warn?.fields).toMatchObject({ platform: 'platform_1', batch: id, status: 'failed', results: 0 });
  expect(warn?.fields?.errors).toEqual([
    expect.stringMatching(/^line 2: duplicate_custom_id: /),
    expect.stringMatching(/^line 3: url_mismatch: /),
    'line 4: invalid_json_line: This line is not parseable as valid JSON.',
  ]);
});

test('a results line that cannot be read fails only its own prompt', async () => {
  const base = testDeps();
  // Corrupts the line of `p_2` in the output file the fake sends (a fault on the wire, not a mock of the vendor).
  const fetchImpl: ProviderFetch = async (url, init) => {
    const res = await base.deps.fetchImpl!(url, init);
    if (!url.endsWith('/content')) return res;
    const text = await res.text();
    return { status: res.status, headers: res.headers, text: async () => text.split('\n').map((l) => (l.includes('"p_2"') ? l.slice(0, l.indexOf('"body"') + 12) : l)).join('\n') };
  };
  const client = createOpenAiBatchClient(settings(), { ...base.deps, fetchImpl })!;
  const { id } = await client.submit(PROMPTS, 'corrupt');
  await client.progress(id);
  const results = await client.results(id);
  expect(expectFailure(results.get('p_2')!, 'failed').reason).toBe('platform_1: the batch result line is not readable');
  expectOk(results.get('p1')!);
  expectOk(results.get('P-3')!);
});

test('prompts the Batch API would refuse are refused before any request', async () => {
  const client = createOpenAiBatchClient(settings(), testDeps().deps)!;
  await expect(client.submit([], 'x')).rejects.toThrow('platform_1: a batch needs at least one prompt');
  await expect(client.submit([{ customId: 'has space', prompt: 'q' }], 'x')).rejects.toThrow('is not 1-64 of [A-Za-z0-9_-]');
  await expect(client.submit([{ customId: 'a', prompt: 'q' }, { customId: 'a', prompt: 'r' }], 'x')).rejects.toThrow('platform_1: custom id a is given twice');
  const many = Array.from({ length: 50_001 }, (_, i) => ({ customId: `c${i}`, prompt: 'q' }));
  await expect(client.submit(many, 'x')).rejects.toThrow('platform_1: 50001 prompts exceed the 50000 requests of one OpenAI batch');
  expect(fake.requestCount()).toBe(0);
});

test('unconfigured settings (the synchronous client\'s rules) → null; configured → the documented limits', () => {
  const { deps } = testDeps();
  expect(createOpenAiBatchClient(undefined, deps)).toBeNull();
  expect(createOpenAiBatchClient({}, deps)).toBeNull();
  expect(createOpenAiBatchClient({ apiUrl: fake.url }, deps)).toBeNull();
  expect(createOpenAiBatchClient({ apiUrl: fake.url, apiKey: '  ' }, deps)).toBeNull();
  expect(createOpenAiBatchClient({ apiKey: 'k-123456' }, deps)).toBeNull();
  expect(createOpenAiBatchClient({ apiUrl: 'ftp://api.example/v1', apiKey: 'k-123456' }, deps)).toBeNull();
  expect(createOpenAiBatchClient({ apiUrl: 'api.openai.com/v1', apiKey: 'k-123456' }, deps)).toBeNull();
  const client = createOpenAiBatchClient({ apiUrl: 'https://api.openai.com/v1', apiKey: 'k-123456' }, deps);
  expect(client).toMatchObject({ platform: 'platform_1', maxPrompts: 50_000, completionWindowHours: 24 });
});
