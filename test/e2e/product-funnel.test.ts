/**
 * Issue 25 end to end: the per-product AI funnel (crawled → cited / named → recommended, and
 * where each product drops out) read back through GET /api/visibility/{business_id}/products
 * and GET /api/visibility/{business_id}?product_id=, with every figure computed by hand below.
 *
 * Two organizations on the same local stack, each onboarded on its own demo store (the same
 * catalogue, so the same product slugs: a leak from one to the other would show). Two UTC
 * days: yesterday (day 1) and today (day 2).
 * - Visits: day 2's go through the local CDN proxy (its distribution domain) as plain HTTP
 *   requests with published AI-crawler User-Agents, dated by the request time (the real
 *   clock); day 1's are recorded with `recordSighting` dated yesterday (the proxy stamps its
 *   sightings with the real time and cannot be dated back).
 * - Checks: the 8 AI platforms on their local vendor fakes, one analysis per day
 *   (POST /api/cron/analyze-visibility with the run_date), answers scripted per platform and
 *   day (below), the deterministic matcher deciding (no judge).
 *
 * Organization 1's products:
 * - C (foghorn-espresso) recommended: answers name it and recommend the business;
 * - B (tidewater-hand-burr-grinder) cited: answers cite its store page (day 1) and its AI page
 *   on the CDN domain (day 2) without naming it;
 * - A crawled only: GPTBot, ClaudeBot and PerplexityBot read its AI page, its llms file, its
 *   store page and its product article; no answer cites or names it. A is picked after the checks among the products
 *   none of whose prompts were sampled, as a product only crawled is in practice;
 * - D: another product none of whose prompts were sampled, never crawled: it drops at crawl.
 */
import { request } from 'node:http';
import { recordSighting, visitWritesSettled } from '../../functions/app/visits/record';
import { getContainer } from '../../functions/container';
import { PLATFORM_KEYS, type PlatformKey } from '../../functions/core/constants';
import { competitorId } from '../../functions/core/competitors/rules';
import { competitorRepositoryOf } from '../../functions/engines/competitor-repository';
import { startDemoStore, type DemoStore } from '../../functions/local/demo-store';
import { startPlatformFakes, type PlatformFakes } from '../../functions/local/fakes/platforms';
import { AI_CRAWLER_SAMPLES, HUMAN_SAMPLES, SEARCH_CRAWLER_SAMPLES } from '../fixtures/ai-user-agents';
import { getWithHost } from '../support/http';
import { DEV_API_KEY, startTestStack, type TestStack } from '../support/stack';

const ORG1 = 'funnel-one';
const NAME1 = 'Quillfeather Coffee';
const ORG2 = 'funnel-two';
const NAME2 = 'Saltbox Roasting';
const B = 'tidewater-hand-burr-grinder';
const C = 'foghorn-espresso';
const RIVAL = 'Rival Roasters';
const NEUTRAL = 'Look for a roaster that ships within a day of roasting.';

