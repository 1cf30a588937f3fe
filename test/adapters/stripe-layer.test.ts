/**
 * The Stripe Lambda layer (lib/layers.ts) works the way Lambda uses it: a billing route's
 * bundle, built with `stripe` external exactly as the CDK app builds it, run from a
 * directory with no node_modules up its tree and NODE_PATH ordered as on Lambda (the
 * layer's nodejs/node_modules first, then the runtime's modules, played here by the
 * project's node_modules for `@aws-sdk/*`), loads the SDK from the layer and calls it.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { bundleModule, lambdaModules } from '../../bench/bundle';
import { buildPackageLayer, layerPackagesOf } from '../../lib/layers';
import { ROUTES } from '../../functions/routes';
import { startStripeFake, type StripeFake } from '../../functions/local/fakes/stripe';

const run = promisify(execFile);
let scratch: string;
let fake: StripeFake;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'aivis-stripe-layer-'));
  fake = await startStripeFake();
});
afterAll(async () => {
  await fake.close();
  rmSync(scratch, { recursive: true, force: true });
});

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

test('exactly the billing routes load stripe from the layer', () => {
  expect(ROUTES.filter((r) => layerPackagesOf(r).includes('stripe')).map((r) => `${r.method} ${r.path}`).sort())
    .toEqual(['GET /api/subscription-status', 'POST /api/billing-portal']);
  expect(lambdaModules().filter((m) => m.fromLayers.includes('stripe')).map((m) => m.module).sort())
    .toEqual(['api/billing/portal', 'api/billing/subscription-status']);
});

test('the layer holds the CommonJS build only, in nodejs/node_modules/stripe, and is the same directory on every build', () => {
  const layer = buildPackageLayer('stripe', { outRoot: join(scratch, 'layers') });
  expect(buildPackageLayer('stripe', { outRoot: join(scratch, 'layers') }).dir).toBe(layer.dir);
  expect(layer.dir).toMatch(/stripe-\d+\.\d+\.\d+-[0-9a-f]{16}$/);
  const kept = files(layer.dir).map((f) => relative(join(layer.dir, 'nodejs', 'node_modules', 'stripe'), f));
  expect(kept).toContain('package.json');
  expect(kept).toContain('cjs/stripe.cjs.node.js');
  expect(kept.length).toBe(layer.files);
  expect(kept.filter((f) => f.endsWith('.d.ts') || f.endsWith('.map') || f.startsWith('esm/') || f.startsWith('..'))).toEqual([]);
  expect(readdirSync(layer.dir)).toEqual(['nodejs']);
});

test('a billing route bundle (stripe external) loads and calls the SDK from the layer', async () => {
  const layer = buildPackageLayer('stripe', { outRoot: join(scratch, 'layers') });
  const bundle = await bundleModule('api/billing/subscription-status', join(__dirname, '../../functions/api/billing/subscription-status.ts'), join(scratch, 'task'), 'api', ['stripe']);
  expect(bundle.packages.map((p) => p.name)).not.toContain('stripe');

  const customer = fake.addCustomer();
  const probe = join(scratch, 'task', 'probe.js');
  writeFileSync(probe, `
    const route = require(${JSON.stringify(bundle.outfile)});
    if (typeof route.handler !== 'function') throw new Error('no handler');
    // What the route bundle loaded of stripe when it was required.
    const loaded = Object.keys(require.cache).filter((f) => f.includes('/stripe/'));
    const resolved = require.resolve('stripe');
    const Stripe = require('stripe');
    const client = new Stripe(process.env.KEY, { host: '127.0.0.1', port: Number(process.env.PORT), protocol: 'http', telemetry: false });
    client.customers.retrieve(process.env.CUSTOMER).then((c) => console.log(JSON.stringify({ loaded, resolved, id: c.id })));
  `);
  expect(existsSync(join(scratch, 'node_modules'))).toBe(false);
  const { stdout } = await run(process.execPath, [probe], {
    cwd: join(scratch, 'task'),
    env: { PATH: process.env.PATH, NODE_PATH: [layer.nodeModulesDir, join(__dirname, '../../node_modules')].join(':'), KEY: fake.secretKey, PORT: String(fake.port), CUSTOMER: customer.id },
  });
  const out = JSON.parse(stdout.trim().split('\n').pop()!);
  expect(out.id).toBe(customer.id);
  expect(out.resolved.startsWith(layer.nodeModulesDir)).toBe(true);
  expect(out.loaded.length).toBeGreaterThan(10);
  expect(out.loaded.filter((f: string) => !f.startsWith(layer.nodeModulesDir))).toEqual([]);
});
