/**
 * Issue items 5 (dates follow the content), 6 (text fidelity), 7 (llms.txt at scale) and 8
 * (what the store served is kept: sitemap images, the store's own agent files).
 */
import * as cheerio from 'cheerio';
import { buildSiteFiles, finalizeSite } from '../../../functions/core/site/build';
import { decideModified, pageDatesOf } from '../../../functions/core/site/dates';
import { LLMS_INDEX_MAX_PRODUCTS } from '../../../functions/core/site/llms';
import { htmlToMarkdown } from '../../../functions/core/text/markdown';
import { toCatalogProduct } from '../../../functions/core/products/catalog';
import { markdownDetails, markdownHtml, markdownPlain } from '../../../functions/core/site/markdown';
import { productSummary } from '../../../functions/core/generate/offline-engine';
import type { CatalogProduct, SiteFile, StoreSnapshot } from '../../../functions/core/site/types';
import { INDEXNOW_KEY, NOW, STORE, TRACKING_ENDPOINT, metadata, narrative, snapshot } from './fixtures';

const OPTIONS = { now: NOW, indexNowKey: INDEXNOW_KEY, trackingEndpoint: TRACKING_ENDPOINT };
const file = (files: SiteFile[], path: string) => files.find((f) => f.path === path) as SiteFile;
const modifiedOf = (f: SiteFile) => cheerio.load(f.content)('meta[property="article:modified_time"]').attr('content');

describe('D112: modified dates follow the content', () => {
  const LATER = '2026-04-20T10:00:00.000Z';
  const first = buildSiteFiles(snapshot(), narrative(), OPTIONS);

  it('a rebuild with nothing changed keeps every page date (sitemap lastmod included)', () => {
    const again = buildSiteFiles(snapshot(), narrative(), { ...OPTIONS, now: LATER, previousPages: pageDatesOf(first) });
    for (const page of first.filter((f) => f.path.endsWith('.html'))) expect(modifiedOf(file(again, page.path))).toBe(modifiedOf(page));
    const published = finalizeSite(first, metadata());
    const sitemapBefore = file(published, '/sitemap.xml').content;
    // A publish merges the current release with the new files (deploy-site), as in production.
    const sitemapAfter = file(finalizeSite([...published, ...again], { ...metadata(), deployedAt: LATER }), '/sitemap.xml').content;
    expect(sitemapAfter).toBe(sitemapBefore);
  });

  it('one changed FAQ answer moves that page (and the Q&A index) only', () => {
    const changed = narrative();
    changed.faqs = changed.faqs.map((f) => (f.question === 'How fresh is the coffee?' ? { ...f, answer: 'Roasted within 3 days of shipping.' } : f));
    const again = buildSiteFiles(snapshot(), changed, { ...OPTIONS, now: LATER, previousPages: pageDatesOf(first) });
    const moved = again.filter((f) => f.path.endsWith('.html') && modifiedOf(f) !== modifiedOf(file(first, f.path))).map((f) => f.path);
    // Its neighbours link to it by question text only, which did not change.
    expect(moved.sort()).toEqual(['/ai/how-fresh-is-the-coffee/index.html', '/ai/questions/index.html']);
    const page = cheerio.load(file(again, '/ai/how-fresh-is-the-coffee/index.html').content);
    expect(page('meta[property="article:modified_time"]').attr('content')).toBe('2026-04-20T10:00:00Z');
    expect(JSON.parse(page('script[type="application/ld+json"]').first().text()).dateModified).toBe('2026-04-20T10:00:00Z');
    expect(page('footer p').first().text()).toBe('Last updated: April 20, 2026');
  });

  it('a product edited at the store takes the store update time; its JSON-LD agrees', () => {
    const snap = snapshot();
    const decaf = snap.products.find((p) => p.productId === 'decaf-colombia') as CatalogProduct;
    decaf.description = 'Now a Swiss Water decaf from Huila.';
    decaf.updatedAt = '2026-04-01T07:00:00Z';
    const again = buildSiteFiles(snap, narrative(), { ...OPTIONS, now: LATER, previousPages: pageDatesOf(first) });
    const page = file(again, '/ai/products/decaf-colombia/index.html');
    expect(modifiedOf(page)).toBe('2026-04-01T07:00:00Z');
    expect(JSON.parse(cheerio.load(page.content)('script[type="application/ld+json"]').first().text()).dateModified).toBe('2026-04-01T07:00:00Z');
    expect(modifiedOf(file(again, '/ai/products/house-espresso-blend/index.html'))).toBe(modifiedOf(file(first, '/ai/products/house-espresso-blend/index.html')));
  });

  it('decideModified: unchanged keeps, new takes the source date, changed takes now, future source dates are not believed', () => {
    const now = '2026-05-01T00:00:00Z';
    expect(decideModified('h', { hash: 'h', modified: '2026-01-01T00:00:00Z' }, '2026-04-01T00:00:00Z', now)).toBe('2026-01-01T00:00:00Z');
    expect(decideModified('h', undefined, '2026-04-01T00:00:00Z', now)).toBe('2026-04-01T00:00:00Z');
    expect(decideModified('h', undefined, null, now)).toBe(now);
    expect(decideModified('h2', { hash: 'h', modified: '2026-03-01T00:00:00Z' }, '2026-02-01T00:00:00Z', now)).toBe(now);
    expect(decideModified('h2', { hash: 'h', modified: '2026-03-01T00:00:00Z' }, '2026-04-01T00:00:00Z', now)).toBe('2026-04-01T00:00:00Z');
    expect(decideModified('h', undefined, '2027-01-01T00:00:00Z', now)).toBe(now);
  });

  it('the AI home keeps its date across publishes while its content is unchanged', () => {
    const published = finalizeSite(first, metadata());
    const republished = finalizeSite([...published, ...first], { ...metadata(), deployedAt: LATER });
    expect(modifiedOf(file(republished, '/ai/index.html'))).toBe(modifiedOf(file(published, '/ai/index.html')));
    expect(cheerio.load(file(republished, '/ai/index.html').content)('footer p').eq(1).text()).toBe('Last checked: April 20, 2026');
  });
});

