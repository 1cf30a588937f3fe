import { randomUUID } from 'node:crypto';
import { generateOnboardingPrompts, generateProductPrompts, regeneratePrompts } from '../../functions/app/prompts/generate';
import { getContainer } from '../../functions/container';
import { artifactKeys } from '../../functions/core/artifacts';
import { PLATFORM_KEYS } from '../../functions/core/constants';
import { NotFoundError } from '../../functions/core/errors';
import type { Product } from '../../functions/core/model';
import { promptId } from '../../functions/core/prompts/prompt-identity';
import { containsBusinessName } from '../../functions/core/text/name-match';
import type { SearchPromptSource } from '../../functions/core/prompts/types';
import { startTestStack, type TestStack } from '../support/stack';
import { harborStore, NAME, PRODUCTS } from './fixtures';

let stack: TestStack;
beforeAll(async () => { stack = await startTestStack(); });
afterAll(() => stack.close());

async function createBusiness(org: string, name: string, url: string): Promise<string> {
  const res = await stack.call('POST', '/api/business', { token: await stack.token(org), body: { name, url } });
  expect(res.status).toBe(201);
  return res.body.business.id as string;
}

async function addProducts(org: string, items: Array<{ productId: string; name: string }>): Promise<Product[]> {
  const now = new Date().toISOString();
  const products = items.map((p) => ({ id: randomUUID(), orgSlug: org, productId: p.productId, name: p.name, url: null, citationCount: 0, articleCount: 0, createdAt: now, updatedAt: now }));
  await getContainer().products.addMissing(products);
  return products;
}

/** The scrape (1a) and catalogue (1c) artifacts of the fixture store. */
async function storeArtifacts(org: string): Promise<void> {
  const s = harborStore();
  await getContainer().artifacts.put(artifactKeys.scrape(org), { mappedAt: new Date().toISOString(), urls: [], pages: s.pages, storeRobotsTxt: null });
  await getContainer().artifacts.put(artifactKeys.catalog(org), { products: s.products, collections: s.collections });
}

