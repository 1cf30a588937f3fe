/**
 * Onboarding end to end: the real onboarding.asl.json runs in the local Step Functions
 * stand-in with the real task handlers against the bundled demo store, and every asset of
 * the spec's "Assets created" list is checked. A fault-injection run shows one failing
 * branch leaving the others intact, the status reporting it, and a second generate-all
 * repairing it without duplicates.
 */
import { getContainer } from '../../functions/container';
import { UpstreamError } from '../../functions/core/errors';
import { startDemoStore, type DemoStore } from '../../functions/local/demo-store';
import { competitorPage, startSearchServer, startSite, type SearchServer, type TestSite } from '../competitors/support';
import { stepTask } from '../../functions/tasks/step-task';
import { getWithHost } from '../support/http';
import { startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;

/** The distinct product files llms.txt links to (absolute links; the paged catalogue files aside). */
const productFileLinks = (llms: string): string[] =>
  [...new Set([...llms.matchAll(/\(https?:\/\/[^/)\s]+(\/llms\/(?!catalog\/)[^)\s]+\.txt)\)/g)].map((m) => m[1]))];
let search: SearchServer;
const rivals: TestSite[] = [];
/** Fault injection: while set, product discovery fails like an unreachable store. */
let failProducts = false;
/** While set, DiscoverProducts waits for it: keeps a run going for as long as a test needs. */
let hold: Promise<void> | null = null;

beforeAll(async () => {
  for (const name of ['Dockside Roasters', 'Granite Peak Coffee', 'Tidewater Beans']) {
    rivals.push(await startSite({ '/': { type: 'text/html', body: competitorPage({ name, tagline: `${name}: small-batch coffee`, description: `${name} roasts specialty coffee in small batches.`, products: ['House Blend', 'Espresso'], claims: ['Free shipping over $40'] }) } }));
  }
  search = await startSearchServer({
    results: () => rivals.map((r, i) => ({ title: `Best small batch coffee roasters ${i}`, url: `${r.origin}/`, description: 'Specialty coffee roaster' })),
  });
  stack = await startTestStack(
    { LOG_LEVEL: 'warn', SEARCH_API_URL: search.url, SEARCH_API_KEY: 'test-key' },
    {
      workflows: {
        retryWithoutDelay: true,
        taskOverrides: {
          DiscoverProducts: async (payload) => {
            await hold;
            // The real step wrapper around a failing body, so progress is recorded as in production.
            if (failProducts) return stepTask('1c', async () => { throw new UpstreamError('could not reach the store: connection refused'); })(payload as never);
            // eslint-disable-next-line @typescript-eslint/no-require-imports
            return require('../../functions/tasks/discover-products').handler(payload);
          },
        },
      },
    },
  );
}, 60_000);

afterAll(async () => {
  await stack.close();
  await search.close();
  await Promise.all(rivals.map((r) => r.close()));
});

