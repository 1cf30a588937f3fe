/**
 * platform_4 on the wire: Perplexity's Agent API with the web_search tool (its fake), and the
 * Sonar chat completions a Sonar-compatible server at another URL still speaks (D220).
 */
import { createPlatform4Client } from '../../../functions/adapters/external/platforms';
import { agentApiUrl } from '../../../functions/adapters/external/platforms/platform-4-perplexity';
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

test('POST {url}/v1/agent with Bearer, model perplexity/sonar, the prompt and the web_search tool; cited: the [n] search results, retrieved: the others', async () => {
  const t = testDeps();
  const client = createPlatform4Client(settings(), t.deps);
  expect(client.kind).toBe('answer engine');
  expect(client.model).toBe('perplexity/sonar');
  const answer = expectOk(await client.ask('whole bean coffee delivery'));

  const req = fake.requests[0];
  expect(req.method).toBe('POST');
  expect(req.path).toBe('/v1/agent');
  expect(req.headers.authorization).toBe(`Bearer ${fake.key}`);
  expect(req.body).toEqual({ model: 'perplexity/sonar', input: 'whole bean coffee delivery', tools: [{ type: 'web_search' }] });

  expect(answer.text).toBe('Harbor & Pine Coffee Co. and Rival Roasters both ship whole beans. [1][2]');
  expect(answer.citations).toEqual(['https://harborpine.example/', 'https://rival.example/']);
  expect(answer.retrieved).toEqual(['https://reviews.example/coffee']);
  expect(answer.model).toBe('perplexity/sonar');
  // tokens in + out, plus the one search the search_results item stands for
  expect(answer.costUnits).toBe(Math.ceil('whole bean coffee delivery'.length / 4) + Math.ceil(answer.text.length / 4) + 1);
  expect(answer.costUnit).toBe('tokens+web_searches');
  expect(answer.obtainedVia).toBe('agent API + web_search tool');
});

test('an operator\'s Sonar model name `sonar` is sent as perplexity/sonar (the fake refuses unprefixed models, as the API does)', async () => {
  const t = testDeps();
  const answer = expectOk(await createPlatform4Client({ ...settings(), model: 'sonar' }, t.deps).ask('q'));
  expect(fake.requests[0].body).toMatchObject({ model: 'perplexity/sonar' });
  expect(answer.model).toBe('perplexity/sonar');
});

const agentBody = (text: string, results: { url?: string }[], extra: Record<string, unknown> = {}) => ({
  object: 'response',
  status: 'completed',
  model: 'perplexity/sonar',
  output: [
    { type: 'search_results', queries: ['x'], results },
    { type: 'message', role: 'assistant', content: [{ type: 'output_text', text, annotations: [] }] },
  ],
  usage: { input_tokens: 5, output_tokens: 20, total_tokens: 25 },
  ...extra,
});

test('a search result the text never refers to by [n] is retrieved, not cited; a result without a url is skipped', async () => {
  const t = testDeps({
    fetchImpl: cannedFetch(200, agentBody('Rival Roasters ships fast [2].', [{ url: 'https://harborpine.example/' }, { url: 'https://rival.example/' }, { url: 'https://blog.example/' }])),
  });
  const answer = expectOk(await createPlatform4Client(settings(), t.deps).ask('x'));
  expect(answer.citations).toEqual(['https://rival.example/']);
  expect(answer.retrieved).toEqual(['https://harborpine.example/', 'https://blog.example/']);
});

test('url_citation annotations, when the API sends them, are the cited sources', async () => {
  const body = agentBody('Harbor & Pine roasts on Mondays.', [{ url: 'https://a.example/' }, { url: 'https://harborpine.example/' }]);
  (body.output[1] as { content: { annotations: unknown[] }[] }).content[0].annotations = [{ type: 'url_citation', url: 'https://harborpine.example/', start_index: 0, end_index: 10 }];
  const answer = expectOk(await createPlatform4Client(settings(), testDeps({ fetchImpl: cannedFetch(200, body) }).deps).ask('x'));
  expect(answer.citations).toEqual(['https://harborpine.example/']);
  expect(answer.retrieved).toEqual(['https://a.example/']);
});

test('a run that failed or was cancelled answers HTTP 200 with its status: a failure naming it, not an answer', async () => {
  for (const status of ['failed', 'cancelled']) {
    const t = testDeps({ fetchImpl: cannedFetch(200, agentBody('', [], { status, error: { message: 'model error', type: 'internal_error', code: 500 } })) });
    const outcome = await createPlatform4Client(settings(), t.deps).ask('x');
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.failure.reason).toContain(status === 'failed' ? 'failed (500)' : 'was cancelled (500)');
  }
});

test('the URL picks the wire format: the vendor\'s host or a /v1 base get the Agent API, another server Sonar chat completions', () => {
  expect(agentApiUrl('https://api.perplexity.ai')).toBe('https://api.perplexity.ai/v1/agent');
  expect(agentApiUrl('https://api.perplexity.ai/')).toBe('https://api.perplexity.ai/v1/agent');
  expect(agentApiUrl('https://api.perplexity.ai/v1')).toBe('https://api.perplexity.ai/v1/agent');
  expect(agentApiUrl('https://gateway.example/perplexity/v1/')).toBe('https://gateway.example/perplexity/v1/agent');
  expect(agentApiUrl('https://gateway.example/perplexity')).toBeNull();
});

describe('Sonar chat completions (a Sonar-compatible server)', () => {
  const gateway = { apiUrl: 'https://gateway.example/perplexity', apiKey: 'k' };

  test('POST {url}/chat/completions with model sonar and the user message; cited: the [n] sources, retrieved: the other search results', async () => {
    const calls: string[] = [];
    const t = testDeps({
      fetchImpl: cannedFetch(200, {
        model: 'sonar',
        choices: [{ message: { role: 'assistant', content: 'Harbor & Pine ships whole beans [1].' } }],
        citations: ['https://harborpine.example/', 'https://rival.example/'],
        search_results: [{ url: 'https://harborpine.example/' }, { url: 'https://reviews.example/coffee' }],
        usage: { total_tokens: 77 },
      }, calls),
    });
    const answer = expectOk(await createPlatform4Client(gateway, t.deps).ask('whole bean coffee'));
    expect(calls).toEqual(['https://gateway.example/perplexity/chat/completions']);
    expect(answer).toMatchObject({
      text: 'Harbor & Pine ships whole beans [1].', citations: ['https://harborpine.example/'],
      retrieved: ['https://rival.example/', 'https://reviews.example/coffee'], model: 'sonar', costUnits: 77, costUnit: 'tokens',
      obtainedVia: 'chat completions of a search-grounded model',
    });
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
    const answer = expectOk(await createPlatform4Client({ ...gateway, model: 'sonar-reasoning' }, t.deps).ask('x'));
    expect(answer).toMatchObject({ text: 'The answer [1].', citations: ['https://only-results.example/a'], retrieved: [], model: 'sonar-reasoning', costUnits: 77 });
  });
});