describe('text fidelity: one HTML → markdown converter', () => {
  it('never splits a word at an inline or void tag, decodes entities, keeps lists', () => {
    expect(htmlToMarkdown('I<meta charset=utf-8>deal for <b>Bold</b>er mornings &amp; caf&eacute; life&#8217;s')).toBe('Ideal for **Bold**er mornings & café life’s');
    expect(htmlToMarkdown('<p>Notes:</p><ul><li>Jasmine<li>Bergamot</li></ul><ol><li>Grind</li><li>Brew</li></ol>')).toBe('Notes:\n\n- Jasmine\n- Bergamot\n\n1. Grind\n2. Brew');
    expect(htmlToMarkdown('<script>alert(1)</script><style>p{}</style>Plain &lt;text&gt;')).toBe('Plain <text>');
    expect(htmlToMarkdown('a<br>b<wbr>c')).toBe('a\nbc');
  });

  it('store descriptions keep their lists through the catalogue to the pages and llms files', () => {
    const product = toCatalogProduct(
      { handle: 'kettle', title: 'Kettle', body_html: '<p>I<meta charset="utf-8">deal kettle.</p><ul><li>1 litre</li><li>Gooseneck &amp; thermometer</li></ul>', variants: [{ price: '83.00', available: true }] },
      STORE,
    );
    expect(product.description).toBe('Ideal kettle.\n\n- 1 litre\n- Gooseneck & thermometer');
    expect(markdownHtml(product.description)).toBe('<p>Ideal kettle.</p>\n<ul>\n<li>1 litre</li>\n<li>Gooseneck &amp; thermometer</li>\n</ul>');
    expect(markdownDetails(product.description)).toEqual(['Ideal kettle.', '- 1 litre\n- Gooseneck & thermometer']);
    expect(markdownPlain(product.description)).toBe('Ideal kettle. 1 litre; Gooseneck & thermometer');
  });

  it('generated summaries carry no price or stock (they belong in structured fields)', () => {
    const product = toCatalogProduct({ handle: 'kettle', title: 'Kettle', product_type: 'Kettle', body_html: '<p>A gooseneck kettle.</p>', variants: [{ price: '83.00', available: true }] }, STORE);
    const summary = productSummary(product);
    expect(summary).toBe('Kettle is a kettle. A gooseneck kettle.');
    expect(summary).not.toMatch(/83|priced|stock/);
  });

  it('collection descriptions reach llms.txt as text, never raw HTML or entities', () => {
    const snap = snapshot();
    snap.collections[0]!.description = htmlToMarkdown('<p>Whole&nbsp;bean <em>coffee</em> &amp; more.</p><ul><li>Fresh</li></ul>');
    const llms = file(finalizeSite(buildSiteFiles(snap, narrative(), OPTIONS), metadata()), '/llms.txt').content;
    const line = llms.split('\n').find((l) => l.startsWith('- [Coffee Beans]')) as string;
    expect(line).toContain('Whole bean coffee & more. Fresh');
    expect(line).not.toMatch(/<|&amp;|&nbsp;|\*/);
  });
});

function bigSnapshot(count: number): StoreSnapshot {
  const snap = snapshot();
  const base = snap.products[1] as CatalogProduct;
  snap.products = Array.from({ length: count }, (_, i) => ({
    ...base,
    productId: `bean-${i}`,
    name: `Bean ${i}`,
    url: `${STORE}/products/bean-${i}`,
    productType: i % 2 ? 'Coffee' : 'Gear',
    tags: [],
    available: i % 7 !== 0,
  }));
  snap.collections = [
    { handle: 'coffee', title: 'Coffee', url: `${STORE}/collections/coffee`, description: '' },
    { handle: 'gear', title: 'Gear', url: `${STORE}/collections/gear`, description: '' },
    { handle: 'all', title: 'All', url: `${STORE}/collections/all`, description: '' },
  ];
  return snap;
}

