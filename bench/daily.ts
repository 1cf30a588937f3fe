/**
 * Daily-schedule benchmark: the wall time and peak memory of ONE daily run over N onboarded
 * local businesses (N = 10 and 100 by default), run exactly as EventBridge or trigger-all starts
 * it: the real `state-machines/daily-schedule.asl.json` in the local Step Functions stand-in
 * (retries without delay, EDGE_PROPAGATION_WAIT_SECONDS=0) with the real task handlers.
 *
 * Per N:
 *   1. the parent starts N small demo stores (one server and origin per business; BENCH_DAILY_STORE_PRODUCTS
 *      products each, default 8 = 23 pages), all in this process;
 *   2. SETUP, not measured: a child process (`--child --phase setup`) starts the local stack on a
 *      temporary data directory (dynalite on LevelDB, site files, artifacts) and onboards every business
 *      (POST /api/business + POST /api/onboarding/generate-all, BENCH_DAILY_SETUP_CONCURRENCY at a time);
 *   3. the parent changes every 5th store (20%): 2 pages edited (about, faq), 1 product added; the
 *      others stay as they were (their pages still carry per-request noise, noise.ts);
 *   4. MEASURED: a fresh child (`--child --phase daily`) starts the stack on the same data directory,
 *      POSTs /api/cron/trigger-all (X-API-Key), waits for `stack.workflows.finished(execution_id)` and reads
 *      GET /api/cron/trigger-all/{execution_id} (every page, limit 500). Wall time = trigger-all sent ->
 *      execution finished. Peak RSS = the daily child's `maxRSS` (stack start-up + the run; the stores and
 *      the onboarding setup live in other processes). Store requests = what each store served during the
 *      daily child (mapper, scraper, products.json, collections, favicon, ...);
 *   5. noise: one UNCHANGED store mapped twice with the real mapper over the guarded client; for every
 *      HTML page, is it flagged as changed by our fingerprint (the mapper's MappedUrl.fingerprint,
 *      core/crawl/fingerprint.ts) and by sha256 of the raw response body (the same two fetches)?
 *
 * Offline generators (no LLM_BASE_URL): 0 model calls. Prints figures only; asserts nothing.
 *
 *   npx tsx bench/daily.ts                  (BENCH_DAILY_SIZES=10,100)
 *   BENCH_DAILY_SIZES=10 BENCH_DAILY_STORE_PRODUCTS=24 npx tsx bench/daily.ts
 *   BENCH_DAILY_SETUP_CONCURRENCY=4 ...     (businesses onboarded at once during setup; default 4)
 *   BENCH_DAILY_DUMP=/tmp/daily.json ...    (the daily child's whole answer, per business and step, for a closer look)
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { argValue, heading, int, isMain, mb, ms, printTable, ROOT, runBenchEntry } from './lib';
import { startUsageMeter, type UsageCounts } from './usage-meter';
import { modelledVendorUsage, printCostReport, type DailyUsage } from './cost-model';
import type { SiteLayout } from '../functions/core/site/release-manifest';

const run = promisify(execFile);
const RESULT_MARKER = '@@daily-bench-result ';
const API_KEY = 'dev-api-key-change-me';
/** Every CHANGE_EVERY-th store changes before the measured run (20%). */
const CHANGE_EVERY = 5;
const STACK_ENV = { ALLOW_PRIVATE_NETWORK: '1', LOG_LEVEL: 'error', EDGE_PROPAGATION_WAIT_SECONDS: '0' };

interface StoreSpec {
  org: string;
  origin: string;
}

/** The setup child's answer. */
interface SetupResult {
  phase: 'setup';
  onboarded: number;
  failures: string[];
  wallMs: number;
}

/** One business's run, reduced to what the report needs. */
export interface DailyBusinessFigure {
  org: string;
  status: string;
  reason: string | null;
  /** started_at -> finished_at of the business run record. */
  durationMs: number | null;
  /** Per step: status and duration (null when it never ran). */
  steps: Record<string, { status: string; durationMs: number | null; attempts: number }>;
  pagesMapped: number;
  pagesFetched: number;
  pagesNew: number;
  pagesChanged: number;
  pagesRemoved: number;
  pagesScraped: number;
  newProducts: number;
  promptsSaved: number;
  deploys: number;
  changedUrls: number;
}

/** The daily child's answer. */
interface DailyChildResult {
  phase: 'daily';
  executionStatus: string;
  counts: Record<string, number>;
  wallMs: number;
  startMs: number;
  statusReadMs: number;
  businesses: DailyBusinessFigure[];
  errors: Record<string, number>;
  peakRssBytes: number;
  baselineRssBytes: number;
  /** Event-loop delay of the daily child during the run (ms): the tasks of every business in flight share that one loop. */
  loopDelay: { meanMs: number; p99Ms: number; maxMs: number };
  usage: RunUsage;
}

/** What one run used, all businesses together (bench/usage-meter.ts). */
export interface RunUsage extends UsageCounts {
  stateTransitions: number;
  mapChildExecutions: number;
  /** CPU time of the whole child during the run (the tasks, and the embedded database and hosts too). */
  cpuMs: number;
}

/** A later run of the same businesses: every store changed, or none. */
export interface LaterRunFigure {
  day: number;
  executionStatus: string;
  counts: Record<string, number>;
  wallMs: number;
  peakRssBytes: number;
  usage: RunUsage;
  deploys: number;
  /** Requests the stores served during the run (all businesses). */
  storeRequests: number;
}

