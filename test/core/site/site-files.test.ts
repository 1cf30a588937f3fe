import * as cheerio from 'cheerio';
import { buildProductLlmsFiles, buildSiteFiles, finalizeSite } from '../../../functions/core/site/build';
import type { SiteFile } from '../../../functions/core/site/types';
import { HOSTILE_NAME, INDEXNOW_KEY, NOW, STORE, TRACKING_ENDPOINT, metadata, narrative, snapshot } from './fixtures';
import { checkLink, linkProblems, parseLlmsTxt } from './helpers';

const OPTIONS = { now: NOW, indexNowKey: INDEXNOW_KEY, trackingEndpoint: TRACKING_ENDPOINT };
const AI_HOST = 'https://northwind-coffee.aisites.example';

function content(): SiteFile[] {
  return buildSiteFiles(snapshot(), narrative(), OPTIONS);
}

function site(publicOrigin = STORE): SiteFile[] {
  return finalizeSite(content(), metadata(publicOrigin));
}

function file(files: SiteFile[], path: string): SiteFile {
  const found = files.find((f) => f.path === path);
  if (!found) throw new Error(`missing ${path}; have ${files.map((f) => f.path).join(', ')}`);
  return found;
}

function jsonLd(html: string): Array<Record<string, unknown>> {
  const $ = cheerio.load(html);
  return $('script[type="application/ld+json"]')
    .toArray()
    .map((el) => JSON.parse($(el).text()) as Record<string, unknown>);
}

describe('buildSiteFiles: the file set', () => {
  const files = content();
  const paths = files.map((f) => f.path);

  it('renders every file the spec lists, once each', () => {
    expect(new Set(paths).size).toBe(paths.length);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/llms.txt',
        '/data.json',
        '/tracking.js',
        `/${INDEXNOW_KEY}.txt`,
        '/indexing-key.txt',
        '/ai/questions/index.html',
        '/llms/ethiopia-yirgacheffe.txt',
        '/ai/products/ethiopia-yirgacheffe/index.html',
        '/ai/collections/coffee-beans/index.html',
        '/ai/collections/brewing-equipment/index.html',
        '/ai/collections/all/index.html',
        '/pages/home.md',
        '/pages/pages-about-us.md',
        '/pages/pages-shipping-returns.md',
        '/pages/pages-faq.md',
        '/pages/blogs-journal-how-to-brew-pour-over.md',
      ]),
    );
    // One facts file per product, plus the catalogue files (D113).
    expect(paths.filter((p) => /^\/llms\/[^/]+\.txt$/.test(p))).toHaveLength(6);
    expect(paths.filter((p) => p.startsWith('/llms/catalog/'))).toEqual(['/llms/catalog/full.txt', '/llms/catalog/1.txt']);
    expect(paths.filter((p) => p.startsWith('/ai/products/'))).toHaveLength(6);
  });

  it('gives each Q&A a unique slug from its question, never a reserved name', () => {
    const faqPaths = paths.filter((p) => /^\/ai\/[^/]+\/index\.html$/.test(p) && p !== '/ai/questions/index.html');
    expect(faqPaths).toHaveLength(6);
    expect(faqPaths).toEqual(
      expect.arrayContaining([
        '/ai/do-you-ship-internationally/index.html',
        '/ai/do-you-ship-internationally-2/index.html',
        '/ai/products-2/index.html',
        '/ai/how-fresh-is-the-coffee/index.html',
      ]),
    );
  });

  it('writes the key files with the key as content', () => {
    expect(file(files, `/${INDEXNOW_KEY}.txt`).content).toBe(INDEXNOW_KEY);
    expect(file(files, '/indexing-key.txt').content).toBe(INDEXNOW_KEY);
  });

  it('refuses a malformed IndexNow key', () => {
    expect(() => buildSiteFiles(snapshot(), narrative(), { ...OPTIONS, indexNowKey: '../x' })).toThrow(/indexNowKey/);
  });

  it('uses the right content types', () => {
    for (const f of files) {
      const expected = f.path.endsWith('.html') ? 'text/html' : f.path.endsWith('.md') ? 'text/markdown' : f.path.endsWith('.json') ? 'application/json' : f.path.endsWith('.js') ? 'text/javascript' : 'text/plain';
      expect(f.contentType.startsWith(expected)).toBe(true);
    }
  });

  it('is deterministic', () => {
    expect(content()).toEqual(files);
  });
});

