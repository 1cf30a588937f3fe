/** platform_2's daily checks through Message Batches, against its fake: the same requests and answers as the synchronous Messages call. */
import { loadConfig } from '../../../functions/config';
import { createPlatform2Client } from '../../../functions/adapters/external/platforms';
import { createAnthropicBatchClient } from '../../../functions/adapters/external/platforms/batch/anthropic-batch';
import { platform2Body } from '../../../functions/adapters/external/platforms/platform-2-anthropic-messages';
import { startFakePlatform, type FakePlatformServer } from '../../../functions/local/fakes/platforms';
import { expectOk, testDeps } from './support';

let fake: FakePlatformServer;
const answers: Record<string, { text: string; citations: string[] }> = {
  'best espresso beans': { text: 'Harbor & Pine Coffee Co. roasts the best espresso beans. Rival Roasters is cheaper.', citations: ['https://harborpine.example/espresso', 'https://rival.example/beans'] },
  'quiet coffee grinder': { text: 'The Harbor & Pine burr grinder is the quietest.', citations: ['https://harborpine.example/grinder'] },
  'nothing to say': { text: '', citations: [] },
};
beforeAll(async () => {
  fake = await startFakePlatform('platform_2', { answerFor: (prompt) => answers[prompt] ?? { text: `About ${prompt}.`, citations: [] } });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const settings = () => ({ apiUrl: fake.url, apiKey: fake.key });
const prompts = [
  { customId: 'c1', prompt: 'best espresso beans' },
  { customId: 'c2', prompt: 'quiet coffee grinder' },
];

test('submits each prompt with the synchronous Messages body, stays in progress while the vendor works, and reads back the same answers', async () => {
  const client = createAnthropicBatchClient(settings(), testDeps().deps)!;
  expect({ max: client.maxPrompts, window: client.completionWindowHours }).toEqual({ max: 100_000, window: 24 });
  fake.holdBatches(true);
  const { id } = await client.submit(prompts, 'acme 2026-11-29');
  const create = fake.requests.find((r) => r.path === '/v1/messages/batches')!;
  expect(create.headers['x-api-key']).toBe(fake.key);
  expect(create.headers['anthropic-version']).toBe('2023-06-01');
  expect(create.body).toEqual({ requests: prompts.map((p) => ({ custom_id: p.customId, params: platform2Body(p.prompt, 'claude-sonnet-5-5') })) });

  expect(await client.progress(id)).toEqual({ state: 'in_progress', vendorStatus: 'in_progress' });
  await expect(client.results(id)).rejects.toThrow(/has not ended/);
  fake.holdBatches(false);
  expect(await client.progress(id)).toEqual({ state: 'ended', vendorStatus: 'ended' });

  const results = await client.results(id);
  const sync = createPlatform2Client(settings(), testDeps().deps);
  for (const p of prompts) {
    const batch = expectOk(results.get(p.customId)!);
    const direct = expectOk(await sync.ask(p.prompt));
    expect({ text: batch.text, citations: batch.citations, retrieved: batch.retrieved }).toEqual({ text: direct.text, citations: direct.citations, retrieved: direct.retrieved });
    expect(batch.obtainedVia).toMatch(/^message batches API \+ web_search tool/);
  }
});

test('a request the vendor answered without text fails alone; the others are answers', async () => {
  const client = createAnthropicBatchClient(settings(), testDeps().deps)!;
  const { id } = await client.submit([...prompts, { customId: 'c3', prompt: 'nothing to say' }], 'acme');
  await client.progress(id);
  const results = await client.results(id);
  expect(results.get('c3')).toEqual({ ok: false, failure: { platform: 'platform_2', kind: 'failed', reason: 'platform_2: the answer has no text' } });
  expect(results.get('c1')!.ok && results.get('c2')!.ok).toBe(true);
});

test('a wrong key is refused and the reason never carries it; a 503 is retried', async () => {
  const wrong = createAnthropicBatchClient({ apiUrl: fake.url, apiKey: 'sk-ant-wrong-key-123456' }, testDeps().deps)!;
  const refused = await wrong.submit(prompts, 'acme').then(() => null, (err: Error) => err.message);
  expect(refused).toMatch(/HTTP 401/);
  expect(refused).not.toContain('sk-ant-wrong-key-123456');

  fake.reset();
  fake.failNext(503);
  const client = createAnthropicBatchClient(settings(), testDeps().deps)!;
  await expect(client.submit(prompts, 'acme')).resolves.toEqual({ id: expect.stringMatching(/^msgbatch_/) });
  expect(fake.requests.filter((r) => r.path === '/v1/messages/batches')).toHaveLength(2);
});

test('a results_url on another origin is not followed with the key', async () => {
  const client = createAnthropicBatchClient(settings(), testDeps().deps)!;
  const { id } = await client.submit(prompts, 'acme');
  await client.progress(id);
  const asked: string[] = [];
  const t = testDeps({
    fetchImpl: async (url, init) => {
      asked.push(url);
      const res = await fetch(url, init);
      const text = await res.text();
      // The vendor (or something posing as it) names a results file elsewhere.
      const body = url.endsWith(id) ? text.replace(/"results_url":"[^"]+"/, '"results_url":"https://elsewhere.example/steal"') : text;
      return { status: res.status, headers: res.headers, text: async () => body };
    },
  });
  const results = await createAnthropicBatchClient(settings(), t.deps)!.results(id);
  expect(results.size).toBe(2);
  expect(asked.some((u) => u.includes('elsewhere.example'))).toBe(false);
});

test('not configured: no batch client', () => {
  expect(createAnthropicBatchClient(undefined, testDeps().deps)).toBeNull();
  expect(createAnthropicBatchClient({ apiUrl: fake.url }, testDeps().deps)).toBeNull();
});

test('through Claude Platform on AWS (D235): the workspace key as a bearer token and the workspace named, on the synchronous call and the batch alike', async () => {
  const aws = { ...settings(), workspaceId: 'wrkspc_01AbCdEf' };
  const sync = expectOk(await createPlatform2Client(aws, testDeps().deps).ask('best espresso beans'));
  expect(sync.text).toContain('Harbor & Pine');
  const client = createAnthropicBatchClient(aws, testDeps().deps)!;
  const { id } = await client.submit(prompts, 'acme');
  await client.progress(id);
  expect(expectOk((await client.results(id)).get('c1')!).text).toBe(sync.text);
  expect(fake.requests.length).toBeGreaterThanOrEqual(4);
  for (const r of fake.requests) {
    expect(r.headers.authorization).toBe(`Bearer ${fake.key}`);
    expect(r.headers['anthropic-workspace-id']).toBe('wrkspc_01AbCdEf');
    expect(r.headers['x-api-key']).toBeUndefined();
    expect(r.headers['anthropic-version']).toBe('2023-06-01');
  }
  // the bearer key without a workspace is refused (400, as the platform requires the header)
  const bare = await fetch(`${fake.url}/v1/messages/batches/${id}`, { headers: { authorization: `Bearer ${fake.key}`, 'anthropic-version': '2023-06-01' } });
  expect(bare.status).toBe(400);
  expect(await bare.text()).toContain('anthropic-workspace-id');
  // the scheme the request chose is the one checked: a wrong bearer beside a right x-api-key is refused
  const mixed = await fetch(`${fake.url}/v1/messages/batches/${id}`, { headers: { authorization: 'Bearer sk-ant-wrong', 'x-api-key': fake.key!, 'anthropic-workspace-id': 'w', 'anthropic-version': '2023-06-01' } });
  expect(mixed.status).toBe(401);
  // a blank workspace setting keeps the Claude API's x-api-key; a wrong key is a 401 naming no key
  fake.reset();
  const blank = await createPlatform2Client({ ...settings(), workspaceId: '  ' }, testDeps().deps).ask('best espresso beans');
  expect(blank.ok).toBe(true);
  expect(fake.requests[0].headers['x-api-key']).toBe(fake.key);
  const wrong = await createAnthropicBatchClient({ ...aws, apiKey: 'sk-ant-wrong-key-654321' }, testDeps().deps)!.submit(prompts, 'acme').then(() => null, (err: Error) => err.message);
  expect(wrong).toMatch(/HTTP 401/);
  expect(wrong).not.toContain('sk-ant-wrong-key-654321');
});

test('PLATFORM_2_WORKSPACE_ID reaches platform_2\'s settings only', () => {
  const platforms = loadConfig({ PLATFORM_2_WORKSPACE_ID: 'wrkspc_01AbCdEf', PLATFORM_1_API_URL: 'https://api.openai.com/v1' }).platforms;
  expect(platforms.find((p) => p.n === 2)).toMatchObject({ workspaceId: 'wrkspc_01AbCdEf' });
  expect(platforms.filter((p) => 'workspaceId' in p).map((p) => p.n)).toEqual([2]);
  expect(loadConfig({}).platforms.find((p) => p.n === 2)).not.toHaveProperty('workspaceId');
});
