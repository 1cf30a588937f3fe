/**
 * Batch 2b end to end: the 8 platform clients against local fakes speaking each vendor's
 * wire format, the daily schedule's AnalyzeVisibility task in the local Step Functions
 * stand-in, the deterministic matcher deciding (no judge configured), and every record it
 * leaves: 80 checks with answers, citations and labels, the report, the tracker, the score
 * with its interval, and product citation counts. Figures are computed by hand below.
 */
import { getContainer } from '../../functions/container';
import { PLATFORM_KEYS, type PlatformKey } from '../../functions/core/constants';
import { competitorId } from '../../functions/core/competitors/rules';
import { createPlatformClients } from '../../functions/adapters/external/platforms';
import { analyzeVisibility } from '../../functions/app/visibility/analyze';
import { createLogger } from '../../functions/logger';
import { startDemoStore, type DemoStore } from '../../functions/local/demo-store';
import { startPlatformFakes, type PlatformFakes } from '../../functions/local/fakes/platforms';
import { DEV_API_KEY, startTestStack, taskDeliveries, type TestStack } from '../support/stack';
import { competitorRepositoryOf } from '../../functions/engines/competitor-repository';

const ORG = 'quill';
const NAME = 'Quillfeather Coffee';
const PRODUCT = 'harbor-house-blend';

let stack: TestStack;
let store: DemoStore;
let fakes: PlatformFakes;
let token: string;

/**
 * What each platform says, whatever the prompt:
 * - platform_1 recommends the business first, then the competitor;
 * - platform_2 names the competitor first, then the business;
 * - platform_3 names nobody but cites the store's product page (the store is the source:
 *   mentioned, not recommended);
 * - platform_4 names only the competitor; platforms 5-8 name neither.
 * Per day: platforms 1-3 → 10 trues each, 4-8 → 0: 30 of 80.
 */
function answerFor(_prompt: string, platform: PlatformKey) {
  switch (platform) {
    case 'platform_1': return { text: `Top picks:\n1. ${NAME} — the best fresh-roasted beans I found.\n2. Rival Roasters, also good.`, citations: ['https://review.example/coffee'] };
    case 'platform_2': return { text: `Try Rival Roasters, or ${NAME} if you prefer lighter roasts.`, citations: [] };
    case 'platform_3': return { text: 'A medium roast house blend with chocolate notes is a safe choice.', citations: [`${store.origin}/products/${PRODUCT}?variant=1`, 'https://guide.example/blends'] };
    case 'platform_4': return { text: 'Rival Roasters has a well reviewed house blend.', citations: ['https://rival.example/blend'] };
    default: return { text: 'Look for a roaster that ships within a day of roasting.', citations: ['https://guide.example/fresh'] };
  }
}

beforeAll(async () => {
  store = await startDemoStore({ port: 0 });
  fakes = await startPlatformFakes({ answerFor });
  stack = await startTestStack(
    { LOG_LEVEL: 'error', EDGE_PROPAGATION_WAIT_SECONDS: '0', ARTICLE_QUOTA_POLICY: 'weekly-100', ...fakes.env, ...fakes.searchEnv, LLM_BASE_URL: '', JUDGE_BASE_URL: '' },
    { workflows: { retryWithoutDelay: true } },
  );
  token = await stack.token(ORG);
  expect((await stack.call('POST', '/api/business', { token, body: { name: NAME, url: store.origin } })).status).toBe(201);
  const started = await stack.call('POST', '/api/onboarding/generate-all', { token, body: {} });
  await stack.workflows.finished(started.body.execution_id);
  const now = new Date().toISOString();
  await competitorRepositoryOf(getContainer()).add({
    id: competitorId(ORG, 'rival.example'), orgSlug: ORG, name: 'Rival Roasters', url: 'https://rival.example', domain: 'rival.example',
    description: '', faviconUrl: '', scrapedContent: '', source: 'user_added', products: [], targetMarket: '', createdAt: now,
  });
  // Onboarding's competitor research asked the search API served by the platform_6 fake.
  for (const s of Object.values(fakes.servers)) s.reset();
}, 240_000);

