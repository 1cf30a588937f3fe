/**
 * Issue items 5 (dates follow the content), 6 (text fidelity), 7 (llms.txt at scale) and 8
 * (what the store served is kept: sitemap images, the store's own agent files); issue 22.1
 * (every product in llms.txt and data.json within a size budget, the cap only beyond it).
 */
import * as cheerio from 'cheerio';
import { buildSiteFiles, finalizeSite } from '../../../functions/core/site/build';
import { decideModified, pageDatesOf } from '../../../functions/core/site/dates';
import {
  DATA_JSON_BUDGET_BYTES,
  DEFAULT_LLMS_LIMITS,
  LLMS_INDEX_MAX_PRODUCTS,
  LLMS_PRODUCTS_PER_COLLECTION,
  LLMS_TXT_BUDGET_BYTES,
} from '../../../functions/core/site/llms';
import { buildDemoSiteInProcess } from '../../../bench/fidelity';
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

const productLinks = (llms: string) => llms.match(/\/llms\/(?!catalog\/)[a-z0-9-]+\.txt/g) ?? [];
const productNodes = (data: any) => data['@graph'].filter((n: any) => n['@type'] === 'Product' || n['@type'] === 'ProductGroup');

describe('D113 (amended): every product within the size budget, the cap only beyond it', () => {
  it('a 51-product store without collections lists all 51 in llms.txt and data.json (issue 22.1; the old cap listed 10)', () => {
    const snap = bigSnapshot(51);
    snap.collections = [];
    const files = finalizeSite(buildSiteFiles(snap, { ...narrative(), productSummaries: {} }, OPTIONS), metadata());
    const llms = file(files, '/llms.txt').content;
    const links = productLinks(llms);
    expect(new Set(links).size).toBe(51);
    expect(links).toHaveLength(51);
    expect(llms).toMatch(/^## Coffee$/m); // grouped by kind (issue 44), no collection holding them
    expect(llms).not.toContain('more than listed here');
    expect(llms).toContain('Every product is listed here');
    const data = JSON.parse(file(files, '/data.json').content);
    expect(productNodes(data).map((n: any) => n.url).sort()).toEqual(snap.products.map((p) => p.url).sort());
    expect(data['@graph'].find((n: any) => n['@type'] === 'DataCatalog')).toBeUndefined();
    expect(Buffer.byteLength(llms)).toBeLessThanOrEqual(LLMS_TXT_BUDGET_BYTES);
  });

  it('beyond the budget: the most relevant first (available, then best sellers, then newest), and each file within its budget', () => {
    const snap = bigSnapshot(60);
    snap.products.forEach((p, i) => (p.updatedAt = `2026-01-${String(1 + (i % 28)).padStart(2, '0')}T00:00:00Z`));
    snap.products[50]!.updatedAt = '2026-03-01T00:00:00Z'; // the newest; bean-50 is available (50 % 7 != 0)
    snap.collections = [{ handle: 'best-sellers', title: 'Best Sellers', url: `${STORE}/collections/best-sellers`, description: '' }];
    const limits = { ...DEFAULT_LLMS_LIMITS, perCollection: 3, llmsTxtBudgetBytes: 6000, dataJsonBudgetBytes: 5000 };
    const files = finalizeSite(
      buildSiteFiles(snap, { ...narrative(), productSummaries: {} }, { ...OPTIONS, llmsLimits: limits, collectionMembers: { 'best-sellers': ['bean-35', 'bean-31', 'bean-30'] } }),
      metadata(),
    );
    const llms = file(files, '/llms.txt').content;
    expect(Buffer.byteLength(llms)).toBeLessThanOrEqual(6000);
    const links = productLinks(llms);
    expect(links.length).toBeGreaterThanOrEqual(3);
    expect(links.length).toBeLessThan(60);
    expect(new Set(links).size).toBe(links.length);
    const section = (title: string) => {
      const at = llms.indexOf(`## ${title}\n`);
      return at < 0 ? '' : llms.slice(at, llms.indexOf('\n## ', at + 1));
    };
    // Best sellers: available first (bean-35 is sold out), then the collection's order.
    expect(productLinks(section('Best Sellers'))).toEqual(['/llms/bean-31.txt', '/llms/bean-30.txt', '/llms/bean-35.txt']);
    // The rest by kind (issue 44): the newest available first, no sold-out product while available ones are left out.
    const gear = section('Gear');
    expect(productLinks(gear)[0]).toBe('/llms/bean-50.txt');
    expect(gear).not.toContain('out of stock');
    expect(gear).toMatch(/\[All \d+ products: Gear\]\(https:\/\/northwind-coffee\.example\/ai\/kinds\/gear\/\): \d+ more than listed here/);
    expect(section('Coffee')).not.toBe('');
    expect(llms).toMatch(/\d+ of 60 products are listed here/);
    // data.json: within its budget, the most relevant of the listed products, and a pointer to the catalogue.
    const content = file(files, '/data.json').content;
    expect(Buffer.byteLength(content)).toBeLessThanOrEqual(5000);
    const data = JSON.parse(content);
    const urls = productNodes(data).map((n: any) => n.url.replace(`${STORE}/products/`, ''));
    expect(urls.length).toBeGreaterThan(0);
    expect(urls.length).toBeLessThan(links.length);
    for (const slug of urls) expect(links).toContain(`/llms/${slug}.txt`);
    expect(urls).toEqual(expect.arrayContaining(['bean-31', 'bean-30', 'bean-50']));
    expect(data['@graph'].find((n: any) => n['@type'] === 'DataCatalog').url).toBe('https://northwind-coffee.example/llms/catalog/full.txt');
  });
});

describe('D113: llms.txt and data.json stay bounded', () => {
  const snap = bigSnapshot(1200);
  const files = finalizeSite(buildSiteFiles(snap, { ...narrative(), productSummaries: {} }, OPTIONS), metadata());
  const llms = file(files, '/llms.txt').content;

  it('beyond the budget lists each product at most once, at most N per collection, available first, within 100 KB', () => {
    expect(Buffer.byteLength(llms)).toBeLessThanOrEqual(LLMS_TXT_BUDGET_BYTES);
    const links = productLinks(llms);
    expect(new Set(links).size).toBe(links.length);
    expect(links.length).toBe(2 * LLMS_PRODUCTS_PER_COLLECTION);
    const coffee = llms.slice(llms.indexOf('## Coffee'), llms.indexOf('## Gear'));
    expect(productLinks(coffee)).toHaveLength(LLMS_PRODUCTS_PER_COLLECTION);
    expect(coffee).toContain('[All 600 products: Coffee](https://northwind-coffee.example/ai/collections/coffee/): 590 more than listed here');
    expect(coffee).not.toContain('out of stock');
    expect(llms).toContain('20 of 1200 products are listed here: at most 10 per collection');
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

  it('data.json has its own budget: within 1 MB it describes all 1,200 products, beyond it the listed ones and a pointer to the catalogue', () => {
    const content = file(files, '/data.json').content;
    expect(Buffer.byteLength(content)).toBeLessThanOrEqual(DATA_JSON_BUDGET_BYTES);
    const all = JSON.parse(content);
    expect(productNodes(all)).toHaveLength(1200);
    expect(all['@graph'].find((n: any) => n['@type'] === 'DataCatalog')).toBeUndefined();

    const limits = { ...DEFAULT_LLMS_LIMITS, dataJsonBudgetBytes: 200 * 1024 };
    const small = finalizeSite(buildSiteFiles(snap, { ...narrative(), productSummaries: {} }, { ...OPTIONS, llmsLimits: limits }), metadata());
    const bounded = file(small, '/data.json').content;
    expect(Buffer.byteLength(bounded)).toBeLessThanOrEqual(200 * 1024);
    const data = JSON.parse(bounded);
    const products = productNodes(data);
    expect(products.map((n: any) => `/llms/${n.url.replace(`${STORE}/products/`, '')}.txt`).sort()).toEqual(productLinks(llms).sort());
    const catalog = data['@graph'].find((n: any) => n['@type'] === 'DataCatalog');
    expect(catalog.url).toBe('https://northwind-coffee.example/llms/catalog/full.txt');
    expect(catalog.description).toBe(`${products.length} of 1200 products are described here; every product is listed in the catalogue files.`);
    expect(catalog.dataset).toHaveLength(3);
  });
});

describe('D113 (amended) on the demo store at 5,000 products', () => {
  it('llms.txt stays within 100 KB and data.json within 1 MB as published', () => {
    const site = buildDemoSiteInProcess(5000, { prompts: false });
    const llms = file(site.files, '/llms.txt').content;
    const data = file(site.files, '/data.json').content;
    expect(site.raw.length).toBeGreaterThan(4900);
    expect(Buffer.byteLength(llms)).toBeLessThanOrEqual(LLMS_TXT_BUDGET_BYTES);
    expect(Buffer.byteLength(data)).toBeLessThanOrEqual(DATA_JSON_BUDGET_BYTES);
    const links = productLinks(llms);
    expect(new Set(links).size).toBe(links.length);
    expect(links.length).toBeGreaterThanOrEqual(LLMS_PRODUCTS_PER_COLLECTION);
    expect(links.length).toBeLessThanOrEqual(LLMS_INDEX_MAX_PRODUCTS);
    // Beyond both budgets data.json describes the products llms.txt lists.
    expect(productNodes(JSON.parse(data)).map((n: any) => new URL(n.url).pathname.replace('/products/', '')).sort()).toEqual(links.map((l) => l.slice(6, -4)).sort());
    expect(file(site.files, '/llms/catalog/full.txt').content.match(/\/llms\/(?!catalog\/)[a-z0-9-]+\.txt/g)).toHaveLength(site.raw.length);
  }, 60_000);
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
