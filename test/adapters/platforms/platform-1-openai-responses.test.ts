/** platform_1 on the wire: Responses API + web_search tool against its fake. */
import { createPlatform1Client } from '../../../functions/adapters/external/platforms';
import { answerFromResponses, parseResponsesBody } from '../../../functions/adapters/external/platforms/responses-api';
import { startFakePlatform, type FakePlatformServer } from '../../../functions/local/fakes/platforms';
import { cannedFetch, expectFailure, expectOk, testDeps } from './support';

let fake: FakePlatformServer;
beforeAll(async () => {
  fake = await startFakePlatform('platform_1', {
    answerFor: (prompt) => ({
      text: `For ${prompt}, Harbor & Pine Coffee Co. is a favourite; Rival Roasters is cheaper.`,
      citations: ['https://harborpine.example/beans', 'mailto:sales@x.example', 'https://rival.example/', 'https://harborpine.example/beans', '/relative'],
    }),
  });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const settings = () => ({ apiUrl: fake.url, apiKey: fake.key });

test('POST {url}/responses with Bearer, model, input and the web_search tool; parses text, citations, model, cost', async () => {
  const t = testDeps();
  const client = createPlatform1Client(settings(), t.deps);
  expect(client.kind).toBe('general chat assistant');
  expect(client.model).toBe('gpt-4.1-mini');
  const answer = expectOk(await client.ask('best coffee beans for espresso'));

  const req = fake.requests[0];
  expect(req.method).toBe('POST');
  expect(req.path).toBe('/v1/responses');
  expect(req.headers.authorization).toBe(`Bearer ${fake.key}`);
  expect(req.headers['content-type']).toBe('application/json');
  expect(req.body).toEqual({ model: 'gpt-4.1-mini', input: 'best coffee beans for espresso', tools: [{ type: 'web_search' }] });

  expect(answer.text).toBe('For best coffee beans for espresso, Harbor & Pine Coffee Co. is a favourite; Rival Roasters is cheaper.');
  expect(answer.citations).toEqual(['https://harborpine.example/beans', 'https://rival.example/']);
  expect(answer.model).toBe('gpt-4.1-mini');
  const inTokens = Math.ceil('best coffee beans for espresso'.length / 4);
  const outTokens = Math.ceil(answer.text.length / 4);
  // the per-call web search fee: one unit per web_search_call item, beside the tokens
  expect(answer.costUnits).toBe(inTokens + outTokens + 1);
  expect(answer.costUnit).toBe('tokens+web_searches');
  expect(answer.retrieved).toEqual([]);
  expect(answer.obtainedVia).toBe('responses API + web_search tool');
});

test('PLATFORM_1_MODEL is sent; a trailing slash on the URL is fine', async () => {
  const t = testDeps();
  const answer = expectOk(await createPlatform1Client({ ...settings(), apiUrl: `${fake.url}/`, model: 'gpt-5' }, t.deps).ask('x'));
  expect((fake.requests[0].body as { model: string }).model).toBe('gpt-5');
  expect(fake.requests[0].path).toBe('/v1/responses');
  expect(answer.model).toBe('gpt-5');
});

test('an answer without text is failed at once (not retried)', async () => {
  fake.setAnswerFor(() => ({ text: '', citations: [] }));
  try {
    const t = testDeps();
    const failure = expectFailure(await createPlatform1Client(settings(), t.deps).ask('x'), 'failed');
    expect(failure.reason).toBe('platform_1: the response has no output_text');
    expect(fake.requestCount()).toBe(1);
  } finally {
    fake.setAnswerFor((prompt) => ({ text: `About ${prompt}.`, citations: [] }));
  }
});

test('a body without output[] is malformed: retried, then failed', async () => {
  const t = testDeps({ fetchImpl: cannedFetch(200, { id: 'resp_1', object: 'response' }) });
  const failure = expectFailure(await createPlatform1Client(settings(), t.deps).ask('x'), 'failed');
  expect(failure.reason).toBe('platform_1: unexpected response shape: no output[] in the Responses body (after 3 attempts)');
});

test('status failed, refusals and several messages', () => {
  expect(() => answerFromResponses('platform_1', parseResponsesBody({ status: 'failed', output: [], error: { code: 'server_error', message: 'x' } }), 'v'))
    .toThrow('platform_1: the response failed (server_error)');
  expect(() => answerFromResponses('platform_1', parseResponsesBody({ status: 'completed', output: [{ type: 'message', content: [{ type: 'refusal', refusal: 'no' }] }] }), 'v'))
    .toThrow('(the model refused)');
  expect(() => answerFromResponses('platform_1', parseResponsesBody({ status: 'incomplete', output: [{ type: 'web_search_call' }] }), 'v'))
    .toThrow('(status incomplete)');
  const parts = answerFromResponses('platform_1', parseResponsesBody({
    model: 'm',
    output: [
      { type: 'reasoning' },
      { type: 'message', content: [{ type: 'output_text', text: 'One', annotations: [{ type: 'url_citation', url: 'https://a.example/' }, { type: 'file_citation' }] }] },
      { type: 'message', content: [{ type: 'output_text', text: 'Two', annotations: [] }] },
    ],
  }), 'v');
  expect(parts.text).toBe('One\n\nTwo');
  expect(parts.citations).toEqual(['https://a.example/']);
  expect(parts.costUnits).toBe(0);
});

test('each web_search_call item is one billed search in the cost units; the top-level citations[] are retrieved, not cited', () => {
  const parts = answerFromResponses('platform_7', parseResponsesBody({
    model: 'm',
    output: [
      { type: 'web_search_call' },
      { type: 'web_search_call' },
      { type: 'message', content: [{ type: 'output_text', text: 'One', annotations: [{ type: 'url_citation', url: 'https://a.example/' }] }] },
    ],
    usage: { input_tokens: 10, output_tokens: 5 },
    citations: ['https://a.example/', 'https://seen-only.example/'],
  }), 'v');
  expect(parts.costUnits).toBe(10 + 5 + 2);
  expect(parts.costUnit).toBe('tokens+web_searches');
  expect(parts.citations).toEqual(['https://a.example/']);
  expect(parts.retrieved).toEqual(['https://a.example/', 'https://seen-only.example/']);
});
