/**
 * Stale content leaves (issue 20 item 5), end to end on the local runtime: a store onboarded,
 * the daily schedule run on day 1 (articles created, weekly-100), then the catalogue changes
 * through the demo store's admin API (one product with articles removed, one sold out, one
 * that was sold out restocked) and the schedule runs on day 2, the next week's Monday (so day 2
 * writes articles too). The removed product's articles must be gone from every surface
 * (AI host, CDN proxy, sitemap, AI home, llms.txt, the articles API), day 2 must write none for
 * it, and no published article may state a stock or availability that day 2 contradicts.
 */
import { randomUUID } from 'node:crypto';
import * as cheerio from 'cheerio';
import { getContainer } from '../../functions/container';
import { artifactKeys } from '../../functions/core/artifacts';
import { startDemoStore, type DemoStore } from '../../functions/local/demo-store';
import { getWithHost } from '../support/http';
import { DEV_API_KEY, startTestStack, type TestStack } from '../support/stack';
import type { CatalogArtifact } from '../../functions/app/site/inputs';

const ORG = 'stale-roastery';
const DAY_MS = 86_400_000;
const key = { apiKey: DEV_API_KEY };
/** Sold out before day 1: one of them (one with articles) is restocked before day 2. */
const SOLD_OUT_BEFORE = ['kenya-nyeri-gachatha-aa', 'slack-tide-gooseneck-kettle', 'half-moon-coffee-scale'];

let stack: TestStack;
let store: DemoStore;
let token: string;
let cdnHost: string;
/** The service's clock: day 1 is the coming Sunday, day 2 the Monday after it (a new quota week). */
let offsetMs = 0;
const clock = { now: () => new Date(Date.now() + offsetMs) };
const dateOf = () => clock.now().toISOString().slice(0, 10);

const aiHost = () => `${ORG}.localhost:${stack.sites.port}`;
const aiPage = (path: string) => getWithHost(stack.sites.port, path, aiHost());
const viaCdn = (path: string) => getWithHost(stack.proxy.port, path, cdnHost);

interface Article { title: string; article_path: string; published_date: string; product_id: string | null }
const articles = async (): Promise<Article[]> => {
  const res = await stack.call('GET', `/api/articles/${ORG}`, { token });
  expect(res.status).toBe(200);
  return res.body.articles;
};
const slugOf = (a: Article) => a.article_path.replace(/\//g, '');
/** The article's path as any surface writes it (`/<slug>/` or `/ai/<slug>/`): never a prefix or suffix of another slug. */
const pathPattern = (a: Article) => new RegExp(`/${slugOf(a)}/`);

async function admin(method: 'PATCH' | 'DELETE', handle: string, body?: unknown): Promise<void> {
  const res = await fetch(`${store.adminUrl}/products/${handle}`, {
    method, ...(body ? { body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } } : {}),
  });
  expect([method, handle, res.status]).toEqual([method, handle, 200]);
}

/** The daily schedule for this business on the clock's day (the run date the scheduler would give it). */
async function runDay(): Promise<any> {
  const executionId = randomUUID();
  await stack.workflows.start('daily-schedule', executionId, { trigger: 'manual', org_slugs: [ORG], run_date: dateOf() });
  await stack.workflows.finished(executionId);
  const status = await stack.call('GET', `/api/cron/trigger-all/${executionId}`, key);
  expect(status.status).toBe(200);
  expect(status.body.status).toBe('succeeded');
  const run = status.body.businesses.runs.find((r: any) => r.org_slug === ORG);
  expect(run).toMatchObject({ run_date: dateOf() });
  return run;
}

/** Day 1, its articles, and the products picked for the changes between the two days. */
let day1: { run: any; articles: Article[] };
let day2: { run: any; articles: Article[] };
let removed: string;
let soldOut: string;
let restocked: string;
let removedArticles: Article[];
let quotingArticles: Article[];
let catalogueNames: Map<string, string>;
/** The removed product's articles' statuses after day 1 (AI host, CDN proxy). */
const servedAfterDay1: number[] = [];

