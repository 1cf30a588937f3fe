/**
 * Batches 2a and 3 end to end on the local runtime: the daily schedule plans the day's
 * articles from the quota policy (weekly-100 here: 100 articles is enough to see the
 * plan at work without a 1,000-article burst), creates them from the AI site's own content,
 * publishes them in one deploy that refreshes every page's check date, and then notifies a
 * local IndexNow endpoint exactly once, which fetches the key file from where the
 * submission's keyLocation says, as a real engine does.
 */
import { getContainer } from '../../functions/container';
import { startDemoStore, type DemoStore } from '../../functions/local/demo-store';
import { startIndexNowFake, type IndexNowFake } from '../../functions/local/fakes/indexnow';
import { urlPathOfFile } from '../../functions/core/site/paths';
import { getWithHost } from '../support/http';
import { DEV_API_KEY, startTestStack, type TestStack } from '../support/stack';

const ORG = 'roastery';
let stack: TestStack;
let store: DemoStore;
let indexNow: IndexNowFake;
let token: string;
const key = { apiKey: DEV_API_KEY };
/** The service's clock; the daily run below happens a day later, so the check dates visibly move. */
let offsetMs = 0;
const clock = { now: () => new Date(Date.now() + offsetMs) };

const aiHost = () => `${ORG}.localhost:${stack.sites.port}`;
const aiPage = (path: string) => getWithHost(stack.sites.port, path, aiHost());

/** One daily execution for the business, to the end; its run record as the execution's read-back gives it. */
async function runDay(): Promise<any> {
  const started = await stack.call('POST', '/api/cron/trigger-all', { ...key, body: { business_ids: [ORG] } });
  await stack.workflows.finished(started.body.execution_id);
  return (await stack.call('GET', started.body.status_url, key)).body.businesses.runs[0];
}
const lastChecked = (html: string) => /Last checked: ([^<]+)/.exec(html)?.[1] ?? null;

beforeAll(async () => {
  indexNow = await startIndexNowFake();
  store = await startDemoStore({ port: 0 });
  stack = await startTestStack(
    { LOG_LEVEL: 'error', EDGE_PROPAGATION_WAIT_SECONDS: '0', ARTICLE_QUOTA_POLICY: 'weekly-100', INDEXNOW_ENDPOINT: indexNow.url },
    { workflows: { retryWithoutDelay: true }, clock },
  );
  token = await stack.token(ORG);
  await stack.call('POST', '/api/business', { token, body: { name: 'Quill Roasting Co.', url: store.origin } });
  const started = await stack.call('POST', '/api/onboarding/generate-all', { token, body: {} });
  await stack.workflows.finished(started.body.execution_id);
}, 240_000);

afterAll(async () => {
  await stack?.close();
  await store?.close();
  await indexNow?.close();
});

