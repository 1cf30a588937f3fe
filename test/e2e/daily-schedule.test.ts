/**
 * The daily schedule end to end: the real daily-schedule.asl.json in the local Step
 * Functions stand-in, with the real task handlers, over three onboarded businesses whose
 * demo stores render per-request noise on every page. One store really changes (2 pages
 * edited, 1 removed, 3 products added), one does not, one fails (its store goes down).
 */
import { getContainer } from '../../functions/container';
import { artifactKeys } from '../../functions/core/artifacts';
import { startDemoStore, type DemoStore } from '../../functions/local/demo-store';
import type { ScrapeArtifact } from '../../functions/app/scrape-website';
import { getWithHost } from '../support/http';
import { DEV_API_KEY, startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
const stores: Record<string, DemoStore> = {};
const ORGS = ['changing', 'steady', 'broken'];
const NEW_PRODUCTS = ['kyoto-drip-kettle', 'harbor-decaf-blend', 'pine-cold-brew-kit'];

async function onboard(org: string): Promise<void> {
  const token = await stack.token(org);
  expect((await stack.call('POST', '/api/business', { token, body: { name: `${org} coffee`, url: stores[org].origin } })).status).toBe(201);
  const started = await stack.call('POST', '/api/onboarding/generate-all', { token, body: {} });
  await stack.workflows.finished(started.body.execution_id);
}

async function runSchedule(): Promise<any> {
  const started = await stack.call('POST', '/api/cron/trigger-all', { apiKey: DEV_API_KEY, body: {} });
  expect(started.status).toBe(202);
  expect(started.body).toEqual({ status: 'running', execution_id: expect.any(String), status_url: `/api/cron/trigger-all/${started.body.execution_id}`, business_ids: null });
  await stack.workflows.finished(started.body.execution_id);
  const status = await stack.call('GET', started.body.status_url, { apiKey: DEV_API_KEY });
  expect(status.status).toBe(200);
  return status.body;
}

const runOf = (status: any, org: string) => status.businesses.runs.find((r: any) => r.org_slug === org);
const sitePaths = async (org: string) => (await getContainer().siteStore.readCurrent(org))!.files.map((f) => f.path);
const siteFile = async (org: string, path: string) => (await getContainer().siteStore.readCurrent(org))!.files.find((f) => f.path === path)?.content;

beforeAll(async () => {
  stack = await startTestStack({ LOG_LEVEL: 'error', EDGE_PROPAGATION_WAIT_SECONDS: '0', ARTICLE_QUOTA_POLICY: 'weekly-100' }, { workflows: { retryWithoutDelay: true } });
  for (const org of ORGS) {
    stores[org] = await startDemoStore({ port: 0 });
    await onboard(org);
  }
}, 240_000);

afterAll(async () => {
  for (const s of Object.values(stores)) await s.close().catch(() => undefined);
  await stack.close();
});

describe('daily schedule over three businesses', () => {
  let first: any;
  let promptsBefore: number;

  beforeAll(async () => {
    const admin = stores.changing.admin;
    admin.editPage('about', { body_html: '<p>We moved the roastery to Biddeford in 2026 and doubled our green-coffee storage.</p>' });
    admin.editPage('faq', { body_html: '<h2>Do you ship abroad?</h2><p>Yes, to 31 countries from our Biddeford roastery.</p>' });
    admin.removePage('shipping-returns');
    admin.addProduct({
      handle: 'kyoto-drip-kettle', title: 'Kyoto Drip Kettle', product_type: 'Brewing Gear', tags: ['kettle', 'pour over', 'gooseneck'],
      body_html: '<p>A 0.9 L gooseneck kettle in brushed stainless steel for precise pour-over brewing.</p><ul><li>Built-in thermometer</li><li>Works on gas, electric and induction</li></ul>',
      variants: [{ title: 'Steel', price: '48.00', sku: 'KDK-ST' }, { title: 'Matte Black', price: '54.00', sku: 'KDK-BK', available: false }], option_name: 'Finish',
    });
    admin.addProduct({
      handle: 'harbor-decaf-blend', title: 'Harbor Decaf Blend', product_type: 'Coffee', tags: ['decaf', 'blend', 'swiss water'],
      body_html: '<p>Swiss Water Process decaf from Colombia and Brazil. Notes of cocoa, toasted almond and brown sugar; medium roast.</p>',
      variants: [{ title: '12 oz', price: '17.50' }, { title: '2 lb', price: '39.00' }], option_name: 'Size',
    });
    admin.addProduct({
      handle: 'pine-cold-brew-kit', title: 'Pine Cold Brew Kit', product_type: 'Brewing Gear', tags: ['cold brew', 'kit', 'gift'],
      body_html: '<p>A 1.5 L glass pitcher with a fine mesh filter and a coarse-ground bag of our cold brew blend. Makes 8 servings overnight.</p>',
      price: '36.00',
    });
    await stores.broken.close();
    promptsBefore = (await getContainer().prompts.list('changing')).length;
    first = await runSchedule();
  }, 240_000);

  test('the execution completes; the failing business is recorded with its reason and the others complete', () => {
    expect(first.status).toBe('succeeded');
    // The broken store's business still gets its articles, written from its published AI
    // site, and its check dates refreshed (2a): its day is partial, with the reasons.
    expect(first.counts).toEqual({ succeeded: 2, partial: 1, failed: 0, skipped: 0 });
    const broken = runOf(first, 'broken');
    expect(broken.status).toBe('partial');
    expect(broken.steps['2a'].status).toBe('succeeded');
    expect(broken.reason).toMatch(/1a \(change detection\): UpstreamError: could not map/);
    expect(broken.reason).toMatch(/1b \(product discovery\): UpstreamError/);
    expect(runOf(first, 'steady').status).toBe('succeeded');
    expect(runOf(first, 'changing').status).toBe('succeeded');
  });

  test('exactly the new and really changed pages are scraped; noisy unchanged pages are not', async () => {
    const detect = runOf(first, 'changing').steps['1a'].result;
    const origin = stores.changing.origin;
    // The 2 edited pages and the 3 new products; the removed page; and the store's own
    // listings that show the new products (they really changed: a second page appeared).
    expect(runOf(first, 'changing').changed_urls).toEqual([
      '/collections', '/collections/all', '/collections/all?page=2', '/pages/about', '/pages/faq', '/pages/shipping-returns',
      ...NEW_PRODUCTS.map((h) => `/products/${h}`),
    ].map((p) => `${origin}${p}`).sort());
    expect(detect).toMatchObject({ pages_new: 4, pages_changed: 4, pages_removed: 1, changed: true });
    expect(detect.pages_scraped).toBe(detect.pages_new + detect.pages_changed);
    const steady = runOf(first, 'steady').steps['1a'].result;
    expect(steady).toMatchObject({ changed: false, pages_new: 0, pages_changed: 0, pages_removed: 0, pages_scraped: 0 });
    expect(steady.pages_unchanged).toBe(steady.pages_mapped);
    // The stored page set: edited content in, removed page out.
    const scrape = await getContainer().artifacts.get<ScrapeArtifact>(artifactKeys.scrape('changing'));
    expect(scrape!.pages.find((p) => p.url === `${origin}/pages/about`)!.markdown).toMatch(/Biddeford/);
    expect(scrape!.pages.some((p) => p.url.endsWith('/pages/shipping-returns'))).toBe(false);
  });

  test('exactly the new products become entities with 10 prompts each and a product file', async () => {
    const discovery = runOf(first, 'changing').steps['1b'].result;
    expect(discovery.new_products.sort()).toEqual([...NEW_PRODUCTS].sort());
    const container = getContainer();
    const prompts = await container.prompts.list('changing');
    for (const handle of NEW_PRODUCTS) {
      const product = await container.products.find('changing', handle);
      expect(product).not.toBeNull();
      expect(prompts.filter((p) => p.entityId === product!.id)).toHaveLength(10);
    }
    expect(prompts.length - promptsBefore).toBe(30);
    expect(runOf(first, 'changing').steps['1b-files'].result.files_added.sort()).toEqual(NEW_PRODUCTS.map((h) => `/llms/${h}.txt`).sort());
    expect(runOf(first, 'steady').steps['1b-prompts']).toMatchObject({ status: 'skipped', reason: 'no new products' });
    const site = await container.aiSites.get('changing');
    expect(site!.productsSnapshot!.map((p) => p.handle)).toEqual(expect.arrayContaining(NEW_PRODUCTS));
  });

  test('the site shows the changes after exactly one merged deploy (then 2a\'s); an unchanged site\'s batch 1 deploys nothing', async () => {
    const container = getContainer();
    // Two deploys a day at most (spec): batch 1's merged deploy, then 2a's (articles, check dates).
    expect(runOf(first, 'changing').steps.deploy.result).toMatchObject({ regenerated: true, deployed: true, deploys: 1 });
    expect(runOf(first, 'changing').steps['2a'].result).toMatchObject({ deployed: true });
    expect((await container.aiSites.get('changing'))!.releaseId).toBe(runOf(first, 'changing').steps['2a'].result.release_id);
    expect(runOf(first, 'steady').steps.deploy).toMatchObject({ status: 'skipped', reason: 'nothing changed since the last deploy', result: { deploys: 0 } });
    // The quota (weekly-100: 100) is a ceiling (D35): what the store's facts answer is written.
    expect(runOf(first, 'steady').steps['2a'].result).toMatchObject({ deployed: true, articles_planned: 100, articles_created: expect.any(Number) });
    expect(runOf(first, 'steady').steps['2a'].result.articles_created).toBeGreaterThan(10);
    const paths = await sitePaths('changing');
    for (const h of NEW_PRODUCTS) expect(paths).toContain(`/llms/${h}.txt`);
    expect(await siteFile('changing', '/llms.txt')).toMatch(/Kyoto Drip Kettle/);
    expect(paths.some((p) => p.includes('shipping-returns'))).toBe(false);
    const sitemap = await siteFile('changing', '/sitemap.xml');
    expect(sitemap).toMatch(/products\/kyoto-drip-kettle/);
    expect(sitemap).not.toMatch(/shipping-returns/);
    // Served by the AI-site host, as a crawler sees it.
    const served = await getWithHost(stack.sites.port, '/llms/pine-cold-brew-kit.txt', 'changing.localhost');
    expect(served.status).toBe(200);
  });

  test('a second run the same day changes nothing and duplicates nothing', async () => {
    const container = getContainer();
    const entities = (await container.products.list('changing')).length;
    const prompts = (await container.prompts.list('changing')).length;
    const release = (await container.aiSites.get('changing'))!.releaseId;
    const articles = (await container.articles.list('changing')).length;
    const second = await runSchedule();
    const again = runOf(second, 'changing');
    expect(again.status).toBe('succeeded');
    expect(again.steps['1a'].result).toMatchObject({ changed: false, pages_scraped: 0 });
    expect(again.steps['1b'].result).toMatchObject({ hash_changed: false, new_products: [] });
    expect(again.steps.deploy).toMatchObject({ status: 'skipped', result: { regenerated: false, deploys: 0 } });
    expect((await container.products.list('changing')).length).toBe(entities);
    expect((await container.prompts.list('changing')).length).toBe(prompts);
    expect(again.steps['2a'].result).toMatchObject({ deployed: false, articles_created: runOf(first, 'changing').steps['2a'].result.articles_created });
    expect((await container.aiSites.get('changing'))!.releaseId).toBe(release);
    expect((await container.articles.list('changing')).length).toBe(articles);
    // The day's changed URLs are a set: the second run added none twice.
    expect(again.changed_urls).toEqual(runOf(first, 'changing').changed_urls);
  }, 120_000);
});