afterAll(async () => {
  await stack?.close();
  await fakes?.stop();
  await store?.close();
});

const today = () => new Date().toISOString().slice(0, 10);

describe('a daily run with the 8 platforms on local fakes', () => {
  let run: any;

  beforeAll(async () => {
    const started = await stack.call('POST', '/api/cron/trigger-all', { apiKey: DEV_API_KEY, body: { business_ids: [ORG] } });
    await stack.workflows.finished(started.body.execution_id);
    run = (await stack.call('GET', started.body.status_url, { apiKey: DEV_API_KEY })).body.businesses.runs[0];
  }, 240_000);

  test('step 2b checks 10 prompts on 8 platforms: 1-3 through their vendor batch interfaces (issue 47), 4-8 synchronously, each prompt asked once', () => {
    expect(run.status).toBe('succeeded');
    const result = run.steps['2b'].result;
    expect(run.steps['2b'].status).toBe('succeeded');
    // The run record: 2b queued the batch platforms' checks; once their batches were in, the day was scored and the step says so.
    expect(result).toMatchObject({ prompts_sampled: 10, checks_planned: 80, checks_done: 80, pending_platforms: [], score_skipped: null, batches_settled_at: expect.any(String) });
    for (const k of ['platform_4', 'platform_5', 'platform_6', 'platform_7', 'platform_8'] as const) expect(result.platforms[k]).toEqual({ status: 'checked', checks: 10, reason: null });
    // When 2b ended they were pending (queued for their batches), not checked.
    for (const k of ['platform_1', 'platform_2', 'platform_3'] as const) expect(result.platforms[k]).toMatchObject({ status: 'pending', checks: 0 });
    // The synchronous platforms: one vendor request per check; platform_6 also asks its web search API first.
    for (const k of ['platform_4', 'platform_5', 'platform_6', 'platform_7', 'platform_8'] as const) {
      const answers = fakes.servers[k].requests.filter((r) => !r.path.includes('/res/v1/web/search'));
      expect([k, answers.length]).toEqual([k, 10]);
    }
    // The batch platforms: no synchronous call; one batch of the 10 prompts each.
    const paths = (k: 'platform_1' | 'platform_2' | 'platform_3') => fakes.servers[k].requests.map((r) => `${r.method} ${r.path.replace(/(batches|files)\/[^/:]+/, '$1/{id}')}`);
    expect(paths('platform_1')).not.toContain('POST /v1/responses');
    expect(paths('platform_1').filter((p) => p === 'POST /v1/files' || p === 'POST /v1/batches')).toEqual(['POST /v1/files', 'POST /v1/batches']);
    expect(paths('platform_2')).not.toContain('POST /v1/messages');
    const anthropic = fakes.servers.platform_2.requests.find((r) => r.path === '/v1/messages/batches')!.body as { requests: unknown[] };
    expect(anthropic.requests).toHaveLength(10);
    expect(paths('platform_3').some((p) => p.endsWith(':generateContent'))).toBe(false);
    expect(paths('platform_3').filter((p) => p.endsWith(':batchGenerateContent'))).toHaveLength(1);
  });

  test('80 check records with the answer, citations, labels and model; readable by the business only', async () => {
    const res = await stack.call('GET', `/api/visibility/${ORG}/checks`, { token });
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(80);
    const p3 = res.body.checks.find((c: any) => c.platform === 'platform_3');
    expect(p3).toMatchObject({
      result: true, status: 'checked', reason: null,
      answer: { citations: [`${store.origin}/products/${PRODUCT}?variant=1`, 'https://guide.example/blends'], model: expect.any(String), obtained_via: expect.any(String) },
      verdict: { mentioned: true, recommended: false, by: 'matcher', citations: [{ url: `${store.origin}/products/${PRODUCT}?variant=1`, kind: 'store' }, { url: 'https://guide.example/blends', kind: 'other' }] },
      matcher_agrees: null,
    });
    const p1 = res.body.checks.find((c: any) => c.platform === 'platform_1');
    expect(p1.verdict).toMatchObject({ mentioned: true, recommended: true, competitors_mentioned: ['Rival Roasters'] });
    const p4 = res.body.checks.find((c: any) => c.platform === 'platform_4');
    expect(p4).toMatchObject({ result: false, verdict: { mentioned: false, competitors_mentioned: ['Rival Roasters'], citations: [{ kind: 'competitor' }] } });
    const other = await stack.call('GET', `/api/visibility/${ORG}/checks`, { token: await stack.token('someone-else') });
    expect(other.status).toBe(403);
  });

  test('the score: 30 of 80 = 37.5 → 38 (above the seeded 35), with n, the Wilson interval and platform scores', async () => {
    const res = await stack.call('GET', `/api/visibility/${ORG}`, { token });
    expect(res.body.recent_score).toBe(38);
    const entry = res.body.history_scores.at(-1);
    // Wilson 95% for 30/80: p = .375, centre = .375 + 3.8415/160 = .39901,
    // spread = 1.96·sqrt(.375·.625/80 + 3.8415/25600) = 1.96·.055496 = .10877; ÷ (1 + 3.8415/80 = 1.04802) → [27.7, 48.5].
    expect(entry).toMatchObject({
      date: today(), score: 38, n: 80, true_count: 30, raw_score: 37.5, interval: { low: 27.7, high: 48.5 },
      rolling_7: { score: 37.5, n: 80 }, change: { significant: false, baseline: null },
      platforms: { platform_1_score: 100, platform_2_score: 100, platform_3_score: 100, platform_4_score: 0, platform_8_score: 0 },
    });
    expect(res.body.history_scores.map((e: any) => e.score)).toEqual([0, 35, 38]);
  });

  test('the report: share of voice, citations by kind and the product cited', async () => {
    const report = (await stack.call('GET', `/api/visibility/${ORG}/checks`, { token })).body.report;
    // The business is mentioned in 30 answers (p1, p2 in text; p3 by citation); the competitor in 30 (p1, p2, p4): 50/50.
    const sov = Object.fromEntries(report.share_of_voice.map((r: any) => [r.name, r]));
    expect(sov[NAME]).toMatchObject({ is_entity: true, mentions: 30, share: 50 });
    expect(sov['Rival Roasters']).toMatchObject({ mentions: 30, share: 50 });
    // Per prompt: p1 1 other, p3 1 store + 1 other, p4 1 competitor, p5-p8 1 other each → store 1, competitor 1, other 6; ×10 prompts.
    expect(report.citations.by_kind).toEqual({ store: 10, ai_site: 0, competitor: 10, other: 60 });
    expect(report.products.find((p: any) => p.product_id === PRODUCT)).toMatchObject({ citation_count: 10 });
    expect((await getContainer().products.find(ORG, PRODUCT))!.citationCount).toBe(10);
  });

  test('GET /api/visibility carries the latest share of voice, and for a product its pooled visibility with n', async () => {
    const business = (await stack.call('GET', `/api/visibility/${ORG}`, { token })).body;
    expect(business.latest_report).toMatchObject({ date: today(), share_of_voice: expect.arrayContaining([expect.objectContaining({ name: NAME, share: 50 })]) });
    const sampled = (await stack.call('GET', `/api/cron/sample-prompts?business_id=${ORG}`, { apiKey: DEV_API_KEY })).body;
    expect(sampled).toMatchObject({ stored: true, total: 10 });
    const productId = sampled.prompts.find((p: any) => p.product_id)?.product_id;
    const product = (await stack.call('GET', `/api/visibility/${ORG}?product_id=${productId}`, { token })).body;
    const prompts = sampled.prompts.filter((p: any) => p.product_id === productId).length;
    // Each of its sampled prompts: platforms 1-3 true, 4-8 false.
    expect(product.product_visibility.rolling_7).toMatchObject({ n: prompts * 8, score: 37.5 });
    expect(product.recent_score).toBeNull(); // no daily score entry for a product (D117)
  });

  test('the tracker: the sampled prompts hold their booleans and last_tested_at', async () => {
    const prompts = (await stack.call('GET', `/api/prompts/${ORG}`, { token })).body.prompts;
    const tested = prompts.filter((p: any) => p.last_tested_at);
    expect(tested).toHaveLength(10);
    for (const p of tested) expect([p.platform_1, p.platform_3, p.platform_4, p.platform_8]).toEqual([true, true, false, false]);
  });

  test('a re-run the same day (analyze-visibility, 202) asks no platform again and keeps one entry for the day', async () => {
    const before = fakes.requestCount();
    const started = await stack.call('POST', '/api/cron/analyze-visibility', { apiKey: DEV_API_KEY, body: { business_id: ORG } });
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ status: 'running', execution_id: expect.any(String), run_date: today() });
    await stack.workflows.finished(started.body.execution_id);
    const status = await stack.call('GET', started.body.status_url, { apiKey: DEV_API_KEY });
    expect(status.body).toMatchObject({ status: 'succeeded', prompts_sampled: 10, report: { totals: { checks_done: 80 } } });
    expect(fakes.requestCount()).toBe(before);
    const history = (await stack.call('GET', `/api/visibility/${ORG}`, { token })).body.history_scores;
    expect(history.filter((e: any) => e.date === today())).toHaveLength(1);
  });
});

