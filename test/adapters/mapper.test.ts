import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createGuardedFetch } from '../../functions/adapters/external/guarded-fetch';
import { mapSite } from '../../functions/adapters/external/mapper';
import { createBuiltinScraper } from '../../functions/adapters/external/scraper/builtin';
import { contentFingerprint } from '../../functions/core/crawl/fingerprint';

type Route = { status?: number; type?: string; headers?: Record<string, string>; body: string; delayMs?: number };
type Routes = (origin: string) => Record<string, Route>;

interface Store {
  origin: string;
  /** Request paths (with query) in arrival order. */
  requests: string[];
  maxInFlight: () => number;
  close: () => Promise<void>;
}

const open: Store[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

/** A loopback store serving a fixed route table (path + query → response). */
async function startStore(routes: Routes): Promise<Store> {
  const requests: string[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const sockets = new Set<Socket>();
  let table: Record<string, Route> = {};
  const server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    requests.push(path);
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const route = table[path];
    const send = () => {
      inFlight--;
      if (!route) {
        res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
        return;
      }
      res.writeHead(route.status ?? 200, { 'content-type': route.type ?? 'text/html; charset=utf-8', ...route.headers }).end(route.body);
    };
    if (route?.delayMs) setTimeout(send, route.delayMs);
    else send();
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  table = routes(origin);
  const store: Store = {
    origin,
    requests,
    maxInFlight: () => maxInFlight,
    close: () => new Promise<void>((resolve) => { sockets.forEach((s) => s.destroy()); server.close(() => resolve()); }),
  };
  open.push(store);
  return store;
}

const fetchUrl = createGuardedFetch({ allowPrivateNetwork: true, timeoutMs: 5000 });

const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title><script id="__st">var __st={"reqid":"${Math.random()}"}</script></head>` +
  `<body><header><nav><a href="/">Home</a><a href="/cart">Cart</a></nav></header><main><h1>${title}</h1>${body}</main></body></html>`;

const urlset = (entries: Array<{ loc: string; lastmod?: string }>) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` +
  entries.map((e) => `<url><loc>${e.loc}</loc>${e.lastmod ? `<lastmod>${e.lastmod}</lastmod>` : ''}</url>`).join('') +
  '</urlset>';

const sitemapIndex = (locs: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` +
  locs.map((loc) => `<sitemap><loc>${loc.replace(/&/g, '&amp;')}</loc><lastmod>2026-03-01</lastmod></sitemap>`).join('') +
  '</sitemapindex>';

const XML = 'application/xml';

/** The small store: robots with Disallow, an index with two children, HTML-only and challenged pages. */
const smallStore: Routes = (o) => ({
  '/robots.txt': {
    type: 'text/plain',
    body: `# store robots\nUser-agent: *\nDisallow: /cart\nDisallow: /private\n\nUser-agent: OtherBot\nDisallow: /\n\nSitemap: ${o}/sitemap.xml\n`,
  },
  '/sitemap.xml': { type: XML, body: sitemapIndex([`${o}/sitemap_products_1.xml?from=1&to=3`, `${o}/sitemap_pages_1.xml`]) },
  '/sitemap_products_1.xml?from=1&to=3': {
    type: XML,
    body: urlset([
      { loc: `${o}/products/a`, lastmod: '2026-03-01T10:00:00+00:00' },
      { loc: `${o}/products/b`, lastmod: '2026-03-02' },
      { loc: `${o}/products/challenged`, lastmod: '2026-03-03' },
    ]),
  },
  '/sitemap_pages_1.xml': { type: XML, body: urlset([{ loc: `${o}/pages/about` }, { loc: `${o}/private/secret` }]) },
  '/': {
    body: page('Home', `<a href="/products/a">A</a><a href="/pages/hidden-gem?utm_source=home">Gem</a><a href="https://other.example/x">Off</a>` +
      `<a href="/files/manual.pdf">Manual</a><a href="/pages/data">Data</a><a href="/pages/gone">Gone</a>`),
    delayMs: 20,
  },
  '/products/a': { body: page('Product A', '<p>$24.00</p><a href="/products/b">B</a><a href="/collections/mugs">Mugs</a>'), delayMs: 20 },
  '/products/b': { body: page('Product B', '<p>$30.00</p>'), delayMs: 20 },
  '/products/challenged': {
    status: 403,
    headers: { 'cf-mitigated': 'challenge' },
    body: '<!doctype html><html><head><title>Just a moment...</title></head><body>Checking your browser</body></html>',
  },
  '/pages/about': { body: page('About', '<p>We roast coffee.</p>'), delayMs: 20 },
  '/pages/hidden-gem': { body: page('Hidden gem', '<p>Only linked from HTML.</p>'), delayMs: 20 },
  '/collections/mugs': { body: page('Mugs', '<a href="/products/a">A</a>'), delayMs: 20 },
  '/pages/data': { type: 'application/json', body: '{"a":1}' },
  '/private/secret': { body: page('Secret', '<p>never fetched</p>') },
  '/cart': { body: page('Cart', '<p>never fetched</p>') },
});

