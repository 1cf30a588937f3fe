/**
 * Stale content leaves (issue 20 item 5): the articles of a product the catalogue no longer
 * holds are retired (part deleted, record removed, the product's count with them; the week's
 * count kept), safely repeatable, and the next publish of changed parts drops them. On the
 * embedded database and the local artifact store, without a workflow.
 */
import { randomUUID } from 'node:crypto';
import { retireArticlesOfRemovedProducts } from '../../functions/app/daily/retire-articles';
import { publishChangedSiteParts, saveSitePart } from '../../functions/app/site/parts';
import { getContainer, type Container } from '../../functions/container';
import { articlePart, artifactKeys } from '../../functions/core/artifacts';
import { weekBounds } from '../../functions/core/articles/quota';
import type { ArticleRecord } from '../../functions/core/articles/record';
import type { CatalogProduct } from '../../functions/core/site/types';
import { startTestStack, type TestStack } from '../support/stack';
import type { CatalogArtifact } from '../../functions/app/site/inputs';

let stack: TestStack;
let container: Container;
const ORG = 'retire-shop';
const TODAY = new Date().toISOString().slice(0, 10);
const WEEK = weekBounds(TODAY).weekStart;

const product = (productId: string): CatalogProduct => ({
  productId, name: productId, url: `https://retire-shop.example/products/${productId}`, description: '', productType: '', vendor: '', tags: [],
  price: null, compareAtPrice: null, currency: null, available: true, imageUrls: [], updatedAt: null,
});
const catalogue = (...ids: string[]): Promise<void> =>
  container.artifacts.put(artifactKeys.catalog(ORG), { products: ids.map(product), collections: [] } satisfies CatalogArtifact);

async function article(slug: string, productId: string | null): Promise<ArticleRecord> {
  const record: ArticleRecord = {
    slug, title: `${slug}?`, article_path: `/${slug}/`, published_date: TODAY, faq_category: productId ? 'product_article' : 'business_article',
    product_id: productId, entity_id: productId ? (await container.products.find(ORG, productId))!.id : 'biz', week_start: WEEK,
    run_date: TODAY, created_at: new Date().toISOString(),
  };
  expect(await container.articles.add(ORG, record)).toBe(true);
  await saveSitePart(container, ORG, articlePart(slug), [{ path: `/${slug}/index.html`, content: `<h1>${slug}?</h1>`, contentType: 'text/html; charset=utf-8' }]);
  return record;
}

const slugs = async () => (await container.articles.list(ORG)).map((a) => a.slug).sort();
const articleCount = async (productId: string) => (await container.products.find(ORG, productId))!.articleCount;
const part = (slug: string) => container.artifacts.get(artifactKeys.sitePart(ORG, articlePart(slug)));

beforeAll(async () => {
  stack = await startTestStack({ LOG_LEVEL: 'error' });
  expect((await stack.call('POST', '/api/business', { token: await stack.token(ORG), body: { name: 'Retire Shop', url: 'https://retire-shop.example' } })).status).toBe(201);
  container = getContainer();
  const now = new Date().toISOString();
  await container.products.addMissing(['kettle', 'dripper', 'mug'].map((productId) => ({
    id: randomUUID(), orgSlug: ORG, productId, name: productId, url: null, citationCount: 0, articleCount: 0, createdAt: now, updatedAt: now,
  })));
  await catalogue('kettle', 'dripper', 'mug');
  await article('kettle-one', 'kettle');
  await article('kettle-two', 'kettle');
  await article('dripper-one', 'dripper');
  await article('mug-one', 'mug');
  await article('shop-one', null);
  await saveSitePart(container, ORG, 'main', [{ path: '/llms.txt', content: '# Retire Shop\n', contentType: 'text/plain; charset=utf-8' }]);
  expect(await publishChangedSiteParts(container, ORG)).not.toBeNull();
}, 60_000);

afterAll(() => stack?.close());

test('nothing is retired while the catalogue holds every product, or when it is missing or empty', async () => {
  expect(await retireArticlesOfRemovedProducts(container, ORG)).toEqual({ retired: [], products: [] });
  await catalogue();
  expect(await retireArticlesOfRemovedProducts(container, ORG)).toEqual({ retired: [], products: [] });
  expect(await retireArticlesOfRemovedProducts(container, 'no-such-shop')).toEqual({ retired: [], products: [] });
  expect(await slugs()).toEqual(['dripper-one', 'kettle-one', 'kettle-two', 'mug-one', 'shop-one']);
});

test('a removed product\'s articles lose their part and record; its count drops, the week\'s count does not; others stay', async () => {
  await catalogue('dripper', 'mug');
  const week = await container.articleStats.countInWeek(ORG, WEEK);
  expect(await articleCount('kettle')).toBe(2);
  const result = await retireArticlesOfRemovedProducts(container, ORG);
  expect(result).toEqual({ retired: ['/kettle-one/', '/kettle-two/'], products: ['kettle'] });
  expect(await slugs()).toEqual(['dripper-one', 'mug-one', 'shop-one']);
  expect(await part('kettle-one')).toBeNull();
  expect(await part('kettle-two')).toBeNull();
  expect(await part('dripper-one')).not.toBeNull();
  expect(await articleCount('kettle')).toBe(0);
  expect(await articleCount('dripper')).toBe(1);
  expect(await container.articleStats.countInWeek(ORG, WEEK)).toBe(week);
  // The entity stays (removed products keep their entities, prompts and history).
  expect(await container.products.find(ORG, 'kettle')).not.toBeNull();
});

test('the next publish of changed parts sees the deleted parts and drops their files; a second finds nothing to publish', async () => {
  const release = await publishChangedSiteParts(container, ORG);
  expect(release).not.toBeNull();
  expect(release!.paths).not.toContain('/kettle-one/index.html');
  expect(release!.paths).toContain('/dripper-one/index.html');
  const live = (await container.siteStore.readCurrent(ORG))!.files.map((f) => f.path);
  expect(live).not.toContain('/kettle-two/index.html');
  expect((await container.siteStore.readCurrent(ORG))!.files.find((f) => f.path === '/sitemap.xml')!.content).not.toMatch(/kettle-/);
  expect(await publishChangedSiteParts(container, ORG)).toBeNull();
});

test('a retry retires nothing twice; a run that stopped between part and record is finished by the next', async () => {
  expect(await retireArticlesOfRemovedProducts(container, ORG)).toEqual({ retired: [], products: [] });
  expect(await articleCount('kettle')).toBe(0);
  // The mug leaves too; the first run got as far as deleting the part of its article.
  await catalogue('dripper');
  await container.artifacts.delete(artifactKeys.sitePart(ORG, articlePart('mug-one')));
  expect(await retireArticlesOfRemovedProducts(container, ORG)).toEqual({ retired: ['/mug-one/'], products: ['mug'] });
  expect(await articleCount('mug')).toBe(0);
  expect(await slugs()).toEqual(['dripper-one', 'shop-one']);
  // The record API: a second retire of the same record reports it was already gone, counting nothing.
  const gone = { slug: 'mug-one', product_id: 'mug', week_start: WEEK } as ArticleRecord;
  expect(await container.articles.retire(ORG, gone)).toBe(false);
  expect(await articleCount('mug')).toBe(0);
});

test('business articles are never retired, and a product that comes back keeps what it has', async () => {
  await catalogue('dripper', 'kettle');
  expect(await retireArticlesOfRemovedProducts(container, ORG)).toEqual({ retired: [], products: [] });
  expect(await slugs()).toEqual(['dripper-one', 'shop-one']);
});