describe('every HTML page', () => {
  const files = site();
  const pages = files.filter((f) => f.path.endsWith('.html'));

  it('has at least the product, collection, Q&A, index and home pages', () => {
    // Products, collections, Q&A, Q&A index, AI home (twice), and a page per kind with two or more products.
    expect(pages.length).toBe(6 + 3 + 6 + 1 + 2 + 2);
  });

  it.each(pages.map((p) => [p.path, p] as const))('%s has the full head, header, footer and tracking script', (_, page) => {
    expect(page.content.startsWith('<!doctype html>')).toBe(true);
    const $ = cheerio.load(page.content);
    expect($('html').attr('lang')).toBe('en');
    expect($('meta[charset]').attr('charset')).toBe('utf-8');
    expect($('meta[name="viewport"]').attr('content')).toContain('width=device-width');
    const title = $('title').text();
    expect(title.length).toBeGreaterThan(0);
    expect(title.length).toBeLessThanOrEqual(70);
    expect(title).toContain('Northwind Coffee Roasters');
    const description = $('meta[name="description"]').attr('content') ?? '';
    expect(description.length).toBeGreaterThan(0);
    expect(description.length).toBeLessThanOrEqual(160);
    const canonical = $('link[rel="canonical"]').attr('href') ?? '';
    expect(canonical.startsWith(`${STORE}/`)).toBe(true);
    expect($('meta[property="og:type"]').attr('content')).toBe(page.path.startsWith('/ai/products/') ? 'product' : 'article');
    // D112: a product page is dated by its product's update time (first build); other pages by
    // the build; the footer says both when the content changed and when it was last checked.
    const product = snapshot().products.find((p) => page.path === `/ai/products/${p.productId}/index.html`);
    const expected = product?.updatedAt && !Number.isNaN(Date.parse(product.updatedAt)) && Date.parse(product.updatedAt) <= Date.parse(NOW)
      ? new Date(product.updatedAt).toISOString().replace(/\.\d{3}Z$/, 'Z')
      : '2026-03-14T09:12:00Z';
    const modified = $('meta[property="article:modified_time"]').attr('content');
    expect(modified).toBe(expected);
    expect($('footer p').first().text()).toMatch(/^Last updated: \w+ \d{1,2}, \d{4}$/);
    expect($('footer p').eq(1).text()).toBe('Last checked: March 14, 2026');
    expect($('meta[name="ai-site:content-hash"]').attr('content')).toMatch(/^[0-9a-f]{32}$/);
    expect($('script[src="/ai/tracking.js"][defer]')).toHaveLength(1);
    expect($('header a[href="/ai/"]')).toHaveLength(1);
    expect($('link[rel="stylesheet"]')).toHaveLength(0);
    const blocks = jsonLd(page.content);
    expect(blocks.length).toBeGreaterThan(0);
    // Only the JSON-LD blocks and the tracking script: no other script elements.
    expect($('script').length).toBe(blocks.length + 1);
  });

  it('has the expected JSON-LD type per page kind', () => {
    for (const page of pages) {
      const types = jsonLd(page.content).map((b) => b['@type']);
      if (page.path.startsWith('/ai/products/')) expect(types).toEqual(['Product']);
      else if (page.path.startsWith('/ai/collections/') || page.path.startsWith('/ai/kinds/')) expect(types).toEqual(['CollectionPage']);
      else if (page.path === '/ai/index.html' || page.path === '/index.html') expect(types).toEqual(['WebPage']);
      else expect(types).toEqual(['FAQPage']);
    }
  });

  it('product pages: canonical is the store product, Product JSON-LD with a numeric Offer', () => {
    const page = file(files, '/ai/products/ethiopia-yirgacheffe/index.html');
    const $ = cheerio.load(page.content);
    expect($('link[rel="canonical"]').attr('href')).toBe(`${STORE}/products/ethiopia-yirgacheffe`);
    const [product] = jsonLd(page.content) as Array<Record<string, any>>;
    expect(product!['@context']).toBe('https://schema.org');
    expect(product!.name).toBe('Ethiopia Yirgacheffe Whole Bean');
    expect(product!.offers).toMatchObject({
      '@type': 'Offer',
      price: 18.5,
      priceCurrency: 'USD',
      availability: 'https://schema.org/InStock',
      url: `${STORE}/products/ethiopia-yirgacheffe`,
    });
    expect($('a[href="/llms/ethiopia-yirgacheffe.txt"]')).toHaveLength(1);
    expect($(`a[href="${STORE}/products/ethiopia-yirgacheffe"]`)).toHaveLength(1);
    expect($('a[href="/ai/collections/coffee-beans/"]')).toHaveLength(1);
    const decaf = jsonLd(file(files, '/ai/products/decaf-colombia/index.html').content)[0] as Record<string, any>;
    expect(decaf.offers.availability).toBe('https://schema.org/OutOfStock');
  });

  it('collection pages: canonical is the store collection, ItemList of its products linking AI pages', () => {
    const page = file(files, '/ai/collections/coffee-beans/index.html');
    const $ = cheerio.load(page.content);
    expect($('link[rel="canonical"]').attr('href')).toBe(`${STORE}/collections/coffee-beans`);
    const links = $('main a').toArray().map((a) => $(a).attr('href'));
    expect(links).toEqual(
      expect.arrayContaining(['/ai/products/ethiopia-yirgacheffe/', '/ai/products/house-espresso-blend/', '/ai/products/decaf-colombia/']),
    );
    expect(links).not.toContain('/ai/products/ceramic-pour-over-dripper/');
    const [node] = jsonLd(page.content) as Array<Record<string, any>>;
    expect(node!.mainEntity['@type']).toBe('ItemList');
    expect(node!.mainEntity.itemListElement).toHaveLength(3);
    expect(node!.mainEntity.itemListElement[0]).toMatchObject({ '@type': 'ListItem', position: 1, url: `${STORE}/products/ethiopia-yirgacheffe` });
    const all = cheerio.load(file(files, '/ai/collections/all/index.html').content);
    expect(all('main a[href^="/ai/products/"]')).toHaveLength(6);
  });

  it('Q&A pages: canonical is their own URL on the public origin, FAQ page on the store or not (D113)', () => {
    const page = file(files, '/ai/how-fresh-is-the-coffee/index.html');
    const $ = cheerio.load(page.content);
    // Was the store FAQ page (or the store home): unique content marked as a copy is not indexed.
    expect($('link[rel="canonical"]').attr('href')).toBe(`${metadata().publicOrigin}/ai/how-fresh-is-the-coffee/`);
    const [faq] = jsonLd(page.content) as Array<Record<string, any>>;
    expect(faq!.mainEntity).toHaveLength(1);
    expect(faq!.mainEntity[0]).toMatchObject({ '@type': 'Question', name: 'How fresh is the coffee?', acceptedAnswer: { '@type': 'Answer' } });
    const withoutFaqPage = snapshot();
    withoutFaqPage.pages = withoutFaqPage.pages.filter((p) => !p.url.endsWith('/pages/faq'));
    const other = finalizeSite(buildSiteFiles(withoutFaqPage, narrative(), OPTIONS), { ...metadata(), publicOrigin: 'https://northwind.ai.example' });
    const $2 = cheerio.load(file(other, '/ai/how-fresh-is-the-coffee/index.html').content);
    expect($2('link[rel="canonical"]').attr('href')).toBe('https://northwind.ai.example/ai/how-fresh-is-the-coffee/');
    const index = cheerio.load(file(other, '/ai/questions/index.html').content);
    expect(index('link[rel="canonical"]').attr('href')).toBe('https://northwind.ai.example/ai/questions/');
    const home = cheerio.load(file(other, '/ai/index.html').content);
    expect(home('link[rel="canonical"]').attr('href')).toBe('https://northwind.ai.example/ai/');
    // Replicas of store pages keep the store page as canonical.
    expect(cheerio.load(file(other, '/ai/products/ethiopia-yirgacheffe/index.html').content)('link[rel="canonical"]').attr('href')).toBe(`${STORE}/products/ethiopia-yirgacheffe`);
  });

  it('the questions index lists every Q&A with FAQPage JSON-LD of all of them', () => {
    const page = file(files, '/ai/questions/index.html');
    const [faq] = jsonLd(page.content) as Array<Record<string, any>>;
    expect(faq!.mainEntity).toHaveLength(6);
    const $ = cheerio.load(page.content);
    expect($('main a[href^="/ai/"]')).toHaveLength(6);
  });

  it('the AI home links every product, collection, Q&A, page replica and machine file', () => {
    const home = file(files, '/ai/index.html');
    expect(file(files, '/index.html').content).toBe(home.content);
    const $ = cheerio.load(home.content);
    const hrefs = new Set($('main a').toArray().map((a) => $(a).attr('href')));
    for (const f of files) {
      if (/^\/ai\/(products|collections)\/[^/]+\/index\.html$/.test(f.path)) expect(hrefs).toContain(f.path.replace(/index\.html$/, ''));
      if (f.path.startsWith('/pages/')) expect(hrefs).toContain(`/ai${f.path}`);
      // The catalogue files from the AI home; a product's facts file from its own page (issue 44: no name list without facts).
      if (f.path.startsWith('/llms/catalog/')) expect(hrefs).toContain(f.path);
      const facts = /^\/llms\/([^/]+)\.txt$/.exec(f.path);
      if (facts) expect(file(files, `/ai/products/${facts[1]}/index.html`).content).toContain(`href="${f.path}"`);
    }
    expect(hrefs).toContain('/llms.txt');
    expect(hrefs).toContain('/ai/data.json');
    expect(hrefs).toContain('/sitemap.xml');
    expect(hrefs).toContain('/ai/questions/');
  });
});

