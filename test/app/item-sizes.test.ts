/**
 * Issue 34.1, D39: every item the service writes has a size bounded by design, not by the
 * catalogue. Each item kind that grows with a store is written at its worst case (20,000
 * products, 5,000 store pages, 1,000 articles, a day on which everything changed) through the
 * real repositories and step wrappers on the embedded database, and the whole table is then
 * read back item by item, sized as DynamoDB counts against its 400 KB limit: every item stays
 * under 350 KB. A prompt is an item of its own however many a store has, so prompts are written
 * for 2,000 of the products here; a real table with 100,000 of them (a 20,000-product store
 * onboarded through the API) is sized the same way by test/e2e/large-store.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { runDailyStep } from '../../functions/app/daily/business-run';
import { runStep } from '../../functions/app/onboarding/runs';
import { getContainer } from '../../functions/container';
import { PLATFORM_KEYS } from '../../functions/core/constants';
import { encodeShingles } from '../../functions/core/articles/shingles';
import { newBusinessRun } from '../../functions/core/daily/run';
import { newRun, ONBOARDING_STEPS, type StepId } from '../../functions/core/onboarding/steps';
import type { Product, TrackedPrompt } from '../../functions/core/model';
import { itemSizes } from '../../functions/local/runtime/table-items';
import { startTestStackWithBusiness, type TestStack } from '../support/stack';

const ORG = 'worst-case';
const PRODUCTS = 20_000;
const PAGES = 5_000;
const PROMPTS_PER_PRODUCT = 5;
/** Products given their prompts (100,000 prompts took three minutes here and grew no item; large-store sizes that table). */
const PRODUCTS_WITH_PROMPTS = 2_000;
const ARTICLES = 1_000;
const LIMIT = 350 * 1024;
const NOW = '2026-11-28T14:00:00.000Z';
const DAY = '2026-11-28';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStackWithBusiness(ORG, { name: 'Worst Case Garden Co.', url: 'https://worst-case.example' });
}, 60_000);
afterAll(async () => stack?.close());

/** A generated store's handles: long, and not compressible away. */
const handle = (i: number) => `generated-garden-product-${i}-${(i * 2654435761 % 4294967296).toString(36)}-with-a-long-handle`;

