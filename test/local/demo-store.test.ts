import { XMLParser } from 'fast-xml-parser';
import { startDemoStore, type DemoStore } from '../../functions/local/demo-store';

const xml = new XMLParser({ ignoreAttributes: false, isArray: (name) => ['sitemap', 'url', 'image:image'].includes(name) });

interface ProductJson {
  id: number;
  handle: string;
  title: string;
  body_html: string;
  tags: string[];
  vendor: string;
  product_type: string;
  updated_at: string;
  variants: Array<{ id: number; price: string; compare_at_price: string | null; available: boolean; sku: string }>;
  images: Array<{ id: number; src: string; width: number; height: number; position: number }>;
  options: Array<{ name: string; values: string[] }>;
}

async function get(store: DemoStore, path: string) {
  const res = await fetch(new URL(path, store.origin));
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
}

async function getJson<T>(store: DemoStore, path: string): Promise<{ status: number; body: T }> {
  const res = await fetch(new URL(path, store.origin));
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  return { status: res.status, body: (await res.json()) as T };
}

/** Every product through `/products.json` paging, stopping on a short page like a real client. */
async function allProducts(store: DemoStore, base = '/products.json'): Promise<ProductJson[]> {
  const out: ProductJson[] = [];
  for (let page = 1; ; page++) {
    const { body } = await getJson<{ products: ProductJson[] }>(store, `${base}?limit=250&page=${page}`);
    out.push(...body.products);
    if (body.products.length < 250) return out;
  }
}

/** All `<loc>`s of the index's children (the URLs of the whole store sitemap). */
async function sitemapLocs(store: DemoStore): Promise<{ children: string[]; locs: string[]; urls: any[] }> {
  const index = xml.parse((await get(store, '/sitemap.xml')).text);
  const children: string[] = index.sitemapindex.sitemap.map((s: { loc: string }) => s.loc);
  const urls: any[] = [];
  for (const child of children) {
    const res = await get(store, child);
    expect(res.status).toBe(200);
    const parsed = xml.parse(res.text);
    expect(parsed.urlset['@_xmlns']).toBe('http://www.sitemaps.org/schemas/sitemap/0.9');
    const entries = parsed.urlset.url ?? [];
    expect(entries.length).toBeLessThanOrEqual(5000);
    urls.push(...entries);
  }
  return { children, locs: urls.map((u) => u.loc), urls };
}

/** What a sane change detector strips: scripts, hidden inputs, nonces, comments and Shopify's tracking meta. */
function normalize(html: string): string {
  return html
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, '')
    .replace(/<input\b[^>]*type="hidden"[^>]*>/gi, '')
    .replace(/\snonce="[^"]*"/gi, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<meta name="shopify-y"[^>]*>/gi, '');
}

