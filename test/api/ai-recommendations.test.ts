/**
 * POST /webhooks/ai-recommendation-store (PUBLIC, D17) and GET /api/ai-recommendations/{business_id}
 * (JWT, D25) through the local API server and the embedded database.
 */
import { recordSighting } from '../../functions/app/visits/record';
import { visitRepositoryOf } from '../../functions/engines/visit-repository';
import { getContainer } from '../../functions/container';
import { AI_CRAWLER_SAMPLES, HUMAN_SAMPLES, LINK_PREVIEW_SAMPLES, SEARCH_CRAWLER_SAMPLES } from '../fixtures/ai-user-agents';
import { startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
const ORG = 'visits-api';
const OTHER = 'visits-other';
const ua = (list: typeof AI_CRAWLER_SAMPLES, name: string) => list.find((s) => s.name === name)!.ua!;
const GPTBOT = ua(AI_CRAWLER_SAMPLES, 'GPTBot 1.1');
const CLAUDEBOT = ua(AI_CRAWLER_SAMPLES, 'ClaudeBot');
const PERPLEXITY = ua(AI_CRAWLER_SAMPLES, 'PerplexityBot');
const GENERIC = ua(AI_CRAWLER_SAMPLES, 'a crawler the maintained AI list names (stored as unknown)');
const CHROME = ua(HUMAN_SAMPLES, 'desktop Chrome');
const SLACK = ua(LINK_PREVIEW_SAMPLES, 'Slackbot-LinkExpanding');

/** Each test posts from its own client address, so the shared rate limit never mixes tests. */
let nextAddress = 10;
const beacon = (body: unknown, init: { contentType?: string | null; address?: string } = {}) => {
  const headers: Record<string, string> = { 'X-Forwarded-For': init.address ?? `198.51.100.${nextAddress++}` };
  if (init.contentType !== null) headers['Content-Type'] = init.contentType ?? 'text/plain;charset=UTF-8';
  return stack.call('POST', '/webhooks/ai-recommendation-store', { rawBody: typeof body === 'string' ? body : JSON.stringify(body), headers });
};
const page = (path = '/ai/') => `http://${ORG}.localhost${path}`;

beforeAll(async () => {
  stack = await startTestStack({ LOG_LEVEL: 'warn' });
  for (const [org, url] of [[ORG, 'visits-api-shop.example'], [OTHER, 'visits-other-shop.example']]) {
    const res = await stack.call('POST', '/api/business', { token: await stack.token(org), body: { name: org, url } });
    expect(res.status).toBe(201);
  }
}, 60_000);
afterAll(() => stack.close());

describe('POST /webhooks/ai-recommendation-store', () => {
  test('the beacon\'s text/plain JSON body is recorded (source beacon), once', async () => {
    const body = {
      page_url: page('/ai/products/decaf/?utm_source=chatgpt.com'), page_type: 'ai_site', page_title: 'Decaf | Visits', user_agent: GPTBOT,
      referrer: 'https://chatgpt.com/', screen_width: 1280, screen_height: 800, language: 'en-US', timezone: 'Europe/Paris',
    };
    const first = await beacon(body, { address: '198.51.100.1' });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ status: 'success', platform_id: 'platform_1', platform_name: 'ChatGPT', message: 'visit recorded' });
    const again = await beacon(body, { address: '198.51.100.1' });
    expect(again.body).toEqual({ status: 'success', platform_id: 'platform_1', platform_name: 'ChatGPT', message: 'visit already recorded (first seen by beacon)' });
  });

  test('application/json and a missing Content-Type work too; an unknown crawler is stored as unknown', async () => {
    expect((await beacon({ page_url: page('/ai/a/'), user_agent: CLAUDEBOT }, { contentType: 'application/json' })).body)
      .toMatchObject({ status: 'success', platform_id: 'platform_2', platform_name: 'Claude' });
    expect((await beacon({ page_url: page('/ai/b/'), user_agent: PERPLEXITY }, { contentType: null })).body)
      .toMatchObject({ status: 'success', platform_id: 'platform_4', platform_name: 'Perplexity' });
    expect((await beacon({ page_url: page('/ai/c/'), user_agent: GENERIC })).body)
      .toEqual({ status: 'success', platform_id: 'unknown', platform_name: 'Unknown', message: 'visit recorded' });
  });

  test.each([
    ['a human browser', CHROME, /human browser/],
    ['a link previewer', SLACK, /link previewer/],
  ])('%s → ignored, nothing stored', async (_, userAgent, message) => {
    const res = await beacon({ page_url: page('/ai/ignored/'), user_agent: userAgent });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ignored', platform_id: 'unknown', platform_name: 'Unknown', message: expect.stringMatching(message) });
    const { visits } = await visitRepositoryOf(getContainer()).list(ORG, { from: '2000-01-01', to: '2100-01-01' }, { limit: 500 });
    expect(visits.some((v) => v.path === '/ai/ignored/')).toBe(false);
  });

  test('a page_url whose host no business serves → ignored, nothing stored', async () => {
    const res = await beacon({ page_url: 'https://nobody.example/ai/', user_agent: GPTBOT });
    expect(res.body).toEqual({ status: 'ignored', platform_id: 'platform_1', platform_name: 'ChatGPT', message: 'not recorded: no business is served on nobody.example' });
  });

  test('the store\'s own domain finds the business (a boosted page when the body says so)', async () => {
    const res = await beacon({ page_url: 'https://www.visits-api-shop.example/products/mug', page_type: 'boosted_page', user_agent: GPTBOT });
    expect(res.body).toMatchObject({ status: 'success', message: 'visit recorded' });
  });

  test.each([
    ['{"page_url": ', 'text/plain', /body: malformed JSON/],
    ['[1,2]', 'text/plain', /body: must be a JSON object/],
    ['', 'text/plain', /body: a JSON object is required/],
    [JSON.stringify({ user_agent: GPTBOT }), 'text/plain', /^page_url: /],
    [JSON.stringify({ page_url: 'ftp://x.example/', user_agent: GPTBOT }), 'text/plain', /page_url: page_url must be an absolute http\(s\) URL/],
    [JSON.stringify({ page_url: page() }), 'text/plain', /^user_agent: /],
    [JSON.stringify({ page_url: page(), user_agent: 42 }), 'text/plain', /^user_agent: /],
    [JSON.stringify({ page_url: page(), user_agent: GPTBOT, page_type: 'homepage' }), 'text/plain', /^page_type: /],
    [JSON.stringify({ page_url: page(), user_agent: GPTBOT, screen_width: '1280' }), 'text/plain', /^screen_width: /],
    [JSON.stringify({ page_url: page(), user_agent: GPTBOT, screen_height: 1.5 }), 'text/plain', /^screen_height: /],
    [JSON.stringify({ page_url: page(), user_agent: GPTBOT, ip_address: 'not-an-ip' }), 'text/plain', /^ip_address: /],
    [JSON.stringify({ page_url: page(), user_agent: GPTBOT, language: 'en US!' }), 'text/plain', /^language: /],
    [JSON.stringify({ page_url: page(), user_agent: GPTBOT, timezone: 'Europe/Paris; drop' }), 'text/plain', /^timezone: /],
    [JSON.stringify({ page_url: page(), user_agent: GPTBOT, page_title: 7 }), 'text/plain', /^page_title: /],
    [JSON.stringify({ page_url: page(), user_agent: GPTBOT }), 'multipart/form-data; boundary=x', /unsupported Content-Type/],
    [JSON.stringify({ page_url: page(), user_agent: GPTBOT, page_title: 'x'.repeat(20_000) }), 'text/plain', /larger than 16384 bytes/],
  ])('malformed %s (%s) → 400 naming the field', async (raw, contentType, message) => {
    const res = await beacon(raw, { contentType });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 'error', platform_id: 'unknown', platform_name: 'Unknown', message: expect.stringMatching(message) });
    expect(res.body.error).toBe(res.body.message);
  });

  test('optional fields may be null or empty (what the beacon sends when it cannot read them)', async () => {
    const res = await beacon({
      page_url: page('/ai/nulls/'), user_agent: GPTBOT, page_type: null, page_title: '', ip_address: null, referrer: '', screen_width: 0, screen_height: null, language: '', timezone: '',
    });
    expect(res.body).toMatchObject({ status: 'success', message: 'visit recorded' });
  });

  test('the body\'s ip_address is stored and used as the visitor address', async () => {
    const res = await beacon({ page_url: page('/ai/ip/'), user_agent: GPTBOT, ip_address: '::ffff:203.0.113.77' });
    expect(res.body).toMatchObject({ status: 'success' });
    const { visits } = await visitRepositoryOf(getContainer()).list(ORG, { from: '2000-01-01', to: '2100-01-01' }, { limit: 500 });
    expect(visits.find((v) => v.path === '/ai/ip/')).toMatchObject({ ip_address: '203.0.113.77', source: 'beacon', sources: ['beacon'] });
  });

  test('rate-limited per client address across instances: 429 with Retry-After past 120 a minute', async () => {
    const address = '192.0.2.200';
    const statuses: number[] = [];
    for (let i = 0; i < 121; i++) statuses.push((await beacon({ page_url: page(`/ai/rate/${i}/`), user_agent: CHROME }, { address })).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(120);
    const limited = await beacon({ page_url: page('/ai/rate/x/'), user_agent: GPTBOT }, { address });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.body).toMatchObject({ status: 'error', error: expect.stringContaining('rate limit') });
    // Another address is not affected.
    expect((await beacon({ page_url: page('/ai/rate/y/'), user_agent: GPTBOT })).status).toBe(200);
  }, 60_000);
});

