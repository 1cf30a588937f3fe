/**
 * What the platform already serves is kept (D114, D115), on the real local stack and the demo
 * store: 1a records the store's agent files and sitemap images; the published llms.txt links
 * the files and the unified sitemap keeps the images; daily 1a counts a changed set of agent
 * files as a change (the stored map is rewritten, so the site is regenerated), and an
 * unchanged store stays unchanged.
 */
import { createAiWebsite } from '../../functions/app/site/create';
import { detectChanges } from '../../functions/app/daily/detect-changes';
import { deploySite } from '../../functions/app/site/deploy';
import { scrapeWebsite } from '../../functions/app/onboarding/scrape-website';
import { mainPartIsCurrent, type ScrapeArtifact } from '../../functions/app/site/inputs';
import { STORE_SITEMAP_MAX_IMAGES, storeSitemapImagesOf } from '../../functions/app/site/store-sitemap';
import { getContainer, type Container } from '../../functions/container';
import { artifactKeys } from '../../functions/core/artifacts';
import type { MappedUrl } from '../../functions/core/site/types';
import { startDemoStore, type DemoStore } from '../../functions/local/demo-store';
import type { HttpFetcher } from '../../functions/ports';
import { startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
let store: DemoStore;
const ORG = 'kept';

beforeAll(async () => {
  stack = await startTestStack({ LOG_LEVEL: 'warn' });
  store = await startDemoStore();
  const token = await stack.token(ORG);
  const created = await stack.call('POST', '/api/business', { token, body: { name: 'Harbor & Pine Coffee Co.', url: store.origin } });
  expect(created.status).toBe(201);
}, 60_000);
afterAll(async () => {
  await store.close();
  await stack.close();
});

/** The container with the store's `/agents.md` answering 404 (the merchant removed it). */
function withoutAgentsMd(base: Container): Container {
  const fetchUrl: HttpFetcher = (url, request) =>
    new URL(url).pathname === '/agents.md' ? base.fetchUrl(`${new URL(url).origin}/no-such-page`, request) : base.fetchUrl(url, request);
  return { ...base, fetchUrl };
}

const published = async (path: string) => (await getContainer().siteStore.readCurrent(ORG))!.files.find((f) => f.path === path)!.content;

test('onboarding 1a records the agent files and images; the published site links and keeps them', async () => {
  const container = getContainer();
  const summary = await scrapeWebsite(container, ORG);
  expect(summary.agentFiles).toEqual(['/llms.txt', '/llms-full.txt', '/agents.md', '/.well-known/ucp']);
  const scrape = await container.artifacts.get<ScrapeArtifact>(artifactKeys.scrape(ORG));
  expect(scrape!.agentFiles!.find((f) => f.path === '/agents.md')).toEqual({ path: '/agents.md', url: `${store.origin}/agents.md`, contentType: 'text/markdown' });
  await createAiWebsite(container, ORG);

  const llms = await published('/llms.txt');
  expect(llms).toContain(`- [The store's own /agents.md](${store.origin}/agents.md)`);
  expect(llms).toContain(`- [The store's own /.well-known/ucp](${store.origin}/.well-known/ucp)`);
  const sitemap = await published('/sitemap.xml');
  expect(sitemap).toMatch(new RegExp(`<url><loc>${store.origin}/products/[^<]+</loc><lastmod>[^<]+</lastmod><image:image><image:loc>${store.origin}/cdn/shop/files/`));
  expect((sitemap.match(/<image:image>/g) ?? []).length).toBe(24);
}, 60_000);

test('a publish with explicit store URLs (deploy-site route) still carries the images 1a recorded', async () => {
  const container = getContainer();
  const product = (await container.aiSites.get(ORG, { lists: ['storeSitemapUrls'] }))!.storeSitemapUrls!.find((u) => u.loc.includes('/products/'))!;
  await deploySite(container, { orgSlug: ORG, files: [], storeSitemapUrls: [{ loc: product.loc }] });
  const sitemap = await published('/sitemap.xml');
  expect(sitemap).toContain(`<url><loc>${product.loc}</loc><image:image>`);
  // The record keeps what the caller gave, without images.
  expect((await container.aiSites.get(ORG, { lists: ['storeSitemapUrls'] }))!.storeSitemapUrls).toEqual([{ loc: product.loc }]);
});

test('daily 1a: a changed set of agent files is a change, and the regenerated llms.txt follows it', async () => {
  const container = getContainer();
  const steady = await detectChanges(container, ORG, '2026-05-01');
  expect(steady).toMatchObject({ changed: false, agent_files_changed: false, images_changed: false, pages_new: 0, pages_changed: 0 });
  expect(mainPartIsCurrent(await container.aiSites.get(ORG))).toBe(true);

  const removed = await detectChanges(withoutAgentsMd(container), ORG, '2026-05-02');
  expect(removed).toMatchObject({ changed: true, agent_files_changed: true, changed_urls: 0, agent_files: ['/llms.txt', '/llms-full.txt', '/.well-known/ucp'] });
  expect(mainPartIsCurrent(await container.aiSites.get(ORG))).toBe(false);
  await createAiWebsite(container, ORG);
  expect(await published('/llms.txt')).not.toContain('/agents.md)');

  // The same store the next day: nothing to do.
  expect(await detectChanges(withoutAgentsMd(container), ORG, '2026-05-03')).toMatchObject({ changed: false, agent_files_changed: false });
}, 60_000);

test('image entries are bounded per URL and over the whole store', () => {
  const image = (i: number) => ({ loc: `https://cdn.example/${i}.jpg` });
  const urls: MappedUrl[] = Array.from({ length: 30 }, (_, n) => ({
    url: `https://shop.example/products/p${n}`, kind: 'product', source: 'sitemap', images: Array.from({ length: 1_500 }, (_, i) => image(i)),
  }) as MappedUrl);
  const { images } = storeSitemapImagesOf(urls);
  expect(images['https://shop.example/products/p0']).toHaveLength(1_000);
  expect(Object.values(images).reduce((n, list) => n + list.length, 0)).toBe(STORE_SITEMAP_MAX_IMAGES);
  expect(Object.keys(images)).toHaveLength(Math.ceil(STORE_SITEMAP_MAX_IMAGES / 1_000));
});