describe('demo store (default catalogue)', () => {
  let store: DemoStore;
  beforeAll(async () => {
    store = await startDemoStore();
  });
  afterAll(() => store.close());

  it('reports the base catalogue in stats', () => {
    expect(store.stats).toEqual({ products: 24, collections: 6, pages: 5, blogPosts: 4, totalPages: 39 });
    expect(store.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('serves /products.json with Shopify field names and decimal-string prices', async () => {
    const { status, body } = await getJson<{ products: ProductJson[] }>(store, '/products.json');
    expect(status).toBe(200);
    expect(body.products).toHaveLength(24); // default limit 30 > 24: one short page
    const handles = body.products.map((p) => p.handle);
    expect(new Set(handles).size).toBe(24);
    for (const p of body.products) {
      expect(p).toEqual(expect.objectContaining({ id: expect.any(Number), title: expect.any(String), body_html: expect.stringContaining('<p>'), vendor: expect.any(String), product_type: expect.any(String) }));
      expect(Array.isArray(p.tags)).toBe(true);
      expect(p.variants.length).toBeGreaterThanOrEqual(1);
      expect(p.variants.length).toBeLessThanOrEqual(3);
      for (const v of p.variants) {
        expect(v.price).toMatch(/^\d+\.\d{2}$/);
        expect(typeof v.available).toBe('boolean');
      }
      expect(p.images[0].src).toMatch(new RegExp(`^${store.origin}/cdn/shop/files/${p.handle}\\.jpg\\?v=\\d+$`));
      expect(p.options[0].values.length).toBe(p.variants.length);
    }
    expect(body.products.some((p) => p.variants.some((v) => !v.available))).toBe(true);
    expect(body.products.some((p) => p.variants.some((v) => v.compare_at_price !== null))).toBe(true);
  });

  it('serves /products/<handle>.json and 404s an unknown handle', async () => {
    const { status, body } = await getJson<{ product: ProductJson }>(store, '/products/harbor-house-blend.json');
    expect(status).toBe(200);
    expect(body.product.title).toBe('Harbor House Blend');
    expect(body.product.variants.map((v) => v.price)).toEqual(['17.00', '46.00', '105.00']);
    expect((await getJson(store, '/products/no-such-thing.json')).status).toBe(404);
  });

  it('serves /collections.json and /collections/<handle>/products.json', async () => {
    const { body } = await getJson<{ collections: Array<{ handle: string; title: string; products_count: number; description: string }> }>(store, '/collections.json');
    expect(body.collections.map((c) => c.handle)).toEqual(['all', 'single-origin', 'blends-espresso', 'brewing-gear', 'gifts-subscriptions', 'best-sellers']);
    const all = body.collections.find((c) => c.handle === 'all')!;
    expect(all.products_count).toBe(24);
    const gear = body.collections.find((c) => c.handle === 'brewing-gear')!;
    const inGear = await getJson<{ products: ProductJson[] }>(store, '/collections/brewing-gear/products.json');
    expect(inGear.body.products).toHaveLength(gear.products_count);
    expect(inGear.body.products.every((p) => p.product_type === 'Brewing Gear')).toBe(true);
    expect((await getJson(store, '/collections/nope/products.json')).status).toBe(404);
  });

  it('publishes a sitemap index whose children list every product with lastmod and image', async () => {
    const { children, locs, urls } = await sitemapLocs(store);
    expect(children.map((c) => new URL(c).pathname)).toEqual(['/sitemap_products_1.xml', '/sitemap_pages_1.xml', '/sitemap_collections_1.xml', '/sitemap_blogs_1.xml']);
    for (const c of children.slice(0, 3)) expect(new URL(c).search).toMatch(/^\?from=\d+&to=\d+$/);
    const products = await allProducts(store);
    for (const p of products) expect(locs).toContain(`${store.origin}/products/${p.handle}`);
    const entry = urls.find((u) => u.loc === `${store.origin}/products/${products[0].handle}`);
    expect(entry.lastmod).toBe(products[0].updated_at);
    expect(entry['image:image'][0]['image:loc']).toBe(products[0].images[0].src);
    expect(locs).toEqual(expect.arrayContaining([`${store.origin}/pages/about`, `${store.origin}/collections/all`, `${store.origin}/blogs/journal`, `${store.origin}/blogs/journal/inside-roast-day`]));
  });

  it('answers 400 for a child sitemap without from/to (except blogs)', async () => {
    for (const kind of ['products', 'pages', 'collections']) {
      expect((await get(store, `/sitemap_${kind}_1.xml`)).status).toBe(400);
      expect((await get(store, `/sitemap_${kind}_1.xml?from=1`)).status).toBe(400);
    }
    expect((await get(store, '/sitemap_blogs_1.xml')).status).toBe(200);
  });

  it("serves Shopify's agent files: /agents.md, /llms.txt, /llms-full.txt and the UCP profile", async () => {
    const agents = await get(store, '/agents.md');
    expect(agents.status).toBe(200);
    expect(agents.type).toMatch(/^text\/markdown/);
    expect(agents.text).toMatch(/^# Harbor & Pine Coffee Co\.\n/);
    expect((await get(store, '/llms.txt')).text).toBe(agents.text);
    expect((await get(store, '/llms-full.txt')).type).toMatch(/^text\/plain/);
    const ucp = await get(store, '/.well-known/ucp');
    expect(ucp.type).toMatch(/^application\/json/);
    expect(JSON.parse(ucp.text).ucp.version).toMatch(/^\d{4}-\d\d-\d\d$/);
    expect((await get(store, '/sitemap_agentic_discovery.xml')).status).toBe(404);
  });

  it('serves a Shopify-like robots.txt with the Sitemap line', async () => {
    const res = await get(store, '/robots.txt');
    expect(res.type).toMatch(/^text\/plain/);
    expect(res.text).toContain(`Sitemap: ${store.origin}/sitemap.xml`);
    for (const rule of ['/admin', '/cart', '/orders', '/checkouts/', '/checkout', '/account', '/search', '/collections/*sort_by*', '/*/collections/*+*']) {
      expect(res.text).toContain(`Disallow: ${rule}\n`);
    }
    expect(res.text).toMatch(/User-agent: \*/);
    expect(res.text).toMatch(/User-agent: adsbot-google/);
  });

  it('adds per-request noise that disappears after normalization', async () => {
    const a = await get(store, '/products/ethiopia-yirgacheffe-kochere');
    const b = await get(store, '/products/ethiopia-yirgacheffe-kochere');
    expect(a.text).not.toBe(b.text);
    for (const marker of ['<script id="__st"', '"reqid":"', '<meta name="shopify-y"', 'name="authenticity_token"', 'nonce="', '<!-- rendered at ']) {
      expect(a.text).toContain(marker);
    }
    expect(normalize(a.text)).toBe(normalize(b.text));
    // cache-busters are stable: they change on theme publish, never per request
    const versions = (html: string) => html.match(/\?v=\d+/g);
    expect(versions(a.text)).toEqual(versions(b.text));
    expect(normalize(a.text)).toContain('<main');
  });

  it('renders product HTML with title, description, canonical, main content and Product JSON-LD', async () => {
    const { status, type, text } = await get(store, '/products/tidewater-hand-burr-grinder');
    expect(status).toBe(200);
    expect(type).toMatch(/^text\/html/);
    expect(text).toContain('<title>Tidewater Hand Burr Grinder – Harbor &amp; Pine Coffee Co.</title>');
    expect(text).toMatch(/<meta name="description" content="38 mm stainless-steel/);
    expect(text).toContain(`<link rel="canonical" href="${store.origin}/products/tidewater-hand-burr-grinder">`);
    const ld = /<script type="application\/ld\+json"[^>]*>(.*?)<\/script>/.exec(text)![1];
    const product = JSON.parse(ld);
    expect(product['@type']).toBe('Product');
    expect(product.offers[0]).toEqual(expect.objectContaining({ price: '89.00', priceCurrency: 'USD', availability: 'https://schema.org/InStock' }));
    const main = /<main[^>]*>([\s\S]*)<\/main>/.exec(text)![1];
    expect(main).toContain('<h1>Tidewater Hand Burr Grinder</h1>');
    expect(main).toContain('40 numbered clicks');
  });

  it('serves the other templates, and 404 HTML for unknown paths', async () => {
    for (const path of ['/', '/collections/all', '/collections/single-origin', '/collections', '/pages/about', '/pages/shipping-returns', '/pages/faq', '/pages/contact', '/blogs/journal', '/blogs/journal/dialing-in-espresso-at-home', '/cart']) {
      const res = await get(store, path);
      expect([path, res.status]).toEqual([path, 200]);
      expect(res.text).toMatch(/<title>[^<]+<\/title>/);
      expect(res.text).toContain(`<link rel="canonical" href="${store.origin}${path}">`);
      expect(res.text).toMatch(/<main[^>]*>[\s\S]+<\/main>/);
    }
    const faq = (await get(store, '/pages/faq')).text;
    expect(faq.match(/<details><summary>/g)!.length).toBeGreaterThanOrEqual(8);
    const shipping = (await get(store, '/pages/shipping-returns')).text;
    expect(shipping).toContain('over $45');
    expect(shipping).toContain('30 days');
    const missing = await get(store, '/products/not-a-product');
    expect(missing.status).toBe(404);
    expect(missing.type).toMatch(/^text\/html/);
    expect((await get(store, '/definitely/not/here')).status).toBe(404);
  });

  it('links a footer-only page from HTML that no sitemap lists', async () => {
    const home = (await get(store, '/')).text;
    const footer = /<footer[\s\S]*<\/footer>/.exec(home)![0];
    expect(footer).toContain('href="/pages/brew-guide"');
    expect(/<main[\s\S]*<\/main>/.exec(home)![0]).not.toContain('/pages/brew-guide');
    expect((await get(store, '/pages/brew-guide')).status).toBe(200);
    const { locs } = await sitemapLocs(store);
    expect(locs.some((l) => l.includes('brew-guide'))).toBe(false);
  });

  it('serves valid image, favicon and theme asset bytes', async () => {
    const img = await fetch(`${store.origin}/cdn/shop/files/ethiopia-yirgacheffe-kochere.jpg?v=1`);
    expect(img.headers.get('content-type')).toBe('image/jpeg');
    const jpeg = Buffer.from(await img.arrayBuffer());
    expect([jpeg[0], jpeg[1], jpeg[jpeg.length - 2], jpeg[jpeg.length - 1]]).toEqual([0xff, 0xd8, 0xff, 0xd9]);
    expect((await fetch(`${store.origin}/cdn/shop/files/not-a-product.jpg`)).status).toBe(404);
    const ico = await fetch(`${store.origin}/favicon.ico`);
    expect(ico.headers.get('content-type')).toBe('image/x-icon');
    const icon = Buffer.from(await ico.arrayBuffer());
    expect([icon.readUInt16LE(0), icon.readUInt16LE(2), icon.readUInt16LE(4)]).toEqual([0, 1, 1]);
    const home = (await get(store, '/')).text;
    const css = /href="(\/cdn\/shop\/t\/\d+\/assets\/base\.css\?v=\d+)"/.exec(home)![1];
    expect((await get(store, css)).type).toMatch(/^text\/css/);
  });

  it('counts requests', async () => {
    const before = store.requests();
    await get(store, '/robots.txt');
    expect(store.requests()).toBe(before + 1);
  });
});

describe('demo store size knobs', () => {
  it('products: 6 gives six products', async () => {
    const store = await startDemoStore({ products: 6, name: 'Tiny Roasters' });
    try {
      expect(store.stats.products).toBe(6);
      const { body } = await getJson<{ products: ProductJson[] }>(store, '/products.json');
      expect(body.products).toHaveLength(6);
      expect((await get(store, '/')).text).toContain('<title>Tiny Roasters | ');
    } finally {
      await store.close();
    }
  });

  describe('size: 5000', () => {
    let store: DemoStore;
    beforeAll(async () => {
      store = await startDemoStore({ size: 5000 });
    });
    afterAll(() => store.close());

    it('reaches at least 5,000 pages with unique handles', async () => {
      const { stats } = store;
      expect(stats.totalPages).toBeGreaterThanOrEqual(5000);
      expect(stats.products + stats.collections + stats.pages + stats.blogPosts).toBe(stats.totalPages);
      const products = await allProducts(store);
      expect(products).toHaveLength(stats.products);
      expect(new Set(products.map((p) => p.handle)).size).toBe(products.length);
      expect(new Set(products.map((p) => p.id)).size).toBe(products.length);
      const generated = products[products.length - 1];
      expect(generated.body_html).toMatch(/grown at|Cherry husks/);
      expect((await get(store, `/products/${generated.handle}`)).status).toBe(200);
    });

    it('paginates like Shopify: 30 by default, 250 max, a short last page, 400 past 25,000', async () => {
      const page = (q: string) => getJson<{ products?: ProductJson[]; errors?: string }>(store, `/products.json${q}`);
      expect((await page('')).body.products).toHaveLength(30);
      expect((await page('?limit=250')).body.products).toHaveLength(250);
      expect((await page('?limit=1000')).body.products).toHaveLength(250);
      const lastPage = Math.ceil(store.stats.products / 250);
      expect((await page(`?limit=250&page=${lastPage}`)).body.products).toHaveLength(store.stats.products - (lastPage - 1) * 250);
      expect((await page(`?limit=250&page=${lastPage + 1}`)).body.products).toHaveLength(0);
      const p2 = (await page('?page=2')).body.products!;
      const p1 = (await page('?page=1')).body.products!;
      expect(p2[0].id).not.toBe(p1[0].id);
      expect((await page('?limit=250&page=100')).status).toBe(200);
      const over = await page('?limit=250&page=101');
      expect(over.status).toBe(400);
      expect(over.body).toEqual({ errors: 'Page * Limit exceeds the 25000 limit.' });
      expect((await getJson(store, '/collections/all/products.json?limit=250&page=101')).status).toBe(400);
    });

    it('puts generated products in generated collections and the sitemaps', async () => {
      const { body } = await getJson<{ collections: Array<{ handle: string; products_count: number }> }>(store, '/collections.json');
      const archive = body.collections.find((c) => c.handle === 'roasters-archive')!;
      expect(archive.products_count).toBe(store.stats.products - 24);
      expect(body.collections.find((c) => c.handle === 'all')!.products_count).toBe(store.stats.products);
      const { locs } = await sitemapLocs(store);
      const productLocs = locs.filter((l) => l.includes('/products/'));
      expect(productLocs).toHaveLength(store.stats.products);
    });
  });

  it('splits product sitemaps into children of at most 5,000 URLs', async () => {
    const store = await startDemoStore({ size: 12_000 });
    try {
      const { children, locs } = await sitemapLocs(store);
      const productChildren = children.filter((c) => c.includes('sitemap_products_'));
      expect(productChildren.map((c) => new URL(c).pathname)).toEqual(['/sitemap_products_1.xml', '/sitemap_products_2.xml', '/sitemap_products_3.xml']);
      expect(new Set(locs.filter((l) => l.includes('/products/'))).size).toBe(store.stats.products);
    } finally {
      await store.close();
    }
  });

  it('is deterministic across instances', async () => {
    const a = await startDemoStore({ size: 300 });
    const b = await startDemoStore({ size: 300 });
    try {
      const strip = (ps: ProductJson[]) => JSON.stringify(ps).split(a.origin).join('').split(b.origin).join('');
      expect(strip(await allProducts(a))).toBe(strip(await allProducts(b)));
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
