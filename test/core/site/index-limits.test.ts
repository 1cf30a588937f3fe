/**
 * Two boundaries the 5,000-page demo store showed: a single named variant ("8 oz") is the
 * product itself (a Product with one Offer, not a ProductGroup of one), and llms.txt lists
 * at most LLMS_INDEX_MAX_PAGES store pages, content pages first, with a link to the rest.
 */
import { buildOfflineNarrative } from '../../../functions/core/generate';
import { toCatalogProduct, type StorefrontProduct } from '../../../functions/core/products/catalog';
import { buildSiteFiles } from '../../../functions/core/site/build';
import { LLMS_INDEX_MAX_PAGES } from '../../../functions/core/site/llms';
import { productNode } from '../../../functions/core/site/structured-data';
import type { ScrapedPage, StoreSnapshot } from '../../../functions/core/site/types';

const ORIGIN = 'https://beans.example';
const NOW = '2026-03-14T09:12:00.000Z';
const raw = (handle: string, variants: Array<{ title: string; price: string; available: boolean }>): StorefrontProduct =>
  ({ id: handle.length, handle, title: `Bean ${handle}`, body_html: '<p>Coffee beans.</p>', product_type: 'Coffee', vendor: 'Beans', tags: [], variants, images: [{ src: `${ORIGIN}/${handle}.jpg` }] } as unknown as StorefrontProduct);

test('one named variant is a Product with one Offer; two are a ProductGroup', () => {
  const single = toCatalogProduct(raw('huila', [{ title: '8 oz', price: '24.00', available: true }]), ORIGIN, 'USD');
  const double = toCatalogProduct(raw('cusco', [{ title: '8 oz', price: '24.00', available: true }, { title: '2 lb', price: '60.00', available: false }]), ORIGIN, 'USD');
  const snapshot: StoreSnapshot = { business: { name: 'Beans', orgSlug: 'beans', url: ORIGIN, domain: 'beans.example' }, pages: [], products: [single, double], collections: [], storeSitemapUrls: [] };
  const narrative = buildOfflineNarrative(snapshot);
  const one = productNode(single, narrative, NOW);
  expect(one['@type']).toBe('Product');
  expect(one.offers).toMatchObject({ '@type': 'Offer', price: 24, priceCurrency: 'USD' });
  expect(productNode(double, narrative, NOW)['@type']).toBe('ProductGroup');
});

test(`llms.txt lists at most ${LLMS_INDEX_MAX_PAGES} store pages, content pages before product copies`, () => {
  const page = (path: string, kind: ScrapedPage['kind']): ScrapedPage => ({ url: `${ORIGIN}${path}`, kind, title: `Title ${path}`, description: '', markdown: `Text of ${path}`, fingerprint: path, statusCode: 200 });
  const pages = [
    ...Array.from({ length: 300 }, (_, i) => page(`/products/p${i}`, 'product')),
    page('/pages/about', 'page'), page('/blogs/news', 'blog'),
  ];
  const snapshot: StoreSnapshot = { business: { name: 'Beans', orgSlug: 'beans', url: ORIGIN, domain: 'beans.example' }, pages, products: [], collections: [], storeSitemapUrls: [] };
  const files = buildSiteFiles(snapshot, buildOfflineNarrative(snapshot), { now: NOW, indexNowKey: 'abcdefgh12345678', trackingEndpoint: 'http://localhost/t' });
  const llms = files.find((f) => f.path === '/llms.txt')!.content;
  const section = llms.slice(llms.indexOf('## Pages'));
  const body = section.slice(0, section.indexOf('\n## ', 4) === -1 ? undefined : section.indexOf('\n## ', 4));
  const links = body.split('\n').filter((l) => l.startsWith('- ['));
  expect(links).toHaveLength(LLMS_INDEX_MAX_PAGES + 1);
  expect(links[0]).toMatch(/\/pages\/about/);
  expect(links[1]).toMatch(/blogs\/news/);
  expect(links.at(-1)).toMatch(/All 302 store pages.*sitemap\.xml.*252 more/);
});