export interface NoiseFigure {
  storeOrigin: string;
  /** HTML pages fetched (and fingerprinted) in both maps. */
  pages: number;
  rawFlagged: number;
  oursFlagged: number;
}

export interface GroupFigure {
  businesses: number;
  succeeded: number;
  storeRequests: number;
  pagesMapped: number;
  pagesFetched: number;
  pagesScraped: number;
  pagesNew: number;
  pagesChanged: number;
  pagesRemoved: number;
  newProducts: number;
  deploys: number;
  deploysMin: number;
  deploysMax: number;
  runMs: number;
  /** Mean duration per step id (steps that ran). */
  stepMs: Record<string, number>;
}

export interface DailyFigure {
  /** The first run's usage (day 1: the one-time article burst, 20% of stores changed). */
  usage: RunUsage;
  /** Day 2, every store changed; day 3, none. */
  changedDay: LaterRunFigure;
  steadyDay: LaterRunFigure;
  businesses: number;
  storeProducts: number;
  storePages: number;
  changedStores: number;
  setupMs: number;
  setupConcurrency: number;
  executionStatus: string;
  counts: Record<string, number>;
  wallMs: number;
  startMs: number;
  peakRssBytes: number;
  baselineRssBytes: number;
  loopDelay: DailyChildResult['loopDelay'];
  totalStoreRequests: number;
  changed: GroupFigure;
  unchanged: GroupFigure;
  errors: Record<string, number>;
  failures: string[];
  noise: NoiseFigure;
}

export interface DailyReport {
  figures: DailyFigure[];
}

const rss = () => process.resourceUsage().maxRSS * 1024;
const isChanged = (index: number) => index % CHANGE_EVERY === 0;
const orgOf = (index: number) => `bench-daily-${String(index + 1).padStart(3, '0')}`;

// ---------------------------------------------------------------------------------------
// children: the local stack on a persistent data directory

async function startStack(dataDir: string, options: { clock?: { now(): Date }; taskOverrides?: Record<string, (payload: unknown) => Promise<unknown>> } = {}) {
  const { startLocalStack } = await import('../functions/local/runtime');
  const { setLogSink } = await import('../functions/logger');
  const errors: Record<string, number> = {};
  setLogSink((line) => {
    try {
      const entry = JSON.parse(line) as { level?: string; msg?: string };
      if (entry.level === 'warn' || entry.level === 'error') errors[`${entry.level}: ${entry.msg}`] = (errors[`${entry.level}: ${entry.msg}`] ?? 0) + 1;
    } catch {
      /* not JSON */
    }
    process.stderr.write(`${line}\n`);
  });
  const portsFile = join(dataDir, '..', 'ports.json');
  const [port, sitesPort, proxyPort] = existsSync(portsFile) ? JSON.parse(readFileSync(portsFile, 'utf8')) as number[] : [];
  const stack = await startLocalStack({
    dataDir, env: STACK_ENV, port, sitesPort, proxyPort, workflows: { retryWithoutDelay: true, taskOverrides: options.taskOverrides }, ...(options.clock ? { clock: options.clock } : {}),
  });
  const call = async (method: string, path: string, auth: { token?: string; apiKey?: string }, body?: unknown) => {
    const headers: Record<string, string> = {};
    if (auth.token) headers.Authorization = `Bearer ${auth.token}`;
    if (auth.apiKey) headers['X-API-Key'] = auth.apiKey;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(`${stack.api.url}${path}`, { method, headers, body: body !== undefined ? JSON.stringify(body) : undefined });
    const text = await res.text();
    let json: any = text;
    try { json = JSON.parse(text); } catch { /* keep the text */ }
    return { status: res.status, body: json };
  };
  return { stack, call, errors };
}