const DAY_MS = 86_400_000;
// Day 2's visits are stamped by the real clock: a run that could cross midnight UTC first waits
// for it (the run takes a minute or two), so "today" is one day from start to end.
const LOADED_AT = Date.now();
const UNTIL_MIDNIGHT_MS = DAY_MS - (LOADED_AT % DAY_MS);
const WAIT_FOR_MIDNIGHT_MS = UNTIL_MIDNIGHT_MS < 5 * 60_000 ? UNTIL_MIDNIGHT_MS + 1_000 : 0;
const TODAY = new Date(LOADED_AT + WAIT_FOR_MIDNIGHT_MS).toISOString().slice(0, 10);
const YESTERDAY = new Date(Date.parse(`${TODAY}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10);
const DAY1 = YESTERDAY;
const DAY2 = TODAY;

const ua = (name: string) => [...AI_CRAWLER_SAMPLES, ...SEARCH_CRAWLER_SAMPLES, ...HUMAN_SAMPLES].find((s) => s.name === name)!.ua!;
const GPTBOT = ua('GPTBot 1.1'); // platform_1, training
const CLAUDEBOT = ua('ClaudeBot'); // platform_2, training
const PERPLEXITYBOT = ua('PerplexityBot'); // platform_4, search
const GOOGLEBOT = ua('Googlebot smartphone'); // classic search crawling: never an AI visit (D160)
const HUMAN = ua('desktop Chrome');

let stack: TestStack;
let fakes: PlatformFakes;
const orgs: Record<string, { store: DemoStore; token: string; cdnDomain: string; names: Map<string, string> }> = {};

/** Which organization and day the platforms are answering for (the analyses run one at a time). */
let scene: { org: string; day: string } = { org: '', day: '' };

const recommending = (product: string, business: string) => ({ text: `Top picks:\n1. ${product} from ${business} — the best choice I found.`, citations: ['https://review.example/coffee'] });
const citing = (url: string) => ({ text: 'A burr grinder is a sound first purchase for better coffee at home.', citations: [url, 'https://guide.example/grinders'] });
const rival = () => ({ text: `${RIVAL} ships its beans fast.`, citations: ['https://rival.example/beans'] });
const neutral = () => ({ text: NEUTRAL, citations: ['https://guide.example/fresh'] });

/**
 * Organization 1, whatever the prompt:
 * - day 1: platform_1 recommends C; platform_3 cites B's store page; platform_4 names the competitor only; others neutral;
 * - day 2: platform_1 and platform_2 recommend C; platform_3 cites B's store page, platform_4 B's AI page on the CDN domain;
 *   platform_5 names the competitor only; others neutral.
 * Organization 2 (same catalogue): platform_1 recommends ITS B, platform_2 cites ITS C, platform_3 recommends ITS C (day 1 only).
 */
function answerFor(_prompt: string, platform: PlatformKey) {
  const o = orgs[scene.org];
  if (scene.org === ORG1) {
    const day1 = scene.day === DAY1;
    if (platform === 'platform_1' || (!day1 && platform === 'platform_2')) return recommending(o.names.get(C)!, NAME1);
    if (platform === 'platform_3') return citing(`${o.store.origin}/products/${B}`);
    if (platform === 'platform_4') return day1 ? rival() : citing(`http://${o.cdnDomain}/ai/products/${B}/`);
    if (!day1 && platform === 'platform_5') return rival();
    return neutral();
  }
  if (scene.org === ORG2) {
    if (platform === 'platform_1') return recommending(o.names.get(B)!, NAME2);
    if (platform === 'platform_2') return citing(`${o.store.origin}/products/${C}`);
    if (platform === 'platform_3' && scene.day === DAY1) return recommending(o.names.get(C)!, NAME2);
    return neutral();
  }
  return neutral();
}

async function onboard(org: string, name: string) {
  const store = await startDemoStore({ port: 0 });
  const token = await stack.token(org);
  expect((await stack.call('POST', '/api/business', { token, body: { name, url: store.origin } })).status).toBe(201);
  const started = await stack.call('POST', '/api/onboarding/generate-all', { token, body: {} });
  await stack.workflows.finished(started.body.execution_id);
  const proxy = await stack.call('GET', `/api/domain/get-proxy/${org}`, { token });
  expect(proxy.body.cdn_domain).toMatch(/\.cdn\.localhost$/);
  const products = await getContainer().products.list(org);
  orgs[org] = { store, token, cdnDomain: proxy.body.cdn_domain, names: new Map(products.map((p) => [p.productId, p.name])) };
}

async function analyze(org: string, day: string) {
  scene = { org, day };
  const started = await stack.call('POST', '/api/cron/analyze-visibility', { apiKey: DEV_API_KEY, body: { business_id: org, run_date: day } });
  expect(started.status).toBe(202);
  await stack.workflows.finished(started.body.execution_id);
  const status = await stack.call('GET', started.body.status_url, { apiKey: DEV_API_KEY });
  expect(status.body.status).toBe('succeeded');
}