async function onboard(org: string, token: string) {
  const res = await stack.call('POST', '/api/onboarding/generate-all', { token, body: {} });
  expect(res.status).toBe(202);
  expect(res.body).toEqual({ status: 'started', execution_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
  await stack.workflows.finished(res.body.execution_id);
  return (await stack.call('GET', '/api/onboarding/status', { token })).body;
}

async function assets(org: string, token: string) {
  const [products, prompts, competitors, proxy, site, visibility] = await Promise.all([
    stack.call('GET', `/api/products/${org}`, { token }),
    stack.call('GET', `/api/prompts/${org}`, { token }),
    stack.call('GET', '/api/explore/competitors', { token }),
    stack.call('GET', `/api/domain/get-proxy/${org}`, { token }),
    stack.call('GET', `/api/ai-website/${org}`),
    stack.call('GET', `/api/visibility/${org}`, { token }),
  ]);
  const productPrompts = prompts.body.prompts.filter((p: { product_id: string | null }) => p.product_id !== null);
  return { products: products.body, prompts: prompts.body, productPrompts, competitors: competitors.body, proxy: proxy.body, site, visibility: visibility.body };
}

describe('a store with 24 products', () => {
  const org = 'harbor';
  let store: DemoStore;
  let token: string;
  let status: any;

  beforeAll(async () => {
    store = await startDemoStore();
    token = await stack.token(org);
    expect((await stack.call('POST', '/api/business', { token, body: { name: 'Harbor & Pine Coffee Co.', url: store.origin } })).status).toBe(201);
    // D19: a public scan of this store was made before payment.
    await getContainer().prepaymentScans.put({ domain: '127.0.0.1', score: 42, scannedAt: '2026-11-01T10:00:00.000Z', platforms: { platform_1_score: 50 } });
    status = await onboard(org, token);
  }, 120_000);
  afterAll(() => store.close());

  test('every step succeeded, with timings', () => {
    expect(status.status).toBe('succeeded');
    expect(status.steps.map((s: { id: string; status: string }) => [s.id, s.status])).toEqual(
      ['1a', '1b', '1c', '1d', '1e', '1f', '2a', '3a', '3b'].map((id) => [id, 'succeeded']));
    for (const step of status.steps) expect(step.duration_ms).toBeGreaterThanOrEqual(0);
  });

  test('assets created: business, favicon, products, prompts, llms files, score, distribution, competitors, AI site', async () => {
    const a = await assets(org, token);
    const business = await getContainer().businesses.get(org);
    expect(business!.faviconUrl).toBe(`${store.origin}/favicon.ico`);
    expect(a.products.total).toBe(24);
    expect(a.productPrompts.length).toBeGreaterThanOrEqual(50);
    expect(a.productPrompts.length).toBe(24 * 5);
    expect(a.prompts.prompts.filter((p: { product_id: string | null }) => p.product_id === null)).toHaveLength(50);
    expect(a.prompts.prompts.every((p: Record<string, unknown>) => [1, 2, 3, 4, 5, 6, 7, 8].every((k) => p[`platform_${k}`] === null))).toBe(true);
    expect(a.prompts.prompts.some((p: { prompt: string }) => /harbor\s*(&|and)?\s*pine/i.test(p.prompt))).toBe(false);
    expect(a.visibility.recent_score).toBe(42);
    expect(a.proxy).toMatchObject({ has_proxy: true, proxy_status: 'PENDING_VALIDATION', cdn_domain: expect.stringMatching(/\.cdn\.localhost$/), distribution_id: expect.stringMatching(/^E[A-Z0-9]{13}$/) });
    expect(a.competitors.count).toBe(3);
    expect(a.competitors.competitors.every((c: { source: string }) => c.source === 'auto_discovered')).toBe(true);
    expect(a.site.status).toBe(200);
    const host = `${org}.localhost:${stack.sites.port}`;
    const llms = await getWithHost(stack.sites.port, '/llms.txt', host);
    expect(llms.status).toBe(200);
    const productFiles = productFileLinks(llms.text);
    expect(productFiles).toHaveLength(24);
    expect((await getWithHost(stack.sites.port, productFiles[0]!, host)).status).toBe(200);
    expect((await getWithHost(stack.sites.port, '/pages/pages-about.md', host)).status).toBe(200);
  });

  test('the distribution routes AI paths to the AI site and the rest to the store (local CDN proxy)', async () => {
    const { cdn_domain } = (await stack.call('GET', `/api/domain/get-proxy/${org}`, { token })).body;
    const viaCdn = (path: string) => getWithHost(stack.proxy.port, path, cdn_domain);
    const llms = await viaCdn('/llms.txt');
    expect(llms.headers['x-edge-route']).toBe('ai');
    expect(llms.text).toMatch(/^# Harbor & Pine Coffee Co\./);
    const product = await viaCdn('/products/house-blend');
    expect(product.headers['x-edge-route']).toBe('store');
  });

  test('generate-all while a run is going is refused with 409; a rerun duplicates nothing', async () => {
    const before = await assets(org, token);
    let release!: () => void;
    hold = new Promise((r) => { release = r; });
    const first = await stack.call('POST', '/api/onboarding/generate-all', { token, body: {} });
    const second = await stack.call('POST', '/api/onboarding/generate-all', { token, body: {} });
    hold = null;
    release();
    expect(first.status).toBe(202);
    expect(second.status).toBe(409);
    expect(second.body.error).toMatch(/already running/);
    await stack.workflows.finished(first.body.execution_id);
    const rerun = (await stack.call('GET', '/api/onboarding/status', { token })).body;
    expect(rerun.status).toBe('succeeded');
    expect(rerun.steps.every((s: { kept_from: string | null }) => s.kept_from === status.execution_id)).toBe(true);
    const after = await assets(org, token);
    expect(after.products.total).toBe(before.products.total);
    expect(after.prompts.total).toBe(before.prompts.total);
    expect(after.competitors.count).toBe(before.competitors.count);
  });
});

describe('a store with fewer than 10 products, and a failing branch', () => {
  const org = 'smallshop';
  let store: DemoStore;
  let token: string;

  beforeAll(async () => {
    store = await startDemoStore({ products: 6 });
    token = await stack.token(org);
    await stack.call('POST', '/api/business', { token, body: { name: 'Tiny Roastery', url: store.origin } });
  }, 60_000);
  afterAll(() => { failProducts = false; return store.close(); });

  test('product discovery fails: the other branches complete and the status says why', async () => {
    failProducts = true;
    const status = await onboard(org, token);
    const step = (id: string) => status.steps.find((s: { id: string }) => s.id === id);
    expect(status.status).toBe('partial');
    // The first attempt and the ASL's 3 retries of a transient UpstreamError.
    expect(step('1c')).toMatchObject({ status: 'failed', reason: expect.stringContaining('could not reach the store'), attempts: 4 });
    expect(step('3a')).toMatchObject({ status: 'skipped', reason: expect.stringContaining('1c') });
    expect(step('3b')).toMatchObject({ status: 'skipped', reason: expect.stringContaining('1c') });
    for (const id of ['1a', '1b', '1d', '1e', '1f', '2a']) expect(step(id).status).toBe('succeeded');
    expect((await stack.call('GET', `/api/ai-website/${org}`)).status).toBe(200);
    expect((await stack.call('GET', `/api/products/${org}`, { token })).body.total).toBe(0);
  });

  test('a second generate-all repairs the failed steps only, and duplicates nothing', async () => {
    failProducts = false;
    const before = await assets(org, token);
    const status = await onboard(org, token);
    expect(status.status).toBe('succeeded');
    const kept = status.steps.filter((s: { kept_from: string | null }) => s.kept_from).map((s: { id: string }) => s.id);
    // 1c is redone, and with it what uses the catalogue: 2a (the site's product pages), 3a and 3b.
    expect(kept.sort()).toEqual(['1a', '1b', '1d', '1e', '1f']);
    const after = await assets(org, token);
    expect(after.products.total).toBe(6);
    // Fewer than 10 products: the per-product count is raised so the total reaches 50.
    expect(after.productPrompts).toHaveLength(6 * 9);
    expect(after.competitors.count).toBe(before.competitors.count);
    expect(after.proxy.distribution_id).toBe(before.proxy.distribution_id);
    const llms = await getWithHost(stack.sites.port, '/llms.txt', `${org}.localhost:${stack.sites.port}`);
    expect(productFileLinks(llms.text)).toHaveLength(6);
  });

  test('without a pre-payment scan, step 1e is skipped with the reason', async () => {
    const org2 = 'noscan';
    const t = await stack.token(org2);
    await stack.call('POST', '/api/business', { token: t, body: { name: 'No Scan Roasters', url: store.origin.replace('127.0.0.1', 'localhost') } });
    const status = await onboard(org2, t);
    expect(status.steps.find((s: { id: string }) => s.id === '1e')).toMatchObject({ status: 'skipped', reason: expect.stringContaining('no pre-payment scan exists for localhost') });
  });

  test('status of an organization that never started onboarding is 404', async () => {
    const res = await stack.call('GET', '/api/onboarding/status', { token: await stack.token('nobody') });
    expect(res.status).toBe(404);
  });
});
