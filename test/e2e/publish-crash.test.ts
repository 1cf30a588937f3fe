/**
 * No torn release (issue 36, part 3): the runtime, in a process of its own, is killed with
 * SIGKILL while a publish writes its release (a 4,000-file deploy, caught while its staging
 * directory exists). Started again on the same data folder: the previous release is still the
 * one served, whole (every AI-site URL of its sitemap answers 200 with that release's bytes),
 * the dead publish's leftovers are swept, and the same deploy then publishes in full.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getContainer } from '../../functions/container';
import { startDemoStore, type DemoStore } from '../../functions/local/demo-store';
import { getWithHost } from '../support/http';
import { onboardOnDataDir, startRuntimeProcess, type RuntimeProcess } from '../support/runtime-process';
import { DEV_API_KEY, startTestStack, type TestStack } from '../support/stack';

const ORG = 'crashpub';
const FILES = 4_000;

let store: DemoStore;
let dataDir: string;
let child: RuntimeProcess | undefined;
let stack: TestStack | undefined;

const releasesDir = () => join(dataDir, 'sites', ORG, 'releases');
const deployBody = JSON.stringify({
  business_id: ORG,
  files: Array.from({ length: FILES }, (_, i) => ({ path: `/ai/notes/note-${i}/index.html`, content: `<!doctype html><title>Note ${i}</title><p>${'Brewing note. '.repeat(60)}</p>` })),
});

beforeAll(async () => {
  store = await startDemoStore({ products: 6 });
  dataDir = mkdtempSync(join(tmpdir(), 'aivis-publish-crash-'));
  await onboardOnDataDir(dataDir, ORG, { name: 'Crash Publish Coffee', url: store.origin });
}, 180_000);

afterAll(async () => {
  await child?.kill();
  await stack?.close();
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

test('SIGKILL while a release is written: the previous release stays served whole, and the deploy then lands in full', async () => {
  const before = readdirSync(releasesDir()).filter((n) => !n.startsWith('.'));
  child = await startRuntimeProcess({ DATA_DIR: dataDir });
  const { api } = child;
  void fetch(`${api}/api/cron/deploy-site`, { method: 'POST', headers: { 'X-API-Key': DEV_API_KEY, 'Content-Type': 'application/json' }, body: deployBody }).catch(() => undefined);
  // Killed while the release is half written.
  for (let i = 0; !readdirSync(releasesDir()).some((n) => n.startsWith('.staging-')); i++) {
    if (i > 20_000) throw new Error('the publish never started writing its release');
    await new Promise((r) => setTimeout(r, 2));
  }
  await child.kill();
  const staging = readdirSync(releasesDir()).find((n) => n.startsWith('.staging-'))!;
  expect(staging).toBeDefined();

  stack = await startTestStack({ LOG_LEVEL: 'error' }, { dataDir, workflows: { retryWithoutDelay: true } });
  // The dead publish's half-written release is gone; the releases are the ones before it.
  expect(existsSync(join(releasesDir(), staging))).toBe(false);
  expect(readdirSync(releasesDir()).filter((n) => !n.startsWith('.'))).toEqual(before);

  const live = (await getContainer().siteStore.readCurrent(ORG))!;
  expect(before).toContain(live.releaseId);
  const host = `${ORG}.localhost`;
  const sitemap = await getWithHost(stack.sites.port, '/sitemap.xml', host);
  expect(sitemap.status).toBe(200);
  const aiPaths = [...sitemap.text.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1])).filter((u) => u.hostname === host).map((u) => u.pathname);
  expect(aiPaths.length).toBeGreaterThan(10);
  const byPath = new Map(live.files.map((f) => [f.path, f.content]));
  for (const path of aiPaths) {
    const res = await getWithHost(stack.sites.port, path, host);
    expect({ path, status: res.status }).toEqual({ path, status: 200 });
    const file = byPath.get(path) ?? byPath.get(`${path.replace(/\/?$/, '/')}index.html`) ?? byPath.get(path.replace(/^\/ai\//, '/'));
    expect({ path, sameRelease: res.text === file }).toEqual({ path, sameRelease: true });
  }

  const again = await stack.call('POST', '/api/cron/deploy-site', { apiKey: DEV_API_KEY, rawBody: deployBody, headers: { 'Content-Type': 'application/json' } });
  expect(again.status).toBe(200);
  const after = (await getContainer().siteStore.readCurrent(ORG))!;
  expect(after.releaseId).not.toBe(live.releaseId);
  expect(after.files.filter((f) => f.path.startsWith('/ai/notes/'))).toHaveLength(FILES);
}, 240_000);