describe('mapSite', () => {
  it('maps a store from robots.txt, a sitemap index and its links', async () => {
    const store = await startStore(smallStore);
    const o = store.origin;
    const result = await mapSite(fetchUrl, o, { concurrency: 2 });

    const byUrl = new Map(result.urls.map((u) => [u.url, u]));
    expect(result.urls.map((u) => u.url).sort()).toEqual(
      [
        `${o}/`, `${o}/products/a`, `${o}/products/b`, `${o}/products/challenged`, `${o}/pages/about`,
        `${o}/pages/hidden-gem`, `${o}/collections/mugs`, `${o}/pages/gone`,
      ].sort(),
    );
    // sources, kinds and lastmod
    expect(byUrl.get(`${o}/`)).toMatchObject({ source: 'root', kind: 'home', statusCode: 200 });
    expect(byUrl.get(`${o}/products/a`)).toMatchObject({ source: 'sitemap', kind: 'product', lastmod: '2026-03-01T10:00:00+00:00' });
    expect(byUrl.get(`${o}/products/b`)).toMatchObject({ source: 'sitemap', lastmod: '2026-03-02' });
    expect(byUrl.get(`${o}/pages/hidden-gem`)).toMatchObject({ source: 'link', kind: 'page', statusCode: 200 });
    expect(byUrl.get(`${o}/collections/mugs`)).toMatchObject({ source: 'link', kind: 'collection' });

    // fingerprints are the core's, of what the store served (the __st noise does not matter)
    expect(byUrl.get(`${o}/pages/about`)?.fingerprint).toBe(contentFingerprint(page('About', '<p>We roast coffee.</p>')));
    for (const u of result.urls.filter((x) => x.statusCode === 200)) expect(u.fingerprint).toMatch(/^[0-9a-f]{64}$/);

    // the challenge is an error, never a page: no status, no fingerprint
    expect(byUrl.get(`${o}/products/challenged`)).not.toHaveProperty('fingerprint');
    expect(byUrl.get(`${o}/products/challenged`)).not.toHaveProperty('statusCode');
    expect(result.errors).toContainEqual({ url: `${o}/products/challenged`, reason: expect.stringMatching(/blocked: bot challenge.*cf-mitigated/) });
    // a 404 keeps its status (the detector may call it removed) and is reported
    expect(byUrl.get(`${o}/pages/gone`)).toMatchObject({ statusCode: 404 });
    expect(byUrl.get(`${o}/pages/gone`)).not.toHaveProperty('fingerprint');
    expect(result.errors).toContainEqual({ url: `${o}/pages/gone`, reason: 'HTTP 404' });
    // non-HTML leaves the map
    expect(byUrl.has(`${o}/pages/data`)).toBe(false);
    expect(result.errors).toContainEqual({ url: `${o}/pages/data`, reason: 'not HTML (application/json)' });

    // robots.txt honoured for our token (the OtherBot group is not ours)
    expect(store.requests).not.toContain('/private/secret');
    expect(store.requests).not.toContain('/cart');
    expect(result.disallowed).toBe(2);
    expect(store.requests).not.toContain('/files/manual.pdf');
    expect(store.requests.filter((r) => r === '/products/a')).toHaveLength(1);

    expect(result.robots).toEqual({ status: 200, sitemaps: [`${o}/sitemap.xml`] });
    expect(result.sitemaps).toEqual([`${o}/sitemap.xml`, `${o}/sitemap_products_1.xml?from=1&to=3`, `${o}/sitemap_pages_1.xml`]);
    expect(result.truncated).toBe(false);
    expect(result.fetched).toBe(store.requests.length);
    expect(store.maxInFlight()).toBeLessThanOrEqual(2);
  });

  it('with discoverLinks off, maps robots + sitemaps only', async () => {
    const store = await startStore(smallStore);
    const result = await mapSite(fetchUrl, store.origin, { discoverLinks: false });
    expect(result.urls.map((u) => u.url.replace(store.origin, ''))).toEqual(['/', '/products/a', '/products/b', '/products/challenged', '/pages/about']);
    expect(result.urls.every((u) => u.fingerprint === undefined && u.statusCode === undefined)).toBe(true);
    expect(store.requests).toEqual(['/robots.txt', '/sitemap.xml', '/sitemap_products_1.xml?from=1&to=3', '/sitemap_pages_1.xml']);
  });

  it.each([500, 503])('maps nothing when robots.txt answers %s', async (status) => {
    const store = await startStore((o) => ({ ...smallStore(o), '/robots.txt': { status, type: 'text/plain', body: 'down' } }));
    const result = await mapSite(fetchUrl, store.origin);
    expect(result.urls).toEqual([]);
    expect(result.robots.status).toBe(status);
    expect(result.errors).toEqual([{ url: `${store.origin}/robots.txt`, reason: expect.stringMatching(new RegExp(`HTTP ${status}.*complete disallow`)) }]);
    expect(store.requests).toEqual(['/robots.txt']);
  });

  it('maps nothing when robots.txt is unreachable', async () => {
    const store = await startStore(() => ({}));
    const origin = store.origin;
    await store.close();
    open.splice(0);
    const result = await mapSite(fetchUrl, origin);
    expect(result.urls).toEqual([]);
    expect(result.robots.status).toBeNull();
    expect(result.errors[0].reason).toMatch(/unreachable.*connection refused.*complete disallow/);
  });

  it('maps nothing when robots.txt itself is a bot challenge', async () => {
    const store = await startStore((o) => ({
      ...smallStore(o),
      '/robots.txt': { status: 403, headers: { 'cf-mitigated': 'challenge' }, body: '<title>Just a moment...</title>' },
    }));
    const result = await mapSite(fetchUrl, store.origin);
    expect(result.urls).toEqual([]);
    expect(result.errors[0].reason).toMatch(/challenge/);
  });

  it('treats a 404 robots.txt as allow-all and falls back to /sitemap.xml', async () => {
    const store = await startStore((o) => ({
      '/sitemap.xml': { type: XML, body: urlset([{ loc: `${o}/cart` }, { loc: `${o}/products/x` }]) },
      '/': { body: page('Home', '') },
      '/cart': { body: page('Cart', '') },
      '/products/x': { body: page('X', '') },
    }));
    const result = await mapSite(fetchUrl, store.origin);
    expect(result.robots).toEqual({ status: 404, sitemaps: [] });
    expect(result.urls.map((u) => u.url.replace(store.origin, ''))).toEqual(['/', '/cart', '/products/x']);
    expect(result.errors).toEqual([]);
  });

  it('reports a store that redirects to /password as blocked, never as pages', async () => {
    const server = await startStore(() => ({}));
    await server.close();
    open.splice(0);
    // A store whose every page redirects to /password.
    const sockets = new Set<Socket>();
    const requests: string[] = [];
    const srv = http.createServer((req, res) => {
      requests.push(req.url ?? '');
      if (req.url === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow:\n');
      if (req.url === '/password') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<main><p>Opening soon</p><a href="/pages/x">x</a></main>');
      res.writeHead(302, { location: '/password' }).end();
    });
    srv.on('connection', (s) => { sockets.add(s); s.on('close', () => sockets.delete(s)); });
    await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
    try {
      const result = await mapSite(fetchUrl, origin);
      expect(result.urls).toEqual([{ url: `${origin}/`, kind: 'home', source: 'root' }]);
      expect(result.errors).toContainEqual({ url: `${origin}/`, reason: expect.stringMatching(/password-protected/) });
      expect(requests).not.toContain('/pages/x');
    } finally {
      sockets.forEach((s) => s.destroy());
      await new Promise<void>((resolve) => srv.close(() => resolve()));
    }
  });

  it('stops following sitemap indexes at the depth limit', async () => {
    const store = await startStore((o) => ({
      '/robots.txt': { type: 'text/plain', body: `Sitemap: ${o}/s0.xml` },
      '/s0.xml': { type: XML, body: sitemapIndex([`${o}/s1.xml`, `${o}/s0.xml`]) },
      '/s1.xml': { type: XML, body: sitemapIndex([`${o}/s2.xml`, 'https://elsewhere.example/s.xml']) },
      '/s2.xml': { type: XML, body: sitemapIndex([`${o}/s3.xml`]) },
      '/s3.xml': { type: XML, body: urlset([{ loc: `${o}/products/deep` }]) },
    }));
    const result = await mapSite(fetchUrl, store.origin, { discoverLinks: false, maxSitemapDepth: 3 });
    expect(result.sitemaps).toEqual([`${store.origin}/s0.xml`, `${store.origin}/s1.xml`, `${store.origin}/s2.xml`]);
    expect(store.requests).not.toContain('/s3.xml');
    expect(result.errors.map((e) => e.reason)).toEqual([
      expect.stringMatching(/not on the site of its index/),
      expect.stringMatching(/nested deeper than 3/),
    ]);
  });

  it('records a sitemap that is not a sitemap as an error', async () => {
    const store = await startStore((o) => ({
      '/robots.txt': { type: 'text/plain', body: `Sitemap: ${o}/sitemap.xml` },
      '/sitemap.xml': { body: '<!doctype html><html><body>Oops</body></html>' },
    }));
    const result = await mapSite(fetchUrl, store.origin, { discoverLinks: false });
    expect(result.sitemaps).toEqual([]);
    expect(result.errors).toEqual([{ url: `${store.origin}/sitemap.xml`, reason: 'sitemap: not a sitemap: root element is <html>' }]);
  });

  describe('capturePages', () => {
    /** A page with everything the markdown conversion touches: base href, relative links, images, lists, code. */
    const RICH = `<!doctype html><html><head><title>Rich – Store</title><base href="/products/">` +
      `<meta name="description" content="A page with &amp; everything."><script id="__st">var __st={"reqid":"r"}</script></head>` +
      `<body><header><nav><a href="/">Home</a></nav></header><main><h1>Rich mug</h1><p>A <strong>sturdy</strong> mug, see ` +
      `<a href="b">B</a> and <a href="javascript:alert(1)">nothing</a>.</p><ul><li>Stoneware</li><li>350 ml</li></ul>` +
      `<ol start="3"><li>Rinse</li><li>Dry</li></ol><pre><code>width: 9cm</code></pre><img src="../cdn/rich.jpg" alt="Rich">` +
      `<img src="data:image/png;base64,AAAA" alt="pixel"><!-- generated --><button>Add</button></main><footer>© Store</footer></body></html>`;
    const richStore: Routes = (o) => ({
      ...smallStore(o),
      '/sitemap_pages_1.xml': { type: XML, body: urlset([{ loc: `${o}/pages/about` }, { loc: `${o}/products/rich`, lastmod: '2026-03-04' }]) },
      '/products/rich': { body: RICH },
    });

    it('captures, from its own fetch, exactly the pages the built-in scraper makes', async () => {
      const store = await startStore(richStore);
      const o = store.origin;
      const result = await mapSite(fetchUrl, o, { concurrency: 2, capturePages: true });
      const captured = result.captured!;
      const fetchesByMapper = store.requests.length;
      // every page fetched once: no URL requested twice
      expect(new Set(store.requests).size).toBe(fetchesByMapper);
      expect(result.fetched).toBe(fetchesByMapper);

      // a page for every mapped URL answered 200 with HTML, in map order
      const ok = result.urls.filter((u) => u.statusCode === 200).map((u) => u.url);
      expect(captured.pages.map((p) => p.url)).toEqual(ok);
      expect(ok).toContain(`${o}/products/rich`);
      // answers that are no page are settled as failures, with the scraper's reasons
      expect(captured.failures).toEqual([
        { url: `${o}/products/challenged`, reason: expect.stringMatching(/^blocked: bot challenge/) },
        { url: `${o}/pages/gone`, reason: 'HTTP 404' },
      ]);
      // the map's fingerprint is the page's
      const byUrl = new Map(result.urls.map((u) => [u.url, u]));
      for (const p of captured.pages) expect(p.fingerprint).toBe(byUrl.get(p.url)!.fingerprint);

      // the built-in scraper, fetching the same URLs again, makes the same pages and failures
      const scraped = await createBuiltinScraper(fetchUrl).scrape(result.urls);
      expect(captured.pages).toHaveLength(scraped.pages.length);
      for (const [i, page] of captured.pages.entries()) {
        const expected = scraped.pages[i];
        for (const field of ['url', 'kind', 'title', 'description', 'markdown', 'fingerprint', 'statusCode', 'lastmod'] as const) {
          expect([page.url, field, page[field]]).toEqual([expected.url, field, expected[field]]);
        }
        expect(page).toEqual(expected);
      }
      expect(captured.failures).toEqual(scraped.failures);
      // the comparison is not vacuous: the rich page went through the whole conversion
      const rich = captured.pages.find((p) => p.url === `${o}/products/rich`)!;
      expect(rich).toMatchObject({ kind: 'product', title: 'Rich – Store', description: 'A page with & everything.', statusCode: 200, lastmod: '2026-03-04' });
      expect(rich.markdown).toBe([
        '# Rich mug', '', `A **sturdy** mug, see [B](${o}/products/b) and nothing.`, '', '- Stoneware', '- 350 ml', '',
        '3. Rinse', '4. Dry', '', '```', 'width: 9cm', '```', '', `![Rich](${o}/cdn/rich.jpg)`,
      ].join('\n'));
      // markdown only: no HTML body is kept
      expect(Object.keys(rich).sort()).toEqual(['description', 'fingerprint', 'kind', 'lastmod', 'markdown', 'statusCode', 'title', 'url']);
    });

    it('gives the same map with or without capture, and no capture unless asked', async () => {
      const store = await startStore(richStore);
      const plain = await mapSite(fetchUrl, store.origin, { concurrency: 1 });
      const capturing = await mapSite(fetchUrl, store.origin, { concurrency: 1, capturePages: true });
      expect(plain.captured).toBeUndefined();
      expect(capturing.urls).toEqual(plain.urls);
      expect(capturing.fetched).toBe(plain.fetched);
      expect(capturing.robotsTxt).toBe(plain.robotsTxt);
      expect(plain.robotsTxt).toMatch(/^# store robots\n/);
    });

    it('settles nothing it did not fetch: sitemap-only URLs and failed fetches are left to the scraper', async () => {
      const store = await startStore(smallStore);
      const sitemapOnly = await mapSite(fetchUrl, store.origin, { discoverLinks: false, capturePages: true });
      expect(sitemapOnly.captured).toEqual({ pages: [], failures: [] });
      expect(sitemapOnly.urls).toHaveLength(5);

      // a page whose fetch itself fails (here: redirected to a closed port) is an error of the
      // map, but neither a page nor a settled failure
      const broken = await startStore((o) => ({ ...smallStore(o), '/products/b': { status: 302, headers: { location: 'http://127.0.0.1:1/gone' }, body: '' } }));
      const result = await mapSite(fetchUrl, broken.origin, { capturePages: true });
      const b = `${broken.origin}/products/b`;
      expect(result.errors).toContainEqual({ url: b, reason: expect.stringMatching(/refused|connect/i) });
      expect(result.urls.map((u) => u.url)).toContain(b);
      expect(result.captured!.pages.map((p) => p.url)).not.toContain(b);
      expect(result.captured!.failures.map((f) => f.url)).not.toContain(b);
    });
  });

  describe('maxPages boundary (5,000)', () => {
    /** `/` plus `products` product URLs, split over children of 2,500 like the platform does. */
    const bigStore = (products: number): Routes => (o) => {
      const locs = [`${o}/`, ...Array.from({ length: products }, (_, i) => `${o}/products/p-${i + 1}`)];
      const routes: Record<string, Route> = { '/robots.txt': { type: 'text/plain', body: `User-agent: *\nDisallow: /cart\nSitemap: ${o}/sitemap.xml` } };
      const children: string[] = [];
      for (let i = 0; i < locs.length; i += 2500) {
        const path = `/sitemap_products_${children.length + 1}.xml?from=${i + 1}&to=${i + 2500}`;
        children.push(`${o}${path}`);
        routes[path] = { type: XML, body: urlset(locs.slice(i, i + 2500).map((loc) => ({ loc, lastmod: '2026-03-01' }))) };
      }
      routes['/sitemap.xml'] = { type: XML, body: sitemapIndex(children) };
      return routes;
    };

    it('maps exactly 5,000 URLs without truncation', async () => {
      const store = await startStore(bigStore(4999));
      const result = await mapSite(fetchUrl, store.origin, { discoverLinks: false });
      expect(result.urls).toHaveLength(5000);
      expect(result.truncated).toBe(false);
      expect(new Set(result.urls.map((u) => u.url)).size).toBe(5000);
    });

    it('flags truncation one URL above', async () => {
      const store = await startStore(bigStore(5000));
      const result = await mapSite(fetchUrl, store.origin, { discoverLinks: false });
      expect(result.urls).toHaveLength(5000);
      expect(result.truncated).toBe(true);
    });

    it('stops at 5,000 of a 6,000-URL sitemap and does not read further children', async () => {
      const store = await startStore(bigStore(6000));
      const result = await mapSite(fetchUrl, store.origin, { discoverLinks: false });
      expect(result.urls).toHaveLength(5000);
      expect(result.truncated).toBe(true);
      expect(result.urls[4999].url).toBe(`${store.origin}/products/p-4999`);
      expect(result.urls.every((u) => u.lastmod === '2026-03-01')).toBe(true);
    });

    it('also caps link discovery', async () => {
      const store = await startStore(smallStore);
      const result = await mapSite(fetchUrl, store.origin, { maxPages: 3 });
      expect(result.urls).toHaveLength(3);
      expect(result.truncated).toBe(true);
      expect(store.requests.filter((r) => !r.includes('.xml') && r !== '/robots.txt')).toHaveLength(3);
    });
  });
});