describe('HTML escaping of hostile store text', () => {
  const files = site();
  const page = file(files, '/ai/products/script-mug/index.html');

  it('never lets store text open an element', () => {
    expect(page.content).not.toContain('<script>alert');
    expect(page.content).not.toContain('<img src=x');
    expect(page.content).not.toContain('<b>Bold');
    const $ = cheerio.load(page.content);
    expect($('h1').text()).toBe(HOSTILE_NAME);
    expect($('img')).toHaveLength(0);
    expect($('b')).toHaveLength(0);
    expect($('title').text()).toContain('Northwind Coffee Roasters');
    expect($('link[rel="canonical"]').attr('href')).toBe(`${STORE}/products/script-mug?variant=1&ref="x"`);
  });

  it('keeps JSON-LD intact: `</script>` cannot close the block, the data parses back', () => {
    const [product] = jsonLd(page.content) as Array<Record<string, any>>;
    expect(product!.name).toBe(HOSTILE_NAME);
    expect(product!.description).toContain('</script><script>alert(1)</script>');
    const raw = page.content.slice(page.content.indexOf('application/ld+json'));
    expect(raw.slice(0, raw.indexOf('</script>'))).not.toMatch(/</);
  });

  it('escapes hostile text in every page that shows it', () => {
    for (const f of files.filter((x) => x.path.endsWith('.html'))) {
      expect(f.content).not.toMatch(/<script>alert|<img src=x|<b>bold|<b>Bold/);
    }
  });
});

