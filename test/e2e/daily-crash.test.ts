/**
 * A crash in the middle of a daily run (issue 36, D194). The runtime runs in a process of its
 * own (test/support/crash-runtime.ts) on a data folder; the daily run's step 1b discovers the
 * store's new products and then never reports back; the process is killed with SIGKILL there.
 * Started again on the same folder, the runtime knows that execution is dead: its business run
 * reads `failed` with the reason, its day is free at once (not after the 15-minute lease), and
 * the next trigger the same day resumes from the settled steps and publishes the new products.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getContainer } from '../../functions/container';
import { startDemoStore, type DemoStore } from '../../functions/local/demo-store';
import { onboardOnDataDir, startRuntimeProcess, type RuntimeProcess } from '../support/runtime-process';
import { DEV_API_KEY, startTestStack, type TestStack } from '../support/stack';

const ORG = 'crashday';
const ROOT = join(__dirname, '..', '..');
const NEW_PRODUCTS = ['lighthouse-espresso-blend', 'tidepool-travel-mug'];

let store: DemoStore;
let dataDir: string;
let hangDir: string;
let child: RuntimeProcess | undefined;
let stack: TestStack | undefined;

/** The runtime in a child process, with daily step 1b replaced by one that hangs after its work. */
const startCrashingRuntime = () => startRuntimeProcess({
  DATA_DIR: dataDir, HANG_DIR: hangDir, HANG_TASK: 'DiscoverNewProducts', HANG_MODULE: join(ROOT, 'test', 'support', 'tasks', 'hang-after-product-discovery.ts'),
});

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, ms = 120_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const runOf = (status: any) => status.businesses.runs.find((r: any) => r.org_slug === ORG);

beforeAll(async () => {
  store = await startDemoStore({ products: 6 });
  dataDir = mkdtempSync(join(tmpdir(), 'aivis-daily-crash-'));
  hangDir = mkdtempSync(join(tmpdir(), 'aivis-daily-hang-'));
  await onboardOnDataDir(dataDir, ORG, { name: 'Crash Day Coffee', url: store.origin });
  store.admin.addProduct({ handle: NEW_PRODUCTS[0], title: 'Lighthouse Espresso Blend', product_type: 'Coffee', body_html: '<p>A dark espresso blend with notes of cocoa and molasses.</p>', price: '18.00' });
  store.admin.addProduct({ handle: NEW_PRODUCTS[1], title: 'Tidepool Travel Mug', product_type: 'Drinkware', body_html: '<p>A 12 oz insulated steel travel mug with a leak-proof lid.</p>', price: '29.00' });
}, 180_000);

afterAll(async () => {
  await child?.kill();
  await stack?.close();
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(hangDir, { recursive: true, force: true });
}, 60_000);

test('killed during 1b, restarted: the dead run reads failed with the reason, and the same day\'s next run resumes it and publishes the new products', async () => {
  child = await startCrashingRuntime();
  const { api } = child;
  const started = await (await fetch(`${api}/api/cron/trigger-all`, {
    method: 'POST', headers: { 'X-API-Key': DEV_API_KEY, 'Content-Type': 'application/json' }, body: JSON.stringify({ business_ids: [ORG] }),
  })).json() as { execution_id: string };
  await until('step 1b to do its work and hang', () => (existsSync(join(hangDir, 'reached')) ? true : undefined));
  const dead = started.execution_id;
  const before = await (await fetch(`${api}/api/cron/trigger-all/${dead}`, { headers: { 'X-API-Key': DEV_API_KEY } })).json();
  expect(runOf(before)).toMatchObject({ status: 'running' });

  // kill -9: nothing of the process runs any more, nothing is closed.
  await child.kill();

  stack = await startTestStack({ LOG_LEVEL: 'error', EDGE_PROPAGATION_WAIT_SECONDS: '0' }, { dataDir, workflows: { retryWithoutDelay: true } });
  const deadStatus = await stack.call('GET', `/api/cron/trigger-all/${dead}`, { apiKey: DEV_API_KEY });
  expect(runOf(deadStatus.body)).toMatchObject({ status: 'failed', reason: expect.stringMatching(/^interrupted: the process running the execution stopped/) });
  expect(runOf(deadStatus.body).steps['1a'].status).toBe('succeeded');
  expect(runOf(deadStatus.body).steps['1b']).toMatchObject({ status: 'failed', reason: 'the task stopped without reporting (timeout or crash)' });
  expect(deadStatus.body.status).toBe('failed');

  // The same day, at once: no "already running" until a lease runs out.
  const again = await stack.call('POST', '/api/cron/trigger-all', { apiKey: DEV_API_KEY, body: { business_ids: [ORG] } });
  expect(again.status).toBe(202);
  await stack.workflows.finished(again.body.execution_id);
  const resumed = runOf((await stack.call('GET', `/api/cron/trigger-all/${again.body.execution_id}`, { apiKey: DEV_API_KEY })).body);
  expect(resumed).toMatchObject({ status: 'succeeded', resumed_from: dead });
  expect(resumed.steps['1a']).toMatchObject({ status: 'succeeded', resumed_from: dead });

  const products = (await getContainer().products.list(ORG)).map((p) => p.productId);
  for (const handle of NEW_PRODUCTS) expect(products.filter((id) => id === handle)).toHaveLength(1);
  const live = (await getContainer().siteStore.readCurrent(ORG))!.files.map((f) => f.path);
  for (const handle of NEW_PRODUCTS) expect(live.some((p) => p.includes(handle))).toBe(true);
}, 240_000);
