/**
 * The demo store's admin endpoint and `demo.admin`: the store changes at run time, every
 * rendering of the changed data follows, and pages whose data did not change keep their
 * content fingerprint (the one the daily schedule's change detection uses).
 */
import { contentFingerprint } from '../../functions/core/crawl/fingerprint';
import { DemoStoreAdminError, startDemoStore, type DemoStore } from '../../functions/local/demo-store';

interface ProductJson {
  id: number;
  handle: string;
  title: string;
  updated_at: string;
  variants: Array<{ id: number; price: string; available: boolean; sku: string }>;
  images: Array<{ src: string }>;
}

async function get(store: DemoStore, path: string) {
  const res = await fetch(new URL(path, store.origin));
  return { status: res.status, text: await res.text() };
}

async function admin(store: DemoStore, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${store.adminUrl}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

async function allProducts(store: DemoStore, base = '/products.json'): Promise<ProductJson[]> {
  const out: ProductJson[] = [];
  for (let page = 1; ; page++) {
    const res = await fetch(new URL(`${base}?limit=250&page=${page}`, store.origin));
    expect(res.status).toBe(200);
    const { products } = (await res.json()) as { products: ProductJson[] };
    out.push(...products);
    if (products.length < 250) return out;
  }
}

/** Every `<url>` of every child sitemap, as loc → lastmod. */
async function sitemap(store: DemoStore): Promise<Map<string, string | undefined>> {
  const index = (await get(store, '/sitemap.xml')).text;
  const out = new Map<string, string | undefined>();
  for (const child of [...index.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1].replace(/&amp;/g, '&'))) {
    const res = await fetch(child);
    expect(res.status).toBe(200);
    for (const entry of (await res.text()).matchAll(/<url>\s*<loc>([^<]+)<\/loc>\s*(?:<lastmod>([^<]+)<\/lastmod>)?/g)) out.set(entry[1].replace(/&amp;/g, '&'), entry[2]);
  }
  return out;
}

/** Status and content fingerprint of every storefront page: the sitemap's, plus the ones only HTML links. */
async function fingerprints(store: DemoStore): Promise<Map<string, string>> {
  const paths = [...(await sitemap(store)).keys()].map((loc) => loc.slice(store.origin.length));
  const out = new Map<string, string>();
  for (const path of [...paths, '/collections', '/pages/brew-guide']) {
    const { status, text } = await get(store, path);
    out.set(path, `${status} ${contentFingerprint(text)}`);
  }
  return out;
}

/** Paths whose fingerprint differs, and paths only in `after`. */
function compare(before: Map<string, string>, after: Map<string, string>) {
  const changed = [...after.keys()].filter((p) => before.has(p) && before.get(p) !== after.get(p)).sort();
  const added = [...after.keys()].filter((p) => !before.has(p)).sort();
  const removed = [...before.keys()].filter((p) => !after.has(p)).sort();
  return { changed, added, removed };
}

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected a throw');
}

const NEW_PRODUCT = {
  handle: 'maine-maple-cold-brew',
  title: 'Maine Maple Cold Brew Concentrate',
  price: '14',
  body_html: '<p>Our cold brew concentrate with a splash of Maine maple syrup. Dilute 1:1.</p>',
  product_type: 'Coffee',
  tags: ['cold-brew', 'maple'],
  collections: ['blends-espresso'],
};