describe('failures and unconfigured platforms', () => {
  test('a 429 is retried; a platform failing past its retries leaves null with the reason and out of the score, the others are kept', async () => {
    fakes.servers.platform_1.failNext(429, 1, { retryAfter: 0 });
    // Every attempt of its 10 prompts (1 + 2 retries each), in every delivery of the task.
    fakes.servers.platform_5.failNext(503, 30 * taskDeliveries);
    const day = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const started = await stack.call('POST', '/api/cron/analyze-visibility', { apiKey: DEV_API_KEY, body: { business_id: ORG, run_date: day } });
    await stack.workflows.finished(started.body.execution_id);
    const checks = (await stack.call('GET', `/api/visibility/${ORG}/checks?date=${day}`, { token })).body.checks;
    const p5 = checks.filter((c: any) => c.platform === 'platform_5');
    expect(p5).toHaveLength(10);
    for (const c of p5) expect(c).toMatchObject({ result: null, status: 'failed', reason: expect.stringMatching(/HTTP 503 .*after 3 attempts/) });
    expect(checks.filter((c: any) => c.platform === 'platform_1').every((c: any) => c.result === true)).toBe(true);
    // 70 booleans (platform_5 left out): 30 trues of 70 → 42.86 → 42.9; its platform score is null, not 0.
    const entry = (await stack.call('GET', `/api/visibility/${ORG}`, { token })).body.history_scores.find((e: any) => e.date === day);
    expect(entry).toMatchObject({ n: 70, true_count: 30, raw_score: 42.9, platforms: { platform_5_score: null, platform_1_score: 100 } });
    expect(checks.some((c: any) => JSON.stringify(c).includes(fakes.servers.platform_5.key!))).toBe(false);

    // D119: a re-run the same day asks only what is not settled: platform_5's failed checks, now answered.
    const before = Object.fromEntries(Object.entries(fakes.servers).map(([k, server]) => [k, server.requestCount()]));
    const again = await stack.call('POST', '/api/cron/analyze-visibility', { apiKey: DEV_API_KEY, body: { business_id: ORG, run_date: day } });
    await stack.workflows.finished(again.body.execution_id);
    const asked = Object.fromEntries(Object.entries(fakes.servers).map(([k, server]) => [k, server.requestCount() - before[k]]));
    expect(asked.platform_5).toBe(10);
    for (const [k, n] of Object.entries(asked)) if (k !== 'platform_5') expect({ k, n }).toEqual({ k, n: 0 });
    const settled = (await stack.call('GET', `/api/visibility/${ORG}/checks?date=${day}&platform=platform_5`, { token })).body.checks;
    expect(settled).toHaveLength(10);
    for (const c of settled) expect(c).toMatchObject({ status: 'checked', result: expect.any(Boolean) });
  }, 60_000);

  test('with 3 platforms unconfigured the score uses only the 5 tested: 30 of 50 = 60', async () => {
    const container = getContainer();
    const env = { ...fakes.env };
    for (const n of [6, 7, 8]) delete env[`PLATFORM_${n}_API_URL`];
    const platforms = createPlatformClients({
      platforms: container.config.platforms.map((p) => ({ ...p, apiUrl: env[`PLATFORM_${p.n}_API_URL`] })),
      search: container.config.search,
    }, { log: createLogger({ component: 'test' }) });
    expect(platforms.filter((p) => p.unconfigured).map((p) => p.platform)).toEqual(['platform_6', 'platform_7', 'platform_8']);
    const day = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
    const summary: any = await analyzeVisibility(container, ORG, day, { platforms, judge: null, limiter: container.platformLimiter });
    expect(summary.platforms.platform_7).toEqual({ status: 'unconfigured', checks: 0, reason: expect.stringMatching(/PLATFORM_7_API_URL/) });
    expect(summary.score).toMatchObject({ n: 50, raw_score: 60 });
    const entry = (await container.visibility.get(ORG, (await container.businesses.get(ORG))!.id))!.history.find((e) => e.date === day)!;
    expect(entry.platforms).toMatchObject({ platform_1_score: 100, platform_5_score: 0, platform_6_score: null, platform_8_score: null });
  });

  test('no platform configured: skipped with the reason, no check and no score', async () => {
    const container = getContainer();
    const platforms = createPlatformClients({ platforms: container.config.platforms.map((p) => ({ n: p.n })), search: {} }, { log: createLogger({ component: 'test' }) });
    const day = new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10);
    const outcome: any = await analyzeVisibility(container, ORG, day, { platforms, judge: null, limiter: container.platformLimiter });
    expect(outcome.skipped).toMatch(/no AI platform is configured/);
    expect(await container.visibilityChecks.listChecks(ORG, day)).toEqual([]);
    const history = (await container.visibility.get(ORG, (await container.businesses.get(ORG))!.id))!.history;
    // No measured entry that day (the seeds, kept before the earliest measured day, may sit on it: D216).
    expect(history.some((e) => e.date === day && !e.seeded)).toBe(false);
  });
});

