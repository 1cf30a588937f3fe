/**
 * D36 on a family page (D37): its members' prices and stock are live offer slots, rewritten
 * from the current catalogue by every publish, so a page written once never states a stale
 * price. On the local stack's container: the catalogue artifact changes between two publishes.
 */
import { deploySite } from '../../functions/app/site/deploy';
import { getContainer } from '../../functions/container';
import { artifactKeys } from '../../functions/core/artifacts';
import { offerSlot } from '../../functions/core/site/offer-slots';
import type { CatalogProduct, SiteFile } from '../../functions/core/site/types';
import { startTestStackWithBusiness, type TestStack } from '../support/stack';

let stack: TestStack;
const ORG = 'family-offers';

beforeAll(async () => {
  stack = await startTestStackWithBusiness(ORG, { name: 'Family Offers Co.', url: 'https://family-offers.example' });
}, 60_000);
afterAll(async () => stack.close());

const mat = (id: string, price: string, available: boolean): CatalogProduct => ({
  productId: id, name: `Combo Yoga Mat - ${id}`, url: `https://family-offers.example/products/${id}`, description: '', productType: 'Yoga Mats', vendor: 'V', tags: [],
  price, compareAtPrice: null, currency: 'USD', available, imageUrls: [], updatedAt: null,
});
const familyPage: SiteFile = {
  path: '/which-designs-combo/index.html', contentType: 'text/html; charset=utf-8',
  content: `<!doctype html><html><head><title>Which designs?</title></head><body><main><ul><li>Aegean (${offerSlot('aegean', 'USD 98.00, in stock')})</li><li>Earth (${offerSlot('earth', 'USD 98.00, in stock')})</li></ul></main><footer>Last checked: January 1, 2026</footer></body></html>`,
};
const published = async () => (await getContainer().siteStore.readCurrent(ORG))!.files.find((f) => f.path === familyPage.path)!.content;

test('every publish states the current catalogue\'s price and stock; a member no longer sold says so', async () => {
  const container = getContainer();
  await container.artifacts.put(artifactKeys.catalog(ORG), { products: [mat('aegean', '98.00', true), mat('earth', '98.00', true)], collections: [] });
  await deploySite(container, { orgSlug: ORG, files: [familyPage], mode: 'replace' });
  expect(await published()).toContain('<span data-offer="earth">USD 98.00, in stock</span>');

  // The next day the catalogue moved: Aegean is cheaper and sold out, Earth is gone. The page's own file did not change.
  await container.artifacts.put(artifactKeys.catalog(ORG), { products: [mat('aegean', '79.00', false)], collections: [] });
  await deploySite(container, { orgSlug: ORG, files: [familyPage], mode: 'replace' });
  const html = await published();
  expect(html).toContain('<span data-offer="aegean">USD 79.00, out of stock</span>');
  expect(html).toContain('<span data-offer="earth">no longer listed</span>');
}, 60_000);