/** A crawler's request through the local CDN proxy on the organization's distribution domain (dated now). */
async function throughProxy(org: string, path: string, userAgent: string) {
  const res = await getWithHostAndAgent(stack.proxy.port, path, `${orgs[org].cdnDomain}:${stack.proxy.port}`, userAgent);
  expect([path, res.status]).toEqual([path, 200]);
  return res;
}

/** GET on loopback with a Host and a User-Agent (test/support/http.ts's getWithHost sends no User-Agent). */
function getWithHostAndAgent(port: number, path: string, host: string, userAgent: string) {
  return new Promise<{ status: number; route: unknown }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'GET', headers: { Host: host, 'User-Agent': userAgent } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, route: res.headers['x-edge-route'] }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A server-side sighting dated on day 1 (what the access log of that day would have held). */
async function sightingOnDay1(org: string, path: string, userAgent: string, hour: number) {
  const result = await recordSighting(getContainer(), {
    source: 'server', at: new Date(`${DAY1}T${String(hour).padStart(2, '0')}:15:00.000Z`),
    pageUrl: `http://${orgs[org].cdnDomain}${path}`, userAgent, peer: '198.51.100.23',
  });
  expect([path, result.recorded]).toEqual([path, true]);
}

const funnels = async (org: string, query: string, token = orgs[org].token) => stack.call('GET', `/api/visibility/${org}/products?${query}`, { token });
const funnelOf = async (org: string, product: string, query: string, token = orgs[org].token) =>
  stack.call('GET', `/api/visibility/${org}?product_id=${product}&${query}`, { token });

/** Checks of a day, from the checks route: the inputs of the hand computation (which prompts were sampled). */
async function checksOf(org: string, day: string): Promise<any[]> {
  const res = await stack.call('GET', `/api/visibility/${org}/checks?date=${day}`, { token: orgs[org].token });
  expect(res.status).toBe(200);
  return res.body.checks;
}

let A = '';
let D = '';
/** Organization 1's sampled prompts per product and day. */
const sampled: Record<string, Record<string, number>> = { [DAY1]: {}, [DAY2]: {} };
const promptsOf = (product: string, day: string) => sampled[day][product] ?? 0;