describe('llms.txt', () => {
  const files = site();
  const doc = parseLlmsTxt(file(files, '/llms.txt').content);

  it('follows the llms.txt layout: H1, blockquote, details, H2 file lists, Optional last', () => {
    expect(doc.title).toBe('Northwind Coffee Roasters');
    expect(doc.summary).toBe(narrative().summary);
    expect(doc.details.join('\n')).toContain('- Roasted weekly in Portland, Oregon');
    expect(doc.details.join('\n')).toContain('\\# Not a heading');
    // D113: products grouped by collection (each once; catch-all "All Products" is no group).
    expect(doc.sections.map((s) => s.title)).toEqual(['Coffee Beans', 'Brewing Equipment', 'Other products', 'Products by kind', 'Collections', 'Questions and answers', 'Pages', 'Optional']);
  });

  it('links products to /llms/<slug>.txt, collections to /ai/collections/<handle>/, Q&A and replicas in routed form', () => {
    // Links are absolute on the public origin now (llmstxt.org), still in routed form (D28).
    const [beans, gear, other, kinds, collections, questions, pages, optional] = doc.sections;
    expect(kinds!.links.map((l) => l.url)).toEqual([`${STORE}/ai/kinds/coffee-beans/`, `${STORE}/ai/kinds/brewing-equipment/`]);
    const products = [beans!, gear!, other!].flatMap((s) => s.links);
    expect(products).toHaveLength(6);
    expect(new Set(products.map((l) => l.url)).size).toBe(6);
    expect(products[0]).toMatchObject({ name: 'Ethiopia Yirgacheffe Whole Bean', url: `${STORE}/llms/ethiopia-yirgacheffe.txt` });
    expect(products[0]!.notes).toContain('USD 18.50 (was USD 21.00)');
    expect(collections!.links.map((l) => l.url)).toEqual([`${STORE}/ai/collections/coffee-beans/`, `${STORE}/ai/collections/brewing-equipment/`, `${STORE}/ai/collections/all/`]);
    expect(questions!.links).toHaveLength(6);
    expect(questions!.links.every((l) => new RegExp(`^${STORE}/ai/[a-z0-9-]+/$`).test(l.url))).toBe(true);
    expect(pages!.links.map((l) => l.url)).toContain(`${STORE}/ai/pages/pages-about-us.md`);
    expect(optional!.links.map((l) => l.url)).toEqual([`${STORE}/llms/catalog/full.txt`, `${STORE}/llms/catalog/1.txt`, `${STORE}/ai/data.json`, `${STORE}/sitemap.xml`]);
  });

  it('escapes brackets in link names so the layout holds', () => {
    const hostile = doc.sections[2]!.links.find((l) => l.url === `${STORE}/llms/script-mug.txt`);
    expect(hostile!.name).toContain('<script>');
  });

  it('per-product files follow the same layout and carry the facts', () => {
    const product = parseLlmsTxt(file(files, '/llms/model-2025-burr-grinder.txt').content);
    expect(product.title).toBe('Model 2025 Burr Grinder');
    // The fact card first (issue 44): kind, brand, price and stock in the blockquote, each line naming the product.
    expect(product.summary).toBe('Model 2025 Burr Grinder: Brewing Equipment by Grindwell, USD 149.00 (was USD 179.00), in stock.');
    const details = product.details.join('\n');
    for (const fact of ['A home burr grinder for pour-over and espresso.', 'Tags: grinder', `Store page: ${STORE}/products/model-2025-burr-grinder`, 'Conical steel burrs']) {
      expect(details).toContain(fact);
    }
    const decaf = parseLlmsTxt(file(files, '/llms/decaf-colombia.txt').content);
    expect(decaf.summary).toMatch(/^Decaf Colombia.*: .*, out of stock\.$/);
  });

  it('buildProductLlmsFiles alone gives the same files as buildSiteFiles', () => {
    const alone = buildProductLlmsFiles(snapshot().products, narrative(), { now: NOW, business: snapshot().business });
    const merged = content().filter((f) => /^\/llms\/[^/]+\.txt$/.test(f.path));
    expect(alone).toEqual(merged);
  });
});

