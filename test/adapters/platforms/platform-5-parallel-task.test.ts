/** platform_5 through Parallel's Task API (D228) against the platform_5 fake's Task routes. */
import { createPlatform5Client } from '../../../functions/adapters/external/platforms';
import { isTaskProcessor } from '../../../functions/adapters/external/platforms/platform-5-parallel-task';
import { startFakePlatform, type FakePlatformServer } from '../../../functions/local/fakes/platforms';
import { everythingSaid, expectFailure, expectOk, testDeps } from './support';

const TEXT = 'For the freshest beans, Harbor & Pine Coffee Co. roasts to order; Rival Roasters is cheaper.';
const CITED = ['https://harborpine.example/about', 'https://rival.example/'];

let fake: FakePlatformServer;
beforeAll(async () => {
  fake = await startFakePlatform('platform_5', {
    answerFor: (q) => (q.includes('nothing') ? { text: '', citations: [] } : { text: TEXT, citations: CITED, deferred: q.includes('slow') }),
  });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const client = (model = 'base-fast', apiUrl = fake.url, apiKey = fake.key) => (deps = testDeps()) => ({ t: deps, c: createPlatform5Client({ apiUrl, apiKey, model }, deps.deps) });

test('the model picks the API: a Task processor the Task API, `parallel` (the default) the Responses API', async () => {
  for (const p of ['lite', 'base', 'core', 'core2x', 'pro', 'ultra', 'ultra8x', 'lite-fast', 'base-fast', 'ultra4x-fast']) expect(isTaskProcessor(p)).toBe(true);
  for (const m of ['parallel', 'speed', 'base-turbo', 'gpt-5', '', null]) expect(isTaskProcessor(m)).toBe(false);
  expectOk(await createPlatform5Client({ apiUrl: fake.url, apiKey: fake.key }, testDeps().deps).ask('coffee'));
  expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v1/responses']);
});

test('POST one task run (x-api-key, the processor, a text output schema), then GET its result: the text, the basis citations, the processor', async () => {
  const { t, c } = client()();
  expect(c.model).toBe('base-fast');
  const answer = expectOk(await c.ask('freshest coffee roaster online'));
  expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v1/tasks/runs', expect.stringMatching(/^GET \/v1\/tasks\/runs\/trun_[0-9a-f]{32}\/result$/)]);
  const [create, result] = fake.requests;
  expect(create!.headers['x-api-key']).toBe(fake.key);
  expect(create!.headers.authorization).toBeUndefined();
  expect(create!.body).toEqual({
    input: 'freshest coffee roaster online',
    processor: 'base-fast',
    task_spec: { output_schema: { type: 'text', description: 'A direct answer to the question, as an AI assistant would give it to the person asking.' } },
  });
  // the description names no store: the answer is not steered
  expect(JSON.stringify(create!.body)).not.toMatch(/harbor|pine|rival/i);
  // the vendor blocks up to `timeout` seconds, a few under the HTTP attempt's own timeout (5 s here; at least 1)
  expect(result!.query).toEqual({ timeout: '1' });
  expect(result!.headers['x-api-key']).toBe(fake.key);
  expect(answer.text).toBe(TEXT);
  expect(answer.citations).toEqual(CITED);
  expect(answer.retrieved).toEqual([]);
  expect(answer.model).toBe('base-fast');
  expect(answer.costUnits).toBe(1);
  expect(answer.costUnit).toBe('task runs');
  expect(answer.obtainedVia).toBe('Task API run (text output, live web research)');
  expect(t.sleeps).toEqual([]);
});

test('the wait for the result is sized from the attempt timeout: 90 s leaves the vendor 85 s to answer 408', async () => {
  const { c } = client()(testDeps({ timeoutMs: 90_000 }));
  expectOk(await c.ask('coffee'));
  expect(fake.requests[1]!.query).toEqual({ timeout: '85' });
});

test('a URL without /v1 reaches the same routes', async () => {
  const { c } = client('lite', fake.origin)();
  expect(expectOk(await c.ask('coffee')).model).toBe('lite');
  expect(fake.requests[0]!.path).toBe('/v1/tasks/runs');
});

test('a run still active when the wait ends (408) is asked for again, never created twice', async () => {
  const { t, c } = client()();
  const answer = expectOk(await c.ask('a slow coffee question'));
  expect(answer.text).toBe(TEXT);
  expect(fake.requests.map((r) => r.method)).toEqual(['POST', 'GET', 'GET']);
  expect(new Set(fake.requests.slice(1).map((r) => r.path)).size).toBe(1);
  expect(t.sleeps).toHaveLength(1);
});

test('a failed run is a failed check naming the run\'s own error (its result is 404, its status says why)', async () => {
  const { c } = client()();
  const failure = expectFailure(await c.ask('nothing to say'), 'failed');
  expect(failure.reason).toBe('platform_5: the task run failed (The run could not produce an output for this input)');
  expect(fake.requests.map((r) => `${r.method} ${r.path.replace(/trun_[0-9a-f]+/, '<run>')}`))
    .toEqual(['POST /v1/tasks/runs', 'GET /v1/tasks/runs/<run>/result', 'GET /v1/tasks/runs/<run>']);
});

test('a rejected key is failed at once, never retried, and the key appears nowhere', async () => {
  const { t, c } = client('base', fake.url, 'wrong-key-5d0c81f2e9')();
  const outcome = await c.ask('coffee');
  expect(expectFailure(outcome, 'failed').reason).toMatch(/^platform_5: HTTP 401/);
  expect(fake.requests).toHaveLength(1);
  expect(everythingSaid(t.log, [outcome])).not.toContain('wrong-key-5d0c81f2e9');
});

test('the fake is strict: unknown fields and processors are refused (422); no text schema answers the auto (JSON) output', async () => {
  const post = async (body: unknown) => {
    const res = await fetch(`${fake.url}/tasks/runs`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': fake.key! }, body: JSON.stringify(body) });
    return { status: res.status, body: await res.json() as Record<string, any> };
  };
  const unknownField = await post({ input: 'coffee', processor: 'base', model: 'parallel' });
  expect(unknownField.status).toBe(422);
  expect(unknownField.body).toMatchObject({ type: 'error', error: { message: "Unprocessable content: unknown field 'model'" } });
  expect((await post({ input: 'coffee', processor: 'turbo' })).status).toBe(422);
  expect((await post({ processor: 'base' })).status).toBe(422);
  const auto = await post({ input: 'coffee', processor: 'lite' });
  expect(auto.status).toBe(202);
  expect(auto.body).toMatchObject({ status: 'queued', is_active: true, processor: 'lite' });
  const res = await fetch(`${fake.url}/tasks/runs/${auto.body.run_id}/result`, { headers: { 'x-api-key': fake.key! } });
  expect(await res.json()).toMatchObject({ run: { status: 'completed' }, output: { type: 'json', content: { answer: TEXT } } });
});