describe('D113: llms.txt and data.json stay bounded', () => {
  const snap = bigSnapshot(1200);
  const files = finalizeSite(buildSiteFiles(snap, { ...narrative(), productSummaries: {} }, OPTIONS), metadata());
  const llms = file(files, '/llms.txt').content;

  it('lists each product at most once, at most N per collection, available first', () => {
    const links = llms.match(/\/llms\/bean-\d+\.txt/g) ?? [];
    expect(new Set(links).size).toBe(links.length);
    expect(links.length).toBe(20);
    const coffee = llms.slice(llms.indexOf('## Coffee'), llms.indexOf('## Gear'));
    expect(coffee).toContain('[All 600 products: Coffee](https://northwind-coffee.example/ai/collections/coffee/): 590 more than listed here');
    expect(coffee).not.toContain('out of stock');
    expect(llms).not.toMatch(/\]\(\/(?!\/)/); // absolute links only
  });

  it('moves the full catalogue to /llms/catalog/full.txt and pages of 500', () => {
    const full = file(files, '/llms/catalog/full.txt').content;
    expect((full.match(/\/llms\/bean-\d+\.txt/g) ?? []).length).toBe(1200);
    const pages = files.filter((f) => /^\/llms\/catalog\/\d+\.txt$/.test(f.path));
    expect(pages.map((p) => p.path)).toEqual(['/llms/catalog/1.txt', '/llms/catalog/2.txt', '/llms/catalog/3.txt']);
    expect(pages.reduce((n, p) => n + (p.content.match(/\/llms\/bean-\d+\.txt/g) ?? []).length, 0)).toBe(1200);
    expect(llms).toContain('(https://northwind-coffee.example/llms/catalog/3.txt): products 1001-1200');
    const sitemap = file(files, '/sitemap.xml').content;
    expect(sitemap).toContain('<loc>https://northwind-coffee.example/llms/catalog/full.txt</loc>');
    expect(sitemap).toContain('<loc>https://northwind-coffee.example/llms/catalog/2.txt</loc>');
  });

  it('data.json holds the organization, the listed products and a pointer to the catalogue', () => {
    const data = JSON.parse(file(files, '/data.json').content);
    const products = data['@graph'].filter((n: any) => n['@type'] === 'Product' || n['@type'] === 'ProductGroup');
    expect(products.length).toBe(20);
    expect(products.length).toBeLessThanOrEqual(LLMS_INDEX_MAX_PRODUCTS);
    const catalog = data['@graph'].find((n: any) => n['@type'] === 'DataCatalog');
    expect(catalog.url).toBe('https://northwind-coffee.example/llms/catalog/full.txt');
    expect(catalog.dataset).toHaveLength(3);
  });
});

describe('D114: what the store served is kept', () => {
  it('keeps the image entries of the store sitemap', () => {
    const meta = metadata();
    meta.storeSitemapUrls = [
      { loc: `${STORE}/products/ethiopia-yirgacheffe`, lastmod: '2026-03-01T12:00:00Z', images: [{ loc: 'https://cdn.example/y.jpg', title: 'Yirgacheffe & bag' }, { loc: 'not a url' }] },
    ];
    const sitemap = file(finalizeSite(buildSiteFiles(snapshot(), narrative(), OPTIONS), meta), '/sitemap.xml').content;
    expect(sitemap).toContain('xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"');
    expect(sitemap).toContain(`<url><loc>${STORE}/products/ethiopia-yirgacheffe</loc><lastmod>2026-03-01T12:00:00Z</lastmod><image:image><image:loc>https://cdn.example/y.jpg</image:loc><image:title>Yirgacheffe &amp; bag</image:title></image:image></url>`);
    expect(sitemap).not.toContain('not a url');
  });

  it("links the store's own agent files from llms.txt", () => {
    const snap = snapshot();
    snap.storeAgentFiles = [
      { path: '/llms-full.txt', url: `${STORE}/llms-full.txt` },
      { path: '/agents.md', url: `${STORE}/agents.md` },
      { path: '/llms.txt', url: `${STORE}/llms.txt` },
    ];
    const llms = file(finalizeSite(buildSiteFiles(snap, narrative(), OPTIONS), metadata()), '/llms.txt').content;
    expect(llms).toContain(`- [The store's own /llms-full.txt](${STORE}/llms-full.txt): long-form index for language models, published by the store itself`);
    expect(llms).toContain(`- [The store's own /agents.md](${STORE}/agents.md): instructions for shopping agents, published by the store itself`);
    // D115: the proxy serves our /llms.txt on a connected domain; the store's copy is linked at its store address, and said so.
    expect(llms).toContain(`- [The store's own /llms.txt](${STORE}/llms.txt): published by the store itself; on a domain this AI site is connected to, /llms.txt serves this file instead`);
  });
});