describe('data.json', () => {
  const data = JSON.parse(file(content(), '/data.json').content) as Record<string, any>;

  it('is a schema.org graph: the store as Organization + OnlineStore, then each Product', () => {
    expect(data['@context']).toBe('https://schema.org');
    // The latest of its nodes' dates (D112), not the build time.
    expect(data.dateModified).toBe('2026-03-01T12:00:00Z');
    const [org, ...products] = data['@graph'] as Array<Record<string, any>>;
    expect(org!['@type']).toEqual(['Organization', 'OnlineStore']);
    expect(org!.name).toBe('Northwind Coffee Roasters');
    expect(org!.url).toBe(STORE);
    expect(org!.description).toBe(narrative().summary);
    expect(org!.sameAs).toBeUndefined();
    expect(products).toHaveLength(6);
    for (const product of products) {
      expect(product['@type']).toBe('Product');
      expect(typeof product.offers.price).toBe('number');
      expect(product.offers.priceCurrency).toBe('USD');
      expect(product.offers.availability).toMatch(/^https:\/\/schema\.org\/(InStock|OutOfStock)$/);
      expect(product.offers.url.startsWith(`${STORE}/products/`)).toBe(true);
      if (product.dateModified !== undefined) expect(product.dateModified).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    }
    expect(products[0]!.dateModified).toBe('2026-03-01T12:00:00Z');
    // No updated_at from the store: no dateModified, rather than the build time claiming a change.
    expect(products[1]!.dateModified).toBeUndefined();
  });
});