beforeAll(async () => {
  const wait = WAIT_FOR_MIDNIGHT_MS - (Date.now() - LOADED_AT);
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  fakes = await startPlatformFakes({ answerFor });
  stack = await startTestStack(
    { LOG_LEVEL: 'error', EDGE_PROPAGATION_WAIT_SECONDS: '0', ...fakes.env, ...fakes.searchEnv, LLM_BASE_URL: '', JUDGE_BASE_URL: '' },
    { workflows: { retryWithoutDelay: true } },
  );
  await onboard(ORG1, NAME1);
  await onboard(ORG2, NAME2);
  for (const org of [ORG1, ORG2]) for (const p of [B, C]) expect([org, p, orgs[org].names.has(p)]).toEqual([org, p, true]);
  const now = new Date().toISOString();
  await competitorRepositoryOf(getContainer()).add({
    id: competitorId(ORG1, 'rival.example'), orgSlug: ORG1, name: RIVAL, url: 'https://rival.example', domain: 'rival.example',
    description: '', faviconUrl: '', scrapedContent: '', source: 'user_added', products: [], targetMarket: '', createdAt: now,
  });

  // The checks of both days, both organizations.
  for (const day of [DAY1, DAY2]) for (const org of [ORG1, ORG2]) await analyze(org, day);

  // A and D: products of organization 1 none of whose prompts either day sampled.
  for (const day of [DAY1, DAY2]) {
    const prompts = new Map<string, string>();
    for (const c of await checksOf(ORG1, day)) if (c.product_id) prompts.set(c.prompt_id, c.product_id);
    for (const product of prompts.values()) sampled[day][product] = (sampled[day][product] ?? 0) + 1;
  }
  const unsampled = [...orgs[ORG1].names.keys()].filter((p) => p !== B && p !== C && !promptsOf(p, DAY1) && !promptsOf(p, DAY2)).sort();
  // A: the first of them the store's content can write a product article about (some, a gift
  // card say, answer no question: 409, nothing created); D: another of them.
  let article: any = null;
  for (const candidate of unsampled) {
    const res = await stack.call('POST', '/api/cron/create-ai-article', { apiKey: DEV_API_KEY, body: { business_id: ORG1, product_id: candidate } });
    if (res.status === 201) {
      [A, article] = [candidate, res.body];
      break;
    }
    expect([candidate, res.status]).toEqual([candidate, 409]);
  }
  expect(article).toMatchObject({ faq_category: 'product_article', article_path: expect.stringMatching(/^\/[a-z0-9-]+\/$/) });
  D = unsampled.find((p) => p !== A)!;
  expect(D).toBeDefined();
  expect((await stack.call('POST', '/api/cron/update-all-timestamps', { apiKey: DEV_API_KEY, body: { business_id: ORG1 } })).status).toBe(200);

  // Visits, organization 1. Day 1 (dated yesterday): GPTBot reads A's AI page and its llms file,
  // ClaudeBot its llms file → 3 visits (platform_1: 2, platform_2: 1; all training).
  await sightingOnDay1(ORG1, `/ai/products/${A}/`, GPTBOT, 9);
  await sightingOnDay1(ORG1, `/llms/${A}.txt`, GPTBOT, 10);
  await sightingOnDay1(ORG1, `/llms/${A}.txt`, CLAUDEBOT, 11);
  // Day 2 (today) through the proxy: GPTBot reads A's AI page twice (one visit: the proxy and its
  // hop to the AI-site host, and the repeat, are one), PerplexityBot its store page, and ClaudeBot
  // A's product article (its path names no product: the article says whose it is) → 3 visits
  // (platform_1: 1 training, platform_4: 1 search, platform_2: 1 training).
  // Not about a product: the home page, the catalogue file. Not AI visits: Googlebot, a person.
  expect((await throughProxy(ORG1, `/ai/products/${A}/`, GPTBOT)).route).toBe('ai');
  await throughProxy(ORG1, `/ai/products/${A}/`, GPTBOT);
  expect((await throughProxy(ORG1, `/products/${A}`, PERPLEXITYBOT)).route).toBe('store');
  expect((await throughProxy(ORG1, `/ai${article.article_path}`, CLAUDEBOT)).route).toBe('ai');
  await throughProxy(ORG1, '/ai/', GPTBOT);
  await throughProxy(ORG1, '/llms.txt', CLAUDEBOT);
  await throughProxy(ORG1, `/ai/products/${A}/`, GOOGLEBOT);
  await throughProxy(ORG1, `/llms/${A}.txt`, HUMAN);

  // Visits, organization 2, on the same slugs: A 4 times, B and C once each.
  await sightingOnDay1(ORG2, `/ai/products/${A}/`, GPTBOT, 9);
  await sightingOnDay1(ORG2, `/ai/products/${A}/`, CLAUDEBOT, 9);
  await sightingOnDay1(ORG2, `/llms/${B}.txt`, GPTBOT, 12);
  await throughProxy(ORG2, `/ai/products/${A}/`, PERPLEXITYBOT);
  await throughProxy(ORG2, `/products/${A}`, CLAUDEBOT);
  await throughProxy(ORG2, `/ai/products/${C}/`, GPTBOT);
  await visitWritesSettled();
}, 900_000);

afterAll(async () => {
  await stack?.close();
  await fakes?.stop();
  for (const o of Object.values(orgs)) await o.store.close();
});

/**
 * The hand computation. Every sampled prompt is asked on the 8 platforms and all answer:
 * 10 prompts × 8 = 80 answered checks a day, 160 over the two days.
 */
