/**
 * The AI site end to end: the bundled demo store is mapped, scraped and turned into an AI
 * site that the local AI-site host serves; every file is valid and every link inside every
 * AI page resolves (no 404) on the AI-site host.
 */
import { getContainer } from '../../functions/container';
import { publishSiteParts } from '../../functions/app/site/parts';
import * as cheerio from 'cheerio';
import { XMLParser } from 'fast-xml-parser';
import { startDemoStore, type DemoStore } from '../../functions/local/demo-store';
import { htmlLinks, markdownLinks, parseLlmsTxt } from '../core/site/helpers';
import { getWithHost } from '../support/http';
import { onboardViaApi } from '../support/onboard';
import { startTestStack, type TestStack, DEV_API_KEY } from '../support/stack';

let stack: TestStack;
let store: DemoStore;
let status: any;
let host: string;
/** Requests the demo store served during the whole onboarding. */
let storeRequests: number;

/** GET a path on the AI-site host with a site's Host header (fetch cannot set Host). */
const site = (path: string, hostHeader = host) => getWithHost(stack.sites.port, path, hostHeader);

beforeAll(async () => {
  stack = await startTestStack({ LOG_LEVEL: 'warn' });
  store = await startDemoStore();
  const before = store.requests();
  ({ status } = await onboardViaApi(stack, 'harbor', 'Harbor & Pine Coffee Co.', store.origin));
  storeRequests = store.requests() - before;
  host = `harbor.localhost:${stack.sites.port}`;
}, 120_000);
afterAll(async () => {
  await store.close();
  await stack.close();
});

test('onboarding maps, scrapes, discovers products and deploys', () => {
  const step = (id: string) => status.steps.find((s: { id: string }) => s.id === id);
  // Every page of the store: products, collections, pages, blog posts, plus home and listings.
  expect(step('1a').result.mapped).toBeGreaterThanOrEqual(store.stats.totalPages);
  expect(step('1a').result.failed).toBe(0);
  expect(step('1c').result).toEqual({ products: 24, added: 24, truncated: false, collections: 6 });
  expect(step('3b').result.files).toBe(24);
  expect(step('2a').result.files).toBeGreaterThan(60);
});

test('onboarding fetches each store page once (1a scrapes from the mapper’s fetch)', () => {
  const step = (id: string) => status.steps.find((s: { id: string }) => s.id === id);
  expect(step('1a').result).toMatchObject({ scraper: 'builtin', scraped: step('1a').result.mapped });
  // robots.txt, sitemaps and the agent-file probes aside, 1a requests each mapped page once
  expect(step('1a').result.pagesFetched - step('1a').result.mapped).toBeLessThanOrEqual(15);
  // the whole onboarding (1a, products.json, favicon, …): well under two requests per page
  expect(storeRequests).toBeLessThan(1.5 * store.stats.totalPages);
});

test('GET /api/ai-website/{org_slug} returns the spec shape once deployed', async () => {
  const res = await stack.call('GET', '/api/ai-website/harbor');
  expect(res.status).toBe(200);
  expect(res.body).toEqual({
    status: 'success', deployment_url: `http://harbor.localhost:${stack.sites.port}`, project_name: 'harbor',
    deployed_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), business_name: 'Harbor & Pine Coffee Co.', source_url: store.origin,
  });
});

test('GET /api/products/{business_id} lists the discovered products', async () => {
  const res = await stack.call('GET', '/api/products/harbor', { token: await stack.token('harbor') });
  expect(res.body.total).toBe(24);
  expect(res.body.products[0]).toMatchObject({ product_id: expect.any(String), name: expect.any(String), url: expect.stringContaining('/products/'), favicon_url: null });
});

test('llms.txt follows the llms.txt format and lists every product file', async () => {
  const res = await site('/llms.txt');
  expect(res.status).toBe(200);
  expect(res.type).toMatch(/^text\/plain/);
  const doc = parseLlmsTxt(res.text);
  expect(doc.title).toBe('Harbor & Pine Coffee Co.');
  expect(doc.summary.length).toBeGreaterThan(20);
  // D113: absolute links on the public origin; products grouped by collection, each once
  // (24 products fit under the per-collection cap, so all are listed).
  const productLinks = doc.sections.flatMap((s) => s.links).filter((l) => /^https?:\/\/[^/]+\/llms\/[^/]+\.txt$/.test(l.url));
  expect(productLinks).toHaveLength(24);
  expect(new Set(productLinks.map((l) => l.url)).size).toBe(24);
});