beforeAll(async () => {
  const daysToSunday = (7 - new Date().getUTCDay()) % 7;
  offsetMs = daysToSunday * DAY_MS;
  store = await startDemoStore({ port: 0 });
  stack = await startTestStack(
    { LOG_LEVEL: 'error', EDGE_PROPAGATION_WAIT_SECONDS: '0', ARTICLE_QUOTA_POLICY: 'weekly-100' },
    { workflows: { retryWithoutDelay: true }, clock },
  );
  for (const handle of SOLD_OUT_BEFORE) await admin('PATCH', handle, { available: false });
  token = await stack.token(ORG);
  expect((await stack.call('POST', '/api/business', { token, body: { name: 'Harbor & Pine Coffee Co.', url: store.origin } })).status).toBe(201);
  const started = await stack.call('POST', '/api/onboarding/generate-all', { token, body: {} });
  await stack.workflows.finished(started.body.execution_id);
  const proxy = await stack.call('GET', `/api/domain/get-proxy/${ORG}`, { token });
  cdnHost = new URL(proxy.body.cdn_url ?? `http://${proxy.body.cdn_domain}`).host.split(':')[0]!;

  day1 = { run: await runDay(), articles: await articles() };
  const withArticles = (handle: string) => day1.articles.filter((a) => a.product_id === handle).length;
  const inStock = [...new Set(day1.articles.map((a) => a.product_id))]
    .filter((p): p is string => p !== null && !SOLD_OUT_BEFORE.includes(p))
    .sort((a, b) => withArticles(b) - withArticles(a) || a.localeCompare(b));
  // The engine decides which products it can write about: the picks are products it wrote for.
  restocked = SOLD_OUT_BEFORE.find((h) => withArticles(h) > 0) ?? SOLD_OUT_BEFORE[0]!;
  [removed, soldOut] = inStock as [string, string];
  removedArticles = day1.articles.filter((a) => a.product_id === removed);
  // The other articles quoting it: comparisons with it, business articles listing it.
  const quoting = new Set((await getContainer().articles.list(ORG)).filter((r) => r.product_id !== removed && r.subjects?.includes(removed)).map((r) => r.article_path));
  quotingArticles = day1.articles.filter((a) => quoting.has(a.article_path));
  for (const a of removedArticles) servedAfterDay1.push((await aiPage(a.article_path)).status, (await viaCdn(`/ai${a.article_path}`)).status);

  // Between the two days: the store changes.
  await admin('DELETE', removed);
  await admin('PATCH', soldOut, { available: false });
  await admin('PATCH', restocked, { available: true });
  // And a new product, so day 2 has questions of its own (day 1 may have written every question
  // the catalogue's facts answer: a question without a verdict and a fact is not asked, D210).
  const added = await fetch(`${store.adminUrl}/products`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      handle: 'stoneware-pour-over-kettle', title: 'Stoneware Pour-Over Kettle', price: '64.00', product_type: 'Kettle',
      body_html: '<p>Made of glazed stoneware in Portugal. Holds 1 l. Hand wash only. Ideal for slow pour-over brewing at home.</p>',
    }),
  });
  expect(added.status).toBe(201);
  offsetMs += DAY_MS;
  day2 = { run: await runDay(), articles: await articles() };
  const catalog = await getContainer().artifacts.get<CatalogArtifact>(artifactKeys.catalog(ORG));
  catalogueNames = new Map(catalog!.products.map((p) => [p.productId, p.name]));
}, 300_000);

afterAll(async () => {
  await stack?.close();
  await store?.close();
});

test('day 1 wrote articles for the products picked, and they were live', async () => {
  expect(day1.run.steps['2a']).toMatchObject({ status: 'succeeded' });
  expect(day1.articles.length).toBeGreaterThan(0);
  expect(removedArticles.length).toBeGreaterThan(0);
  expect(day1.articles.filter((a) => a.product_id === soldOut).length).toBeGreaterThan(0);
  expect(day1.articles.filter((a) => a.product_id === restocked).length).toBeGreaterThan(0);
  // Before day 2 the removed product's articles were served (what the next tests see gone).
  expect(servedAfterDay1).toEqual(removedArticles.flatMap(() => [200, 200]));
});

