/**
 * The day's article plan (2a) under the default policy (spec ai-articles-quota rules 1, 3, 5;
 * D10, D125): products only, 1,000 spread round-robin, and stored once so a retry of the day
 * follows the same plan although the quota reads 0 once articles exist.
 */
import { ARTICLES_PER_ITEM_EXTRACTIVE, itemsOfPlan, planDailyArticles } from '../../functions/app/articles/daily';
import type { Container } from '../../functions/container';
import { newBusinessRun, type BusinessRun } from '../../functions/core/daily/run';

function fakeContainer(products: number, articlesThisWeek: () => number, removed: readonly string[] = [], run: BusinessRun | null = null) {
  const list = Array.from({ length: products }, (_, i) => ({
    id: `entity-${i}`, orgSlug: 'o', productId: `p-${i}`, name: `Product ${i}`, url: null, citationCount: 0, articleCount: i % 3, createdAt: '', updatedAt: '',
  }));
  // Today's catalogue: removed products keep their entities but are no longer listed.
  const artifacts = new Map<string, unknown>([['catalog/o', { products: list.filter((p) => !removed.includes(p.productId)).map((p) => ({ productId: p.productId })) }]]);
  return {
    // Offline: no article model (LLM_* unset), no secrets to read.
    config: { articleQuotaPolicy: 'one-time-burst', llm: {}, secretArns: {} },
    businesses: { get: async () => ({ id: 'biz', orgSlug: 'o', name: 'Shop', url: 'https://shop.example', domain: 'shop.example', faviconUrl: null, createdAt: '', updatedAt: '' }) },
    products: { list: async () => list },
    articleStats: { countInWeek: async () => articlesThisWeek() },
    artifacts: { get: async (k: string) => artifacts.get(k) ?? null, put: async (k: string, v: unknown) => { artifacts.set(k, v); } },
    clock: { now: () => new Date('2026-11-23T14:00:00Z') },
    // The execution holds the business's day; its run record as batch 1 left it.
    dailyRuns: { renewDayLease: async () => true, getBusinessRun: async () => run },
    // No release yet: the plan has no article sources to prepare.
    siteStore: { currentReleaseId: async () => null },
  } as unknown as Container;
}

const input = { org_slug: 'o', run_date: '2026-11-23', execution_id: 'e1' };

/** The plan's entity lines, whatever Map items they are grouped into. */
const entitiesOf = (items: Array<{ entities: Array<{ product_id: string | null; count: number }> }>) => items.flatMap((i) => i.entities);

test('one-time burst: 1,000 articles across the products only, never the business', async () => {
  const { items } = await planDailyArticles(fakeContainer(51, () => 0), input);
  const entities = entitiesOf(items);
  expect(entities.every((i) => i.product_id !== null)).toBe(true);
  expect(entities).toHaveLength(51);
  expect(entities.reduce((n, i) => n + i.count, 0)).toBe(1000);
  expect(items[0]).toMatchObject({ ...input, entities: expect.arrayContaining([{ product_id: expect.stringMatching(/^p-/), count: expect.any(Number) }]) });
  // Grouped: each Map item reads the site once for up to ARTICLES_PER_ITEM planned articles.
  expect(items.length).toBeLessThan(51);
  for (const item of items) expect(item.entities.length === 1 || item.entities.reduce((n, e) => n + e.count, 0) <= ARTICLES_PER_ITEM_EXTRACTIVE).toBe(true);
});

test('the plan is stored once: a retry after the first articles exist follows it, not the quota (which now reads 0)', async () => {
  let created = 0;
  const container = fakeContainer(4, () => created);
  const first = await planDailyArticles(container, input);
  created = 120;
  expect(await planDailyArticles(container, input)).toEqual(first);
  // Another day (the next week's burst) gets its own plan: here the quota reads 0.
  expect((await planDailyArticles(container, { ...input, run_date: '2026-11-24' })).items).toEqual([]);
});

test('a product the store removed keeps its entity and quota line but gets no article planned (issue 20)', async () => {
  const { items } = await planDailyArticles(fakeContainer(4, () => 0, ['p-2']), input);
  expect(entitiesOf(items).map((i) => i.product_id).sort()).toEqual(['p-0', 'p-1', 'p-3']);
});

test('a store that could not be read today (1a and 1b failed) gets no article written from yesterday\'s facts (issue 23)', async () => {
  const run = newBusinessRun('o', input.run_date, input.execution_id, '2026-11-23T14:00:00Z');
  run.steps['1a'] = { ...run.steps['1a'], status: 'failed', reason: 'UpstreamError: could not map' };
  expect((await planDailyArticles(fakeContainer(4, () => 0, [], run), input)).items).toHaveLength(4);
  run.steps['1b'] = { ...run.steps['1b'], status: 'failed', reason: 'UpstreamError: 500' };
  expect((await planDailyArticles(fakeContainer(4, () => 0, [], run), input)).items).toEqual([]);
});

test('Map items group entities up to the per-item budget, never splitting one', () => {
  const e = (product_id: string, count: number) => ({ product_id, count });
  expect(itemsOfPlan([e('a', 20), e('b', 20), e('c', 1), e('d', 60), e('f', 5)], 40)).toEqual([[e('a', 20), e('b', 20)], [e('c', 1)], [e('d', 60)], [e('f', 5)]]);
  expect(itemsOfPlan([])).toEqual([]);
});