describe('markdown replicas', () => {
  const files = content();

  it('are headed with the source URL and a last-updated line', () => {
    const about = file(files, '/pages/pages-about-us.md');
    expect(about.contentType).toBe('text/markdown; charset=utf-8');
    const lines = about.content.split('\n');
    expect(lines[0]).toBe('# About us');
    expect(about.content).toContain(`Source: ${STORE}/pages/about-us`);
    expect(about.content).toContain('Last updated: March 14, 2026');
    expect(file(files, '/pages/home.md').content).toContain('Last updated: March 10, 2026');
  });

  it('make every relative link an absolute store URL', () => {
    const home = file(files, '/pages/home.md').content;
    expect(home).toContain(`[our beans](${STORE}/collections/coffee-beans)`);
    expect(home).toContain(`[the journal](${STORE}/blogs/journal)`);
    expect(home).toContain('![logo](https://cdn.northwind-coffee.example/logo.png)');
    const about = file(files, '/pages/pages-about-us.md').content;
    expect(about).toContain(`[shipping](${STORE}/pages/shipping-returns "Shipping")`);
    expect(about).toContain(`[ref]: ${STORE}/pages/faq`);
    expect(about).toContain('(mailto:hello@northwind-coffee.example)');
  });
});

describe('every link inside every AI file resolves on both hosts', () => {
  it.each([
    ['customer domain as public origin', STORE],
    ['AI-site host as public origin', AI_HOST],
  ])('%s', (_, origin) => {
    const files = site(origin);
    expect(linkProblems(files, STORE, origin)).toEqual([]);
  });

  it('still holds with an AI article at the root', () => {
    const article: SiteFile = {
      path: '/best-pour-over-coffee-2026/index.html',
      content: '<!doctype html><html><head><title>Best pour-over coffee</title></head><body><h1>Best pour-over coffee</h1><a href="/ai/products/ethiopia-yirgacheffe/">Yirgacheffe</a></body></html>',
      contentType: 'text/html; charset=utf-8',
    };
    const files = finalizeSite([...content(), article], metadata());
    expect(linkProblems(files, STORE)).toEqual([]);
    const $ = cheerio.load(file(files, '/ai/index.html').content);
    expect($('a[href="/ai/best-pour-over-coffee-2026/"]').text()).toBe('Best pour-over coffee');
  });

  it('the checker itself catches a store-bound link and a missing file', () => {
    const paths = new Set(['/pages/about.md', '/ai/x/index.html']);
    expect(checkLink('/pages/about.md', paths, STORE)).toMatch(/customer domain/);
    expect(checkLink('/ai/pages/about.md', paths, STORE)).toBeNull();
    expect(checkLink('/ai/missing/', paths, STORE)).toMatch(/AI-site host/);
    expect(checkLink('https://evil.example/', paths, STORE)).toMatch(/outside the store/);
    expect(checkLink(`${STORE}/cart`, paths, STORE)).toBeNull();
  });
});

describe('Q&A slugs and AI articles (D28, D124)', () => {
  test('a Q&A page never takes an article\'s slug: the article keeps its /ai/<slug>/ form', () => {
    const question = narrative().faqs[0]!.question;
    const taken = buildSiteFiles(snapshot(), narrative(), OPTIONS).find((f) => f.path.startsWith('/ai/') && f.content.includes(question.slice(0, 20)) && /^\/ai\/[^/]+\/index\.html$/.test(f.path))!;
    const slug = taken.path.split('/')[2]!;
    const rebuilt = buildSiteFiles(snapshot(), narrative(), { ...OPTIONS, articleSlugs: [slug] });
    expect(rebuilt.some((f) => f.path === `/ai/${slug}/index.html`)).toBe(false);
    expect(rebuilt.some((f) => f.path === `/ai/${slug}-2/index.html`)).toBe(true);
  });
});
