/** platform_7 on the wire: Responses API + web_search agent tool against its fake. */
import { createPlatform7Client } from '../../../functions/adapters/external/platforms';
import { startFakePlatform, type FakePlatformServer } from '../../../functions/local/fakes/platforms';
import { expectOk, testDeps } from './support';

let fake: FakePlatformServer;
beforeAll(async () => {
  fake = await startFakePlatform('platform_7', {
    answerFor: () => ({
      text: 'People on X like Harbor & Pine Coffee Co.',
      citations: ['https://harborpine.example/'],
      searchResults: ['https://x.com/i/status/123', 'https://harborpine.example/'],
    }),
  });
});
afterAll(() => fake.close());

test('POST {url}/responses with Bearer and the web_search tool (not the deprecated search_parameters)', async () => {
  const t = testDeps();
  const client = createPlatform7Client({ apiUrl: fake.url, apiKey: fake.key }, t.deps);
  expect(client.kind).toBe('assistant of a social network');
  const answer = expectOk(await client.ask('coffee people recommend'));

  const req = fake.requests[0];
  expect(req.method).toBe('POST');
  expect(req.path).toBe('/v1/responses');
  expect(req.headers.authorization).toBe(`Bearer ${fake.key}`);
  expect(req.body).toEqual({ model: 'grok-4.3', input: 'coffee people recommend', tools: [{ type: 'web_search' }] });
  expect(req.body).not.toHaveProperty('search_parameters');

  // inline markdown citations stay in the text as the platform showed them
  expect(answer.text).toBe('People on X like Harbor & Pine Coffee Co. [[1]](https://harborpine.example/)');
  // cited: the annotations; retrieved: the top-level list of every source seen, less the cited ones
  expect(answer.citations).toEqual(['https://harborpine.example/']);
  expect(answer.retrieved).toEqual(['https://x.com/i/status/123']);
  expect(answer.model).toBe('grok-4.3');
  expect(answer.costUnit).toBe('tokens+web_searches');
  expect(answer.obtainedVia).toBe('responses API + web_search agent tool');
});