describe('GET /api/ai-recommendations/{business_id}', () => {
  const get = async (query = '', org = ORG, as: string | null = org) =>
    stack.call('GET', `/api/ai-recommendations/${org}${query}`, as ? { token: await stack.token(as) } : {});

  test('auth: 401 without a token, 403 for another organization, 404 for an unknown business', async () => {
    expect((await get('', ORG, null)).status).toBe(401);
    expect((await get('', ORG, OTHER)).status).toBe(403);
    const missing = await get('', 'no-such-visits-org');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ status: 'error', error: 'business no-such-visits-org not found' });
  });

  test('the last 30 days by default: total and by_platform (every key, unknown included) and the visits, newest first', async () => {
    const res = await get();
    expect(res.status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    expect(res.body).toMatchObject({ business_id: ORG, to: today, next_cursor: null });
    expect(Date.parse(res.body.to) - Date.parse(res.body.from)).toBe(29 * 86_400_000);
    expect(Object.keys(res.body.by_platform)).toEqual(['platform_1', 'platform_2', 'platform_3', 'platform_4', 'platform_5', 'platform_6', 'platform_7', 'platform_8', 'unknown']);
    const sum = Object.values(res.body.by_platform as Record<string, number>).reduce((a, b) => a + b, 0);
    expect(res.body.total).toBe(sum);
    expect(res.body.total).toBe(res.body.visits.length);
    expect(res.body.by_platform).toMatchObject({ platform_2: 1, platform_4: 1, unknown: 1 });
    const decaf = res.body.visits.find((v: { path: string }) => v.path === '/ai/products/decaf/');
    expect(decaf).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{32}$/), created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), entity_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      ai_site_id: ORG, platform_id: 'platform_1', platform_name: 'ChatGPT',
      page_url: page('/ai/products/decaf/?utm_source=chatgpt.com'), page_type: 'ai_site', page_title: 'Decaf | Visits', user_agent: GPTBOT,
      ip_address: '198.51.100.1', referrer: 'https://chatgpt.com/', screen_width: 1280, screen_height: 800, language: 'en-US', timezone: 'Europe/Paris',
      source: 'beacon', sources: ['beacon'], bot: 'GPTBot', purpose: 'training', vendor: 'OpenAI', alt_platform_id: null,
      host: `${ORG}.localhost`, path: '/ai/products/decaf/', via: 'ai_site_host', visit_class: 'ai',
      // No published list was fetched in this stack: OpenAI's visits cannot be checked (D193).
      verified: null,
    });
    const created = res.body.visits.map((v: { created_at: string }) => v.created_at.slice(0, 16));
    expect([...created].sort().reverse().map((c: string) => c.slice(0, 15))).toEqual(created.map((c: string) => c.slice(0, 15)));
  });

  test('a date range counts only its days; pages follow next_cursor to the end', async () => {
    const container = getContainer();
    const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
    // Four visits 80..50 days ago, outside the default range: the month of days 90..61 holds three.
    for (const [ago, userAgent, path] of [[80, GPTBOT, '/ai/m-a/'], [80, CLAUDEBOT, '/ai/m-b/'], [70, GPTBOT, '/ai/m-c/'], [50, GPTBOT, '/ai/later/']] as const) {
      const { response: outcome } = await recordSighting(container, { source: 'server', at: new Date(`${day(ago)}T12:00:00Z`), pageUrl: page(path), userAgent, peer: '203.0.113.5' });
      expect(outcome.status).toBe('success');
    }
    const month = await get(`?from=${day(90)}&to=${day(61)}`);
    expect(month.body).toMatchObject({ from: day(90), to: day(61), total: 3, next_cursor: null });
    expect(month.body.by_platform).toEqual({ platform_1: 2, platform_2: 1, platform_3: 0, platform_4: 0, platform_5: 0, platform_6: 0, platform_7: 0, platform_8: 0, unknown: 0 });
    expect(month.body.visits[0].path).toBe('/ai/m-c/');
    expect(new Set(month.body.visits.slice(1).map((v: { path: string }) => v.path))).toEqual(new Set(['/ai/m-a/', '/ai/m-b/']));
    expect((await get()).body.visits.some((v: { path: string }) => v.path === '/ai/later/')).toBe(false);

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: { status: number; body: any } = await get(`?from=${day(90)}&to=${day(40)}&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(4);
      seen.push(...res.body.visits.map((v: { path: string }) => v.path));
      cursor = res.body.next_cursor;
      pages++;
    } while (cursor && pages < 10);
    expect(seen[0]).toBe('/ai/later/');
    expect(seen.sort()).toEqual(['/ai/later/', '/ai/m-a/', '/ai/m-b/', '/ai/m-c/']);
  });

  test('visits of one 5-minute bucket are listed by request time, newest first, across pages too', async () => {
    const container = getContainer();
    const day = new Date(Date.now() - 20 * 86_400_000).toISOString().slice(0, 10);
    // Six visits in the bucket 10:00-10:05 and two in the one before; their dedupe keys
    // (hashes) order them differently from their times.
    const times = ['10:00:05', '10:04:59', '10:01:30', '10:03:10', '10:02:00', '10:00:40', '09:58:00', '09:59:59'];
    for (const [i, time] of times.entries()) {
      const { response } = await recordSighting(container, { source: 'server', at: new Date(`${day}T${time}Z`), pageUrl: page(`/ai/bucket-${i}/`), userAgent: i % 2 ? GPTBOT : CLAUDEBOT, peer: '203.0.113.9' });
      expect(response.status).toBe('success');
    }
    const newestFirst = [...times].sort().reverse().map((t) => `${day}T${t}`);
    const whole = await get(`?from=${day}&to=${day}`);
    expect(whole.body.visits.map((v: { created_at: string }) => v.created_at.slice(0, 19))).toEqual(newestFirst);
    for (const limit of [1, 2, 3, 5]) {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const res: { status: number; body: any } = await get(`?from=${day}&to=${day}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        expect(res.status).toBe(200);
        expect(res.body.visits.length).toBeLessThanOrEqual(limit);
        seen.push(...res.body.visits.map((v: { created_at: string }) => v.created_at.slice(0, 19)));
        cursor = res.body.next_cursor;
      } while (cursor && seen.length <= times.length);
      expect(seen).toEqual(newestFirst);
    }
  });

  test('classic search crawling (Googlebot, bingbot) is stored apart: search_engines, not total, by_platform or visits', async () => {
    const before = (await get()).body;
    for (const [name, path] of [['Googlebot smartphone', '/ai/se-a/'], ['bingbot', '/ai/se-b/']] as const) {
      const res = await beacon({ page_url: page(path), user_agent: ua(SEARCH_CRAWLER_SAMPLES, name) });
      expect(res.body).toMatchObject({ status: 'success', platform_id: 'unknown', message: expect.stringMatching(/search-engine crawler .*visit recorded/) });
    }
    const after = (await get()).body;
    expect(after.search_engines).toBe(before.search_engines + 2);
    expect(after.total).toBe(before.total);
    expect(after.by_platform).toEqual(before.by_platform);
    expect(after.visits.some((v: { path: string }) => v.path.startsWith('/ai/se-'))).toBe(false);
  });

  test('an unidentified crawler is stored apart: counted in unidentified, listed only with unidentified=true (issue 46)', async () => {
    const before = (await get()).body;
    const res = await beacon({ page_url: page('/ai/unidentified/'), user_agent: 'AcmeResearchCrawler/0.3 (+https://acme.example/bot)' });
    expect(res.body).toMatchObject({ status: 'success', platform_id: 'unknown', platform_name: 'Unknown', message: expect.stringMatching(/unidentified bot/) });
    const after = (await get()).body;
    expect([after.unidentified, after.total, after.by_platform]).toEqual([before.unidentified + 1, before.total, before.by_platform]);
    expect(after.visits.some((v: { path: string }) => v.path === '/ai/unidentified/')).toBe(false);
    const apart = await stack.call('GET', `/api/ai-recommendations/${ORG}?unidentified=true`, { token: await stack.token(ORG) });
    expect(apart.status).toBe(200);
    expect(apart.body.visits.filter((v: { path: string }) => v.path === '/ai/unidentified/')).toEqual([expect.objectContaining({ platform_id: 'unknown', platform_name: 'Unknown' })]);
    expect(apart.body.visits.every((v: { platform_id: string }) => v.platform_id === 'unknown')).toBe(true);
    const bad = await stack.call('GET', `/api/ai-recommendations/${ORG}?unidentified=yes`, { token: await stack.token(ORG) });
    expect([bad.status, bad.body.error]).toEqual([400, expect.stringMatching(/unidentified must be true/)]);
  });

  test('visits older than the retention (400 days) are neither listed nor counted', async () => {
    const old = new Date(Date.now() - 420 * 86_400_000);
    await recordSighting(getContainer(), { source: 'server', at: old, pageUrl: page('/ai/ancient/'), userAgent: GPTBOT, peer: '203.0.113.5' });
    const day = old.toISOString().slice(0, 10);
    const res = await get(`?from=${day}&to=${day}`);
    expect(res.body).toMatchObject({ total: 0, visits: [] });
  });

  test.each([
    ['?from=2025-1-1', /from: must be a date/],
    ['?to=2025-02-30', /to: must be a date/],
    ['?from=2025-02-01&to=2025-01-01', /from: must not be after to/],
    ['?from=2024-01-01&to=2025-01-02', /at most 365 days/],
    ['?limit=0', /limit/],
    ['?limit=501', /limit/],
    ['?cursor=garbage', /invalid cursor/],
  ])('%s → 400 naming the field', async (query, message) => {
    const res = await get(query);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(message);
  });

  test('a cursor of another business is refused', async () => {
    const foreign = Buffer.from(JSON.stringify({ PK: `ORG#${OTHER}`, SK: 'VISIT#2025-01-10T12:00:00Z', skip: '0' })).toString('base64url');
    const res = await get(`?cursor=${foreign}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/same business/);
  });
});