const ANSWERED_PER_DAY = 80;
const PER_PLATFORM_PER_DAY = 10;
const WINDOW = `from=${DAY1}&to=${DAY2}`;
/** Wilson 95% of 0/160: [0, z²/n ÷ (1 + z²/n) = 3.8415/160 ÷ 1.02401 = 2.34%] → [0, 2.3]. */
const NONE_OF_160 = { low: 0, high: 2.3 };

/** Competitor named instead, for a product: its own prompts' answers by the platform that names only the competitor (day 1 platform_4, day 2 platform_5). */
const insteadOf = (product: string) => {
  const n = promptsOf(product, DAY1) + promptsOf(product, DAY2);
  return n ? { name: RIVAL, checks: n } : null;
};

const zero = { answered: 0, cited: 0, mentioned: 0, recommended: 0 };
const row = (platform: PlatformKey, days: number, counts: Partial<typeof zero> & { crawled?: number; crawled_not_surfaced?: boolean }) => ({
  platform, crawled: 0, ...zero, answered: days * PER_PLATFORM_PER_DAY, crawled_not_surfaced: false, ...counts,
});

describe('the checks behind the funnel (inputs of the hand computation)', () => {
  test('each day: 10 prompts on 8 platforms, all answered', async () => {
    for (const org of [ORG1, ORG2]) {
      for (const day of [DAY1, DAY2]) {
        const checks = await checksOf(org, day);
        expect([org, day, checks.length, checks.filter((c) => c.status === 'checked' && c.answer).length]).toEqual([org, day, 80, 80]);
      }
    }
  });

  test('the matcher read the scripted answers as intended', async () => {
    const day2 = await checksOf(ORG1, DAY2);
    expect(day2.find((c) => c.platform === 'platform_1').verdict).toMatchObject({ mentioned: true, recommended: true });
    expect(day2.find((c) => c.platform === 'platform_2').verdict).toMatchObject({ mentioned: true, recommended: true });
    expect(day2.find((c) => c.platform === 'platform_3').verdict).toMatchObject({ recommended: false, citations: [{ kind: 'store' }, { kind: 'other' }] });
    expect(day2.find((c) => c.platform === 'platform_4').verdict).toMatchObject({ recommended: false, citations: [{ kind: 'ai_site' }, { kind: 'other' }] });
    expect(day2.find((c) => c.platform === 'platform_5').verdict).toMatchObject({ mentioned: false, competitors_mentioned: [RIVAL] });
  });
});

