/**
 * Onboarding 1a fetches each store page once: with the built-in scraper the mapper makes the
 * pages from its own fetch, so the store sees robots.txt, its sitemaps and one request per
 * page, and nothing else; with Firecrawl configured the mapper maps and the provider scrapes
 * every mapped URL, as before. Real local stack, bundled demo store.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { scrapeWebsite } from '../../functions/app/onboarding/scrape-website';
import { getContainer } from '../../functions/container';
import { artifactKeys } from '../../functions/core/artifacts';
import { startDemoStore, type DemoStore } from '../../functions/local/demo-store';
import { startTestStack, type TestStack } from '../support/stack';
import type { ScrapeArtifact } from '../../functions/app/site/inputs';

let stack: TestStack;
let store: DemoStore;

beforeAll(async () => {
  stack = await startTestStack({ LOG_LEVEL: 'warn' });
  store = await startDemoStore({ size: 300 });
}, 60_000);
afterAll(async () => {
  await store.close();
  await stack.close();
});

async function business(org: string) {
  const token = await stack.token(org);
  const created = await stack.call('POST', '/api/business', { token, body: { name: 'Harbor & Pine Coffee Co.', url: store.origin } });
  expect(created.status).toBe(201);
}

test('built-in scraper: one request per page, pages made from the mapper’s fetch', async () => {
  await business('once');
  const container = getContainer();
  const before = store.requests();
  const summary = await scrapeWebsite(container, 'once');
  const requests = store.requests() - before;

  expect(summary).toMatchObject({ scraper: 'builtin', failed: 0, truncated: false });
  expect(summary.mapped).toBeGreaterThanOrEqual(store.stats.totalPages);
  expect(summary.scraped).toBe(summary.mapped);
  // every store request is counted: robots.txt + a few sitemaps + the agent-file probes + one per page
  expect(summary.pagesFetched).toBe(requests);
  expect(requests - summary.mapped).toBeGreaterThan(0);
  expect(requests - summary.mapped).toBeLessThanOrEqual(15);

  const artifact = await container.artifacts.get<ScrapeArtifact>(artifactKeys.scrape('once'));
  expect(artifact!.pages.map((p) => p.url)).toEqual(artifact!.urls.map((u) => u.url));
  for (const [i, page] of artifact!.pages.entries()) {
    expect(page.fingerprint).toBe(artifact!.urls[i].fingerprint);
    expect(page.markdown.length).toBeGreaterThan(0);
  }
  expect(artifact!.storeRobotsTxt).toMatch(/Sitemap:/);
}, 60_000);

test('Firecrawl configured: the mapper maps, the provider scrapes every mapped URL', async () => {
  await business('paid');
  const submitted: string[] = [];
  const provider = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const json = (value: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      if (req.method === 'POST') {
        submitted.push(...(JSON.parse(body) as { urls: string[] }).urls);
        return json({ success: true, id: 'b1' });
      }
      if (req.url?.endsWith('/errors')) return json({ errors: [], robotsBlocked: [] });
      json({
        status: 'completed',
        data: submitted.map((url) => ({ markdown: `# ${url}`, metadata: { title: url, sourceURL: url, url, statusCode: 200 } })),
      });
    });
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  try {
    const base = getContainer();
    const apiUrl = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
    const container = { ...base, config: { ...base.config, scrape: { apiUrl, apiKey: 'fc-key' } } };
    const before = store.requests();
    const summary = await scrapeWebsite(container, 'paid');
    const requests = store.requests() - before;

    expect(summary).toMatchObject({ scraper: 'firecrawl', failed: 0 });
    expect(summary.scraped).toBe(summary.mapped);
    expect(summary.pagesFetched).toBe(requests);
    expect(requests - summary.mapped).toBeLessThanOrEqual(15);
    const artifact = await container.artifacts.get<ScrapeArtifact>(artifactKeys.scrape('paid'));
    expect(submitted).toEqual(artifact!.urls.map((u) => u.url));
    expect(artifact!.pages[0].markdown).toBe(`# ${artifact!.urls[0].url}`);
  } finally {
    provider.closeAllConnections();
    await new Promise<void>((resolve) => provider.close(() => resolve()));
  }
}, 60_000);
