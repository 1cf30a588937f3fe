import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createGuardedFetch } from '../../functions/adapters/external/guarded-fetch';
import { createBuiltinScraper } from '../../functions/adapters/external/scraper/builtin';
import { createFirecrawlScraper } from '../../functions/adapters/external/scraper/firecrawl';
import { createScraper } from '../../functions/adapters/external/scraper';
import { contentFingerprint, textFingerprint } from '../../functions/core/crawl/fingerprint';
import { UpstreamError } from '../../functions/core/errors';
import type { MappedUrl } from '../../functions/core/site/types';

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

async function startServer(handler: (req: Seen, res: http.ServerResponse, origin: string) => void) {
  const seen: Seen[] = [];
  const sockets = new Set<Socket>();
  let origin = '';
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const entry = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      seen.push(entry);
      handler(entry, res, origin);
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  closers.push(() => new Promise<void>((resolve) => { sockets.forEach((s) => s.destroy()); server.close(() => resolve()); }));
  return { origin, seen };
}

const mapped = (url: string, extra: Partial<MappedUrl> = {}): MappedUrl => ({ url, kind: 'product', source: 'sitemap', ...extra });

const PRODUCT_PAGE = `<!doctype html>
<html><head>
  <title>Blue Mug – Acme Coffee</title>
  <meta name="description" content="A sturdy blue mug for your morning coffee.">
  <script id="__st">var __st={"reqid":"abc"}</script>
</head>
<body>
  <header><a href="/">Acme</a><nav><ul><li><a href="/collections/all">Shop</a></li><li><a href="/pages/about">About</a></li></ul></nav></header>
  <main id="MainContent">
    <h1>Blue Mug</h1>
    <p class="price">$24.00</p>
    <p>A <strong>sturdy</strong> mug. Read our <a href="/pages/care">care guide</a> or see <a href="https://other.example/review">a review</a>.</p>
    <h2>Details</h2>
    <ul><li>Stoneware</li><li>350 ml</li></ul>
    <ol><li>Rinse</li><li>Dry</li></ol>
    <h3>Sizing code</h3>
    <pre><code>width: 9cm</code></pre>
    <img src="/cdn/mug.jpg" alt="Blue mug">
    <img src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==" alt="pixel">
    <form action="/cart/add"><input type="hidden" name="authenticity_token" value="t"><button>Add to cart</button></form>
  </main>
  <footer><p>© 2026 Acme Coffee</p><a href="/policies/privacy">Privacy</a></footer>
</body></html>`;

describe('builtin scraper', () => {
  const fetchUrl = createGuardedFetch({ allowPrivateNetwork: true, timeoutMs: 5000 });

  async function store() {
    return startServer((req, res) => {
      if (req.url === '/products/blue-mug') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PRODUCT_PAGE);
      if (req.url === '/products/challenged') return void res.writeHead(429, { 'content-type': 'text/html', 'cf-mitigated': 'challenge' }).end('<title>Just a moment...</title>');
      if (req.url === '/feed.json') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
    });
  }

  it('turns a product page into clean markdown', async () => {
    const { origin } = await store();
    const scraper = createBuiltinScraper(fetchUrl, { concurrency: 2 });
    expect(scraper.name).toBe('builtin');
    const { pages, failures } = await scraper.scrape([mapped(`${origin}/products/blue-mug`, { lastmod: '2026-03-01' })]);
    expect(failures).toEqual([]);
    expect(pages).toHaveLength(1);
    const [p] = pages;
    expect(p).toMatchObject({
      url: `${origin}/products/blue-mug`,
      kind: 'product',
      title: 'Blue Mug – Acme Coffee',
      description: 'A sturdy blue mug for your morning coffee.',
      statusCode: 200,
      lastmod: '2026-03-01',
      fingerprint: contentFingerprint(PRODUCT_PAGE),
    });
    expect(p.markdown).toBe(
      [
        '# Blue Mug',
        '',
        '$24.00',
        '',
        `A **sturdy** mug. Read our [care guide](${origin}/pages/care) or see [a review](https://other.example/review).`,
        '',
        '## Details',
        '',
        '- Stoneware',
        '- 350 ml',
        '',
        '1. Rinse',
        '2. Dry',
        '',
        '### Sizing code',
        '',
        '```',
        'width: 9cm',
        '```',
        '',
        `![Blue mug](${origin}/cdn/mug.jpg)`,
      ].join('\n'),
    );
    // navigation, header, footer, scripts, data URIs and form controls are gone
    expect(p.markdown).not.toMatch(/Shop|About|Privacy|©|__st|data:|Add to cart|authenticity/);
  });

  it('reports failures with a reason instead of pages', async () => {
    const { origin } = await store();
    const scraper = createBuiltinScraper(fetchUrl);
    const { pages, failures } = await scraper.scrape([
      mapped(`${origin}/products/missing`),
      mapped(`${origin}/products/challenged`),
      mapped(`${origin}/feed.json`),
      mapped('http://169.254.169.254/latest/meta-data'),
    ]);
    expect(pages).toEqual([]);
    expect(failures).toEqual([
      { url: `${origin}/products/missing`, reason: 'HTTP 404' },
      { url: `${origin}/products/challenged`, reason: expect.stringMatching(/^blocked: bot challenge/) },
      { url: `${origin}/feed.json`, reason: 'not HTML (application/json)' },
      { url: 'http://169.254.169.254/latest/meta-data', reason: expect.stringMatching(/not allowed/) },
    ]);
  });
});