describe('the 2b routes validate their input', () => {
  const key = { apiKey: DEV_API_KEY };
  test.each([
    ['POST', '/api/cron/analyze-visibility', { business_id: ORG, run_date: '2999-01-01' }, 400, /run_date must not be in the future/],
    ['POST', '/api/cron/analyze-visibility', { business_id: ORG, run_date: '2026-02-30x' }, 400, /run_date/],
    ['POST', '/api/cron/analyze-visibility', { business_id: 'nobody' }, 404, /not found/],
    ['POST', '/api/cron/analyze-visibility', { business_id: ORG, prompts: ['x'] }, 400, /prompts/],
    ['POST', '/api/cron/store-visibility-report', { business_id: ORG, run_date: '2020-01-01' }, 400, /run_date must not be older than 90 days/],
    ['GET', '/api/cron/sample-prompts', undefined, 400, /business_id/],
  ])('%s %s %j → %i', async (method, path, body, status, message) => {
    const res = await stack.call(method, path, { ...key, body });
    expect(res.status).toBe(status);
    expect(JSON.stringify(res.body)).toMatch(message);
  });

  test('KEY routes refuse a call without the key; the checks route refuses another organization', async () => {
    expect((await stack.call('POST', '/api/cron/analyze-visibility', { body: { business_id: ORG } })).status).toBe(401);
    expect((await stack.call('GET', `/api/visibility/${ORG}/checks?date=2026-13-01`, { token })).status).toBe(400);
  });

  test('store-visibility-report rebuilds a day from its stored checks without asking any platform', async () => {
    const before = fakes.requestCount();
    const res = await stack.call('POST', '/api/cron/store-visibility-report', { ...key, body: { business_id: ORG } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'success', run_date: today(), report: { totals: { checks_done: 80 } } });
    expect(fakes.requestCount()).toBe(before);
  });
});