describe('create-ai-article, articles and timestamps through the routes', () => {
  let created: any;

  test('create-ai-article answers every spec field, saves the article and does not deploy it', async () => {
    const res = await stack.call('POST', '/api/cron/create-ai-article', { ...key, body: { business_id: ORG } });
    expect(res.status).toBe(201);
    created = res.body;
    expect(created).toMatchObject({
      status: 'success', article_path: expect.stringMatching(/^\/[a-z0-9-]+\/$/), title: expect.stringMatching(/\?$/),
      published_date: new Date().toISOString().slice(0, 10), project_name: ORG, ai_site_url: expect.stringContaining(`${ORG}.localhost`),
      existing_posts: [], faq_category: 'business_article',
    });
    expect(created.files.map((f: any) => f.path)).toContain(`${created.article_path}index.html`);
    expect(created.title).not.toMatch(/Quill/i);
    expect((await aiPage(created.article_path)).status).toBe(404);
    const list = await stack.call('GET', `/api/articles/${ORG}`, { token });
    expect(list.body).toEqual({ business_id: ORG, total: 1, articles: [{ title: created.title, article_path: created.article_path, published_date: created.published_date, faq_category: 'business_article', product_id: null }] });
  });

  test('update-all-timestamps publishes it: reachable at /{slug}/ on the AI host and /ai/{slug}/ through the CDN proxy', async () => {
    const res = await stack.call('POST', '/api/cron/update-all-timestamps', { ...key, body: { business_id: ORG } });
    expect(res.status).toBe(200);
    const page = await aiPage(created.article_path);
    expect(page.status).toBe(200);
    expect(page.text).toContain(created.title.replace(/'/g, '&#39;').replace(/&(?!#)/g, '&amp;'));
    const proxy = await stack.call('GET', `/api/domain/get-proxy/${ORG}`, { token });
    const cdnHost = new URL(proxy.body.cdn_url ?? `http://${proxy.body.cdn_domain}`).host;
    const viaCdn = await getWithHost(stack.proxy.port, `/ai${created.article_path}`, cdnHost.split(':')[0]!);
    expect(viaCdn.status).toBe(200);
    expect(viaCdn.text).toContain(`${created.article_path}`);
  });

  test('a product article, a backdated one, and bad requests', async () => {
    const product = (await getContainer().products.list(ORG))[0]!;
    const res = await stack.call('POST', '/api/cron/create-ai-article', { ...key, body: { business_id: ORG, product_id: product.productId, backdate_to: '2026-01-15' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ faq_category: 'product_article', published_date: '2026-01-15', existing_posts: [{ title: created.title, article_path: created.article_path }] });
    expect((await getContainer().products.find(ORG, product.productId))!.articleCount).toBe(1);
    for (const [body, status] of [
      [{ business_id: ORG, product_id: 'no-such-product' }, 404],
      [{ business_id: 'nobody' }, 404],
      [{ business_id: ORG, backdate_to: '2999-01-01' }, 400],
      [{ business_id: ORG, extra: 1 }, 400],
    ] as const) {
      expect([body, (await stack.call('POST', '/api/cron/create-ai-article', { ...key, body })).status]).toEqual([body, status]);
    }
    expect((await stack.call('POST', '/api/cron/create-ai-article', { body: { business_id: ORG } })).status).toBe(401);
  });

  test('submit-indexnow: a refused submission is a 502 in the error shape, naming what the engine answered', async () => {
    indexNow.reset();
    indexNow.failNext(503, 10);
    const refused = await stack.call('POST', '/api/cron/submit-indexnow', { ...key, body: { urls: ['/'], source_url: store.origin } });
    expect(refused.status).toBe(502);
    expect(refused.body).toMatchObject({ status: 'error', business_id: ORG, ok: false, error: expect.stringMatching(/^IndexNow refused the submission: .*503/) });
    indexNow.reset();
    const sent = await stack.call('POST', '/api/cron/submit-indexnow', { ...key, body: { urls: ['/'], source_url: store.origin } });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ status: 'success', business_id: ORG, ok: true, urls_submitted: 1 });
  });
});

describe('a daily run: 2a articles and timestamps in one deploy, then batch 3', () => {
  let run: any;
  let checkedBefore: string | null;
  let quotaBefore: any;

  beforeAll(async () => {
    checkedBefore = lastChecked((await aiPage('/ai/')).text);
    quotaBefore = (await stack.call('GET', `/api/cron/ai-articles-quota?org_slug=${ORG}`, key)).body;
    indexNow.reset();
    offsetMs = 86_400_000;
    run = await runDay();
  }, 240_000);

  test('2a creates the day\'s quota of articles and publishes them with refreshed check dates', async () => {
    expect(run.steps['2a']).toMatchObject({ status: 'succeeded' });
    // weekly-100: 100 a week, 2 already created by the routes this week → 98 today.
    expect(quotaBefore.total_daily_quota).toBe(98);
    // The quota is a ceiling (D35): what the store's facts can answer is written, and the
    // outcome says how many were planned and why the rest were not.
    const result = run.steps['2a'].result;
    expect(result.articles_planned).toBe(98);
    expect(result.articles_created).toBeGreaterThan(10);
    expect(result.articles_created).toBeLessThanOrEqual(98);
    expect(result.shortfall).toBe(98 - result.articles_created);
    if (result.shortfall > 0) expect(result.not_published.length).toBeGreaterThan(0);
    for (const entry of result.not_published) expect(entry.reason ?? entry.rejected[0]?.reason).toEqual(expect.any(String));
    const articles = (await stack.call('GET', `/api/articles/${ORG}`, { token })).body;
    expect(articles.total).toBe(result.articles_created + 2);
    expect(new Set(articles.articles.map((a: any) => a.title)).size).toBe(articles.total);
    for (const a of articles.articles.slice(-5)) expect((await aiPage(a.article_path)).status).toBe(200);
    const checkedAfter = lastChecked((await aiPage('/ai/')).text);
    expect(checkedAfter).not.toBeNull();
    expect(checkedAfter).not.toBe(checkedBefore);
    expect(new Date(`${checkedAfter} UTC`).getTime() - new Date(`${checkedBefore} UTC`).getTime()).toBe(86_400_000);
    const quotaAfter = (await stack.call('GET', `/api/cron/ai-articles-quota?org_slug=${ORG}`, key)).body;
    // The week's count is of the articles created in the quota's week (a backdated article counts
    // in the week it was created, whatever its published date): the routes' 2 count too when the
    // daily run's day is in their week, and not when it crossed into the next (a Sunday run).
    const routesInWeek = quotaBefore.week_start === quotaAfter.week_start ? quotaBefore.articles_this_week : 0;
    expect(quotaBefore.articles_this_week).toBe(2);
    expect(quotaAfter).toMatchObject({ articles_this_week: result.articles_created + routesInWeek });
  });

  test('batch 3: exactly one IndexNow request, on the AI host, with its key location and the new article URLs', async () => {
    expect(run.steps['3']).toMatchObject({ status: 'succeeded' });
    const site = await getContainer().aiSites.get(ORG);
    expect(indexNow.submissions).toHaveLength(1);
    const [submission] = indexNow.submissions;
    expect(submission).toMatchObject({
      status: 200, host: aiHost(), key: site!.indexNowKey,
      keyLocation: `http://${aiHost()}/${site!.indexNowKey}.txt`, keyCheck: { matched: true },
    });
    // Every article this run published, and the few pages they changed (the AI home and the
    // questions index list them; older articles gained Related links); nothing else.
    const urls = submission!.urlList!;
    const articles = (run.steps['2a'].result.article_paths as string[]).map((p) => `http://${aiHost()}${p}`);
    expect(urls).toEqual(expect.arrayContaining(articles));
    const live = new Set((await getContainer().siteStore.readCurrent(ORG))!.files.map((f) => `http://${aiHost()}${urlPathOfFile(f.path)}`));
    for (const url of urls) expect([url, live.has(url)]).toEqual([url, true]);
    expect(urls.length - articles.length).toBeLessThan(articles.length);
    expect(urls.some((u) => /sitemap|robots\.txt|tracking\.js/.test(u))).toBe(false);
    expect(run.steps['3'].result).toMatchObject({ ai_paths_changed: urls.length, ai_paths_removed: 0 });
  });

  test('a second run the same day publishes nothing and submits nothing (issue 23)', async () => {
    indexNow.reset();
    const again = await runDay();
    expect(again.steps['2a'].result).toMatchObject({ deployed: false });
    expect(again.steps['3']).toMatchObject({ status: 'skipped', reason: 'this run published and found no change: no IndexNow submission' });
    expect(indexNow.submissions).toEqual([]);
  }, 120_000);

  test('new products\' AI pages are submitted; a removed product\'s pages and articles are submitted once, as they leave (issue 23)', async () => {
    const NEW = ['kyoto-drip-kettle', 'harbor-cold-brew-kit', 'pine-travel-grinder'];
    for (const [i, handle] of NEW.entries()) {
      store.admin.addProduct({
        handle, title: handle.split('-').map((w) => w[0]!.toUpperCase() + w.slice(1)).join(' '), product_type: 'Brewing Gear', tags: ['gear'],
        body_html: `<p>A ${['gooseneck kettle', 'cold brew pitcher', 'hand grinder'][i]} in brushed stainless steel, made for travel and daily brewing.</p>`,
        price: `${30 + i * 10}.00`,
      });
    }
    const gone = (await getContainer().articles.list(ORG)).find((a) => a.product_id)!;
    store.admin.removeProduct(gone.product_id!);
    indexNow.reset();
    offsetMs += 86_400_000;
    const next = await runDay();
    expect(next.steps['3']).toMatchObject({ status: 'succeeded' });
    expect(indexNow.submissions).toHaveLength(1);
    const urls = indexNow.submissions[0]!.urlList!;
    for (const handle of NEW) {
      expect(urls).toContain(`http://${aiHost()}/ai/products/${handle}/`);
      expect(urls).toContain(`http://${aiHost()}/llms/${handle}.txt`);
    }
    // The removed product's page and its articles: no longer served, announced once.
    expect(urls).toContain(`http://${aiHost()}/ai/products/${gone.product_id}/`);
    expect(urls).toContain(`http://${aiHost()}${gone.article_path}`);
    expect((await aiPage(`/ai/products/${gone.product_id}/`)).status).toBe(404);
    expect(next.steps['3'].result.ai_paths_removed).toBeGreaterThanOrEqual(2);
  }, 240_000);

  test('what a failed notification left unannounced, the next run announces (never lost)', async () => {
    const handle = 'harbor-pour-over-stand';
    store.admin.addProduct({
      handle, title: 'Harbor Pour Over Stand', product_type: 'Brewing Gear', tags: ['gear'],
      body_html: '<p>A walnut pour-over stand with a stainless drip tray, sized for one or two cups.</p>', price: '45.00',
    });
    indexNow.reset();
    indexNow.failNext(422, 10); // a refusal: batch 3 fails and is not retried
    offsetMs += 86_400_000;
    const failed = await runDay();
    expect(failed.steps['3']).toMatchObject({ status: 'failed' });
    expect(indexNow.accepted()).toEqual([]);

    indexNow.reset();
    const next = await runDay();
    expect(next.steps['3']).toMatchObject({ status: 'succeeded' });
    expect(indexNow.submissions).toHaveLength(1);
    expect(indexNow.submissions[0]!.urlList).toEqual(expect.arrayContaining([`http://${aiHost()}/ai/products/${handle}/`, `http://${aiHost()}/llms/${handle}.txt`]));

    // Announced once: the day after, nothing is left to tell.
    indexNow.reset();
    await runDay();
    expect(indexNow.submissions).toEqual([]);
  }, 240_000);

  test('two failed notifications in a row: the next run announces what both left unannounced (D177, an older baseline covers more)', async () => {
    const products = [
      { handle: 'cedar-milk-frother', title: 'Cedar Milk Frother', body_html: '<p>A hand-pumped milk frother in stainless steel with a cedar handle, for two cups of microfoam.</p>', price: '38.00' },
      { handle: 'alder-brew-timer', title: 'Alder Brew Timer', body_html: '<p>A magnetic alder-wood brew timer with a quiet chime, sized to sit beside a pour-over stand.</p>', price: '24.00' },
    ];
    for (const product of products) {
      store.admin.addProduct({ ...product, product_type: 'Brewing Gear', tags: ['gear'] });
      indexNow.reset();
      indexNow.failNext(422, 10); // a refusal: batch 3 fails and is not retried
      offsetMs += 86_400_000;
      const failed = await runDay();
      expect(failed.steps['3']).toMatchObject({ status: 'failed' });
      expect(indexNow.accepted()).toEqual([]);
      // Published by the failing run itself: only the carried baseline still marks it as news.
      expect((await aiPage(`/ai/products/${product.handle}/`)).status).toBe(200);
    }

    indexNow.reset();
    offsetMs += 86_400_000;
    const next = await runDay();
    expect(next.steps['3']).toMatchObject({ status: 'succeeded' });
    expect(indexNow.submissions).toHaveLength(1);
    expect(indexNow.submissions[0]!.urlList).toEqual(expect.arrayContaining(products.map((p) => `http://${aiHost()}/ai/products/${p.handle}/`)));
  }, 360_000);
});