describe('firecrawl scraper', () => {
  const KEY = 'fc-test-key';
  const STORE = 'https://shop.example';
  const rawHtmlA = `<html><head><title>A</title></head><body><main><h1>A</h1><p>$10</p></main></body></html>`;

  /** A local server speaking the v1 batch-scrape API shape. */
  async function provider(options: { submitStatus?: number; statusFailures?: number } = {}) {
    const polls = new Map<string, number>();
    const batches = new Map<string, { urls: string[] }>();
    let submits = 0;
    const server = await startServer((req, res, origin) => {
      const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.headers.authorization !== `Bearer ${KEY}`) return json(401, { success: false, error: 'Unauthorized' });
      const url = new URL(req.url, origin);
      if (req.method === 'POST' && url.pathname === '/v1/batch/scrape') {
        if (options.submitStatus) return json(options.submitStatus, { success: false, error: 'Insufficient credits to perform this request.' });
        const id = `batch-${++submits}`;
        polls.set(id, 0);
        batches.set(id, JSON.parse(req.body) as { urls: string[] });
        return json(200, { success: true, id, url: `${origin}/v1/batch/scrape/${id}`, invalidURLs: [] });
      }
      const match = /^\/v1\/batch\/scrape\/([^/]+)(\/errors)?$/.exec(url.pathname);
      if (req.method === 'GET' && match) {
        const [, id, errors] = match;
        const body = batches.get(id);
        if (!body) return json(404, { success: false, error: 'unknown batch' });
        if (errors) {
          const failing = body.urls.filter((u) => u.endsWith('/d'));
          return json(200, { errors: failing.map((u) => ({ id: 'e1', url: u, error: 'Request timed out', timestamp: '2026-03-01T00:00:00Z' })), robotsBlocked: [] });
        }
        const n = (polls.get(id) ?? 0) + 1;
        polls.set(id, n);
        if (n <= 2) return json(200, { status: 'scraping', total: body.urls.length, completed: 0, creditsUsed: 0, data: [] });
        const docs = body.urls.filter((u) => !u.endsWith('/d')).map((u) => documentFor(u));
        if (url.searchParams.get('skip') === '1') return json(200, { status: 'completed', total: body.urls.length, data: docs.slice(1) });
        // `next` names the provider's internal host: the client must re-base it, never send the key there.
        return json(200, { status: 'completed', total: body.urls.length, completed: body.urls.length, data: docs.slice(0, 1), next: `http://firecrawl-internal.invalid:3002/v1/batch/scrape/${id}?skip=1` });
      }
      json(404, { success: false, error: 'not found' });
    });
    return { ...server, submits: () => submits };
  }

  function documentFor(url: string) {
    if (url.endsWith('/a')) return { markdown: '# A\n\n$10', rawHtml: rawHtmlA, metadata: { title: 'A', description: 'About A', sourceURL: url, url, statusCode: 200 } };
    if (url.endsWith('/b')) return { markdown: '# B\n\nOnly markdown', metadata: { title: ['B'], sourceURL: url, url, statusCode: 200 } };
    if (url.endsWith('/c')) return { markdown: '', metadata: { sourceURL: url, url, statusCode: 404, error: 'Not Found' } };
    return { markdown: `# ${url}`, metadata: { sourceURL: url, url, statusCode: 200 } };
  }

  it('submits, polls until completed, follows next, and maps documents and errors', async () => {
    const server = await provider();
    const scraper = createFirecrawlScraper({ apiUrl: `${server.origin}/`, apiKey: KEY, pollIntervalMs: 5, timeoutMs: 10_000 });
    expect(scraper.name).toBe('firecrawl');
    const urls = ['a', 'b', 'c', 'd'].map((x) => mapped(`${STORE}/products/${x}`, { lastmod: '2026-03-0' + (x.charCodeAt(0) - 96) }));
    const { pages, failures } = await scraper.scrape(urls);

    expect(pages).toEqual([
      { url: `${STORE}/products/a`, kind: 'product', title: 'A', description: 'About A', markdown: '# A\n\n$10', fingerprint: contentFingerprint(rawHtmlA), statusCode: 200, lastmod: '2026-03-01' },
      { url: `${STORE}/products/b`, kind: 'product', title: 'B', description: '', markdown: '# B\n\nOnly markdown', fingerprint: textFingerprint('# B\n\nOnly markdown'), statusCode: 200, lastmod: '2026-03-02' },
    ]);
    expect(failures).toEqual([
      { url: `${STORE}/products/c`, reason: 'Not Found' },
      { url: `${STORE}/products/d`, reason: 'Request timed out' },
    ]);

    const [submit, ...rest] = server.seen;
    expect(submit.method).toBe('POST');
    expect(submit.url).toBe('/v1/batch/scrape');
    expect(JSON.parse(submit.body)).toEqual({
      urls: urls.map((u) => u.url),
      formats: ['markdown', 'rawHtml'],
      onlyMainContent: true,
      maxAge: 0,
      ignoreInvalidURLs: true,
    });
    expect(rest.map((s) => `${s.method} ${s.url}`)).toEqual([
      'GET /v1/batch/scrape/batch-1',
      'GET /v1/batch/scrape/batch-1',
      'GET /v1/batch/scrape/batch-1',
      'GET /v1/batch/scrape/batch-1?skip=1',
      'GET /v1/batch/scrape/batch-1/errors',
    ]);
    expect(server.seen.every((s) => s.headers.authorization === `Bearer ${KEY}`)).toBe(true);
  });

  it('splits large URL lists into batches', async () => {
    const server = await provider();
    const scraper = createFirecrawlScraper({ apiUrl: server.origin, apiKey: KEY, pollIntervalMs: 1, batchSize: 2 });
    const urls = ['a', 'b', 'x', 'y', 'z'].map((x) => mapped(`${STORE}/pages/${x}`, { kind: 'page' }));
    const { pages, failures } = await scraper.scrape(urls, { concurrency: 2 });
    expect(server.submits()).toBe(3);
    expect(pages.map((p) => p.url).sort()).toEqual(urls.map((u) => u.url).sort());
    expect(failures).toEqual([]);
  });

  // [status, expected message]
  const SUBMIT_ERRORS: Array<[number, RegExp]> = [
    [402, /firecrawl batch submit failed: HTTP 402 \(payment required: the account is out of credits\): Insufficient credits/],
    [429, /HTTP 429 \(rate limited by the provider\)/],
    [500, /HTTP 500 \(provider server error\)/],
    [503, /HTTP 503 \(provider server error\)/],
  ];
  it.each(SUBMIT_ERRORS)('turns %s on submit into a clear UpstreamError', async (status, message) => {
    const server = await provider({ submitStatus: status });
    const scraper = createFirecrawlScraper({ apiUrl: server.origin, apiKey: KEY, pollIntervalMs: 1 });
    const attempt = scraper.scrape([mapped(`${STORE}/products/a`)]);
    await expect(attempt).rejects.toThrow(UpstreamError);
    await expect(attempt).rejects.toThrow(message);
    expect(server.seen).toHaveLength(1);
  });

  it('names a rejected key (401)', async () => {
    const server = await provider();
    const scraper = createFirecrawlScraper({ apiUrl: server.origin, apiKey: 'fc-wrong', pollIntervalMs: 1 });
    await expect(scraper.scrape([mapped(`${STORE}/products/a`)])).rejects.toThrow(/HTTP 401 \(API key rejected\)/);
  });

  it('gives up with a clear error when the batch never finishes', async () => {
    const server = await startServer((req, res) => {
      if (req.method === 'POST') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true,"id":"slow"}');
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"scraping","data":[]}');
    });
    const scraper = createFirecrawlScraper({ apiUrl: server.origin, apiKey: KEY, pollIntervalMs: 10, timeoutMs: 100 });
    await expect(scraper.scrape([mapped(`${STORE}/products/a`)])).rejects.toThrow(/did not finish within 100 ms/);
  });

  it('returns nothing for nothing, without calling the provider', async () => {
    const server = await provider();
    const scraper = createFirecrawlScraper({ apiUrl: server.origin, apiKey: KEY });
    expect(await scraper.scrape([])).toEqual({ pages: [], failures: [] });
    expect(server.seen).toHaveLength(0);
  });
});

describe('createScraper', () => {
  const fetchUrl = createGuardedFetch({ allowPrivateNetwork: true });
  it.each([
    [{}, 'builtin'],
    [{ scrapeApiUrl: 'https://api.firecrawl.dev' }, 'builtin'],
    [{ scrapeApiKey: 'fc-x' }, 'builtin'],
    [{ scrapeApiUrl: '  ', scrapeApiKey: 'fc-x' }, 'builtin'],
    [{ scrapeApiUrl: 'https://api.firecrawl.dev', scrapeApiKey: 'fc-x' }, 'firecrawl'],
  ])('%j → %s', (settings, name) => {
    expect(createScraper(settings, fetchUrl).name).toBe(name);
  });
});
