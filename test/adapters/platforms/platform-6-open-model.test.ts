/** platform_6 on the wire: the search API's results fed to an open model's chat completions, both served by its fake. */
import { createPlatform6Client } from '../../../functions/adapters/external/platforms';
import { orderByReference, referencedUrls, systemMessage } from '../../../functions/adapters/external/platforms/platform-6-open-model';
import { startFakePlatform, type FakePlatformServer } from '../../../functions/local/fakes/platforms';
import { expectFailure, expectOk, testDeps } from './support';

const MODEL_KEY = 'open-model-key-31415926';
let fake: FakePlatformServer;
let keyed: FakePlatformServer;
const answerFor = () => ({
  text: 'Harbor & Pine Coffee Co. is a good choice for espresso.',
  citations: ['https://harborpine.example/espresso'],
  searchResults: ['https://rival.example/', 'https://blog.example/guide'],
});
beforeAll(async () => {
  fake = await startFakePlatform('platform_6', { answerFor, model: 'llama-3.3-70b' });
  keyed = await startFakePlatform('platform_6', { answerFor, key: MODEL_KEY });
});
afterAll(async () => {
  await fake.close();
  await keyed.close();
});
beforeEach(() => {
  fake.reset();
  keyed.reset();
});

const search = () => ({ apiUrl: fake.origin, apiKey: fake.searchKey });

test('GET the search API, then POST {url}/chat/completions with the numbered results and the prompt; no Authorization without a key', async () => {
  const t = testDeps();
  const client = createPlatform6Client({ apiUrl: fake.url, model: 'llama-3.3-70b' }, search(), t.deps);
  expect(client.kind).toBe('open-model assistant');
  expect(client.model).toBe('llama-3.3-70b');
  const answer = expectOk(await client.ask('best espresso beans'));

  const [searchReq, chatReq] = fake.requests;
  expect(searchReq.method).toBe('GET');
  expect(searchReq.path).toBe('/res/v1/web/search');
  expect(searchReq.query).toEqual({ q: 'best espresso beans', count: '5' });
  expect(searchReq.headers['x-subscription-token']).toBe(fake.searchKey);

  expect(chatReq.method).toBe('POST');
  expect(chatReq.path).toBe('/v1/chat/completions');
  expect(chatReq.headers.authorization).toBeUndefined();
  const body = chatReq.body as { model: string; temperature: number; messages: Array<{ role: string; content: string }> };
  expect(body.model).toBe('llama-3.3-70b');
  expect(body.messages.map((m) => m.role)).toEqual(['system', 'user']);
  expect(body.messages[1].content).toBe('best espresso beans');
  expect(body.messages[0].content).toContain('[1] Result 1 (harborpine.example)\nURL: https://harborpine.example/espresso');
  expect(body.messages[0].content).toContain('[3] Result 3 (blog.example)\nURL: https://blog.example/guide');

  expect(answer.text).toBe('Harbor & Pine Coffee Co. is a good choice for espresso. [1]');
  // cited: the results the answer refers to; retrieved: the other results the model was given
  expect(answer.citations).toEqual(['https://harborpine.example/espresso']);
  expect(answer.retrieved).toEqual(['https://rival.example/', 'https://blog.example/guide']);
  expect(answer.model).toBe('llama-3.3-70b');
  expect(answer.costUnit).toBe('tokens+web_searches');
  expect(answer.obtainedVia).toBe('web search API (3 results) + chat completions of an open model');
});

test('PLATFORM_6_API_KEY, when set, goes in the Authorization header', async () => {
  const t = testDeps();
  expectOk(await createPlatform6Client({ apiUrl: keyed.url, apiKey: MODEL_KEY, model: 'm' }, { apiUrl: keyed.origin, apiKey: keyed.searchKey }, t.deps).ask('q'));
  expect(keyed.requests[1].headers.authorization).toBe(`Bearer ${MODEL_KEY}`);
  const failure = expectFailure(await createPlatform6Client({ apiUrl: keyed.url, apiKey: 'not-the-model-key', model: 'm' }, { apiUrl: keyed.origin, apiKey: keyed.searchKey }, t.deps).ask('q'), 'failed');
  expect(failure.reason).toBe('platform_6: HTTP 401 from the platform API (credentials rejected; not retried)');
});

test('no search results: the model is still asked, told so, and nothing is cited', async () => {
  fake.setAnswerFor((prompt) => (prompt === 'obscure' ? { text: 'I could not find much.', citations: [] } : answerFor()));
  try {
    const t = testDeps();
    const answer = expectOk(await createPlatform6Client({ apiUrl: fake.url, model: 'm' }, search(), t.deps).ask('obscure'));
    expect(answer.citations).toEqual([]);
    expect(answer.obtainedVia).toBe('web search API (0 results) + chat completions of an open model');
    expect((fake.requests[1].body as { messages: Array<{ content: string }> }).messages[0].content).toContain('The web search returned no results');
  } finally {
    fake.setAnswerFor(answerFor);
  }
});

test('unconfigured: names what is missing, search API included', async () => {
  const t = testDeps();
  const reason = async (settings: { apiUrl?: string; model?: string }, searchSettings: { apiUrl?: string }) =>
    expectFailure(await createPlatform6Client(settings, searchSettings, t.deps).ask('q'), 'unconfigured').reason;
  expect(await reason({ apiUrl: fake.url, model: 'm' }, {})).toBe('SEARCH_API_URL is not set');
  expect(await reason({ model: 'm' }, search())).toBe('PLATFORM_6_API_URL is not set');
  expect(await reason({ apiUrl: fake.url }, search())).toBe('PLATFORM_6_MODEL is not set');
  expect(await reason({}, {})).toBe('PLATFORM_6_API_URL, PLATFORM_6_MODEL and SEARCH_API_URL are not set');
  expect(await reason({ apiUrl: 'ftp://x', model: 'm' }, search())).toBe('PLATFORM_6_API_URL is not an absolute http(s) URL');
  expect(t.urls).toEqual([]);
});

test('citations: the results the answer references come first, in the order it references them', () => {
  const urls = ['https://a.example/', 'https://b.example/', 'https://c.example/', 'https://d.example/'];
  expect(orderByReference('See [3] and [1, 2].', urls)).toEqual(['https://c.example/', 'https://a.example/', 'https://b.example/', 'https://d.example/']);
  expect(orderByReference('Per https://d.example and [9] (out of range)', urls)).toEqual(['https://d.example/', 'https://a.example/', 'https://b.example/', 'https://c.example/']);
  expect(orderByReference('No references.', urls)).toEqual(urls);
  expect(referencedUrls('See [3] and [1, 2].', urls)).toEqual(['https://c.example/', 'https://a.example/', 'https://b.example/']);
  expect(referencedUrls('Per https://d.example and [9] (out of range)', urls)).toEqual(['https://d.example/']);
  expect(referencedUrls('No references.', urls)).toEqual([]);
  expect(systemMessage([{ title: 'T', url: 'https://a.example/', snippet: '' }])).toContain('[1] T\nURL: https://a.example/');
});