describe('GET /api/visibility/{business_id}/products over both days', () => {
  let body: any;
  const product = (id: string) => body.products.find((p: any) => p.product_id === id);

  beforeAll(async () => {
    const res = await funnels(ORG1, `${WINDOW}&limit=100`);
    expect(res.status).toBe(200);
    body = res.body;
  });

  test('every product of the catalogue, the window and the drop-out rule', () => {
    expect(body).toMatchObject({ business_id: ORG1, from: DAY1, to: DAY2, sort: 'crawled', total: orgs[ORG1].names.size, next_cursor: null, drop_out_rule: expect.stringMatching(/recommended/) });
    expect(body.products).toHaveLength(orgs[ORG1].names.size);
    expect(product(C).name).toBe(orgs[ORG1].names.get(C));
  });

  test('A, crawled only: 6 visits by 3 platforms, never cited or named → drops at surface', () => {
    expect(product(A)).toMatchObject({
      product_id: A, from: DAY1, to: DAY2,
      crawled: { visits: 6, by_platform: { platform_1: 3, platform_2: 2, platform_4: 1 }, by_purpose: { training: 5, search: 1 }, last_visit_at: expect.stringMatching(new RegExp(`^${DAY2}T`)) },
      cited: { checks: 0 }, mentioned: { checks: 0 }, recommended: { checks: 0 },
      drop_out: 'surface',
      recommended_instead: null,
    });
    expect(Object.keys(product(A).crawled.by_platform).sort()).toEqual(['platform_1', 'platform_2', 'platform_4']);
  });

  // `answered` is every answered check of the day (any prompt): the same n for every product,
  // whether or not its own prompts were sampled that day (report.ts FunnelCounts.answered).
  test('A: n is every answered check of the window (160) and the intervals are there', () => {
    expect(product(A).answered).toBe(2 * ANSWERED_PER_DAY);
    expect(product(A).mentioned.interval).toEqual(NONE_OF_160);
    expect(product(A).recommended.interval).toEqual(NONE_OF_160);
  });

  test('A per platform: crawled and answered but never cited or named where its agents read it', () => {
    expect(product(A).platforms).toEqual(PLATFORM_KEYS.map((p) => row(p, 2, {
      crawled: ({ platform_1: 3, platform_2: 2, platform_4: 1 } as Record<string, number>)[p] ?? 0,
      crawled_not_surfaced: ['platform_1', 'platform_2', 'platform_4'].includes(p),
    })));
  });

  test('B, cited: 30 answers cite its pages (20 store, 10 AI site), none names it → drops at recommendation', () => {
    expect(product(B)).toMatchObject({
      crawled: { visits: 0, by_platform: {}, last_visit_at: null },
      answered: 160,
      cited: { checks: 30 }, mentioned: { checks: 0, interval: NONE_OF_160 }, recommended: { checks: 0, interval: NONE_OF_160 },
      drop_out: 'recommendation',
      recommended_instead: insteadOf(B),
    });
    expect(product(B).platforms).toEqual(PLATFORM_KEYS.map((p) => row(p, 2, { cited: ({ platform_3: 20, platform_4: 10 } as Record<string, number>)[p] ?? 0 })));
  });

  test('C, recommended: named and recommended by 30 answers (10 on day 1, 20 on day 2) → no drop-out', () => {
    expect(product(C)).toMatchObject({
      crawled: { visits: 0 },
      answered: 160,
      cited: { checks: 0 },
      // Wilson 95% of 30/160 (p = .1875): centre .1875 + 3.8415/320 = .19950, spread 1.96·sqrt(.1875·.8125/160 + 3.8415/102400) = .06166,
      // ÷ (1 + 3.8415/160 = 1.02401) → [13.5, 25.5].
      mentioned: { checks: 30, interval: { low: 13.5, high: 25.5 } },
      recommended: { checks: 30, interval: { low: 13.5, high: 25.5 } },
      drop_out: null,
      recommended_instead: insteadOf(C),
    });
    expect(product(C).platforms).toEqual(PLATFORM_KEYS.map((p) => row(p, 2, ({
      platform_1: { mentioned: 20, recommended: 20 },
      platform_2: { mentioned: 10, recommended: 10 },
    } as Record<string, object>)[p] ?? {})));
  });

  test('D, neither crawled nor surfaced → drops at crawl; its n is the window\'s answered checks too', () => {
    expect(product(D)).toMatchObject({
      crawled: { visits: 0, by_platform: {} }, answered: 160,
      cited: { checks: 0 }, mentioned: { checks: 0, interval: NONE_OF_160 }, recommended: { checks: 0, interval: NONE_OF_160 },
      drop_out: 'crawl', recommended_instead: null,
    });
  });

  test('no other product was crawled, cited, named or recommended; each drops at crawl', () => {
    for (const p of body.products.filter((x: any) => ![A, B, C].includes(x.product_id))) {
      expect([p.product_id, p.crawled.visits, p.cited.checks, p.mentioned.checks, p.recommended.checks, p.drop_out]).toEqual([p.product_id, 0, 0, 0, 0, 'crawl']);
    }
  });

  test('a product whose prompts were sampled on one of the two days: its n is still both days\' answered checks', () => {
    const once = [...orgs[ORG1].names.keys()].filter((p) => ![A, B, C].includes(p) && !promptsOf(p, DAY1) !== !promptsOf(p, DAY2)).sort();
    expect(once.length).toBeGreaterThan(0);
    for (const p of once) expect([p, product(p).answered]).toEqual([p, 160]);
  });
});

