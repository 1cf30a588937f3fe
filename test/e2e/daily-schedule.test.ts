/**
 * The daily schedule end to end: the real daily-schedule.asl.json in the local Step
 * Functions stand-in, with the real task handlers, over three onboarded businesses whose
 * demo stores render per-request noise on every page. One store really changes (2 pages
 * edited, 1 removed, 3 products added), one does not, one fails (its store goes down).
 */
import { getContainer } from '../../functions/container';
import { artifactKeys } from '../../functions/core/artifacts';
import { startDemoStore, type DemoStore } from '../../functions/local/demo-store';
import { getWithHost } from '../support/http';
import { DEV_API_KEY, startTestStack, type TestStack } from '../support/stack';
import type { ScrapeArtifact } from '../../functions/app/site/inputs';

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
  let brokenRelease: string;

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
    brokenRelease = (await getContainer().aiSites.get('broken'))!.releaseId!;
    promptsBefore = (await getContainer().prompts.list('changing')).length;
    first = await runSchedule();
  }, 240_000);

  test('the execution completes; the failing business is recorded with its reason and the others complete', () => {
    expect(first.status).toBe('succeeded');
    expect(first.counts).toEqual({ succeeded: 2, partial: 0, failed: 1, skipped: 0 });
    expect(runOf(first, 'steady').status).toBe('succeeded');
    expect(runOf(first, 'changing').status).toBe('succeeded');
  });

  test('a store that is down gets nothing published from stale facts: its day failed, the previous release stays served (issue 23)', async () => {
    const broken = runOf(first, 'broken');
    expect(broken.status).toBe('failed');
    expect(broken.reason).toMatch(/^the store could not be read today \(1a and 1b failed\): nothing was published/);
    expect(broken.reason).toMatch(/1a \(change detection\): UpstreamError: could not map/);
    expect(broken.reason).toMatch(/1b \(product discovery\): UpstreamError/);
    for (const step of ['deploy', '2a', '3']) expect(broken.steps[step]).toMatchObject({ status: 'skipped', reason: expect.stringMatching(/store could not be read/) });
    expect(broken.steps['2a'].result).toMatchObject({ deployed: false });
    // No article written or published, no check date moved: the release is the one before the run.
    expect((await getContainer().aiSites.get('broken'))!.releaseId).toBe(brokenRelease);
    expect((await getContainer().articles.list('broken')).filter((a) => a.run_date === first.run_date)).toEqual([]);
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
    const site = await container.aiSites.get('changing', { lists: ['productsSnapshot'] });
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
    // Each execution keeps its own record: this one found nothing changed, and the first
    // execution still reads back whole, with its changes (issue 23).
    expect(again.changed_urls).toEqual([]);
    const firstAgain = await stack.call('GET', `/api/cron/trigger-all/${first.execution_id}`, { apiKey: DEV_API_KEY });
    expect(firstAgain.body.businesses.runs.map((r: any) => r.org_slug).sort()).toEqual(ORGS.slice().sort());
    expect(runOf(firstAgain.body, 'changing')).toMatchObject({ execution_id: first.execution_id, status: 'succeeded', changed_urls: runOf(first, 'changing').changed_urls });
    expect(runOf(firstAgain.body, 'changing').steps.deploy.result).toMatchObject({ deployed: true, deploys: 1 });
    expect(again.steps['3']).toMatchObject({ status: 'skipped', reason: 'this run published and found no change: no IndexNow submission', result: { ai_paths_changed: 0, ai_paths_removed: 0 } });
  }, 120_000);

  test('two executions started at once for one business and day: one runs the day, the other skips it naming the holder (issue 23)', async () => {
    const container = getContainer();
    const releasesBefore = (await container.siteStore.listReleases('changing')).length;
    stores.changing.admin.editPage('about', { body_html: '<p>Our Biddeford roastery now runs a second roaster, a 15 kg Loring.</p>' });
    const start = () => stack.call('POST', '/api/cron/trigger-all', { apiKey: DEV_API_KEY, body: { business_ids: ['changing'] } });
    const [a, b] = await Promise.all([start(), start()]);
    expect([a.status, b.status]).toEqual([202, 202]);
    await Promise.all([stack.workflows.finished(a.body.execution_id), stack.workflows.finished(b.body.execution_id)]);
    const read = async (id: string) => runOf((await stack.call('GET', `/api/cron/trigger-all/${id}`, { apiKey: DEV_API_KEY })).body, 'changing');
    const runs = [await read(a.body.execution_id), await read(b.body.execution_id)];
    const ran = runs.filter((r) => r.status !== 'skipped');
    const skipped = runs.filter((r) => r.status === 'skipped');
    expect(ran).toHaveLength(1);
    expect(skipped).toHaveLength(1);
    expect(skipped[0].reason).toMatch(new RegExp(`^already running in ${ran[0].execution_id} \\(since `));
    expect(ran[0].status).toBe('succeeded');
    // One content deploy (batch 1's, for the edited page) and 2a's: exactly the deploys of one run.
    const deploys = [ran[0].steps.deploy.result.deploys, ran[0].steps['2a'].result.deployed ? 1 : 0].reduce((n, d) => n + d, 0);
    expect((await container.siteStore.listReleases('changing')).length - releasesBefore).toBe(deploys);
    expect(ran[0].steps.deploy.result).toMatchObject({ deployed: true, deploys: 1 });
    for (const step of Object.values(skipped[0].steps) as Array<{ status: string }>) expect(step.status).toBe('pending');
    // The day is free again once the run finished.
    expect((await container.dailyRuns.getDayLease(first.run_date, 'changing')).lease).toBeNull();
  }, 120_000);
});