describe('the removed product\'s articles leave the site on day 2', () => {
  test('the merged deploy retired them (UpdateAiSite reports which)', () => {
    const deploy = day2.run.steps.deploy;
    expect(deploy.status).toBe('succeeded');
    expect([...deploy.result.articles_retired].sort()).toEqual([...removedArticles, ...quotingArticles].map((a) => a.article_path).sort());
    expect(deploy.result.retired_for_products).toEqual([removed]);
    expect(day2.run.steps['1b'].result.removed_products).toEqual([removed]);
  });

  test('404 on the AI host (/<slug>/ and /ai/<slug>/) and through the CDN proxy (/ai/<slug>/)', async () => {
    for (const a of removedArticles) {
      expect([a.article_path, (await aiPage(a.article_path)).status]).toEqual([a.article_path, 404]);
      expect([`/ai${a.article_path}`, (await aiPage(`/ai${a.article_path}`)).status]).toEqual([`/ai${a.article_path}`, 404]);
      expect([`cdn /ai${a.article_path}`, (await viaCdn(`/ai${a.article_path}`)).status]).toEqual([`cdn /ai${a.article_path}`, 404]);
    }
    // The others are still served on both hosts.
    const kept = day2.articles.find((a) => a.product_id !== removed)!;
    expect((await aiPage(kept.article_path)).status).toBe(200);
    expect((await viaCdn(`/ai${kept.article_path}`)).status).toBe(200);
  });

  test('absent from sitemap.xml, llms.txt and the AI home, and from GET /api/articles', async () => {
    const surfaces = {
      sitemap: (await aiPage('/sitemap.xml')).text,
      llms: (await aiPage('/llms.txt')).text,
      aiHome: (await aiPage('/ai/')).text,
      root: (await aiPage('/')).text,
    };
    for (const [name, text] of Object.entries(surfaces)) expect([name, text.length > 0]).toEqual([name, true]);
    for (const a of removedArticles) {
      for (const [name, text] of Object.entries(surfaces)) {
        expect([name, a.article_path, pathPattern(a).test(text)]).toEqual([name, a.article_path, false]);
      }
    }
    // The surfaces list the articles that stay (the check above would have seen them).
    const kept = day2.articles.find((a) => a.product_id !== removed)!;
    expect(pathPattern(kept).test(surfaces.sitemap)).toBe(true);
    expect(pathPattern(kept).test(surfaces.aiHome)).toBe(true);
    expect(day2.articles.filter((a) => a.product_id === removed)).toEqual([]);
    const paths = new Set(day2.articles.map((a) => a.article_path));
    for (const a of removedArticles) expect(paths.has(a.article_path)).toBe(false);
  });

  test('no page names it any more: articles that compared it or listed it are gone, or rewritten without it', async () => {
    expect(quotingArticles.length).toBeGreaterThan(0);
    const name = catalogueNames.get(removed)!;
    for (const a of quotingArticles) {
      const page = await aiPage(a.article_path);
      expect([a.article_path, page.status === 404 || !page.text.includes(name)]).toEqual([a.article_path, true]);
    }
    // No article of the release links to a retired one ("Related articles" are pruned on publish).
    const release = await getContainer().siteStore.readCurrent(ORG);
    const retired = [...removedArticles, ...quotingArticles].map((a) => a.article_path).filter((p) => !release!.files.some((f) => f.path === `${p}index.html`));
    expect(retired.length).toBeGreaterThan(0);
    for (const file of release!.files.filter((f) => f.path.endsWith('.html'))) {
      for (const path of retired) expect([file.path, file.content.includes(`href="/ai${path}"`)]).toEqual([file.path, false]);
    }
  });

  test('day 2 wrote articles, none of them for the removed product', () => {
    const written = day2.articles.filter((a) => !day1.articles.some((b) => b.article_path === a.article_path));
    expect(day2.run.steps['2a']).toMatchObject({ status: 'succeeded' });
    expect(written.length).toBeGreaterThan(0);
    expect(written.filter((a) => a.product_id === removed)).toEqual([]);
    expect((day2.run.steps['2a'].result.article_paths as string[]).filter((p) => removedArticles.some((a) => a.article_path === p))).toEqual([]);
  });
});