describe('sorting and paging', () => {
  test('sort=crawled puts A first; cited B; recommended and mentioned C', async () => {
    expect((await funnels(ORG1, `${WINDOW}&sort=crawled`)).body.products[0].product_id).toBe(A);
    expect((await funnels(ORG1, WINDOW)).body.products[0].product_id).toBe(A); // the default sort
    expect((await funnels(ORG1, `${WINDOW}&sort=cited`)).body.products[0].product_id).toBe(B);
    expect((await funnels(ORG1, `${WINDOW}&sort=recommended`)).body.products[0].product_id).toBe(C);
    expect((await funnels(ORG1, `${WINDOW}&sort=mentioned`)).body.products[0].product_id).toBe(C);
  });

  test('limit and cursor page through the products, most cited first, then by id', async () => {
    const ids = [...orgs[ORG1].names.keys()].filter((p) => p !== B).sort();
    const first = (await funnels(ORG1, `${WINDOW}&sort=cited&limit=2`)).body;
    expect(first).toMatchObject({ total: orgs[ORG1].names.size, next_cursor: '2' });
    expect(first.products.map((p: any) => p.product_id)).toEqual([B, ids[0]]);
    const second = (await funnels(ORG1, `${WINDOW}&sort=cited&limit=2&cursor=2`)).body;
    expect(second.products.map((p: any) => p.product_id)).toEqual([ids[1], ids[2]]);
  });
});

describe('a window of day 2 only', () => {
  test('only day 2\'s visits and checks', async () => {
    const body = (await funnels(ORG1, `from=${DAY2}&to=${DAY2}&limit=100`)).body;
    const product = (id: string) => body.products.find((p: any) => p.product_id === id);
    expect(body).toMatchObject({ from: DAY2, to: DAY2 });
    expect(product(A)).toMatchObject({ crawled: { visits: 3, by_platform: { platform_1: 1, platform_2: 1, platform_4: 1 }, by_purpose: { training: 2, search: 1 } }, answered: 80, drop_out: 'surface' });
    expect(product(B)).toMatchObject({ cited: { checks: 20 }, answered: 80, drop_out: 'recommendation' });
    expect(product(C)).toMatchObject({ mentioned: { checks: 20 }, recommended: { checks: 20 }, answered: 80, drop_out: null });
  });

  test('and a window of day 1 only', async () => {
    const body = (await funnels(ORG1, `from=${DAY1}&to=${DAY1}&limit=100`)).body;
    const product = (id: string) => body.products.find((p: any) => p.product_id === id);
    expect(product(A)).toMatchObject({ crawled: { visits: 3, by_platform: { platform_1: 2, platform_2: 1 } }, answered: 80 });
    expect(product(B)).toMatchObject({ cited: { checks: 10 }, answered: 80 });
    expect(product(C)).toMatchObject({ recommended: { checks: 10 }, answered: 80 });
  });
});

describe('GET /api/visibility/{business_id}?product_id=: the funnel block', () => {
  test('the same figures as the list, with the drop-out rule', async () => {
    const list = (await funnels(ORG1, `${WINDOW}&limit=100`)).body.products;
    for (const id of [A, B, C, D]) {
      const res = await funnelOf(ORG1, id, WINDOW);
      expect(res.status).toBe(200);
      const { name: _name, ...fromList } = list.find((p: any) => p.product_id === id);
      expect(res.body.funnel).toEqual({ ...fromList, drop_out_rule: expect.any(String) });
    }
    expect((await funnelOf(ORG1, C, WINDOW)).body.funnel).toMatchObject({ recommended: { checks: 30 }, drop_out: null });
  });

  test('day 2 only, and the default window (the last 28 days) holds both days', async () => {
    expect((await funnelOf(ORG1, A, `from=${DAY2}&to=${DAY2}`)).body.funnel).toMatchObject({ crawled: { visits: 3 }, answered: 80 });
    expect((await funnelOf(ORG1, A, '')).body.funnel).toMatchObject({ to: DAY2, crawled: { visits: 6 }, answered: 160 });
  });

  test('the business (no product_id) has no funnel block', async () => {
    expect((await stack.call('GET', `/api/visibility/${ORG1}`, { token: orgs[ORG1].token })).body.funnel).toBeUndefined();
  });
});

