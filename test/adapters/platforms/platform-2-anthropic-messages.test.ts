/** platform_2 on the wire: Messages API + web_search tool against its fake. */
import { createPlatform2Client } from '../../../functions/adapters/external/platforms';
import { startFakePlatform, type FakePlatformServer } from '../../../functions/local/fakes/platforms';
import { cannedFetch, expectFailure, expectOk, testDeps } from './support';

let fake: FakePlatformServer;
beforeAll(async () => {
  fake = await startFakePlatform('platform_2', {
    answerFor: () => ({
      text: 'Harbor & Pine Coffee Co. roasts the best espresso beans. Rival Roasters is a cheaper option.',
      citations: ['https://harborpine.example/espresso', 'https://rival.example/beans'],
      searchResults: ['https://blog.example/espresso-guide'],
    }),
  });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const settings = () => ({ apiUrl: fake.url, apiKey: fake.key });

test('POST {url}/v1/messages with x-api-key, anthropic-version, max_tokens and the web_search tool', async () => {
  const t = testDeps();
  const client = createPlatform2Client(settings(), t.deps);
  expect(client.kind).toBe('second chat assistant');
  const answer = expectOk(await client.ask('best espresso beans'));

  const req = fake.requests[0];
  expect(req.method).toBe('POST');
  expect(req.path).toBe('/v1/messages');
  expect(req.headers['x-api-key']).toBe(fake.key);
  expect(req.headers['anthropic-version']).toBe('2023-06-01');
  expect(req.headers.authorization).toBeUndefined();
  expect(req.body).toEqual({
    model: 'claude-sonnet-5-5',
    max_tokens: 2048,
    messages: [{ role: 'user', content: 'best espresso beans' }],
    tools: [{ type: 'web_search_20250305', name: 'web_search', max_uses: 5 }],
  });

  // the fake splits the text into two blocks at the citation boundary: concatenated back
  expect(answer.text).toBe('Harbor & Pine Coffee Co. roasts the best espresso beans. Rival Roasters is a cheaper option.');
  // cited: the URLs the text cites, in the text's order; retrieved: the search results it was given and did not cite
  expect(answer.citations).toEqual(['https://harborpine.example/espresso', 'https://rival.example/beans']);
  expect(answer.retrieved).toEqual(['https://blog.example/espresso-guide']);
  expect(answer.model).toBe('claude-sonnet-5-5');
  expect(answer.costUnit).toBe('tokens+web_searches');
  expect(answer.costUnits).toBe(Math.ceil('best espresso beans'.length / 4) + Math.ceil(answer.text.length / 4) + 1);
  expect(answer.obtainedVia).toBe('messages API + web_search tool (1 search)');
});

test('a base URL that already ends in /v1 is not doubled', async () => {
  const t = testDeps();
  expectOk(await createPlatform2Client({ ...settings(), apiUrl: `${fake.url}/v1` }, t.deps).ask('x'));
  expect(fake.requests[0].path).toBe('/v1/messages');
});

test('search errors inside the tool result and blocks without citations are tolerated', async () => {
  const t = testDeps({
    fetchImpl: cannedFetch(200, {
      model: 'claude-x',
      content: [
        { type: 'server_tool_use', id: 's1', name: 'web_search', input: { query: 'q' } },
        { type: 'web_search_tool_result', tool_use_id: 's1', content: { type: 'web_search_tool_result_error', error_code: 'max_uses_exceeded' } },
        { type: 'text', text: 'No sources, but an answer.', citations: null },
      ],
      usage: { input_tokens: 10, output_tokens: 5 },
    }),
  });
  const answer = expectOk(await createPlatform2Client(settings(), t.deps).ask('q'));
  expect(answer).toMatchObject({ text: 'No sources, but an answer.', citations: [], model: 'claude-x', costUnits: 15, obtainedVia: 'messages API + web_search tool (0 searches)' });
});

test('an answer with only tool blocks has no text: failed', async () => {
  const t = testDeps({ fetchImpl: cannedFetch(200, { model: 'm', content: [{ type: 'server_tool_use', id: 's', name: 'web_search' }] }) });
  expect(expectFailure(await createPlatform2Client(settings(), t.deps).ask('q'), 'failed').reason).toBe('platform_2: the answer has no text');
});

test('529 overloaded is retried like any 5xx', async () => {
  const t = testDeps();
  fake.failNext(529, 1);
  expectOk(await createPlatform2Client(settings(), t.deps).ask('q'));
  expect(fake.requestCount()).toBe(2);
});