test("llms.txt links the store's own agent files at the store's address (D114, D115)", async () => {
  const step = status.steps.find((s: { id: string }) => s.id === '1a');
  expect(step.result.agentFiles).toEqual(['/llms.txt', '/llms-full.txt', '/agents.md', '/.well-known/ucp']);
  const optional = parseLlmsTxt((await site('/llms.txt')).text).sections.find((s) => s.title === 'Optional')!;
  const own = optional.links.filter((l) => l.name.startsWith("The store's own "));
  expect(own.map((l) => [l.name, l.url])).toEqual(['/llms.txt', '/llms-full.txt', '/agents.md', '/.well-known/ucp'].map((p) => [`The store's own ${p}`, `${store.origin}${p}`]));
  // Our /llms.txt replaces the store's on a connected domain: its copy is linked on the store's address, and the note says so.
  expect(own[0].notes).toMatch(/serves this file instead/);
  // Each link reaches the store's copy.
  for (const link of own) expect((await fetch(link.url)).status).toBe(200);
});

test("the unified sitemap keeps the store's image entries for store URLs (D114, D115)", async () => {
  const text = (await site('/sitemap.xml')).text;
  expect(text).toContain('xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"');
  const withImages = [...text.matchAll(/<url><loc>([^<]+)<\/loc>(?:<lastmod>[^<]*<\/lastmod>)?<image:image><image:loc>([^<]+)<\/image:loc>/g)];
  // Every product of the demo store has an image in its sitemap entry.
  expect(withImages.filter(([, loc]) => loc.startsWith(`${store.origin}/products/`))).toHaveLength(24);
  for (const [, , image] of withImages) expect(image.startsWith(`${store.origin}/cdn/shop/files/`)).toBe(true);
  // The site record keeps loc/lastmod only; the images come from 1a's artifact.
  const record = await getContainer().aiSites.get('harbor', { lists: ['storeSitemapUrls'] });
  expect(record!.storeSitemapUrls!.some((u) => 'images' in u)).toBe(false);
});