/** Stock and availability as a page may state them. */
const STOCK = /\b(in stock|out of stock|sold out|unavailable|not available|availability|available)\b/i;
const SAYS_UNAVAILABLE = /\b(out of stock|sold out|unavailable|not available)\b/i;
const SAYS_AVAILABLE = /\bin stock\b|(?<!\bnot |\bun)\bavailable\b/i;

/**
 * The stock statements of a page about a product: its text blocks (with the heading they sit
 * under) that state stock and name the product, or, on the product's own article, that name no
 * other product of the catalogue.
 */
function stockLines(html: string, productId: string, ownArticle: boolean): string[] {
  const $ = cheerio.load(html);
  const name = catalogueNames.get(productId)!.toLowerCase();
  const others = [...catalogueNames].filter(([id]) => id !== productId).map(([, n]) => n.toLowerCase());
  const lines: string[] = [];
  let heading = '';
  $('main').find('h1, h2, h3, p, li, td, dd').each((_, el) => {
    const text = $(el).text().replace(/\s+/g, ' ').trim();
    if (/^h[1-3]$/.test(el.tagName)) {
      heading = text;
      return;
    }
    if ($(el).find('p, li').length || !STOCK.test(text)) return;
    const context = `${heading} ${text}`.toLowerCase();
    const about = context.includes(name) || (ownArticle && !others.some((n) => context.includes(n)));
    if (about) lines.push(text);
  });
  return lines;
}

describe('no published article states a stock that day 2 contradicts', () => {
  test('the check catches a stale line: an article that said "In stock" on day 1 of a product sold out since', () => {
    const name = catalogueNames.get(soldOut)!;
    const page = (line: string, own: boolean) => `<main><article><h1>Is the ${name} worth it?</h1>
<section><h2>About the ${own ? name : 'order'}</h2><ul><li>Vendor: Harbor &amp; Pine</li><li>${line}</li></ul></section></article></main>`;
    const stale = (line: string) => SAYS_AVAILABLE.test(line) || !SAYS_UNAVAILABLE.test(line);
    expect(stockLines(page('Availability on June 7, 2026: In stock', true), soldOut, true).filter(stale)).toEqual(['Availability on June 7, 2026: In stock']);
    expect(stockLines(page(`${name}: available to order today`, false), soldOut, false).filter(stale)).toHaveLength(1);
    expect(stockLines(page('Availability on June 8, 2026: Out of stock', true), soldOut, true).filter(stale)).toEqual([]);
  });

  test('the product pages state day 2\'s stock (the check reads stock lines where they are)', async () => {
    const page = async (handle: string) => (await aiPage(`/ai/products/${handle}/`)).text;
    expect(stockLines(await page(soldOut), soldOut, true).some((l) => SAYS_UNAVAILABLE.test(l))).toBe(true);
    expect(stockLines(await page(restocked), restocked, true).some((l) => SAYS_AVAILABLE.test(l))).toBe(true);
  });

  test.each([
    ['sold out', () => soldOut, (line: string) => SAYS_AVAILABLE.test(line) || !SAYS_UNAVAILABLE.test(line)],
    ['restocked', () => restocked, (line: string) => SAYS_UNAVAILABLE.test(line)],
  ])('the %s product: every article stock line about it states day 2\'s truth (or there is none)', async (_, product, stale) => {
    const handle = product();
    expect(day2.articles.some((a) => a.product_id === handle)).toBe(true);
    const found: string[] = [];
    for (const a of day2.articles) {
      const page = await aiPage(a.article_path);
      expect([a.article_path, page.status]).toEqual([a.article_path, 200]);
      for (const line of stockLines(page.text, handle, a.product_id === handle)) {
        if (stale(line)) found.push(`${a.article_path} (published ${a.published_date}): ${line}`);
      }
    }
    expect(found).toEqual([]);
  });
});
