/** platform_4 on the wire: search-grounded chat completions against its fake. */
import { createPlatform4Client } from '../../../functions/adapters/external/platforms';
import { startFakePlatform, type FakePlatformServer } from '../../../functions/local/fakes/platforms';
import { cannedFetch, expectOk, testDeps } from './support';

let fake: FakePlatformServer;
beforeAll(async () => {
  fake = await startFakePlatform('platform_4', {
    answerFor: () => ({
      text: 'Harbor & Pine Coffee Co. and Rival Roasters both ship whole beans.',
      citations: ['https://harborpine.example/', 'https://rival.example/'],
      searchResults: ['https://reviews.example/coffee'],
    }),
  });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const settings = () => ({ apiUrl: fake.url, apiKey: fake.key });

test('POST {url}/chat/completions with Bearer, model sonar and the user message; cited: the [n] sources, retrieved: the other search results', async () => {
  const t = testDeps();
  const client = createPlatform4Client(settings(), t.deps);
  expect(client.kind).toBe('answer engine');
  const answer = expectOk(await client.ask('whole bean coffee delivery'));

  const req = fake.requests[0];
  expect(req.method).toBe('POST');
  expect(req.path).toBe('/chat/completions');
  expect(req.headers.authorization).toBe(`Bearer ${fake.key}`);
  expect(req.body).toEqual({ model: 'sonar', messages: [{ role: 'user', content: 'whole bean coffee delivery' }] });

  expect(answer.text).toBe('Harbor & Pine Coffee Co. and Rival Roasters both ship whole beans. [1][2]');
  expect(answer.citations).toEqual(['https://harborpine.example/', 'https://rival.example/']);
  expect(answer.retrieved).toEqual(['https://reviews.example/coffee']);
  expect(answer.model).toBe('sonar');
  expect(answer.costUnits).toBe(Math.ceil('whole bean coffee delivery'.length / 4) + Math.ceil(answer.text.length / 4));
  expect(answer.costUnit).toBe('tokens');
  expect(answer.obtainedVia).toBe('chat completions of a search-grounded model');
});

test('a reasoning model\'s <think> block is removed; only search_results is fine', async () => {
  const t = testDeps({
    fetchImpl: cannedFetch(200, {
      model: 'sonar-reasoning',
      choices: [{ message: { role: 'assistant', content: '<think>\nlet me see\n</think>\nThe answer [1].' } }],
      search_results: [{ title: 't', url: 'https://only-results.example/a' }, { title: 'no url' }],
      usage: { total_tokens: 77 },
    }),
  });
  const answer = expectOk(await createPlatform4Client(settings(), t.deps).ask('x'));
  expect(answer).toMatchObject({ text: 'The answer [1].', citations: ['https://only-results.example/a'], retrieved: [], model: 'sonar-reasoning', costUnits: 77 });
});

test('a source the text never refers to by [n] is retrieved, not cited', async () => {
  const t = testDeps({
    fetchImpl: cannedFetch(200, {
      model: 'sonar',
      choices: [{ message: { role: 'assistant', content: 'Rival Roasters ships fast [2].' } }],
      citations: ['https://harborpine.example/', 'https://rival.example/'],
      search_results: [{ url: 'https://harborpine.example/' }, { url: 'https://rival.example/' }, { url: 'https://blog.example/' }],
    }),
  });
  const answer = expectOk(await createPlatform4Client(settings(), t.deps).ask('x'));
  expect(answer.citations).toEqual(['https://rival.example/']);
  expect(answer.retrieved).toEqual(['https://harborpine.example/', 'https://blog.example/']);
});