test('sitemap.xml is one unified sitemap: store URLs, AI pages and AI files', async () => {
  const res = await site('/sitemap.xml');
  expect(res.type).toMatch(/xml/);
  const xml = new XMLParser().parse(res.text);
  const locs: string[] = [xml.urlset.url].flat().map((u: { loc: string }) => u.loc);
  expect(locs.every((l) => /^https?:\/\//.test(l) && l.length < 2048)).toBe(true);
  expect(locs.filter((l) => l.startsWith(`${store.origin}/products/`))).toHaveLength(24);
  expect(locs.some((l) => l.includes('/ai/products/'))).toBe(true);
  expect(locs.some((l) => l.includes('/ai/collections/'))).toBe(true);
  expect(locs.some((l) => l.endsWith('/llms.txt'))).toBe(true);
  expect(locs.filter((l) => /\/llms\/[^/]+\.txt$/.test(l))).toHaveLength(24);
  const robots = await site('/robots.txt');
  expect(robots.text).toMatch(new RegExp(`^Sitemap: http://harbor\\.localhost:${stack.sites.port}/sitemap\\.xml$`, 'm'));
});

test('every AI page is valid, and every link inside every AI page resolves on the AI-site host', async () => {
  const sitemap = new XMLParser().parse((await site('/sitemap.xml')).text);
  const aiPaths = [sitemap.urlset.url].flat().map((u: { loc: string }) => u.loc)
    .filter((l: string) => l.startsWith(`http://${host}`)).map((l: string) => new URL(l).pathname);
  const seen = new Set<string>();
  const queue = ['/', '/ai/', '/llms.txt', ...aiPaths];
  const broken: string[] = [];
  while (queue.length) {
    const path = queue.shift()!;
    if (seen.has(path)) continue;
    seen.add(path);
    const res = await site(path);
    if (res.status !== 200) {
      broken.push(`${path} → ${res.status}`);
      continue;
    }
    if (res.type.startsWith('text/html')) {
      const $ = cheerio.load(res.text);
      expect({ path, title: $('title').text().length > 0 }).toEqual({ path, title: true });
      expect({ path, canonical: $('link[rel=canonical]').attr('href') }).toEqual({ path, canonical: expect.stringMatching(/^https?:\/\//) });
      expect({ path, modified: $('meta[property="article:modified_time"]').attr('content') }).toEqual({ path, modified: expect.stringMatching(/^\d{4}-/) });
      expect({ path, footer: /Last updated: \w+ \d{1,2}, \d{4}/.test($('footer').text()) }).toEqual({ path, footer: true });
      $('script[type="application/ld+json"]').each((_i, el) => { JSON.parse($(el).text()); });
      for (const link of htmlLinks(res.text)) if (link.startsWith('/')) queue.push(link.split('#')[0]);
    } else if (/\.(md|txt)$/.test(path)) {
      for (const link of markdownLinks(res.text)) if (link.startsWith('/')) queue.push(link.split('#')[0]);
    }
  }
  expect(broken).toEqual([]);
  expect(seen.size).toBeGreaterThan(80);
});

test('the host serves correct content types, caching headers, 404s and the /ai/<path> fallback (D28)', async () => {
  expect((await site('/data.json')).type).toMatch(/^application\/json/);
  expect(JSON.parse((await site('/data.json')).text)).toBeTruthy();
  expect((await site('/tracking.js')).type).toMatch(/javascript/);
  expect((await site('/llms.txt')).cache).toMatch(/max-age=\d+/);
  expect((await site('/ai/llms.txt')).text).toBe((await site('/llms.txt')).text);
  expect((await site('/no-such-file.txt')).status).toBe(404);
  expect((await site('/llms.txt', `nobody.localhost:${stack.sites.port}`)).status).toBe(404);
});

test('POST /api/cron/deploy-site merges files into a new release, with validation', async () => {
  const before = await stack.call('GET', '/api/ai-website/harbor');
  const res = await stack.call('POST', '/api/cron/deploy-site', { apiKey: DEV_API_KEY, body: { business_id: 'harbor', files: [{ path: '/ai/hello/index.html', content: '<!doctype html><title>x</title>' }] } });
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ status: 'success', deployment_url: expect.any(String), release_id: expect.any(String), files_deployed: expect.any(Number) });
  expect((await site('/ai/hello/')).status).toBe(200);
  expect((await site('/llms.txt')).status).toBe(200); // merged, not replaced
  // A later publish of the generated parts (a daily deploy, 3b) keeps the deployed files (D109).
  await publishSiteParts(getContainer(), 'harbor');
  expect((await site('/ai/hello/')).status).toBe(200);
  const after = await stack.call('GET', '/api/ai-website/harbor');
  expect(after.body.deployed_at >= before.body.deployed_at).toBe(true);
  const bad = await stack.call('POST', '/api/cron/deploy-site', { apiKey: DEV_API_KEY, body: { business_id: 'harbor', files: [{ path: '../etc/passwd', content: 'x' }] } });
  expect(bad.status).toBe(400);
  expect(bad.body.error).toMatch(/files\.0\.path/);
  const unknown = await stack.call('POST', '/api/cron/deploy-site', { apiKey: DEV_API_KEY, body: { business_id: 'nobody', files: [{ path: '/a.txt', content: 'x' }] } });
  expect(unknown.status).toBe(404);
});

test('deploy-site and update-all-timestamps run as site-publish executions (D20): 202 with the read-back URL, then the response', async () => {
  const readBack = async (url: string) => {
    let res = await stack.call('GET', url, { apiKey: DEV_API_KEY });
    for (let i = 0; res.status === 202 && i < 100; i++) {
      await new Promise((r) => setTimeout(r, 100));
      res = await stack.call('GET', url, { apiKey: DEV_API_KEY });
    }
    return res;
  };
  const deploy = await stack.call('POST', '/api/cron/deploy-site', {
    apiKey: DEV_API_KEY, headers: { Prefer: 'respond-async' },
    body: { business_id: 'harbor', files: [{ path: '/ai/later/index.html', content: '<!doctype html><title>later</title>' }] },
  });
  expect(deploy.status).toBe(202);
  expect(deploy.body).toEqual({ status: 'running', execution_id: expect.any(String), status_url: `/api/cron/deploy-site/${deploy.body.execution_id}` });
  expect(deploy.headers.get('location')).toBe(deploy.body.status_url);
  const deployed = await readBack(deploy.body.status_url);
  expect(deployed.status).toBe(200);
  expect(deployed.body).toMatchObject({ status: 'success', operation: 'deploy-site', business_id: 'harbor', release_id: expect.any(String), execution_id: deploy.body.execution_id });
  expect((await site('/ai/later/')).status).toBe(200);
  // Each route reads back its own operation only; an unknown id is 404.
  expect((await stack.call('GET', `/api/cron/update-all-timestamps/${deploy.body.execution_id}`, { apiKey: DEV_API_KEY })).status).toBe(404);
  expect((await stack.call('GET', '/api/cron/deploy-site/no-such-execution', { apiKey: DEV_API_KEY })).status).toBe(404);
  expect((await stack.call('GET', deploy.body.status_url, {})).status).toBe(401);

  const refresh = await stack.call('POST', '/api/cron/update-all-timestamps', { apiKey: DEV_API_KEY, headers: { Prefer: 'respond-async' }, body: { business_id: 'harbor' } });
  expect(refresh.status).toBe(202);
  const refreshed = await readBack(refresh.body.status_url);
  expect(refreshed.body).toMatchObject({ status: 'success', operation: 'update-all-timestamps', business_id: 'harbor', release_id: expect.any(String), files: expect.any(Number) });
  expect(refreshed.body.release_id).not.toBe(deployed.body.release_id);
  expect((await site('/ai/later/')).status).toBe(200); // the deployed part is published with the others
});
