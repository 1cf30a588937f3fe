import { randomUUID } from 'node:crypto';
import { weekBounds } from '../../functions/core/articles/quota';
import { buildContainer, getContainer, setContainer } from '../../functions/container';
import { DEV_API_KEY, startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
const today = new Date().toISOString().slice(0, 10);
const quota = (org: string) => stack.call('GET', `/api/cron/ai-articles-quota?org_slug=${org}`, { apiKey: DEV_API_KEY });

async function business(org: string, products: Array<[string, number]>) {
  await stack.call('POST', '/api/business', { token: await stack.token(org), body: { name: org, url: `${org}.example` } });
  const now = new Date().toISOString();
  await getContainer().products.addMissing(products.map(([slug, articles]) => ({
    id: randomUUID(), orgSlug: org, productId: slug, name: slug, url: null, citationCount: 0, articleCount: articles, createdAt: now, updatedAt: now,
  })));
}

beforeAll(async () => { stack = await startTestStack(); });
afterAll(() => stack.close());

test('first run of the week: 1,000 spread round-robin, fewest articles first (one-time-burst)', async () => {
  await business('three', [['a', 5], ['b', 0], ['c', 2]]);
  const res = await quota('three');
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({
    org_slug: 'three', week_start: weekBounds(today).weekStart, week_end: weekBounds(today).weekEnd,
    weekly_target: 1000, articles_this_week: 0, articles_remaining: 1000, total_products: 3,
    total_daily_quota: 1000, architecture: 'one-time-burst', message: expect.any(String),
  });
  expect(res.body.products.map((p: { name: string; daily_quota: number; total_articles: number }) => [p.name, p.daily_quota, p.total_articles]))
    .toEqual([['b', 334, 0], ['c', 333, 2], ['a', 333, 5]]);
});

test('a later run in the same week, after an article exists: 0 and no products', async () => {
  await getContainer().articleStats.recordArticle('three', weekBounds(today).weekStart, 'b');
  const res = await quota('three');
  expect(res.body).toMatchObject({ articles_this_week: 1, total_daily_quota: 0, products: [], architecture: 'one-time-burst' });
  expect(res.body.articles_remaining).toBeUndefined();
});

test('no products: quota 0, products empty, no architecture', async () => {
  await business('solo', []);
  const res = await quota('solo');
  expect(res.body).toMatchObject({ total_daily_quota: 0, products: [] });
  expect(res.body.architecture).toBeUndefined();
});

test('the weekly-100 policy is configuration (ARTICLE_QUOTA_POLICY), not code (D10)', async () => {
  const original = getContainer();
  setContainer(buildContainer({ ...original.config, articleQuotaPolicy: 'weekly-100' }));
  try {
    await business('weekly', [['x', 0], ['y', 1]]);
    const res = await quota('weekly');
    expect(res.body).toMatchObject({ weekly_target: 100, architecture: 'weekly-100', business: { daily_quota: 50 } });
    expect(res.body.products.reduce((n: number, p: { daily_quota: number }) => n + p.daily_quota, 0)).toBe(50);
  } finally {
    setContainer(original);
  }
});

test('errors: missing org_slug 400, unknown business 404, no key 401', async () => {
  expect((await stack.call('GET', '/api/cron/ai-articles-quota', { apiKey: DEV_API_KEY })).body.error).toMatch(/org_slug/);
  expect((await quota('nobody')).status).toBe(404);
  expect((await stack.call('GET', '/api/cron/ai-articles-quota?org_slug=three')).status).toBe(401);
});