test('20,000 products, 5,000 pages, 1,000 articles, 10,000 prompts, the runs of a day and an onboarding: every item under 350 KB', async () => {
  const container = getContainer();
  const business = (await container.businesses.get(ORG))!;

  // Products, and the AI-site record's snapshot of them and of the store's sitemap.
  const products: Product[] = Array.from({ length: PRODUCTS }, (_, i) => ({
    id: randomUUID(), orgSlug: ORG, productId: handle(i), name: `Generated Garden Product ${i} With A Long Name`,
    url: `https://worst-case.example/products/${handle(i)}`, citationCount: 0, articleCount: 0, createdAt: NOW, updatedAt: NOW,
  }));
  expect(await container.products.addMissing(products)).toBe(PRODUCTS);
  const storePages = Array.from({ length: PAGES }, (_, i) => ({ loc: `https://worst-case.example/pages/page-${i}-${(i * 40503).toString(36)}`, lastmod: '2026-11-01' }));
  await container.aiSites.patch(ORG, business.id, {
    productsHash: 'h1',
    productsSnapshot: products.map((p) => ({ handle: p.productId, name: p.name, url: p.url!, updated_at: NOW })),
    storeSitemapUrls: storePages,
  });

  // Five prompts for each of the first products.
  const noResults = Object.fromEntries(PLATFORM_KEYS.map((k) => [k, null])) as Record<(typeof PLATFORM_KEYS)[number], null>;
  const prompts: TrackedPrompt[] = products.slice(0, PRODUCTS_WITH_PROMPTS).flatMap((p, i) => Array.from({ length: PROMPTS_PER_PRODUCT }, (_, k) => ({
    id: randomUUID(), orgSlug: ORG, prompt: `Which garden product number ${i} is best for a ${['small', 'large', 'sloped', 'shady', 'windy'][k]} garden under $${20 + k * 15}?`,
    entityId: p.id, productId: p.productId, source: 'generated' as const, lastTestedAt: null, createdAt: NOW, ...noResults,
  })));
  expect(await container.prompts.addMissing(prompts)).toBe(PRODUCTS_WITH_PROMPTS * PROMPTS_PER_PRODUCT);

  // A thousand articles written on one day (each also listed under its run date).
  for (let i = 0; i < ARTICLES; i++) {
    const slug = `how-does-the-generated-garden-product-${i}-compare-with-the-next-one`;
    await container.articles.add(ORG, {
      slug, title: `How does the Generated Garden Product ${i} compare with the next one?`, article_path: `/${slug}/`, published_date: DAY,
      faq_category: 'product_article', product_id: products[i]!.productId, entity_id: products[i]!.id, week_start: '2026-11-23', run_date: DAY,
      created_at: NOW, question_key: `comparison:${i}`, shingles: encodeShingles(Array.from({ length: 400 }, (_, k) => (i * 7919 + k * 104729) >>> 0)),
      subjects: [products[i]!.productId, products[i + 1]!.productId], engine: 'extractive',
    });
  }

  // Onboarding: 3a short for every product, each with its reason.
  const run = { ...newRun('exec-onboarding', ORG, NOW, null), heartbeat_at: NOW, runner: null };
  await container.onboarding.start(run, null, { heartbeatBefore: NOW, runnerOtherThan: null });
  for (const id of ONBOARDING_STEPS['3a'].uses as StepId[]) await container.onboarding.updateStep(ORG, 'exec-onboarding', id, { ...run.steps[id], status: 'succeeded', finished_at: NOW });
  const shortfall = Object.fromEntries(products.map((p) => [p.productId, 2]));
  await runStep(container, { org_slug: ORG, execution_id: 'exec-onboarding' }, '3a', async () => ({
    products: { count: PRODUCTS, generated: PRODUCTS * 3, shortfall, shortfallReasons: Object.fromEntries(products.map((p) => [p.productId, `nothing in the catalogue tells ${p.name} apart from its siblings`])) },
  }));

  // A day on which every page changed, every product is new and every product file was rebuilt.
  await container.dailyRuns.claimBusinessRun(newBusinessRun(ORG, DAY, 'exec-daily', NOW));
  expect((await container.dailyRuns.acquireDayLease(DAY, ORG, 'exec-daily', NOW, '2099-01-01T00:00:00.000Z'))).toMatchObject({ acquired: true });
  await container.dailyRuns.addChangedUrls('exec-daily', ORG, storePages.map((p) => p.loc));
  const input = { org_slug: ORG, run_date: DAY, execution_id: 'exec-daily' };
  const newProducts = await runDailyStep(container, input, '1b', async () => ({
    products: PRODUCTS, new_products: products.map((p) => p.productId), removed_products: products.map((p) => `${p.productId}-old`),
  }));
  expect(newProducts).toMatchObject({ new_products_total: PRODUCTS, removed_products_total: PRODUCTS });
  await runDailyStep(container, input, '1b-files', async () => ({ files: PRODUCTS, files_added: products.map((p) => `/llms/${p.productId}.txt`), files_removed: [] }));

  const sizes = await itemSizes(stack.database.endpoint, stack.config.tableName, stack.config.region);
  const kinds = new Set(sizes.map((s) => s.sk.split('#')[0]));
  for (const kind of ['BUSINESS', 'PRODUCT', 'PROMPT', 'ARTICLE', 'ARTICLEDAY', 'ARTICLE_WEEK', 'AISITE', 'ONBOARDING', 'ORG', 'CHANGED']) expect(kinds).toContain(kind);
  expect(sizes.length).toBeGreaterThan(PRODUCTS + PRODUCTS_WITH_PROMPTS * PROMPTS_PER_PRODUCT + ARTICLES);
  const over = sizes.filter((s) => s.bytes >= LIMIT);
  expect(over).toEqual([]);
}, 600_000);