describe('issue 21: an impossible or out-of-range date is a 400 naming the field, before any work', () => {
  const key = { apiKey: DEV_API_KEY };
  const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
  const routes = (bad: string): Array<[string, string, Record<string, unknown> | undefined, 'key' | 'token', string]> => [
    ['POST', '/api/cron/analyze-visibility', { business_id: ORG, run_date: bad }, 'key', 'run_date'],
    ['POST', '/api/cron/store-visibility-report', { business_id: ORG, run_date: bad }, 'key', 'run_date'],
    ['GET', `/api/cron/sample-prompts?business_id=${ORG}&run_date=${bad}`, undefined, 'key', 'run_date'],
    ['GET', `/api/cron/analyze-visibility/00000000-0000-0000-0000-000000000000?business_id=${ORG}&run_date=${bad}`, undefined, 'key', 'run_date'],
    ['GET', `/api/visibility/${ORG}/checks?date=${bad}`, undefined, 'token', 'date'],
    ['POST', '/api/cron/store-visibility-score', { business_id: ORG, results: [{ prompt: 'x', ...Object.fromEntries(PLATFORM_KEYS.map((k) => [k, true])) }], backdate_to: bad }, 'key', 'backdate_to'],
    ['POST', '/api/cron/create-ai-article', { business_id: ORG, backdate_to: bad }, 'key', 'backdate_to'],
    ['GET', `/api/ai-recommendations/${ORG}?from=${bad}`, undefined, 'token', 'from'],
    ['GET', `/api/ai-recommendations/${ORG}?to=${bad}`, undefined, 'token', 'to'],
    ['POST', '/api/cron/trigger-all', { business_ids: [ORG], run_date: bad }, 'key', 'run_date'],
  ];

  async function expectRefusedWithoutWork(method: string, path: string, body: unknown, auth: 'key' | 'token', field: string, message: RegExp) {
    const container = getContainer();
    const start = jest.spyOn(container.workflows, 'start');
    const put = jest.spyOn(container.artifacts, 'put');
    const before = fakes.requestCount();
    const history = (await container.visibility.get(ORG, (await container.businesses.get(ORG))!.id))?.history.length;
    try {
      const res = await stack.call(method, path, { ...(auth === 'key' ? key : { token }), body });
      expect({ status: res.status, error: res.body.error }).toEqual({ status: 400, error: expect.stringContaining(field) });
      expect(res.body.error).toMatch(message);
      expect(start).not.toHaveBeenCalled();
      expect(put).not.toHaveBeenCalled();
      expect(fakes.requestCount()).toBe(before);
      expect((await container.visibility.get(ORG, (await container.businesses.get(ORG))!.id))?.history.length).toBe(history);
    } finally {
      start.mockRestore();
      put.mockRestore();
    }
  }

  test.each([...routes('2026-02-30'), ...routes('2026-13-01')])('%s %s → 400 naming it; no workflow, no vendor call, nothing written', async (method, path, body, auth, field) => {
    await expectRefusedWithoutWork(method, path, body, auth, field, /real calendar day|unrecognized key|must be a date/i);
  });

  test('a visibility run date older than the checks\' retention (90 days, D119) or in the future is refused before any work', async () => {
    for (const day of [daysAgo(91), '2020-01-01']) {
      await expectRefusedWithoutWork('POST', '/api/cron/analyze-visibility', { business_id: ORG, run_date: day }, 'key', 'run_date', /older than 90 days/);
      await expectRefusedWithoutWork('GET', `/api/visibility/${ORG}/checks?date=${day}`, undefined, 'token', 'date', /older than 90 days/);
    }
    await expectRefusedWithoutWork('POST', '/api/cron/analyze-visibility', { business_id: ORG, run_date: daysAgo(-1) }, 'key', 'run_date', /must not be in the future/);
    // The oldest day kept is still a day one may ask about.
    const oldest = await stack.call('GET', `/api/cron/sample-prompts?business_id=${ORG}&run_date=${daysAgo(90)}`, key);
    expect(oldest.status).toBe(200);
  });
});