describe('two organizations: isolation', () => {
  test('organization 2 sees only its own visits and checks', async () => {
    const body = (await funnels(ORG2, `${WINDOW}&limit=100`)).body;
    const product = (id: string) => body.products.find((p: any) => p.product_id === id);
    // A: GPTBot + ClaudeBot on day 1, PerplexityBot (AI page) + ClaudeBot (store page) on day 2.
    expect(product(A)).toMatchObject({ crawled: { visits: 4, by_platform: { platform_1: 1, platform_2: 2, platform_4: 1 } }, answered: 160, drop_out: 'surface' });
    // B: recommended by platform_1 both days; its llms file read by GPTBot on day 1.
    expect(product(B)).toMatchObject({ crawled: { visits: 1 }, cited: { checks: 0 }, mentioned: { checks: 20 }, recommended: { checks: 20 }, drop_out: null });
    // C: cited by platform_2 both days, recommended by platform_3 on day 1; read by GPTBot on day 2.
    expect(product(C)).toMatchObject({ crawled: { visits: 1 }, cited: { checks: 20 }, mentioned: { checks: 10 }, recommended: { checks: 10 }, drop_out: null });
    expect(body.products[0].product_id).toBe(A);
  });

  test('organization 1\'s figures hold none of organization 2\'s (the same slugs)', async () => {
    const body = (await funnels(ORG1, `${WINDOW}&limit=100`)).body;
    const product = (id: string) => body.products.find((p: any) => p.product_id === id);
    expect(product(A).crawled.visits).toBe(6);
    expect(product(B)).toMatchObject({ crawled: { visits: 0 }, mentioned: { checks: 0 }, recommended: { checks: 0 }, cited: { checks: 30 } });
    expect(product(C)).toMatchObject({ crawled: { visits: 0 }, cited: { checks: 0 }, recommended: { checks: 30 } });
  });

  test('another organization\'s token is refused on both routes (403), both ways', async () => {
    const t2 = orgs[ORG2].token;
    expect((await funnels(ORG1, WINDOW, t2)).status).toBe(403);
    expect((await funnelOf(ORG1, A, WINDOW, t2)).status).toBe(403);
    expect((await funnels(ORG2, WINDOW, orgs[ORG1].token)).status).toBe(403);
    expect((await funnelOf(ORG2, A, WINDOW, orgs[ORG1].token)).status).toBe(403);
    expect((await stack.call('GET', `/api/visibility/${ORG1}/products`)).status).toBe(401);
  });
});

describe('the routes validate their input', () => {
  test.each([
    ['sort=cheapest'],
    ['limit=0'],
    ['limit=101'],
    ['cursor=abc'],
    [`from=${DAY2}&to=${DAY1}`],
    ['from=2026-02-30'],
  ])('?%s → 400', async (query) => {
    expect((await funnels(ORG1, query)).status).toBe(400);
  });

  test('an unknown product is 404', async () => {
    expect((await funnelOf(ORG1, 'no-such-product', WINDOW)).status).toBe(404);
  });
});

test('a request without a User-Agent through the proxy counts nothing', async () => {
  const before = (await funnels(ORG1, `from=${DAY2}&to=${DAY2}&limit=100`)).body.products.find((p: any) => p.product_id === A).crawled.visits;
  expect((await getWithHost(stack.proxy.port, `/ai/products/${A}/`, `${orgs[ORG1].cdnDomain}:${stack.proxy.port}`)).status).toBe(200);
  await visitWritesSettled();
  const after = (await funnels(ORG1, `from=${DAY2}&to=${DAY2}&limit=100`)).body.products.find((p: any) => p.product_id === A).crawled.visits;
  expect(after).toBe(before);
});
