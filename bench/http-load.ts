/**
 * HTTP load on the local stack: GET /api/products/{business_id} (JWT, DynamoDB query of
 * ~200 products) against GET /health as a baseline. The load generator (autocannon) runs
 * as a child process so it does not share the server's event loop.
 *
 *   npx tsx bench/http-load.ts     (BENCH_DURATION=10 BENCH_CONNECTIONS=10 to change the load)
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { getContainer } from '../functions/container';
import { startLocalStack } from '../functions/local/runtime';
import { heading, int, isMain, median, ms, printTable, ROOT, wholeMs } from './lib';

const run = promisify(execFile);
const AUTOCANNON = join(ROOT, 'node_modules', 'autocannon', 'autocannon.js');
const ORG = 'bench-store';
const PRODUCTS = 200;

export interface LoadFigure {
  label: string;
  requestsPerSecond: number;
  p50: number;
  p975: number;
  p99: number;
  max: number;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

export interface LoadReport {
  mode: string;
  connections: number;
  durationSeconds: number;
  products: number;
  responseBytes: number;
  /** Median of sequential business get + product list calls through the container (no HTTP, no auth). */
  dbQueryMs: number;
  health: LoadFigure;
  products_: LoadFigure;
}

/** Runs autocannon in its own node process and reads its --json result. */
async function autocannon(label: string, url: string, headers: Record<string, string>, connections: number, duration: number): Promise<LoadFigure> {
  const args = [AUTOCANNON, '--json', '-n', '-c', String(connections), '-d', String(duration)];
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}=${v}`);
  const { stdout } = await run(process.execPath, [...args, url], { maxBuffer: 64 * 1024 * 1024 });
  const r = JSON.parse(stdout);
  return {
    label,
    requestsPerSecond: r.requests.average,
    p50: r.latency.p50,
    p975: r.latency.p97_5,
    p99: r.latency.p99,
    max: r.latency.max,
    requests: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
  };
}

export async function runHttpLoad(options: { connections?: number; durationSeconds?: number } = {}): Promise<LoadReport> {
  const connections = options.connections ?? Number(process.env.BENCH_CONNECTIONS ?? 10);
  const durationSeconds = options.durationSeconds ?? Number(process.env.BENCH_DURATION ?? 10);
  const stack = await startLocalStack({ env: { LOG_LEVEL: 'warn' } });
  try {
    const token = await stack.idp.mint({ orgId: ORG });
    const auth = { Authorization: `Bearer ${token}` };

    const created = await fetch(`${stack.api.url}/api/business`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Bench Store', url: 'https://bench-store.example.com' }),
    });
    if (created.status !== 201) throw new Error(`POST /api/business answered ${created.status}: ${await created.text()}`);

    const now = new Date().toISOString();
    await getContainer().products.addMissing(Array.from({ length: PRODUCTS }, (_, i) => ({
      id: randomUUID(),
      orgSlug: ORG,
      productId: `product-${String(i).padStart(3, '0')}`,
      name: `Bench product ${i}`,
      url: `https://bench-store.example.com/products/product-${i}`,
      citationCount: i % 7,
      articleCount: i % 3,
      createdAt: now,
      updatedAt: now,
    })));

    // One checked request (and a warm-up: module load, JWKS fetch) before the load.
    const productsUrl = `${stack.api.url}/api/products/${ORG}`;
    const check = await fetch(productsUrl, { headers: auth });
    const text = await check.text();
    if (check.status !== 200) throw new Error(`GET /api/products/${ORG} answered ${check.status}: ${text}`);
    const total = JSON.parse(text).total as number;
    for (let i = 0; i < 20; i++) {
      await (await fetch(productsUrl, { headers: auth })).arrayBuffer();
      await (await fetch(`${stack.api.url}/health`)).arrayBuffer();
    }

    // Where the time goes: the same two DynamoDB calls as the handler, with no HTTP and no JWT.
    const container = getContainer();
    const dbTimes: number[] = [];
    for (let i = 0; i < 30; i++) {
      const t0 = performance.now();
      await container.businesses.get(ORG);
      await container.products.list(ORG);
      dbTimes.push(performance.now() - t0);
    }

    // 127.0.0.1 rather than localhost: no resolver detour, and the server listens on IPv4.
    const base = `http://127.0.0.1:${stack.api.port}`;
    const health = await autocannon('GET /health', `${base}/health`, {}, connections, durationSeconds);
    const products = await autocannon(`GET /api/products/${ORG}`, `${base}/api/products/${ORG}`, auth, connections, durationSeconds);
    return {
      mode: 'autocannon in a child process (own event loop; still shares the 2 cores with the server)',
      connections, durationSeconds, products: total, responseBytes: Buffer.byteLength(text),
      dbQueryMs: median(dbTimes),
      health, products_: products,
    };
  } finally {
    await stack.close();
  }
}

export function printLoadReport(r: LoadReport): void {
  heading(`HTTP load: ${r.connections} connections, ${r.durationSeconds} s each, loopback`);
  console.log(`load generator: ${r.mode}`);
  console.log(`products endpoint returns ${r.products} products (${int(r.responseBytes)} bytes per response)`);
  console.log('latencies are whole milliseconds as autocannon records them (<1 ms: under one millisecond)\n');
  const row = (f: LoadFigure) => [f.label, int(f.requestsPerSecond), wholeMs(f.p50), wholeMs(f.p975), wholeMs(f.p99), wholeMs(f.max), int(f.requests), int(f.non2xx), int(f.errors + f.timeouts)];
  printTable(['route', 'req/s', 'p50', 'p97.5', 'p99', 'max', 'requests', 'non-2xx', 'errors'], [row(r.health), row(r.products_)]);
  console.log(`\n/health vs products: ${(r.health.requestsPerSecond / r.products_.requestsPerSecond).toFixed(1)}x the req/s, ` +
    `p50 ${wholeMs(r.health.p50)} vs ${wholeMs(r.products_.p50)}`);
  console.log(`the handler's two DynamoDB calls alone (embedded dynalite, same process, sequential): median ${ms(r.dbQueryMs)}`);
}

if (isMain(module)) {
  runHttpLoad().then(printLoadReport).catch((err) => {
    console.error(err);
    process.exitCode = 1;
  });
}