async function setupChild(dataDir: string, stores: StoreSpec[], concurrency: number): Promise<SetupResult> {
  const { stack, call } = await startStack(dataDir);
  const failures: string[] = [];
  let onboarded = 0;
  const t0 = performance.now();
  try {
    const onboard = async ({ org, origin }: StoreSpec) => {
      const token = await stack.idp.mint({ orgId: org });
      const created = await call('POST', '/api/business', { token }, { name: `${org} coffee`, url: origin });
      if (created.status !== 201) throw new Error(`POST /api/business answered ${created.status}: ${JSON.stringify(created.body)}`);
      const started = await call('POST', '/api/onboarding/generate-all', { token }, {});
      if (started.status !== 202) throw new Error(`generate-all answered ${started.status}: ${JSON.stringify(started.body)}`);
      await stack.workflows.finished(started.body.execution_id);
      const status = await call('GET', '/api/onboarding/status', { token });
      if (status.body?.status !== 'succeeded') throw new Error(`onboarding ended ${status.body?.status}: ${JSON.stringify(status.body?.steps?.filter((s: any) => s.reason).map((s: any) => `${s.id}: ${s.reason}`))}`);
    };
    let next = 0;
    const worker = async () => {
      while (next < stores.length) {
        const store = stores[next++];
        try {
          await onboard(store);
          onboarded++;
        } catch (err) {
          failures.push(`${store.org}: ${(err as Error).message.slice(0, 300)}`);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
  } finally {
    await stack.close();
  }
  return { phase: 'setup', onboarded, failures, wallMs: performance.now() - t0 };
}

const spanMs = (from: string | null | undefined, to: string | null | undefined) => (from && to ? Date.parse(to) - Date.parse(from) : null);
const num = (v: unknown) => (typeof v === 'number' ? v : 0);

function businessFigure(r: any): DailyBusinessFigure {
  const steps: DailyBusinessFigure['steps'] = {};
  for (const [id, s] of Object.entries<any>(r.steps ?? {})) steps[id] = { status: s.status, durationMs: spanMs(s.started_at, s.finished_at), attempts: s.attempts };
  const result = (id: string) => (r.steps?.[id]?.result ?? {}) as Record<string, unknown>;
  const detect = result('1a');
  return {
    org: r.org_slug,
    status: r.status,
    reason: r.reason,
    durationMs: spanMs(r.started_at, r.finished_at),
    steps,
    pagesMapped: num(detect.pages_mapped),
    pagesFetched: num(detect.pages_fetched),
    pagesNew: num(detect.pages_new),
    pagesChanged: num(detect.pages_changed),
    pagesRemoved: num(detect.pages_removed),
    pagesScraped: num(detect.pages_scraped),
    newProducts: Array.isArray(result('1b').new_products) ? (result('1b').new_products as unknown[]).length : 0,
    promptsSaved: num(result('1b-prompts').prompts_saved),
    deploys: num(result('deploy').deploys),
    changedUrls: Array.isArray(r.changed_urls) ? r.changed_urls.length : 0,
  };
}

/** The daily schedule's task functions, each loadable as the runner would. */
function dailyTaskMeter() {
  const { taskStates } = require('../functions/local/runtime/workflow-runner') as typeof import('../functions/local/runtime/workflow-runner');
  const definition = JSON.parse(readFileSync(join(ROOT, 'state-machines', 'daily-schedule.asl.json'), 'utf8'));
  const names = [...new Set([...taskStates(definition.States).values()].map((t) => t.fn))];
  const kebab = (pascal: string) => pascal.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
  return startUsageMeter(names, (fn) => require(join(ROOT, 'functions', 'tasks', kebab(fn))).handler);
}

async function dailyChild(dataDir: string, day: number): Promise<DailyChildResult> {
  // Day 1 is the first daily run after onboarding; day n runs n-1 days later (the service's clock only).
  const clock = { now: () => new Date(Date.now() + (day - 1) * 86_400_000) };
  const meter = dailyTaskMeter();
  const { stack, call, errors } = await startStack(dataDir, { clock, taskOverrides: meter.taskOverrides });
  const { getContainer } = await import('../functions/container');
  meter.attach(getContainer());
  try {
    meter.take();
    const cpuBefore = process.cpuUsage();
    const baselineRssBytes = rss();
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const t0 = performance.now();
    const started = await call('POST', '/api/cron/trigger-all', { apiKey: API_KEY }, {});
    const startMs = performance.now() - t0;
    if (started.status !== 202) throw new Error(`trigger-all answered ${started.status}: ${JSON.stringify(started.body)}`);
    await stack.workflows.finished(started.body.execution_id);
    const wallMs = performance.now() - t0;
    const peakRssBytes = rss();
    const history = stack.workflows.history(started.body.execution_id);
    const cpu = process.cpuUsage(cpuBefore);
    const usage: RunUsage = {
      ...meter.take(),
      cpuMs: (cpu.user + cpu.system) / 1000,
      // Billed: every state entered, every retry; each business is one Distributed Map child execution.
      stateTransitions: history.filter((e) => e.type === 'StateEntered' || e.type === 'StateRetried').length,
      mapChildExecutions: history.filter((e) => e.type === 'MapIterationStarted' && e.state === 'ProcessBusinesses').length,
    };
    loop.disable();
    const loopDelay = { meanMs: loop.mean / 1e6, p99Ms: loop.percentile(99) / 1e6, maxMs: loop.max / 1e6 };

    const t1 = performance.now();
    const runs: any[] = [];
    let body: any;
    let cursor: string | null = null;
    do {
      const res = await call('GET', `${started.body.status_url}?limit=500${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { apiKey: API_KEY });
      if (res.status !== 200) throw new Error(`GET ${started.body.status_url} answered ${res.status}: ${JSON.stringify(res.body)}`);
      body = res.body;
      runs.push(...body.businesses.runs);
      cursor = body.businesses.next_cursor;
    } while (cursor);
    return {
      phase: 'daily',
      executionStatus: body.status,
      counts: body.counts ?? {},
      wallMs,
      startMs,
      statusReadMs: performance.now() - t1,
      businesses: runs.map(businessFigure),
      errors,
      peakRssBytes,
      baselineRssBytes,
      loopDelay,
      usage,
    };
  } finally {
    meter.stop();
    await stack.close();
  }
}

async function child(): Promise<SetupResult | DailyChildResult> {
  const dataDir = argValue('--data');
  if (!dataDir) throw new Error('--data <dir> is required');
  if (argValue('--phase') === 'setup') {
    const stores = JSON.parse(readFileSync(argValue('--stores') ?? join(dataDir, '..', 'stores.json'), 'utf8')) as StoreSpec[];
    return setupChild(dataDir, stores, Number(argValue('--concurrency') ?? 4));
  }
  return dailyChild(dataDir, Number(argValue('--day') ?? 1));
}

// ---------------------------------------------------------------------------------------
// parent: the stores, the changes, the noise check

/** Ports free now (listened on, then closed), for children that start one after another. */
async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(Array.from({ length: count }, () => new Promise<Server>((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => resolve(server));
  })));
  const ports = servers.map((s) => (s.address() as AddressInfo).port);
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  return ports;
}

async function runChild<T>(args: string[], label: string): Promise<T> {
  let stdout: string;
  try {
    ({ stdout } = await run(process.execPath, ['--import', 'tsx', __filename, '--child', ...args], {
      cwd: ROOT,
      env: { ...process.env, NODE_NO_WARNINGS: '1' },
      maxBuffer: 256 * 1024 * 1024,
      timeout: 20 * 60_000,
    }));
  } catch (err) {
    const e = err as Error & { stderr?: string };
    throw new Error(`daily ${label} child failed: ${e.message.split('\n')[0]}\n${(e.stderr ?? '').slice(-3000)}`);
  }
  const line = stdout.split('\n').find((l) => l.startsWith(RESULT_MARKER));
  if (!line) throw new Error(`daily ${label} child printed no result:\n${stdout.slice(-2000)}`);
  return JSON.parse(line.slice(RESULT_MARKER.length)) as T;
}

type DemoStore = Awaited<ReturnType<typeof import('../functions/local/demo-store')['startDemoStore']>>;

/** 2 pages edited, 1 product added: the "real work" of a changed store. */
function changeStore(store: DemoStore, index: number): void {
  store.admin.editPage('about', { body_html: `<p>We moved the roastery to Biddeford in 2026 (store ${index + 1}) and doubled our green-coffee storage.</p>` });
  store.admin.editPage('faq', { body_html: '<h2>Do you ship abroad?</h2><p>Yes, to 31 countries from our Biddeford roastery.</p>' });
  store.admin.addProduct({
    handle: 'kyoto-drip-kettle', title: 'Kyoto Drip Kettle', product_type: 'Brewing Gear', tags: ['kettle', 'pour over', 'gooseneck'],
    body_html: '<p>A 0.9 L gooseneck kettle in brushed stainless steel for precise pour-over brewing.</p><ul><li>Built-in thermometer</li></ul>',
    variants: [{ title: 'Steel', price: '48.00', sku: 'KDK-ST' }, { title: 'Matte Black', price: '54.00', sku: 'KDK-BK' }], option_name: 'Finish',
  });
}

/** A second day's change for every store: the about page edited and one product added. */
function changeStoreAgain(store: DemoStore, index: number): void {
  store.admin.editPage('about', { body_html: `<p>Store ${index + 1} now roasts twice a week and ships the same day.</p>` });
  store.admin.addProduct({
    handle: 'harbor-decaf-blend', title: 'Harbor Decaf Blend', product_type: 'Coffee', tags: ['decaf', 'blend'],
    body_html: '<p>Swiss Water Process decaf from Colombia and Brazil. Notes of cocoa and toasted almond; medium roast.</p>',
    variants: [{ title: '12 oz', price: '17.50', sku: 'HDB-12' }, { title: '2 lb', price: '39.00', sku: 'HDB-32' }], option_name: 'Size',
  });
}

function laterRun(day: number, run: DailyChildResult, storeRequests: number): LaterRunFigure {
  return {
    day, executionStatus: run.executionStatus, counts: run.counts, wallMs: run.wallMs, peakRssBytes: run.peakRssBytes, usage: run.usage,
    deploys: run.businesses.reduce((n, b) => n + b.deploys, 0), storeRequests,
  };
}

/** Maps one store twice with the real mapper; per HTML page: changed by our fingerprint? by sha256 of the raw body? */
async function measureNoise(origin: string): Promise<NoiseFigure> {
  const { createGuardedFetch } = await import('../functions/adapters/external/guarded-fetch');
  const { mapSite } = await import('../functions/adapters/external/mapper');
  const guarded = createGuardedFetch({ allowPrivateNetwork: true, timeoutMs: 30_000 });
  const once = async () => {
    const raw = new Map<string, string>();
    const fetchUrl: typeof guarded = async (url, request) => {
      const res = await guarded(url, request);
      const hash = createHash('sha256').update(res.body).digest('hex');
      raw.set(url, hash);
      raw.set(res.url, hash);
      return res;
    };
    const map = await mapSite(fetchUrl, origin);
    return { raw, fingerprints: new Map(map.urls.filter((u) => u.fingerprint !== undefined).map((u) => [u.url, u.fingerprint!])) };
  };
  const a = await once();
  const b = await once();
  let pages = 0;
  let rawFlagged = 0;
  let oursFlagged = 0;
  for (const [url, fp] of a.fingerprints) {
    const fp2 = b.fingerprints.get(url);
    const [ra, rb] = [a.raw.get(url), b.raw.get(url)];
    if (fp2 === undefined || ra === undefined || rb === undefined) continue;
    pages++;
    if (fp !== fp2) oursFlagged++;
    if (ra !== rb) rawFlagged++;
  }
  return { storeOrigin: origin, pages, rawFlagged, oursFlagged };
}

const mean = (values: number[]) => (values.length ? values.reduce((s, v) => s + v, 0) / values.length : NaN);

function group(list: Array<DailyBusinessFigure & { storeRequests: number }>): GroupFigure {
  const stepIds = [...new Set(list.flatMap((b) => Object.keys(b.steps)))];
  const stepMs: Record<string, number> = {};
  for (const id of stepIds) {
    const ran = list.map((b) => b.steps[id]?.durationMs).filter((d): d is number => d !== null && d !== undefined);
    if (ran.length) stepMs[id] = mean(ran);
  }
  const deploys = list.map((b) => b.deploys);
  return {
    businesses: list.length,
    succeeded: list.filter((b) => b.status === 'succeeded').length,
    storeRequests: mean(list.map((b) => b.storeRequests)),
    pagesMapped: mean(list.map((b) => b.pagesMapped)),
    pagesFetched: mean(list.map((b) => b.pagesFetched)),
    pagesScraped: mean(list.map((b) => b.pagesScraped)),
    pagesNew: mean(list.map((b) => b.pagesNew)),
    pagesChanged: mean(list.map((b) => b.pagesChanged)),
    pagesRemoved: mean(list.map((b) => b.pagesRemoved)),
    newProducts: mean(list.map((b) => b.newProducts)),
    deploys: mean(deploys),
    deploysMin: deploys.length ? Math.min(...deploys) : NaN,
    deploysMax: deploys.length ? Math.max(...deploys) : NaN,
    runMs: mean(list.map((b) => b.durationMs ?? NaN).filter(Number.isFinite)),
    stepMs,
  };
}

async function measureSize(businesses: number, storeProducts: number, setupConcurrency: number): Promise<DailyFigure> {
  const { startDemoStore } = await import('../functions/local/demo-store');
  const stores: DemoStore[] = [];
  const tmp = mkdtempSync(join(tmpdir(), 'aivis-daily-bench-'));
  const dataDir = join(tmp, 'data');
  try {
    for (let i = 0; i < businesses; i++) stores.push(await startDemoStore({ products: storeProducts }));
    const specs: StoreSpec[] = stores.map((s, i) => ({ org: orgOf(i), origin: s.origin }));
    const storePages = stores[0].stats.totalPages;
    const storesFile = join(tmp, 'stores.json');
    writeFileSync(storesFile, JSON.stringify(specs));
    // Every child serves on the same ports, as a deployment keeps its hosts: the AI-site and API
    // origins are in the pages, and a new port each day would make every page a change.
    writeFileSync(join(tmp, 'ports.json'), JSON.stringify(await freePorts(3)));

    const setup = await runChild<SetupResult>(['--phase', 'setup', '--data', dataDir, '--stores', storesFile, '--concurrency', String(setupConcurrency)], `setup (${businesses})`);
    console.log(`  setup: ${setup.onboarded}/${businesses} businesses onboarded in ${ms(setup.wallMs)} (${setupConcurrency} at a time)` +
      (setup.failures.length ? `; failed: ${setup.failures.slice(0, 3).join('; ')}` : ''));

    stores.forEach((s, i) => { if (isChanged(i)) changeStore(s, i); });
    const before = stores.map((s) => s.requests());
    const daily = await runChild<DailyChildResult>(['--phase', 'daily', '--data', dataDir], `daily (${businesses})`);
    const requests = stores.map((s, i) => s.requests() - before[i]);
    if (process.env.BENCH_DAILY_DUMP) writeFileSync(process.env.BENCH_DAILY_DUMP, JSON.stringify(daily, null, 1));

    const unchangedIndex = stores.findIndex((_, i) => !isChanged(i));
    const noise = await measureNoise(stores[unchangedIndex >= 0 ? unchangedIndex : 0].origin);

    const byOrg = new Map(daily.businesses.map((b) => [b.org, b]));
    const withRequests = (i: number) => {
      const b = byOrg.get(orgOf(i));
      return b ? [{ ...b, storeRequests: requests[i] }] : [];
    };
    const indexes = stores.map((_, i) => i);
    // Day 2: every store changed (a page edited, a product added); day 3: none did (the steady state).
    stores.forEach((s, i) => changeStoreAgain(s, i));
    const later = async (day: number) => {
      const sent = stores.reduce((n, st) => n + st.requests(), 0);
      const result = await runChild<DailyChildResult>(['--phase', 'daily', '--data', dataDir, '--day', String(day)], `daily day ${day} (${businesses})`);
      return laterRun(day, result, stores.reduce((n, st) => n + st.requests(), 0) - sent);
    };
    const changedDay = await later(2);
    const steadyDay = await later(3);
    return {
      changedDay,
      steadyDay,
      usage: daily.usage,
      businesses,
      storeProducts,
      storePages,
      changedStores: indexes.filter(isChanged).length,
      setupMs: setup.wallMs,
      setupConcurrency,
      executionStatus: daily.executionStatus,
      counts: daily.counts,
      wallMs: daily.wallMs,
      startMs: daily.startMs,
      peakRssBytes: daily.peakRssBytes,
      baselineRssBytes: daily.baselineRssBytes,
      loopDelay: daily.loopDelay,
      totalStoreRequests: requests.reduce((s, n) => s + n, 0),
      changed: group(indexes.filter(isChanged).flatMap(withRequests)),
      unchanged: group(indexes.filter((i) => !isChanged(i)).flatMap(withRequests)),
      errors: daily.errors,
      failures: [...setup.failures, ...daily.businesses.filter((b) => b.status !== 'succeeded').map((b) => `${b.org} ${b.status}: ${b.reason ?? ''}`.slice(0, 300))],
      noise,
    };
  } finally {
    await Promise.all(stores.map((s) => s.close().catch(() => undefined)));
    rmSync(tmp, { recursive: true, force: true });
  }
}

const listEnv = (name: string, fallback: string) => (process.env[name] ?? fallback).split(',').map((s) => s.trim()).filter(Boolean);

export async function measureDaily(options: { sizes?: number[]; storeProducts?: number; setupConcurrency?: number } = {}): Promise<DailyReport> {
  const sizes = options.sizes ?? listEnv('BENCH_DAILY_SIZES', '10,100').map(Number);
  const storeProducts = options.storeProducts ?? Number(process.env.BENCH_DAILY_STORE_PRODUCTS ?? 8);
  const setupConcurrency = options.setupConcurrency ?? Number(process.env.BENCH_DAILY_SETUP_CONCURRENCY ?? 4);
  const figures: DailyFigure[] = [];
  for (const n of sizes) {
    console.log(`daily: ${n} businesses, ${storeProducts}-product demo stores ...`);
    figures.push(await measureSize(n, storeProducts, setupConcurrency));
  }
  return { figures };
}

// ---------------------------------------------------------------------------------------
// report

const pct = (part: number, whole: number) => (whole > 0 ? `${((100 * part) / whole).toFixed(0)}%` : '-');
const dec = (v: number) => (Number.isFinite(v) ? (Number.isInteger(v) ? String(v) : v.toFixed(1)) : '-');
const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(2)}x` : '-');

export const noiseLine = (n: NoiseFigure) =>
  `unchanged noisy pages flagged as changed: raw-HTML sha256 ${n.rawFlagged}/${n.pages} (${pct(n.rawFlagged, n.pages)}), ` +
  `ours (noise-free fingerprint) ${n.oursFlagged}/${n.pages} (${pct(n.oursFlagged, n.pages)})`;

export const deploysText = (g: GroupFigure) => `${dec(g.deploys)}${g.deploysMin !== g.deploysMax ? ` (${g.deploysMin}-${g.deploysMax})` : ''}`;

export function printDailyReport(r: DailyReport): void {
  const figs = r.figures;
  if (!figs.length) return;
  heading('daily schedule: one run (ASL in the local Step Functions stand-in), child process per run');
  const label = (f: DailyFigure) => `${int(f.businesses)} businesses`;
  const both = (pick: (g: GroupFigure) => string) => figs.map((f) => `${pick(f.changed)} / ${pick(f.unchanged)}`);
  const stepIds = [...new Set(figs.flatMap((f) => [...Object.keys(f.changed.stepMs), ...Object.keys(f.unchanged.stepMs)]))];
  printTable(
    ['', ...figs.map(label)],
    [
      ['stores (each its own origin)', ...figs.map((f) => `${f.storeProducts} products, ${f.storePages} pages`)],
      ['changed stores (2 pages edited, 1 product added)', ...figs.map((f) => int(f.changedStores))],
      ['setup: onboarding, not measured', ...figs.map((f) => `${ms(f.setupMs)} (${f.setupConcurrency} at a time)`)],
      ['execution status', ...figs.map((f) => f.executionStatus)],
      ['businesses succeeded/partial/failed/skipped', ...figs.map((f) => ['succeeded', 'partial', 'failed', 'skipped'].map((k) => f.counts[k] ?? 0).join('/'))],
      ['wall time (trigger-all -> finished)', ...figs.map((f) => ms(f.wallMs))],
      ['  per business', ...figs.map((f) => ms(f.wallMs / f.businesses))],
      ['peak RSS (daily child)', ...figs.map((f) => mb(f.peakRssBytes))],
      ['RSS with the stack up', ...figs.map((f) => mb(f.baselineRssBytes))],
      ['event-loop delay mean / p99 / max', ...figs.map((f) => `${ms(f.loopDelay.meanMs)} / ${ms(f.loopDelay.p99Ms)} / ${ms(f.loopDelay.maxMs)}`)],
      ['store requests, all stores', ...figs.map((f) => int(f.totalStoreRequests))],
      ['per business, mean: changed / unchanged', ...figs.map(() => '')],
      ['  store requests', ...both((g) => dec(g.storeRequests))],
      ['  1a pages mapped', ...both((g) => dec(g.pagesMapped))],
      ['  1a pages fetched', ...both((g) => dec(g.pagesFetched))],
      ['  1a pages new + changed (- removed)', ...both((g) => `${dec(g.pagesNew)}+${dec(g.pagesChanged)}${g.pagesRemoved ? ` -${dec(g.pagesRemoved)}` : ''}`)],
      ['  1a pages scraped', ...both((g) => dec(g.pagesScraped))],
      ['  1b new products', ...both((g) => dec(g.newProducts))],
      ['  deploys (expect 1 / 0)', ...both(deploysText)],
      ['  business run (start -> finish)', ...both((g) => ms(g.runMs))],
      ...stepIds.map((id) => [`  step ${id}`, ...both((g) => (g.stepMs[id] === undefined ? '-' : ms(g.stepMs[id])))]),
      ['model calls', ...figs.map(() => '0 (offline generators)')],
    ],
  );
  console.log('');
  for (const f of figs) {
    console.log(`${label(f)}: noise check on one unchanged store (${f.noise.storeOrigin}, mapped twice): ${noiseLine(f.noise)}`);
    if (f.failures.length) console.log(`  not succeeded: ${f.failures.slice(0, 5).join('; ')}${f.failures.length > 5 ? ` (+${f.failures.length - 5} more)` : ''}`);
    const logged = Object.entries(f.errors);
    if (logged.length) console.log(`  logged: ${logged.slice(0, 8).map(([k, v]) => `${k} x${v}`).join('; ')}`);
  }
  const [small, big] = [figs[0], figs[figs.length - 1]];
  if (figs.length > 1 && small !== big) {
    heading(`daily: ${int(big.businesses)} vs ${int(small.businesses)} businesses`);
    printTable(['', label(small), label(big), 'ratio'], [
      ['businesses', int(small.businesses), int(big.businesses), ratio(big.businesses, small.businesses)],
      ['wall time', ms(small.wallMs), ms(big.wallMs), ratio(big.wallMs, small.wallMs)],
      ['wall time per business', ms(small.wallMs / small.businesses), ms(big.wallMs / big.businesses), ratio(big.wallMs / big.businesses, small.wallMs / small.businesses)],
      ['peak RSS', mb(small.peakRssBytes), mb(big.peakRssBytes), ratio(big.peakRssBytes, small.peakRssBytes)],
      ['store requests', int(small.totalStoreRequests), int(big.totalStoreRequests), ratio(big.totalStoreRequests, small.totalStoreRequests)],
    ]);
  }
  for (const f of figs) printDaysTable(f);
  const f = figs[figs.length - 1];
  heading(`daily cost model, from the ${int(f.businesses)}-business runs (assumptions: COST_ASSUMPTIONS in bench/daily.ts; prices: bench/cost-model.ts)`);
  printCostReport([
    { name: 'unchanged (day 3)', usage: dailyUsageOf(f.steadyDay.usage, f.businesses, f.steadyDay.storeRequests) },
    { name: 'changed (day 2)', usage: dailyUsageOf(f.changedDay.usage, f.businesses, f.changedDay.storeRequests) },
    { name: 'first day (day 1)', usage: dailyUsageOf(f.usage, f.businesses, f.totalStoreRequests) },
    { name: 'changed, manifest layout (D179)', usage: dailyUsageOf(f.changedDay.usage, f.businesses, f.changedDay.storeRequests, 'manifest') },
  ]);
  console.log('\nNotes: every task runs in ONE Node process here (the stand-in), the Distributed Map runs up to 40 child' +
    ' executions of 10 businesses at once (every business of a 100-business run) on one event loop, and the database is dynalite on LevelDB in that same process; on AWS each task is' +
    ' its own Lambda. Step durations therefore overlap and stretch each other (a step made of many sequential awaits, like the' +
    ' deploy\'s file-by-file release write, waits a loop turn per await), and the first businesses also pay the child\'s module' +
    ' loading (tsx) and JIT warm-up, which weighs more at small N. The stores run in the parent process. Raw-HTML hashing would' +
    ' re-scrape (and redeploy) every unchanged business every day; the fingerprint flags only real changes.');
}

/** What one business used on a day, from a run's totals (per business: the run's total over its businesses). */
export function perBusiness(usage: RunUsage, businesses: number) {
  const tasks = Object.values(usage.tasks);
  const per = (v: number) => v / Math.max(1, businesses);
  return {
    taskInvocations: per(tasks.reduce((n, t) => n + t.invocations, 0)),
    taskSeconds: per(tasks.reduce((n, t) => n + t.durationMs, 0) / 1000),
    stateTransitions: per(usage.stateTransitions),
    readUnits: per(usage.dynamo.readUnits),
    writeUnits: per(usage.dynamo.writeUnits),
    releaseFilesWritten: per(usage.objects.releaseFilesWritten),
    s3ObjectsWritten: per(usage.objects.releaseObjectsWrittenOnS3 + usage.objects.artifactsWritten),
    s3ObjectsWrittenManifest: per(usage.objects.releaseObjectsWrittenOnS3Manifest + usage.objects.artifactsWritten),
    artifactsWritten: per(usage.objects.artifactsWritten),
    objectReads: per(usage.objects.reads),
  };
}

/**
 * Assumptions where the local run measures nothing (each named so the cost table can be read):
 * on Lambda a task's billed time is its share of the run's CPU time (the child's CPU, the
 * embedded database's included: an overestimate) plus the network time of its requests,
 * spread by each function's share of the measured task time; and the AI sites' viewer traffic.
 */
export const COST_ASSUMPTIONS = {
  /** Network time per DynamoDB request and per S3 request from a Lambda in the same region. */
  dynamoRequestMs: 5,
  s3RequestMs: 15,
  /** Per invocation: the Lambda runtime's own overhead, init amortized over warm starts. */
  invocationMs: 10,
  /** Requests to one business's AI site per day (crawlers and people) and their mean size. */
  viewerRequestsPerDay: 300,
  viewerBytesPerRequest: 30_000,
  /** Releases kept per business (RELEASES_KEPT): what S3 stores. */
  releasesKept: 5,
  /**
   * The manifest layout (D179): every viewer request is taken to reach the origin (no edge
   * cache hit: the upper bound) and run the resolver, a manifest read from its warm cache.
   */
  resolverMsPerRequest: 5,
  resolverMemoryMb: 128,
} as const;

/** One business's day for the cost model (bench/cost-model.ts), from a run's measured totals. */
export function dailyUsageOf(usage: RunUsage, businesses: number, storeRequests: number, layout: SiteLayout = 'prefix'): DailyUsage {
  const n = Math.max(1, businesses);
  const a = COST_ASSUMPTIONS;
  // The task Lambdas' configured memory; loaded here only (the CDK app is heavy, the children never need it).
  const { TASK_MEMORY_MB } = require('../lib/stacks/workflow-stack') as typeof import('../lib/stacks/workflow-stack');
  const tasks = Object.entries(usage.tasks);
  const wallTotal = tasks.reduce((t, [, u]) => t + u.durationMs, 0) || 1;
  const s3Requests = usage.objects.releaseObjectsWrittenOnS3 + usage.objects.artifactsWritten + usage.objects.reads + usage.objects.lists;
  const spreadMs = usage.cpuMs + usage.dynamo.requests * a.dynamoRequestMs + s3Requests * a.s3RequestMs;
  return {
    lambda: tasks.map(([fn, u]) => ({
      fn, invocations: u.invocations / n, memoryMb: TASK_MEMORY_MB,
      durationMs: (spreadMs * (u.durationMs / wallTotal) + u.invocations * a.invocationMs) / n,
    })),
    // The parent is billed one transition per child execution it starts, besides the children's own.
    stateTransitions: (usage.stateTransitions + usage.mapChildExecutions) / n,
    mapChildExecutions: usage.mapChildExecutions / n,
    dynamo: { readUnits: usage.dynamo.readUnits / n, writeUnits: usage.dynamo.writeUnits / n },
    s3: {
      puts: ((layout === 'manifest' ? usage.objects.releaseObjectsWrittenOnS3Manifest : usage.objects.releaseObjectsWrittenOnS3) + usage.objects.artifactsWritten) / n,
      gets: usage.objects.reads / n,
      lists: usage.objects.lists / n,
      storedBytes: (usage.objects.releaseBytesWritten / n) * a.releasesKept,
    },
    cloudfront: {
      requests: a.viewerRequestsPerDay, bytesOut: a.viewerRequestsPerDay * a.viewerBytesPerRequest, functionInvocations: a.viewerRequestsPerDay,
      ...(layout === 'manifest'
        ? { edgeLambda: { invocations: a.viewerRequestsPerDay, durationMs: a.viewerRequestsPerDay * a.resolverMsPerRequest, memoryMb: a.resolverMemoryMb } }
        : {}),
    },
    // Offline here: the day's 80 checks and their judge as the platforms would bill them.
    vendors: modelledVendorUsage(),
    scrapes: { pages: storeRequests / n },
  };
}

/** The three days side by side: the first run (burst), a day every store changed, a day none did. */
function printDaysTable(f: DailyFigure): void {
  const days = [
    { name: 'day 1: first run (20% changed)', wallMs: f.wallMs, peak: f.peakRssBytes, usage: f.usage, status: f.executionStatus, deploys: f.changed.deploys * f.changedStores + f.unchanged.deploys * (f.businesses - f.changedStores) },
    { name: 'day 2: every store changed', wallMs: f.changedDay.wallMs, peak: f.changedDay.peakRssBytes, usage: f.changedDay.usage, status: f.changedDay.executionStatus, deploys: f.changedDay.deploys },
    { name: 'day 3: none changed (steady)', wallMs: f.steadyDay.wallMs, peak: f.steadyDay.peakRssBytes, usage: f.steadyDay.usage, status: f.steadyDay.executionStatus, deploys: f.steadyDay.deploys },
  ];
  const per = days.map((d) => perBusiness(d.usage, f.businesses));
  heading(`daily: ${int(f.businesses)} businesses over three days (each day a fresh child; usage per business, estimated by bench/usage-meter.ts)`);
  printTable(['', ...days.map((d) => d.name)], [
    ['execution status', ...days.map((d) => d.status)],
    ['wall time (trigger-all -> finished)', ...days.map((d) => ms(d.wallMs))],
    ['peak RSS (daily child)', ...days.map((d) => mb(d.peak))],
    ['merged deploys (batch 1), all businesses', ...days.map((d) => int(d.deploys))],
    ['per business: task invocations', ...per.map((p) => dec(p.taskInvocations))],
    ['  task time (s, one shared process)', ...per.map((p) => p.taskSeconds.toFixed(2))],
    ['  state transitions', ...per.map((p) => dec(p.stateTransitions))],
    ['  DynamoDB read / write units', ...per.map((p) => `${dec(p.readUnits)} / ${dec(p.writeUnits)}`)],
    ['  release files written', ...per.map((p) => dec(p.releaseFilesWritten))],
    ['  objects written on S3 (release + /ai/ copies + artifacts)', ...per.map((p) => dec(p.s3ObjectsWritten))],
    ['  same, manifest layout (changed objects + manifest + artifacts; D179)', ...per.map((p) => dec(p.s3ObjectsWrittenManifest))],
    ['  objects read (release files, artifacts)', ...per.map((p) => dec(p.objectReads))],
    ['  most read', ...days.map((d) => Object.entries(d.usage.readsByKind).sort((a, b) => b[1] - a[1]).slice(0, 3)
      .map(([kind, n]) => `${kind} ${dec(n / f.businesses)}`).join(', '))],
  ]);
}

export async function runDailyBench(): Promise<DailyReport> {
  const report = await measureDaily();
  printDailyReport(report);
  return report;
}

if (isMain(module)) runBenchEntry(RESULT_MARKER, child, runDailyBench);
