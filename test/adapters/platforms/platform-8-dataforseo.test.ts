/** platform_8 through DataForSEO's live SERP API (D225) against the platform_8 fake's DataForSEO route. */
import { createPlatform8Client } from '../../../functions/adapters/external/platforms';
import { dataForSeoTask, dataForSeoUrl } from '../../../functions/adapters/external/platforms/platform-8-dataforseo';
import { startFakePlatform, type FakePlatformServer } from '../../../functions/local/fakes/platforms';
import type { PlatformOutcome } from '../../../functions/core/visibility/platform-answer';
import { cannedFetch, everythingSaid, expectFailure, expectOk, testDeps } from './support';

const CREDENTIALS = 'ops@shop.example:dfs-pass-9c1e4b7a';
const TEXT = 'Harbor & Pine Coffee Co. sells fresh beans.\n\n- Espresso blends\n- Single origins';

let fake: FakePlatformServer;
beforeAll(async () => {
  fake = await startFakePlatform('platform_8', {
    key: CREDENTIALS,
    answerFor: (q) => (q.includes('nothing') ? null : { text: TEXT, citations: ['https://harborpine.example/', 'https://rival.example/'], deferred: q.includes('lazy') }),
  });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const settings = (apiKey = CREDENTIALS) => ({ apiUrl: `${fake.url}/v3`, apiKey });

test('the URL picks the vendor: DataForSEO for its host or a /v3 base, SerpApi otherwise', () => {
  expect(dataForSeoUrl('https://api.dataforseo.com')).toBe('https://api.dataforseo.com/v3/serp/google/organic/live/advanced');
  expect(dataForSeoUrl('https://api.dataforseo.com/')).toBe('https://api.dataforseo.com/v3/serp/google/organic/live/advanced');
  expect(dataForSeoUrl('https://gateway.example/dfs/v3/')).toBe('https://gateway.example/dfs/v3/serp/google/organic/live/advanced');
  expect(dataForSeoUrl('https://serpapi.com')).toBeNull();
});

test('POST one live task with Basic credentials; the overview elements as text, the item\'s and the elements\' references as citations', async () => {
  const t = testDeps();
  const answer = expectOk(await createPlatform8Client(settings(), t.deps).ask('coffee beans & grinders'));
  expect(fake.requests).toHaveLength(1);
  const req = fake.requests[0]!;
  expect(`${req.method} ${req.path}`).toBe('POST /v3/serp/google/organic/live/advanced');
  expect(req.headers.authorization).toBe(`Basic ${Buffer.from(CREDENTIALS).toString('base64')}`);
  expect(req.query).toEqual({});
  expect(req.body).toEqual([dataForSeoTask('coffee beans & grinders')]);
  expect(req.body).toEqual([{ keyword: 'coffee beans & grinders', location_code: 2840, language_code: 'en', device: 'desktop', depth: 10, max_crawl_pages: 1, load_async_ai_overview: true }]);
  expect(answer.text).toBe(TEXT);
  expect(answer.citations).toEqual(['https://harborpine.example/', 'https://rival.example/']);
  expect(answer.model).toBeNull();
  expect(answer.costUnits).toBe(1);
  expect(answer.costUnit).toBe('searches');
  expect(answer.obtainedVia).toBe('SERP ai_overview (DataForSEO live)');
  // the same answer as SerpApi's for the same overview: both vendors' texts and citations agree
  const serp = expectOk(await createPlatform8Client({ apiUrl: fake.url, apiKey: 'unused' }, testDeps({ fetchImpl: cannedFetch(200, { ai_overview: { text_blocks: [{ type: 'paragraph', snippet: 'Harbor & Pine Coffee Co. sells fresh beans.' }, { type: 'list', list: [{ snippet: 'Espresso blends' }, { snippet: 'Single origins' }] }], references: [{ link: 'https://harborpine.example/' }, { link: 'https://rival.example/' }] } }) }).deps).ask('coffee'));
  expect(serp.text).toBe(answer.text);
  expect(serp.citations).toEqual(answer.citations);
});

test('an overview Google loads after the page comes with the task (load_async_ai_overview), one request', async () => {
  const answer = expectOk(await createPlatform8Client(settings(), testDeps().deps).ask('lazy coffee question'));
  expect(answer.text).toBe(TEXT);
  expect(fake.requests).toHaveLength(1);
});

test('no ai_overview item is no_answer; an asynchronous item without text is failed', async () => {
  expect(expectFailure(await createPlatform8Client(settings(), testDeps().deps).ask('nothing here'), 'no_answer').reason)
    .toBe('platform_8: the search engine showed no AI overview for this query');
  const asyncEmpty = { status_code: 20000, tasks: [{ status_code: 20000, result: [{ items: [{ type: 'ai_overview', asynchronous_ai_overview: true, items: null, references: null }] }] }] };
  expect(expectFailure(await createPlatform8Client(settings(), testDeps({ fetchImpl: cannedFetch(200, asyncEmpty) }).deps).ask('q'), 'failed').reason)
    .toBe('platform_8: the AI overview loads after the page and DataForSEO returned no text for it');
});

test('a refused task (HTTP 200 with its own code) is a failed check naming the code; wrong credentials are HTTP 401, not retried', async () => {
  const refused = { status_code: 20000, tasks: [{ status_code: 40501, status_message: "Invalid Field: 'keyword'.", result: null }] };
  expect(expectFailure(await createPlatform8Client(settings(), testDeps({ fetchImpl: cannedFetch(200, refused) }).deps).ask('q'), 'failed').reason)
    .toBe("platform_8: the DataForSEO task failed (40501 Invalid Field: 'keyword'.)");
  const t = testDeps();
  const failure = expectFailure(await createPlatform8Client(settings('ops@shop.example:wrong-pass-0000'), t.deps).ask('coffee'), 'failed');
  expect(failure.reason).toContain('HTTP 401');
  expect(fake.requestCount()).toBe(1);
  expect(t.sleeps).toEqual([]);
});

test("the vendor's own server error inside an HTTP 200 (5xxxx) is retried like an HTTP 5xx", async () => {
  const replies = [
    { status_code: 20000, tasks: [{ status_code: 50000, status_message: 'Internal Error.', result: null }] },
    { status_code: 20000, tasks: [{ status_code: 20000, result: [{ items: [{ type: 'ai_overview', items: [{ text: 'Fresh beans.', references: [{ url: 'https://harborpine.example/' }] }] }] }] }] },
  ];
  const t = testDeps({ fetchImpl: async () => ({ status: 200, headers: { get: () => null }, text: async () => JSON.stringify(replies.shift()) }) });
  const answer = expectOk(await createPlatform8Client(settings(), t.deps).ask('coffee'));
  expect(answer.text).toBe('Fresh beans.');
  expect(t.sleeps).toHaveLength(1);
});

test('a key that is not <login>:<password> is refused before anything is sent', async () => {
  const t = testDeps();
  const failure = expectFailure(await createPlatform8Client(settings('just-a-token-123456'), t.deps).ask('coffee'), 'failed');
  expect(failure.reason).toBe('platform_8: PLATFORM_8_API_KEY for DataForSEO is `<login>:<password>` (its API credentials)');
  expect(fake.requestCount()).toBe(0);
});

test('neither the credentials, the password nor their Basic form is ever in a reason or a log line', async () => {
  const t = testDeps();
  const outcomes: PlatformOutcome[] = [];
  const client = createPlatform8Client(settings(), t.deps);
  fake.failNext(503, 3);
  outcomes.push(await client.ask('coffee'));
  const basic = Buffer.from(CREDENTIALS).toString('base64');
  const echo = testDeps({ fetchImpl: async () => { throw new Error(`proxy refused Authorization: Basic ${basic} (password dfs-pass-9c1e4b7a)`); } });
  outcomes.push(await createPlatform8Client(settings(), echo.deps).ask('coffee'));
  const said = everythingSaid(t.log, outcomes) + everythingSaid(echo.log, outcomes);
  for (const secret of [CREDENTIALS, basic, 'dfs-pass-9c1e4b7a']) expect(said).not.toContain(secret);
  expect(said).toContain('[redacted]');
});

test('the fake refuses a field it does not know and answers a deferred overview only when the task asks for it', async () => {
  const post = (task: Record<string, unknown>) => fetch(`${fake.url}/v3/serp/google/organic/live/advanced`, {
    method: 'POST', headers: { authorization: `Basic ${Buffer.from(CREDENTIALS).toString('base64')}`, 'content-type': 'application/json' }, body: JSON.stringify([task]),
  }).then((r) => r.json() as Promise<{ tasks: Array<{ status_code: number; status_message: string; result: Array<{ items: Array<Record<string, unknown>> }> | null }> }>);
  const bad = await post({ ...dataForSeoTask('coffee'), colour: 'blue' });
  expect(bad.tasks[0]).toMatchObject({ status_code: 40501, status_message: "Invalid Field: 'colour'.", result: null });
  const { load_async_ai_overview: _asked, ...plain } = dataForSeoTask('lazy coffee');
  const item = (await post(plain)).tasks[0]!.result![0]!.items[0]!;
  expect(item).toMatchObject({ type: 'ai_overview', asynchronous_ai_overview: true, items: null });
  const loaded = (await post(dataForSeoTask('lazy coffee'))).tasks[0]!.result![0]!.items[0]!;
  expect(loaded).toMatchObject({ type: 'ai_overview', asynchronous_ai_overview: false, markdown: TEXT });
});