describe('generateOnboardingPrompts (onboarding 3a) on the local stack', () => {
  test('50 business prompts + 5 per product for 24 products, all untested; a re-run adds nothing; the API lists them', async () => {
    const org = 'harbor-pine-full';
    const businessId = await createBusiness(org, NAME, 'harborandpine.example');
    await storeArtifacts(org);
    const products = await addProducts(org, PRODUCTS.map((p) => ({ productId: p.productId, name: p.name })));

    const first = await generateOnboardingPrompts(getContainer(), org);
    expect(first).toEqual({
      business: { target: 50, generated: 50, saved: 50, shortfall: 0 },
      products: { count: 24, perProduct: 5, generated: 120, saved: 120, shortfall: {}, shortfallReasons: {} },
      searchApi: { status: 'skipped', reason: 'no search API configured', fetched: 0, saved: 0 },
      engine: { name: 'offline' },
      evidence: 'scrape',
    });

    const rows = await getContainer().prompts.list(org);
    expect(rows).toHaveLength(170);
    for (const r of rows) {
      for (const k of PLATFORM_KEYS) expect(r[k]).toBeNull();
      expect(r.lastTestedAt).toBeNull();
      expect(r.source).toBe('generated');
      expect(r.orgSlug).toBe(org);
      expect(r.id).toBe(promptId(r.entityId, r.prompt));
      expect(containsBusinessName(r.prompt, NAME)).toBe(false);
    }
    expect(rows.filter((r) => r.entityId === businessId && r.productId === null)).toHaveLength(50);
    for (const p of products) {
      const own = rows.filter((r) => r.entityId === p.id);
      expect(own).toHaveLength(5);
      expect(own.every((r) => r.productId === p.productId)).toBe(true);
    }

    const again = await generateOnboardingPrompts(getContainer(), org);
    expect(again.business).toEqual({ target: 50, generated: 0, saved: 0, shortfall: 0 });
    expect(again.products).toMatchObject({ generated: 0, saved: 0 });
    expect(await getContainer().prompts.list(org)).toHaveLength(170);

    const token = await stack.token(org);
    const res = await stack.call('GET', `/api/prompts/${org}`, { token });
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(170);
    const untested = { source: 'generated', platform_1: null, platform_2: null, platform_3: null, platform_4: null, platform_5: null, platform_6: null, platform_7: null, platform_8: null, last_tested_at: null };
    const listed = res.body.prompts as Array<Record<string, unknown>>;
    expect(listed.find((p) => p.entity_id === businessId)).toEqual({ id: expect.any(String), prompt: expect.any(String), entity_id: businessId, product_id: null, ...untested });
    expect(listed.find((p) => p.entity_id === products[0].id)).toEqual({ id: expect.any(String), prompt: expect.any(String), entity_id: products[0].id, product_id: products[0].productId, ...untested });
    const one = await stack.call('GET', `/api/prompts/${org}?product_id=ethiopia-guji`, { token });
    expect(one.body.total).toBe(5);
    expect(one.body.prompts.every((p: { product_id: string }) => p.product_id === 'ethiopia-guji')).toBe(true);
    expect((await stack.call('GET', `/api/prompts/${org}`, { token: await stack.token('someone-else') })).status).toBe(403);
  });

  test('the scrape failed: prompts still come from the entities; the search API gives 10, saved as search_api, never naming the business', async () => {
    const org = 'northwind-roasters';
    const businessName = 'Northwind Roasters';
    const businessId = await createBusiness(org, businessName, 'northwind.example');
    await addProducts(org, [
      { productId: 'yirgacheffe-coffee', name: 'Yirgacheffe Coffee Beans' },
      { productId: 'northwind-house-blend', name: 'Northwind House Blend' },
      { productId: 'decaf-coffee', name: 'Swiss Water Decaf Coffee' },
    ]);
    const asked: Array<{ topic: string; limit: number }> = [];
    const search: SearchPromptSource = {
      async fetchQueries(topic, limit) {
        asked.push({ topic, limit });
        return [
          'is northwind roasters good?', 'Northwind Roasters coffee review',
          ...['best coffee beans for espresso', 'where to buy fresh roasted coffee beans online', 'best decaf coffee brands', 'what is the best single origin coffee',
            'best coffee subscription 2024', 'how to choose coffee beans', 'which coffee beans are least bitter', 'best light roast coffee beans',
            'best coffee beans for french press', 'best organic coffee beans', 'best coffee beans for cold brew'],
        ];
      },
    };
    const result = await generateOnboardingPrompts(getContainer(), org, { search });
    expect(result.evidence).toBe('entities');
    expect(asked).toEqual([{ topic: 'specialty coffee', limit: 20 }]);
    expect(result.searchApi).toEqual({ status: 'used', fetched: 13, saved: 10 });
    expect(result.products.perProduct).toBe(17);

    const rows = await getContainer().prompts.list(org);
    const fromSearch = rows.filter((r) => r.source === 'search_api');
    expect(fromSearch).toHaveLength(10);
    expect(fromSearch.every((r) => r.entityId === businessId && r.productId === null)).toBe(true);
    for (const r of rows) expect(containsBusinessName(r.prompt, businessName)).toBe(false);
    // Thin evidence: fewer generated prompts, and the shortfall says how many.
    expect(result.business.generated).toBe(10 + rows.filter((r) => r.entityId === businessId && r.source === 'generated').length);
    expect(result.business.shortfall).toBe(50 - result.business.generated);
    expect(result.products.saved).toBe(result.products.generated);
    expect(result.products.generated).toBeGreaterThan(0);
    expect(result.products.shortfall['northwind-house-blend']).toBe(17); // a branded name and nothing else: no prompt
    expect(Object.values(result.products.shortfall).every((n) => n > 0 && n <= 17)).toBe(true);

    // A re-run keeps the search prompts and does not ask again.
    const again = await generateOnboardingPrompts(getContainer(), org, { search });
    expect(again.searchApi.status).toBe('skipped');
    expect(again.business.saved).toBe(0);
    expect(asked).toHaveLength(1);
  });

  test('a failing search API is reported and the generator writes all 50', async () => {
    const org = 'harbor-pine-search-down';
    await createBusiness(org, NAME, 'harborandpine.example');
    await storeArtifacts(org);
    const result = await generateOnboardingPrompts(getContainer(), org, { search: { fetchQueries: async () => { throw new Error('search API HTTP 503'); } } });
    expect(result.searchApi).toEqual({ status: 'failed', reason: 'search API HTTP 503', fetched: 0, saved: 0 });
    expect(result.business).toEqual({ target: 50, generated: 50, saved: 50, shortfall: 0 });
    expect(result.products).toEqual({ count: 0, perProduct: 0, generated: 0, saved: 0, shortfall: {}, shortfallReasons: {} });
    expect((await getContainer().prompts.list(org)).every((r) => r.source === 'generated')).toBe(true);
  });

  test('an unknown business is a NotFoundError', async () => {
    await expect(generateOnboardingPrompts(getContainer(), 'nobody-here')).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('generateProductPrompts (daily schedule, D9) and regeneratePrompts', () => {
  const org = 'harbor-pine-cron';
  let businessId = '';
  let products: Product[] = [];
  beforeAll(async () => {
    businessId = await createBusiness(org, NAME, 'harborandpine.example');
    await storeArtifacts(org);
    products = await addProducts(org, PRODUCTS.slice(0, 3).map((p) => ({ productId: p.productId, name: p.name })));
  });

  test('10 prompts per new product; a retry saves nothing; unknown ids are reported', async () => {
    const first = await generateProductPrompts(getContainer(), org, ['ethiopia-guji', products[1].id, 'no-such-product']);
    expect(first).toMatchObject({ perProduct: 10, generated: 20, saved: 20, shortfall: {}, notFound: ['no-such-product'], engine: { name: 'offline' }, evidence: 'scrape' });
    expect(await getContainer().prompts.list(org, { entityId: products[0].id })).toHaveLength(10);
    const retry = await generateProductPrompts(getContainer(), org, ['ethiopia-guji', 'kenya-nyeri']);
    expect(retry).toMatchObject({ generated: 0, saved: 0 });
    expect(await generateProductPrompts(getContainer(), org, ['ghost'])).toMatchObject({ generated: 0, saved: 0, notFound: ['ghost'], engine: null });
  });

  test('regenerate adds new prompts and never deletes; defaults 50 for the business, 10 for a product', async () => {
    const before = await getContainer().prompts.list(org);
    const biz = await regeneratePrompts(getContainer(), { orgSlug: org });
    expect(biz).toMatchObject({ status: 'success', generated: 50, saved: 50, shortfall: 0 });
    const more = await regeneratePrompts(getContainer(), { orgSlug: org, count: 5 });
    expect(more).toMatchObject({ status: 'success', generated: 5, saved: 5 });
    const product = await regeneratePrompts(getContainer(), { orgSlug: org, productId: 'colombia-supremo' });
    expect(product).toMatchObject({ status: 'success', generated: 10, saved: 10 });
    const after = await getContainer().prompts.list(org);
    expect(after).toHaveLength(before.length + 65);
    for (const old of before) expect(after.some((r) => r.id === old.id)).toBe(true);
    expect(after.filter((r) => r.entityId === businessId)).toHaveLength(55);
    await expect(regeneratePrompts(getContainer(), { orgSlug: org, productId: 'ghost' })).rejects.toBeInstanceOf(NotFoundError);
  });

  test('regenerate is skipped with a reason when the evidence has nothing new', async () => {
    const result = await regeneratePrompts(getContainer(), { orgSlug: org, productId: 'colombia-supremo', count: 200 });
    const again = await regeneratePrompts(getContainer(), { orgSlug: org, productId: 'colombia-supremo', count: 200 });
    expect(result.saved).toBeGreaterThan(0);
    expect(result.shortfall).toBe(200 - result.generated);
    expect(again).toMatchObject({ status: 'skipped', generated: 0, saved: 0, skippedReason: 'the store evidence yields no new prompt' });
  });
});

describe('uniqueness within a business (D33) on the local stack: the yoga store', () => {
  test('onboarding stores every prompt once across all entities; the repository refuses a copy on another entity', async () => {
    const { yogaStore, YOGA_NAME } = await import('./yoga-store');
    const { promptIdentity } = await import('../../functions/core/prompts/prompt-identity');
    const org = 'sukha-yoga-unique';
    const businessId = await createBusiness(org, YOGA_NAME, 'sukhayoga.example');
    const s = yogaStore();
    await getContainer().artifacts.put(artifactKeys.scrape(org), { mappedAt: new Date().toISOString(), urls: [], pages: s.pages, storeRobotsTxt: null });
    await getContainer().artifacts.put(artifactKeys.catalog(org), { products: s.products, collections: s.collections });
    const products = await addProducts(org, s.products.map((p) => ({ productId: p.productId, name: p.name })));

    const result = await generateOnboardingPrompts(getContainer(), org);
    expect(result.business).toMatchObject({ generated: 50, saved: 50, shortfall: 0 });
    expect(result.products).toMatchObject({ count: 51, perProduct: 5, generated: 255, saved: 255, shortfall: {} });
    const rows = await getContainer().prompts.list(org);
    expect(rows).toHaveLength(305);
    expect(new Set(rows.map((r) => promptIdentity(r.prompt))).size).toBe(305);

    // The same prompt (differently written) on another entity is a copy: not added.
    const copy = { ...rows.find((r) => r.entityId === products[0].id)!, entityId: products[1].id, productId: products[1].productId };
    copy.prompt = `${copy.prompt.toUpperCase().replace(/\?$/, '')}!!`;
    copy.id = promptId(copy.entityId, copy.prompt);
    expect(await getContainer().prompts.addMissing([copy])).toBe(0);
    expect(await getContainer().prompts.list(org)).toHaveLength(305);

    // A new product found by the daily schedule gets prompts that differ from all 305.
    const fresh = await generateProductPrompts(getContainer(), org, [products[3].productId], 10);
    expect(fresh.saved).toBe(fresh.generated);
    const after = await getContainer().prompts.list(org);
    expect(new Set(after.map((r) => promptIdentity(r.prompt))).size).toBe(after.length);
    expect(businessId).toBeTruthy();
  });
});
