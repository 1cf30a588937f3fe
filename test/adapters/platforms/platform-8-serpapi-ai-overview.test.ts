/** platform_8 on the wire: the SERP API's ai_overview (and its page_token follow-up) against its fake. */
import { createPlatform8Client } from '../../../functions/adapters/external/platforms';
import { overviewText } from '../../../functions/adapters/external/platforms/platform-8-serpapi-ai-overview';
import { startFakePlatform, type FakePlatformServer } from '../../../functions/local/fakes/platforms';
import type { PlatformOutcome } from '../../../functions/core/visibility/platform-answer';
import { cannedFetch, everythingSaid, expectFailure, expectOk, testDeps } from './support';

let fake: FakePlatformServer;
beforeAll(async () => {
  fake = await startFakePlatform('platform_8', {
    answerFor: (q) => {
      if (q.includes('nothing')) return null;
      return {
        text: 'Harbor & Pine Coffee Co. sells fresh beans.\n\n- Espresso blends\n- Single origins',
        citations: ['https://harborpine.example/', 'https://rival.example/'],
        deferred: q.includes('lazy'),
      };
    },
  });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const settings = () => ({ apiUrl: fake.url, apiKey: fake.key });

test('GET {url}/search.json?engine=google&q=…&api_key=…; the overview text blocks and references', async () => {
  const t = testDeps();
  const client = createPlatform8Client(settings(), t.deps);
  expect(client.kind).toBe('AI overview of a web search engine');
  expect(client.model).toBeNull();
  const answer = expectOk(await client.ask('coffee beans & grinders'));

  expect(fake.requests).toHaveLength(1);
  const req = fake.requests[0];
  expect(req.method).toBe('GET');
  expect(req.path).toBe('/search.json');
  expect(req.query).toEqual({ engine: 'google', q: 'coffee beans & grinders', api_key: fake.key });
  expect(req.headers.authorization).toBeUndefined();

  expect(answer.text).toBe('Harbor & Pine Coffee Co. sells fresh beans.\n\n- Espresso blends\n- Single origins');
  expect(answer.citations).toEqual(['https://harborpine.example/', 'https://rival.example/']);
  expect(answer.model).toBeNull();
  expect(answer.costUnits).toBe(1);
  expect(answer.costUnit).toBe('searches');
  expect(answer.obtainedVia).toBe('SERP ai_overview');
});

test('a page_token without text blocks: one follow-up GET with engine=google_ai_overview', async () => {
  const t = testDeps();
  const answer = expectOk(await createPlatform8Client(settings(), t.deps).ask('lazy coffee question'));
  expect(fake.requests).toHaveLength(2);
  const follow = fake.requests[1];
  expect(follow.path).toBe('/search.json');
  expect(follow.query.engine).toBe('google_ai_overview');
  expect(follow.query.page_token).toMatch(/^[A-Za-z0-9_-]+$/);
  expect(follow.query.api_key).toBe(fake.key);
  expect(follow.query.q).toBeUndefined();
  expect(answer.text).toContain('Harbor & Pine Coffee Co.');
  expect(answer.costUnits).toBe(2);
  expect(answer.obtainedVia).toBe('SERP ai_overview (follow-up page_token request)');
});

test('no ai_overview: no_answer (a real outcome, recorded honestly), one request', async () => {
  const t = testDeps();
  const failure = expectFailure(await createPlatform8Client(settings(), t.deps).ask('nothing to see'), 'no_answer');
  expect(failure.reason).toBe('platform_8: the search engine showed no AI overview for this query');
  expect(fake.requests).toHaveLength(1);
  expect(t.log.lines.some((l) => l.level === 'info' && l.msg === 'platform gave no answer')).toBe(true);
});

test('the key (only in the query string) is never in a reason or a log line', async () => {
  const t = testDeps();
  const outcomes: PlatformOutcome[] = [];
  const client = createPlatform8Client(settings(), t.deps);
  fake.failNext(503, 3);
  outcomes.push(await client.ask('coffee'));
  fake.failNext(429, 1, { retryAfter: 1 });
  outcomes.push(await client.ask('coffee'));
  outcomes.push(await client.ask('nothing'));
  expect(t.urls.every((u) => u.includes(`api_key=${fake.key}`))).toBe(true);
  expect(everythingSaid(t.log, outcomes)).not.toContain(fake.key!);
  // even if a server echoes the key back in an error the runtime surfaces
  const echo = testDeps({ fetchImpl: async () => { throw Object.assign(new Error(`connect failed for https://serp.example/search.json?api_key=${fake.key}`), { cause: undefined }); } });
  const failure = expectFailure(await createPlatform8Client(settings(), echo.deps).ask('coffee'), 'failed');
  expect(failure.reason).toContain('[redacted]');
  expect(everythingSaid(echo.log, [{ ok: false, failure }])).not.toContain(fake.key!);
});

test('an engine error with no overview is no_answer; an announced overview that never loads is failed', async () => {
  let t = testDeps({ fetchImpl: cannedFetch(200, { search_metadata: { status: 'Success' }, error: "Google hasn't returned any results for this query." }) });
  expect(expectFailure(await createPlatform8Client(settings(), t.deps).ask('q'), 'no_answer').reason)
    .toBe("platform_8: the search engine showed no AI overview for this query (Google hasn't returned any results for this query.)");
  const calls: string[] = [];
  t = testDeps({ fetchImpl: cannedFetch(200, { ai_overview: { page_token: 'tok' } }, calls) });
  expect(expectFailure(await createPlatform8Client(settings(), t.deps).ask('q'), 'failed').reason)
    .toBe('platform_8: the AI overview was announced (page_token) but its follow-up request returned no text');
  expect(calls).toHaveLength(2);
});

test('text blocks: headings, nested lists, tables and expandable sections', () => {
  expect(overviewText([
    { type: 'heading', snippet: 'Best beans' },
    { type: 'paragraph', snippet: 'Fresh is best.', reference_indexes: [0] },
    { type: 'list', list: [{ title: 'Espresso', snippet: 'dark roast', list: [{ snippet: 'Harbor & Pine' }] }, { snippet: 'Filter' }] },
    { type: 'table', table: [['Shop', 'Price'], ['Harbor & Pine', '$18']] },
    { type: 'expandable', title: 'More', text_blocks: [{ type: 'paragraph', snippet: 'Hidden detail.' }] },
    { type: 'paragraph' },
    'garbage',
  ])).toBe('Best beans\n\nFresh is best.\n\n- Espresso: dark roast\n  - Harbor & Pine\n- Filter\n\nShop | Price\nHarbor & Pine | $18\n\nMore\n\nHidden detail.');
});
