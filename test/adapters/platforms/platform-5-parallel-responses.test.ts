/** platform_5 on the wire: the web-research Responses API against its fake. */
import { createPlatform5Client } from '../../../functions/adapters/external/platforms';
import { startFakePlatform, type FakePlatformServer } from '../../../functions/local/fakes/platforms';
import { expectOk, testDeps } from './support';

let fake: FakePlatformServer;
beforeAll(async () => {
  fake = await startFakePlatform('platform_5', {
    answerFor: () => ({ text: 'Rival Roasters leads on price; Harbor & Pine Coffee Co. on freshness.', citations: ['https://rival.example/', 'https://harborpine.example/about'] }),
  });
});
afterAll(() => fake.close());

test('POST {url}/responses with Bearer, model parallel and the input, no tools (grounding is built in)', async () => {
  const t = testDeps();
  const client = createPlatform5Client({ apiUrl: fake.url, apiKey: fake.key }, t.deps);
  expect(client.kind).toBe('assistant of a desktop-software company');
  expect(client.model).toBe('parallel');
  const answer = expectOk(await client.ask('freshest coffee roaster online'));

  const req = fake.requests[0];
  expect(req.method).toBe('POST');
  expect(req.path).toBe('/v1/responses');
  expect(req.headers.authorization).toBe(`Bearer ${fake.key}`);
  expect(req.body).toEqual({ model: 'parallel', input: 'freshest coffee roaster online' });

  expect(answer.text).toBe('Rival Roasters leads on price; Harbor & Pine Coffee Co. on freshness.');
  expect(answer.citations).toEqual(['https://rival.example/', 'https://harborpine.example/about']);
  expect(answer.model).toBe('parallel');
  // the Responses unit: built-in research shows no web_search_call item, so no search is added
  expect(answer.costUnit).toBe('tokens+web_searches');
  expect(answer.costUnits).toBe(Math.ceil('freshest coffee roaster online'.length / 4) + Math.ceil(answer.text.length / 4));
  expect(answer.obtainedVia).toBe('responses API (built-in live web research)');
});