describe('demo store admin endpoint (HTTP)', () => {
  let store: DemoStore;
  let initial: Map<string, string>;
  beforeAll(async () => {
    store = await startDemoStore();
    initial = await fingerprints(store);
  });
  afterAll(() => store.close());
  beforeEach(async () => {
    expect((await admin(store, 'POST', '/reset')).status).toBe(200);
  });

  it('listens on a loopback port of its own, not on the storefront', async () => {
    expect(store.adminUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(new URL(store.adminUrl).port).not.toBe(String(store.port));
    expect((await get(store, '/state')).status).toBe(404);
    expect((await fetch(`${store.origin}/products`, { method: 'POST', body: '{}' })).status).toBe(405);
    const { status, body } = await admin(store, 'GET', '/state');
    expect(status).toBe(200);
    expect(body).toEqual({
      version: expect.any(Number),
      products: 24,
      collections: { all: 24, 'single-origin': expect.any(Number), 'blends-espresso': expect.any(Number), 'brewing-gear': expect.any(Number), 'gifts-subscriptions': expect.any(Number), 'best-sellers': expect.any(Number) },
      pages: ['about', 'shipping-returns', 'faq', 'contact', 'brew-guide'],
      blog_posts: 4,
      total_pages: 39,
      changes: { products: { added: [], edited: [], removed: [] }, pages: { added: [], edited: [], removed: [] } },
    });
  });

  it('adds a product to /products.json, its page, its collections and the sitemap', async () => {
    const before = (await admin(store, 'GET', '/state')).body.version;
    const existing = await allProducts(store);
    const { status, body } = await admin(store, 'POST', '/products', NEW_PRODUCT);
    expect(status).toBe(201);
    expect(body).toEqual(expect.objectContaining({ version: before + 1, changed: true, url: `${store.origin}/products/maine-maple-cold-brew` }));
    expect(body.product).toEqual(expect.objectContaining({ handle: 'maine-maple-cold-brew', title: NEW_PRODUCT.title, product_type: 'Coffee', tags: ['cold-brew', 'maple'], vendor: 'Harbor & Pine Coffee Co.' }));
    expect(body.product.variants).toEqual([expect.objectContaining({ title: 'Default Title', price: '14.00', available: true, sku: 'MAINE-MAPLE-COLD-BREW' })]);
    // Shopify ids grow with creation time.
    expect(body.product.id).toBeGreaterThan(Math.max(...existing.map((p) => p.id)));

    const products = await allProducts(store);
    expect(products).toHaveLength(25);
    const added = products.find((p) => p.handle === 'maine-maple-cold-brew')!;
    expect(added).toEqual(body.product);
    const page = await get(store, '/products/maine-maple-cold-brew');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h1>Maine Maple Cold Brew Concentrate</h1>');
    expect(page.text).toContain('splash of Maine maple syrup');
    expect(page.text).toContain('$14.00');
    expect((await get(store, '/products/maine-maple-cold-brew.json')).status).toBe(200);
    expect((await fetch(added.images[0].src)).status).toBe(200);

    for (const collection of ['all', 'blends-espresso']) {
      expect((await allProducts(store, `/collections/${collection}/products.json`)).map((p) => p.handle)).toContain('maine-maple-cold-brew');
    }
    expect((await get(store, '/collections/blends-espresso')).text).toContain('href="/products/maine-maple-cold-brew"');
    expect((await allProducts(store, '/collections/brewing-gear/products.json')).map((p) => p.handle)).not.toContain('maine-maple-cold-brew');
    const collections = (await (await fetch(`${store.origin}/collections.json`)).json()) as { collections: Array<{ handle: string; products_count: number }> };
    expect(collections.collections.find((c) => c.handle === 'all')!.products_count).toBe(25);

    const locs = await sitemap(store);
    expect(locs.get(`${store.origin}/products/maine-maple-cold-brew`)).toBe(added.updated_at);

    const state = (await admin(store, 'GET', '/state')).body;
    expect(state).toEqual(expect.objectContaining({ version: before + 1, products: 25, total_pages: 40 }));
    expect(state.changes.products).toEqual({ added: ['maine-maple-cold-brew'], edited: [], removed: [] });
    expect(store.stats.products).toBe(25);
  });

  it('a new product changes only the pages that list it', async () => {
    const before = await fingerprints(store);
    expect(before).toEqual(initial);
    await admin(store, 'POST', '/products', { handle: 'roastery-gift-card-50', title: 'Roastery Gift Card $50', price: 50 });
    const diff = compare(before, await fingerprints(store));
    // The product itself is new; the listings that count or show every product changed; nothing else did.
    expect(diff).toEqual({ added: ['/products/roastery-gift-card-50'], changed: ['/collections', '/collections/all'], removed: [] });
  });

  it('removes a product: 404 and gone from the feeds, collections and sitemap', async () => {
    const { status, body } = await admin(store, 'DELETE', '/products/harbor-house-blend');
    expect(status).toBe(200);
    expect(body).toEqual({ version: expect.any(Number), url: `${store.origin}/products/harbor-house-blend`, removed: { id: expect.any(Number), handle: 'harbor-house-blend' } });
    expect((await get(store, '/products/harbor-house-blend')).status).toBe(404);
    expect((await get(store, '/products/harbor-house-blend.json')).status).toBe(404);
    expect((await get(store, '/collections/best-sellers/products/harbor-house-blend')).status).toBe(404);
    expect((await fetch(`${store.origin}/cdn/shop/files/harbor-house-blend.jpg`)).status).toBe(404);
    const handles = (await allProducts(store)).map((p) => p.handle);
    expect(handles).toHaveLength(23);
    expect(handles).not.toContain('harbor-house-blend');
    for (const collection of ['all', 'blends-espresso', 'best-sellers']) {
      expect((await allProducts(store, `/collections/${collection}/products.json`)).map((p) => p.handle)).not.toContain('harbor-house-blend');
      expect((await get(store, `/collections/${collection}`)).text).not.toContain('/products/harbor-house-blend"');
    }
    expect((await get(store, '/')).text).not.toContain('/products/harbor-house-blend"');
    expect([...(await sitemap(store)).keys()].filter((l) => l.includes('harbor-house-blend'))).toEqual([]);
    expect((await admin(store, 'GET', '/state')).body.changes.products).toEqual({ added: [], edited: [], removed: ['harbor-house-blend'] });

    const again = await admin(store, 'DELETE', '/products/harbor-house-blend');
    expect(again.status).toBe(404);
    expect(again.body.error).toMatch(/no product 'harbor-house-blend'/);
  });

  it('edits a product: its page changes meaningfully; an edit to the same values is no change', async () => {
    const path = '/products/tidewater-hand-burr-grinder';
    const [old] = (await allProducts(store)).filter((p) => p.handle === 'tidewater-hand-burr-grinder');
    const before = await fingerprints(store);
    const { status, body } = await admin(store, 'PATCH', path, { title: 'Tidewater Hand Grinder, 2nd Edition', price: '79', available: false });
    expect(status).toBe(200);
    expect(body.changed).toBe(true);
    expect(body.product.variants.every((v: { price: string; available: boolean }) => v.price === '79.00' && !v.available)).toBe(true);

    const page = (await get(store, path)).text;
    expect(page).toContain('<h1>Tidewater Hand Grinder, 2nd Edition</h1>');
    expect(page).toContain('$79.00');
    expect(page).toContain('Sold out');
    const [now] = (await allProducts(store)).filter((p) => p.handle === 'tidewater-hand-burr-grinder');
    expect(now.id).toBe(old.id);
    expect(now.updated_at > old.updated_at).toBe(true);
    expect((await sitemap(store)).get(`${store.origin}${path}`)).toBe(now.updated_at);

    const diff = compare(before, await fingerprints(store));
    expect(diff.added).toEqual([]);
    expect(diff.changed).toContain(path);
    expect(diff.changed).toContain('/collections/brewing-gear'); // its card shows the title and price
    expect(diff.changed).not.toContain('/pages/about');
    expect(diff.changed).not.toContain('/products/ethiopia-yirgacheffe-kochere');

    const version = (await admin(store, 'GET', '/state')).body.version;
    const same = await admin(store, 'PATCH', path, { price: 79.0, available: false });
    expect(same.status).toBe(200);
    expect(same.body).toEqual(expect.objectContaining({ version, changed: false }));
    expect(same.body.product.updated_at).toBe(now.updated_at);
  });

  it('edits a content page: its content changes, every other page keeps its fingerprint', async () => {
    const before = await fingerprints(store);
    const oldLastmod = (await sitemap(store)).get(`${store.origin}/pages/about`);
    const { status, body } = await admin(store, 'PUT', '/pages/about', { body_html: '<p>Since 2025 we roast on a solar-powered roaster in Biddeford.</p>' });
    expect(status).toBe(200);
    expect(body).toEqual(expect.objectContaining({ created: false, changed: true, url: `${store.origin}/pages/about` }));
    expect(body.page).toEqual(expect.objectContaining({ handle: 'about', title: 'Our Story', in_sitemap: true }));

    const about = (await get(store, '/pages/about')).text;
    expect(about).toContain('solar-powered roaster in Biddeford');
    expect(about).not.toContain('rented garage off Forest Avenue');
    expect(compare(before, await fingerprints(store))).toEqual({ added: [], changed: ['/pages/about'], removed: [] });
    const lastmod = (await sitemap(store)).get(`${store.origin}/pages/about`);
    expect(lastmod).toBe(body.page.updated_at);
    expect(lastmod).not.toBe(oldLastmod);
    expect((await admin(store, 'GET', '/state')).body.changes.pages).toEqual({ added: [], edited: ['about'], removed: [] });

    // The FAQ page renders the merchant's body once there is one.
    await admin(store, 'PUT', '/pages/faq', { title: 'Questions', body_html: '<p>Ask us anything at the roastery.</p>' });
    const faq = (await get(store, '/pages/faq')).text;
    expect(faq).toContain('<h1>Questions</h1>');
    expect(faq).toContain('Ask us anything at the roastery.');
    expect(faq).not.toContain('<details>');
  });

  it('creates a content page (listed in the pages sitemap) and deletes it', async () => {
    const created = await admin(store, 'PUT', '/pages/wholesale', { title: 'Wholesale', body_html: '<p>Cafés in New England: 10 lb a week minimum.</p>' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual(expect.objectContaining({ created: true, changed: true, url: `${store.origin}/pages/wholesale` }));
    expect(created.body.page.meta_description).toBe('Cafés in New England: 10 lb a week minimum.');
    const page = await get(store, '/pages/wholesale');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h1>Wholesale</h1>');
    expect(page.text).toContain('<meta name="description" content="Cafés in New England: 10 lb a week minimum.">');
    expect((await sitemap(store)).get(`${store.origin}/pages/wholesale`)).toBe(created.body.page.updated_at);
    expect((await admin(store, 'GET', '/state')).body.pages).toEqual(['about', 'shipping-returns', 'faq', 'contact', 'brew-guide', 'wholesale']);

    const removed = await admin(store, 'DELETE', '/pages/wholesale');
    expect(removed.status).toBe(200);
    expect(removed.body.removed).toEqual({ id: created.body.page.id, handle: 'wholesale' });
    expect((await get(store, '/pages/wholesale')).status).toBe(404);
    expect((await sitemap(store)).has(`${store.origin}/pages/wholesale`)).toBe(false);
    expect((await admin(store, 'DELETE', '/pages/wholesale')).status).toBe(404);
    // A page that ships with the store can go too.
    expect((await admin(store, 'DELETE', '/pages/contact')).status).toBe(200);
    expect((await get(store, '/pages/contact')).status).toBe(404);
  });

  it('refuses bad input with a status and a message naming the problem, and changes nothing', async () => {
    const version = (await admin(store, 'GET', '/state')).body.version;
    const cases: Array<[string, string, unknown, number, RegExp]> = [
      ['POST', '/products', {}, 400, /handle is required/],
      ['POST', '/products', { ...NEW_PRODUCT, handle: 'Maple Brew' }, 400, /handle "Maple Brew" must be lowercase letters, digits and single hyphens/],
      ['POST', '/products', { handle: 'maple', price: '1' }, 400, /title is required/],
      ['POST', '/products', { handle: 'maple', title: 'Maple' }, 400, /price is required/],
      ['POST', '/products', { ...NEW_PRODUCT, price: 'cheap' }, 400, /price must be an amount with at most 2 decimals.*"cheap"/],
      ['POST', '/products', { ...NEW_PRODUCT, price: 1.999 }, 400, /price must be an amount/],
      ['POST', '/products', { ...NEW_PRODUCT, colour: 'red' }, 400, /unknown field 'colour'/],
      ['POST', '/products', { ...NEW_PRODUCT, collections: ['seasonal'] }, 400, /unknown collection 'seasonal' \(known: all, single-origin/],
      ['POST', '/products', { ...NEW_PRODUCT, variants: [] }, 400, /variants must be an array of 1 to 8/],
      ['POST', '/products', { ...NEW_PRODUCT, variants: [{ title: '12 oz' }, { title: '12 oz' }] }, 400, /two variants are titled "12 oz"/],
      ['POST', '/products', { ...NEW_PRODUCT, variants: [{ price: '3' }] }, 400, /variants\[0\]\.title is required/],
      ['POST', '/products', { ...NEW_PRODUCT, images: 9 }, 400, /images must be a whole number from 0 to 4/],
      ['POST', '/products', { ...NEW_PRODUCT, handle: 'harbor-house-blend' }, 409, /product 'harbor-house-blend' already exists/],
      ['POST', '/products', '{"handle": "maple",', 400, /request body is not valid JSON/],
      ['POST', '/products', undefined, 400, /a JSON object body is required/],
      ['POST', '/products', [NEW_PRODUCT], 400, /the product must be a JSON object/],
      ['PATCH', '/products/no-such-coffee', { title: 'X' }, 404, /no product 'no-such-coffee'/],
      ['PATCH', '/products/harbor-house-blend', {}, 400, /nothing to change: give at least one of title, body_html, price, available/],
      ['PATCH', '/products/harbor-house-blend', { available: 'yes' }, 400, /available must be true or false/],
      ['PATCH', '/products/harbor-house-blend', { handle: 'new-handle' }, 400, /unknown field 'handle'/],
      ['DELETE', '/products/no-such-coffee', undefined, 404, /no product 'no-such-coffee'/],
      ['PUT', '/pages/press', { title: 'Press' }, 400, /body_html is required to create page 'press'/],
      ['PUT', '/pages/about', { body_html: 42 }, 400, /body_html must be a string/],
      ['DELETE', '/pages/press', undefined, 404, /no page 'press' \(pages: about, /],
      ['GET', '/products', undefined, 405, /GET is not allowed on \/products \(allowed: POST\)/],
      ['GET', '/nothing-here', undefined, 404, /no admin route GET \/nothing-here/],
    ];
    for (const [method, path, body, status, message] of cases) {
      const res = await admin(store, method, path, body);
      expect([method, path, body, res.status]).toEqual([method, path, body, status]);
      expect(res.body.error).toMatch(message);
    }
    expect((await admin(store, 'DELETE', '/state')).headers.get('allow')).toBe('GET');
    const fromPage = await admin(store, 'POST', '/reset', undefined, { Origin: 'http://evil.example' });
    expect(fromPage.status).toBe(403);
    expect(fromPage.body.error).toMatch(/Origin/);
    const state = (await admin(store, 'GET', '/state')).body;
    expect(state.version).toBe(version);
    expect(state.products).toBe(24);
  });

  it('reset brings back the generated catalogue, page for page', async () => {
    await admin(store, 'POST', '/products', NEW_PRODUCT);
    await admin(store, 'DELETE', '/products/harbor-house-blend');
    await admin(store, 'PATCH', '/products/tidewater-hand-burr-grinder', { price: 1 });
    await admin(store, 'PUT', '/pages/about', { title: 'About us', body_html: '<p>Short.</p>' });
    await admin(store, 'PUT', '/pages/press', { body_html: '<p>Press kit.</p>' });
    const version = (await admin(store, 'GET', '/state')).body.version;

    const { status, body } = await admin(store, 'POST', '/reset');
    expect(status).toBe(200);
    expect(body).toEqual(expect.objectContaining({ version: version + 1, products: 24, pages: ['about', 'shipping-returns', 'faq', 'contact', 'brew-guide'] }));
    expect(body.changes).toEqual({ products: { added: [], edited: [], removed: [] }, pages: { added: [], edited: [], removed: [] } });
    expect(await fingerprints(store)).toEqual(initial);
    expect((await get(store, '/products/maine-maple-cold-brew')).status).toBe(404);
    expect((await get(store, '/pages/press')).status).toBe(404);
    expect(store.stats).toEqual({ products: 24, collections: 6, pages: 5, blogPosts: 4, totalPages: 39 });
  });
});

describe('demo store admin in-process (demo.admin)', () => {
  it('changes the store without HTTP and throws DemoStoreAdminError on refusals', async () => {
    const store = await startDemoStore({ products: 6 });
    try {
      const added = store.admin.addProduct({
        handle: 'pine-ridge-server', title: 'Pine Ridge Glass Server', price: '32', product_type: 'Brewing Gear',
        collections: ['brewing-gear'], option_name: 'Size',
        variants: [{ title: '400 ml' }, { title: '600 ml', price: '36.50', available: false }],
      });
      expect(added.product.options).toEqual([expect.objectContaining({ name: 'Size', values: ['400 ml', '600 ml'] })]);
      expect(added.product.variants.map((v) => [v.price, v.available, v.sku])).toEqual([['32.00', true, 'PINE-RIDGE-SERVER-1'], ['36.50', false, 'PINE-RIDGE-SERVER-2']]);
      expect((await get(store, '/products/pine-ridge-server')).text).toContain('600 ml – $36.50 (sold out)');
      expect(store.stats.products).toBe(7);

      const dup = thrown(() => store.admin.addProduct({ handle: 'pine-ridge-server', title: 'Again', price: 1 }));
      expect(dup).toBeInstanceOf(DemoStoreAdminError);
      expect(dup).toEqual(expect.objectContaining({ status: 409, message: "product 'pine-ridge-server' already exists" }));
      expect(thrown(() => store.admin.removePage('nope'))).toEqual(expect.objectContaining({ status: 404 }));
      expect(thrown(() => store.admin.editProduct('harbor-house-blend', { price: -1 }))).toEqual(expect.objectContaining({ status: 400, message: expect.stringMatching(/^price must be/) }));

      expect(store.admin.editPage('shipping-returns', { title: 'Shipping' })).toEqual(expect.objectContaining({ created: false, changed: true }));
      expect((await get(store, '/pages/shipping-returns')).text).toContain('<h1>Shipping</h1>');
      expect(store.admin.removeProduct('pine-ridge-server').removed.handle).toBe('pine-ridge-server');
      expect(store.admin.state()).toEqual(expect.objectContaining({ version: 3, products: 6 }));
      expect(store.admin.state().changes).toEqual({ products: { added: [], edited: [], removed: [] }, pages: { added: [], edited: ['shipping-returns'], removed: [] } });
      // Run-time ids are never reused, even after a reset.
      store.admin.reset();
      const again = store.admin.addProduct({ handle: 'pine-ridge-server', title: 'Pine Ridge Glass Server', price: '32' });
      expect(again.product.id).toBeGreaterThan(added.product.id);
    } finally {
      await store.close();
    }
  });

  it('keeps feeds and sitemaps consistent on a 5,000-page store', async () => {
    const store = await startDemoStore({ size: 5000 });
    try {
      const products = store.stats.products;
      const last = (await allProducts(store)).at(-1)!;
      store.admin.addProduct({ handle: 'late-harvest-microlot', title: 'Late Harvest Microlot', price: '31', collections: ['roasters-archive'] });
      store.admin.removeProduct(last.handle);
      const handles = (await allProducts(store)).map((p) => p.handle);
      expect(handles).toHaveLength(products);
      expect(handles.at(-1)).toBe('late-harvest-microlot');
      expect(handles).not.toContain(last.handle);
      const locs = [...(await sitemap(store)).keys()].filter((l) => l.includes('/products/'));
      expect(locs).toHaveLength(products);
      expect(locs).toContain(`${store.origin}/products/late-harvest-microlot`);
      expect((await get(store, `/products/${last.handle}`)).status).toBe(404);
      expect((await allProducts(store, '/collections/roasters-archive/products.json')).at(-1)!.handle).toBe('late-harvest-microlot');
    } finally {
      await store.close();
    }
  });
});
