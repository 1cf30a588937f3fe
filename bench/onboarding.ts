/**
 * Onboarding benchmark: the wall time and peak memory of the WHOLE onboarding workflow, run
 * exactly as a dashboard starts it: the real `state-machines/onboarding.asl.json` in the local
 * Step Functions stand-in (aws-local-stepfunctions, real retry intervals) with the real task
 * handlers, on the local stack (in-memory DynamoDB, site files and artifacts under a temp dir),
 * against the default demo store (24 products) and generated demo stores of 5,200 and 20,000
 * products, while a dashboard polls the status every 500 ms (its answer times and failures are
 * reported) and the table's largest item is measured after the run.
 *
 * Per run: POST /api/business, POST /api/onboarding/generate-all (202 {execution_id}), wait for
 * `stack.workflows.finished(execution_id)`, then GET /api/onboarding/status (per-step status,
 * duration_ms, reason, result), GET /api/prompts/{org} and GET /api/products/{org}.
 * Wall time = generate-all sent -> execution finished. Store pages fetched = requests the demo
 * store served during the run (mapper, scraper, products.json, favicon, ...).
 *
 * Each size runs twice, each run in a child process of its own (`--child --size N --engine E`)
 * so its peak RSS (`process.resourceUsage().maxRSS`) is its own; the parent serves the demo
 * store and passes `--origin`, so the child's RSS is our code only (plus the tiny mock model):
 *   offline  no LLM_BASE_URL: the offline narrative and prompt generators, 0 model calls.
 *   model    LLM_BASE_URL -> a mock OpenAI-compatible server the child starts on 127.0.0.1:0.
 *            `POST /chat/completions` answers valid JSON for every part the engines ask for
 *            (2a: overview, FAQs, product-summary chunks; 3a: business prompts, product-prompt
 *            chunks) and counts the calls; answers come back at once (BENCH_ONBOARDING_MODEL_LATENCY_MS
 *            adds a delay per call), so the figure is our own overhead around the calls, not a
 *            real model's latency. Fallbacks to the offline engine are reported from the
 *            engines' own stats and the step results.
 *
 *   npx tsx bench/onboarding.ts                          (BENCH_ONBOARDING_PRODUCTS=0,5200,20000)
 *   BENCH_ONBOARDING_ENGINES=offline npx tsx bench/onboarding.ts
 *   BENCH_ONBOARDING_MODEL_MAX_PRODUCTS=0 ...             (model variant only up to that many products)
 *   npx tsx bench/onboarding.ts --child --size 5217 --engine model   (one run of a store of that many pages; prints one JSON line)
 *   BENCH_ONBOARDING_DB=disk ...                          (the embedded database on disk, as `npm start` keeps it, instead of in memory)
 */
import { execFile } from 'node:child_process';
import { onboardingProductPromptCounts } from '../functions/core/prompts/strategy';
import { coverageLine, siblingPromptCoverage, type PromptCoverage } from './sibling-store';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import type { PromptFigures } from './fidelity';
import { argValue, heading, int, isMain, kb, mb, ms, printTable, ROOT, runBenchEntry } from './lib';
import { startStatusPoller, type PollFigure } from './status-poller';

const run = promisify(execFile);
const RESULT_MARKER = '@@onboarding-bench-result ';
const ORG = 'bench-onboarding';
const BUSINESS_NAME = 'Harbor & Pine Coffee Co.';

export type Engine = 'offline' | 'model';

export interface OnboardingStepFigure {
  id: string;
  name: string;
  status: string;
  durationMs: number | null;
  /** When the step started and ended, in ms after the run's started_at (null when it never ran). */
  startOffsetMs: number | null;
  endOffsetMs: number | null;
  attempts: number;
  reason: string | null;
  result: Record<string, unknown> | null;
}

export interface ModelFigure {
  /** Requests the mock model server received, total and per part. */
  calls: number;
  byPart: Record<string, number>;
  /** Requests the mock could not make sense of (answered with invalid output). */
  unrecognized: number;
  /** The engines' own counters (attempts, failed attempts, parts that fell back to offline). */
  narrative: { calls: number; failures: number; fallbacks: number } | null;
  prompts: { calls: number; failures: number; fallbacks: number } | null;
  /** engine.fallbackReason of 2a and 3a, when any. */
  fallbackReasons: string[];
}

export interface OnboardingFigure {
  size: number;
  engine: Engine;
  storeName: string;
  store?: { products: number; collections: number; pages: number; blogPosts: number; totalPages: number };
  runStatus: string;
  /** generate-all sent -> `workflows.finished` resolved. */
  wallMs: number;
  /** generate-all round trip alone (202). */
  startMs: number;
  steps: OnboardingStepFigure[];
  /** Requests the demo store served during the run (set by the parent when it serves the store). */
  storeRequests?: number;
  prompts: number;
  /** Products stored with fewer product prompts than onboarding asks for each. */
  productsShort: number;
  businessPrompts: number;
  productPrompts: number;
  products: number;
  /** Engines named by the step results (2a narrative, 3a prompts). */
  siteEngine: string | null;
  promptEngine: string | null;
  model: ModelFigure | null;
  /** Warnings and errors the stack logged, by message. */
  warnings: Record<string, number>;
  /** Peak RSS when the execution finished, and at the end (after the status/prompts/products GETs). */
  peakRssBytes: number;
  peakRssAtEndBytes: number;
  /** RSS with the stack up, before generate-all. */
  baselineRssBytes: number;
  /** A dashboard polling GET /api/onboarding/status every 500 ms during the run. */
  statusPolls?: PollFigure;
  /** The largest items in the table after the run (DynamoDB's own sizing; the limit is 400 KB). */
  largestItems?: Array<{ pk: string; sk: string; bytes: number }>;
  /** Worker threads that ran the tasks (the local stand-in for Lambda instances). */
  taskThreads?: number;
  /** The next day: 1% of the products edited and 50 added in the store, then the daily run (BENCH_ONBOARDING_DAILY). */
  daily?: DailyAfterFigure;
  /**
   * The stored prompts (GET /api/prompts) measured as test/prompts/prompt-metrics.ts does:
   * duplicates after promptIdentity, malformed (validatePrompt), brand/product-line mentions
   * (lines detected from the stored catalogue), intents covered, the most repeated figure.
   */
  promptQuality?: PromptFigures;
}

export interface OnboardingReport {
  figures: OnboardingFigure[];
  /** The offline prompt generator on the sibling-heavy store (issue 46), 75 products and BENCH_SIBLING_SIZES. */
  siblings: PromptCoverage[];
  /** Runs not made, and why (e.g. the model variant above BENCH_ONBOARDING_MODEL_MAX_PRODUCTS). */
  notRun: string[];
}

const rss = () => process.resourceUsage().maxRSS * 1024;

/**
 * The highest RSS sampled (every 200 ms) while a run lasts: the process's lifetime peak
 * would also hold what came before (the onboarding, and this bench's own reading of 100,000
 * prompts after it).
 */
function rssSampler(): { stop(): number } {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 200);
  return { stop: () => { clearInterval(timer); return Math.max(peak, process.memoryUsage().rss); } };
}

export interface DailyAfterFigure {
  edited: number;
  added: number;
  status: string;
  /** The business's day: its status and each step's status. */
  business: { status: string; reason: string | null; steps: Record<string, string> } | null;
  wallMs: number;
  productsBefore: number;
  productsAfter: number;
  /** Product files the live site serves for the 50 added products. */
  addedPublished: number;
  peakRssBytes: number;
  statusPolls: PollFigure;
  largestItem: { pk: string; sk: string; bytes: number } | null;
}

// ---------------------------------------------------------------------------------------
// the mock model: an OpenAI-compatible chat-completions endpoint answering every part

interface MockModel {
  url: string;
  calls(): number;
  byPart(): Record<string, number>;
  unrecognized(): number;
  close(): Promise<void>;
}

/** Product lines of the engines' prompts: `- id: x | name: y | type: z | ... | price: $9.00 | tags: a, b | description: ...`. */
function productLines(content: string): Array<{ id: string; count: number; type: string; tags: string[]; price: string }> {
  const out: Array<{ id: string; count: number; type: string; tags: string[]; price: string }> = [];
  for (const line of content.split('\n')) {
    if (!line.startsWith('- id: ')) continue;
    const fields = new Map<string, string>();
    for (const part of line.slice(2).split(' | ')) {
      const at = part.indexOf(': ');
      if (at > 0) fields.set(part.slice(0, at), part.slice(at + 2));
    }
    out.push({
      id: fields.get('id') ?? '',
      count: Number(fields.get('count') ?? 0),
      type: fields.get('type') ?? '',
      tags: (fields.get('tags') ?? '').split(',').map((t) => t.trim()).filter(Boolean),
      price: fields.get('price') ?? '',
    });
  }
  return out.filter((p) => p.id);
}

const lower = (s: string) => s.trim().toLowerCase();

function listLine(content: string, label: string): string[] {
  const m = new RegExp(`^${label}: (.+)$`, 'm').exec(content);
  return m ? m[1].split(',').map((s) => s.replace(/\(\d+\)$/, '').trim()).filter(Boolean) : [];
}

/** The JSON object a part expects, or null when the request is not one the engines send. */
function mockAnswer(user: string): { part: string; answer: unknown } | null {
  if (user.startsWith('Task: write the store overview.')) {
    const types = listLine(user, 'Product types');
    return {
      part: 'site overview',
      answer: {
        summary: '{{STORE}} is an online store selling the products listed in its catalogue.',
        description: '{{STORE}} sells its catalogue online.\n\nThe collections and product types below are taken from the store content.',
        industry: 'online retail',
        audience: 'shoppers looking for the products the store lists',
        categories: types.slice(0, 20).length ? types.slice(0, 20) : ['General'],
        keyFacts: [],
      },
    };
  }
  if (user.startsWith("Task: write the store's questions and answers.")) {
    const faqs = [
      'What does {{STORE}} sell?', 'Where can I see the full catalogue?', 'Which product types are available?',
      'Which collections does the store have?', 'How do I find a product in stock?', 'What price range do the products cover?',
      'Does the store list product details?', 'Can I browse products by collection?',
    ].map((question) => ({ question, answer: 'The store content lists this on its catalogue and collection pages.' }));
    return { part: 'site faqs', answer: { faqs } };
  }
  if (user.startsWith('Task: write one short summary per product below.')) {
    const productSummaries: Record<string, string> = {};
    for (const p of productLines(user)) {
      productSummaries[p.id] = `A ${lower(p.type) || 'product'} from {{STORE}}${p.price ? `, listed at ${p.price}` : ''}.`;
    }
    return { part: 'site product summaries', answer: { productSummaries } };
  }
  const business = /^Task: write (\d+) distinct prompts shoppers/.exec(user);
  if (business) {
    const count = Number(business[1]);
    const types = listLine(user, 'Product types').map(lower);
    const topics = types.length ? types : ['specialty coffee'];
    const templates = [
      (t: string) => `What is the best ${t} to buy online?`,
      (t: string) => `Where can I buy good ${t} online?`,
      (t: string) => `Which online shop has a good selection of ${t}?`,
      (t: string) => `What ${t} makes a good gift?`,
      (t: string) => `Which ${t} is worth the price for a beginner?`,
      (t: string) => `How do I choose ${t} for everyday use?`,
      (t: string) => `What are the most popular kinds of ${t} right now?`,
    ];
    const caps = [15, 20, 25, 30, 40, 50, 75, 100];
    const prompts: string[] = [];
    for (let i = 0; prompts.length < count; i++) {
      const topic = topics[i % topics.length];
      const round = Math.floor(i / topics.length);
      prompts.push(round < templates.length ? templates[round](topic) : `What is the best ${topic} under $${caps[(round - templates.length) % caps.length]}${round - templates.length >= caps.length ? ` for ${round} people` : ''}?`);
    }
    return { part: 'business prompts', answer: { prompts } };
  }
  if (user.startsWith('Task: write shopper prompts for each product below')) {
    const products: Record<string, string[]> = {};
    for (const p of productLines(user)) {
      const t = lower(p.type) || 'product';
      const tag = p.tags[0] ? lower(p.tags[0]) : 'everyday';
      const all = [
        `What is the best ${t} to buy online?`,
        `Where can I buy ${tag} ${t}?`,
        `Which ${t} is good for a gift?`,
        `What ${t} do people recommend for beginners?`,
        `Is there a good ${t} under ${p.price || '$30'}?`,
        `How do I choose a ${tag} ${t}?`,
        `Which shop sells ${t} with fast delivery?`,
        `What should I look for in a ${t}?`,
        `Which ${tag} ${t} has the best reviews?`,
        `Compare ${t} options for daily use`,
      ];
      products[p.id] = all.slice(0, Math.max(1, p.count));
    }
    return { part: 'product prompts', answer: { products } };
  }
  return null;
}

async function startMockModel(latencyMs: number): Promise<MockModel> {
  const byPart: Record<string, number> = {};
  let calls = 0;
  let unrecognized = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const reply = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) return reply(404, { error: 'not found' });
      calls++;
      let content = '{"invalid": true}';
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { messages?: Array<{ role: string; content: string }> };
        const user = body.messages?.find((m) => m.role === 'user')?.content ?? '';
        const answer = mockAnswer(user);
        if (answer) {
          byPart[answer.part] = (byPart[answer.part] ?? 0) + 1;
          content = JSON.stringify(answer.answer);
        } else {
          unrecognized++;
        }
      } catch {
        unrecognized++;
      }
      const send = () => reply(200, { id: `mock-${calls}`, object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] });
      if (latencyMs > 0) setTimeout(send, latencyMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    calls: () => calls,
    byPart: () => ({ ...byPart }),
    unrecognized: () => unrecognized,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

// ---------------------------------------------------------------------------------------
// child: one store size, one engine, the whole workflow

type LocalStack = Awaited<ReturnType<typeof import('../functions/local/runtime')['startLocalStack']>>;

/**
 * The store's next day: 1% of its products edited (price and text) and 50 added through the
 * demo store's admin API, then the daily schedule for the business (POST /api/cron/trigger-all),
 * while the dashboard keeps polling; the run's outcome, and whether the new products' files
 * are live.
 */
async function measureDailyAfter(stack: LocalStack, adminUrl: string, token: string): Promise<DailyAfterFigure> {
  const { getContainer } = await import('../functions/container');
  const admin = async (method: string, path: string, body: unknown) => {
    const res = await fetch(`${adminUrl}${path}`, { method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`demo store admin ${method} ${path}: HTTP ${res.status} ${await res.text()}`);
  };
  const products = await getContainer().products.list(ORG);
  const toEdit = products.filter((_, i) => i % 100 === 0);
  for (const p of toEdit) await admin('PATCH', `/products/${p.productId}`, { price: '99.50', body_html: `<p>Now in a new edition: ${p.name}.</p>` });
  const added = Array.from({ length: 50 }, (_, i) => `bench-new-product-${i}`);
  for (const [i, handle] of added.entries()) await admin('POST', '/products', { handle, title: `Bench New Product ${i}`, price: '12.00', body_html: `<p>Bench New Product ${i}, added today.</p>`, product_type: 'Coffee' });

  const t0 = performance.now();
  const sampler = rssSampler();
  const res = await fetch(`${stack.api.url}/api/cron/trigger-all`, { method: 'POST', headers: { 'X-API-Key': stack.config.apiKey ?? '', 'Content-Type': 'application/json' }, body: JSON.stringify({ business_ids: [ORG] }) });
  const started = await res.json() as { execution_id: string };
  if (res.status !== 202) throw new Error(`trigger-all answered ${res.status}: ${JSON.stringify(started)}`);
  const poller = startStatusPoller(`${stack.api.url}/api/onboarding/status`, token);
  await stack.workflows.finished(started.execution_id);
  const wallMs = performance.now() - t0;
  const peakRssBytes = sampler.stop();
  const statusPolls = await poller.stop();
  const read = await fetch(`${stack.api.url}/api/cron/trigger-all/${started.execution_id}`, { headers: { 'X-API-Key': stack.config.apiKey ?? '' } });
  const execution = await read.json() as { status: string; businesses: { runs: Array<{ status: string; reason: string | null; steps: Record<string, { status: string }> }> } };
  const run = execution.businesses.runs[0];
  const live = await getContainer().siteStore.readCurrent(ORG);
  const paths = new Set(live?.files.map((f) => f.path) ?? []);
  const { itemSizes } = await import('../functions/local/runtime/table-items');
  return {
    edited: toEdit.length,
    added: added.length,
    status: execution.status,
    business: run ? { status: run.status, reason: run.reason, steps: Object.fromEntries(Object.entries(run.steps).map(([id, st]) => [id, st.status])) } : null,
    wallMs,
    productsBefore: products.length,
    productsAfter: (await getContainer().products.list(ORG)).length,
    addedPublished: added.filter((h) => [...paths].some((p) => p.includes(`/${h}`))).length,
    peakRssBytes,
    statusPolls,
    largestItem: (await itemSizes(stack.database.endpoint, stack.config.tableName, stack.config.region))[0] ?? null,
  };
}

async function measureChild(size: number, engine: Engine, givenOrigin?: string, adminUrl?: string): Promise<OnboardingFigure> {
  const { startLocalStack } = await import('../functions/local/runtime');
  const { startDemoStore } = await import('../functions/local/demo-store');
  const { getContainer } = await import('../functions/container');
  const { setLogSink } = await import('../functions/logger');
  const { generatorOf } = await import('../functions/engines/generator');
  const { promptGeneratorOf } = await import('../functions/engines/prompt-generator');

  // Keep the stack's warnings (fallbacks, failed steps) to report them; the child's stdout is for the result line.
  const warnings: Record<string, number> = {};
  setLogSink((line) => {
    try {
      const entry = JSON.parse(line) as { level?: string; msg?: string };
      if (entry.level === 'warn' || entry.level === 'error') warnings[`${entry.level}: ${entry.msg}`] = (warnings[`${entry.level}: ${entry.msg}`] ?? 0) + 1;
    } catch {
      /* not JSON */
    }
    process.stderr.write(`${line}\n`);
  });

  const store = givenOrigin ? undefined : await startDemoStore(size > 0 ? { size } : {});
  const origin = givenOrigin ?? store!.origin;
  const mock = engine === 'model' ? await startMockModel(Number(process.env.BENCH_ONBOARDING_MODEL_LATENCY_MS ?? 0)) : undefined;
  // On disk the database's items are not in this process's RSS (in memory they are: ~150 MB at 20,000 products).
  const dataDir = process.env.BENCH_ONBOARDING_DB === 'disk' ? mkdtempSync(join(tmpdir(), 'aivis-bench-')) : undefined;
  const stack = await startLocalStack({ dataDir, env: { LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn', ...(mock ? { LLM_BASE_URL: mock.url, LLM_MODEL: 'bench-mock' } : {}) } });
  try {
    const token = await stack.idp.mint({ orgId: ORG });
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${stack.api.url}${path}`, {
        method,
        headers: { Authorization: `Bearer ${token}`, ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
        body: body !== undefined ? JSON.stringify(body) : undefined,
      });
      const text = await res.text();
      let json: any = text;
      try { json = JSON.parse(text); } catch { /* keep the text */ }
      return { status: res.status, body: json };
    };

    const created = await call('POST', '/api/business', { name: BUSINESS_NAME, url: origin });
    if (created.status !== 201) throw new Error(`POST /api/business answered ${created.status}: ${JSON.stringify(created.body)}`);
    const baselineRssBytes = rss();

    const t0 = performance.now();
    const started = await call('POST', '/api/onboarding/generate-all', {});
    const startMs = performance.now() - t0;
    if (started.status !== 202) throw new Error(`generate-all answered ${started.status}: ${JSON.stringify(started.body)}`);
    const poller = startStatusPoller(`${stack.api.url}/api/onboarding/status`, token);
    await stack.workflows.finished(started.body.execution_id);
    const wallMs = performance.now() - t0;
    const peakRssBytes = rss();
    const statusPolls = await poller.stop();
    const { itemSizes } = await import('../functions/local/runtime/table-items');
    const largestItems = (await itemSizes(stack.database.endpoint, stack.config.tableName, stack.config.region)).slice(0, 3);

    const status = await call('GET', '/api/onboarding/status');
    if (status.status !== 200) throw new Error(`GET /api/onboarding/status answered ${status.status}: ${JSON.stringify(status.body)}`);
    const prompts = await call('GET', `/api/prompts/${ORG}`);
    if (prompts.status !== 200) throw new Error(`GET /api/prompts answered ${prompts.status}`);
    const products = await call('GET', `/api/products/${ORG}`);
    if (products.status !== 200) throw new Error(`GET /api/products answered ${products.status}`);

    const runStart = Date.parse(status.body.started_at);
    const offset = (iso: string | null) => (iso ? Date.parse(iso) - runStart : null);
    const steps: OnboardingStepFigure[] = (status.body.steps as any[]).map((s) => ({
      id: s.id, name: s.name, status: s.status, durationMs: s.duration_ms, startOffsetMs: offset(s.started_at), endOffsetMs: offset(s.finished_at),
      attempts: s.attempts, reason: s.reason, result: s.result,
    }));
    const stepResult = (id: string) => steps.find((s) => s.id === id)?.result as any;
    const siteEngine = stepResult('2a')?.engine ?? null;
    const promptEngine = stepResult('3a')?.engine ?? null;
    const promptRows = prompts.body.prompts as Array<{ product_id: string | null }>;

    let model: ModelFigure | null = null;
    if (mock) {
      const container = getContainer();
      const statsOf = (g: unknown) => {
        const s = (g as { stats?: () => { calls: number; failures: number; fallbacks: number } }).stats?.();
        return s ? { calls: s.calls, failures: s.failures, fallbacks: s.fallbacks } : null;
      };
      model = {
        calls: mock.calls(),
        byPart: mock.byPart(),
        unrecognized: mock.unrecognized(),
        narrative: statsOf(generatorOf(container)),
        prompts: statsOf(promptGeneratorOf(container)),
        fallbackReasons: [siteEngine?.fallbackReason, promptEngine?.fallbackReason].filter(Boolean),
      };
    }

    const peakRssAtEndBytes = rss();
    // Prompt quality of what was stored, after everything measured.
    const { promptFigures } = await import('./fidelity');
    const { detectProductLines } = await import('../functions/core/prompts/product-lines');
    const { loadSnapshot } = await import('../functions/app/site/snapshot');
    const snapshot = await loadSnapshot(getContainer(), ORG);
    const texts = prompts.body.prompts as Array<{ prompt: string; product_id: string | null }>;
    const promptQuality = promptFigures(
      texts.filter((p) => !p.product_id).map((p) => p.prompt),
      texts.filter((p) => p.product_id).map((p) => p.prompt),
      BUSINESS_NAME,
      detectProductLines(snapshot.products, BUSINESS_NAME),
      {},
      snapshot.products.map((p) => p.name),
    );

    const daily = adminUrl ? await measureDailyAfter(stack, adminUrl, token) : undefined;

    return {
      daily,
      size,
      engine,
      storeName: size > 0 ? `${int(size)}-page store` : 'default store',
      store: store?.stats,
      runStatus: status.body.status,
      wallMs,
      startMs,
      steps,
      storeRequests: store?.requests(),
      prompts: prompts.body.total,
      productsShort: productsShort(promptRows, products.body.total),
      businessPrompts: promptRows.filter((p) => !p.product_id).length,
      productPrompts: promptRows.filter((p) => p.product_id).length,
      products: products.body.total,
      siteEngine: siteEngine?.name ?? null,
      promptEngine: promptEngine?.name ?? null,
      model,
      warnings,
      peakRssBytes,
      peakRssAtEndBytes,
      baselineRssBytes,
      statusPolls,
      largestItems,
      taskThreads: stack.workflows.taskThreads,
      promptQuality,
    };
  } finally {
    await stack.close(); // also removes its temporary site files and artifacts
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    await mock?.close();
    await store?.close();
  }
}

// ---------------------------------------------------------------------------------------
// parent

const listEnv = (name: string, fallback: string) => (process.env[name] ?? fallback).split(',').map((s) => s.trim()).filter(Boolean);

/**
 * Runs every store size x engine in its own child process, serving the demo store from this
 * process. Sizes are product counts (BENCH_ONBOARDING_PRODUCTS, default 0,5200,20000; 0 is the
 * default 24-product store); the model variant runs up to BENCH_ONBOARDING_MODEL_MAX_PRODUCTS
 * (default 5,200).
 */
/** Products of the store that got fewer product prompts than onboarding asks for each (issue 46). */
function productsShort(rows: ReadonlyArray<{ product_id: string | null }>, productCount: number): number {
  const each = onboardingProductPromptCounts(productCount);
  const perProduct = new Map<string, number>();
  for (const r of rows) if (r.product_id) perProduct.set(r.product_id, (perProduct.get(r.product_id) ?? 0) + 1);
  return productCount - [...perProduct.values()].filter((n) => n >= each).length;
}

export async function measureOnboarding(options: { products?: number[]; engines?: Engine[] } = {}): Promise<OnboardingReport> {
  const productCounts = options.products ?? listEnv('BENCH_ONBOARDING_PRODUCTS', '0,5200,20000').map(Number);
  const engines = options.engines ?? (listEnv('BENCH_ONBOARDING_ENGINES', 'offline,model') as Engine[]);
  const modelMax = Number(process.env.BENCH_ONBOARDING_MODEL_MAX_PRODUCTS ?? 5200);
  const { startDemoStore } = await import('../functions/local/demo-store');
  // A generated store of N products has the base store's other pages (collections, pages, posts) too.
  const base = await startDemoStore();
  const otherPages = base.stats.totalPages - base.stats.products;
  await base.close();
  const figures: OnboardingFigure[] = [];
  const notRun: string[] = [];
  for (const products of productCounts) {
    const size = products > 0 ? products + otherPages : 0;
    const store = await startDemoStore(size > 0 ? { size } : {});
    try {
      for (const engine of engines) {
        if (engine === 'model' && products > modelMax) {
          notRun.push(`model variant of the ${int(products)}-product store (BENCH_ONBOARDING_MODEL_MAX_PRODUCTS=${modelMax})`);
          continue;
        }
        const before = store.requests();
        let stdout: string;
        try {
          // The next day's run, on the generated stores, offline (BENCH_ONBOARDING_DAILY=0: none).
          const daily = size > 0 && engine === 'offline' && process.env.BENCH_ONBOARDING_DAILY !== '0' ? ['--admin', store.adminUrl] : [];
          ({ stdout } = await run(process.execPath, ['--import', 'tsx', __filename, '--child', '--size', String(size), '--engine', engine, '--origin', store.origin, ...daily], {
            cwd: ROOT,
            env: { ...process.env, NODE_NO_WARNINGS: '1' },
            maxBuffer: 256 * 1024 * 1024,
            timeout: 15 * 60_000,
          }));
        } catch (err) {
          const e = err as Error & { stderr?: string };
          throw new Error(`onboarding child (${products} products, ${engine}) failed: ${e.message.split('\n')[0]}\n${(e.stderr ?? '').slice(-3000)}`);
        }
        const line = stdout.split('\n').find((l) => l.startsWith(RESULT_MARKER));
        if (!line) throw new Error(`onboarding child (${products} products, ${engine}) printed no result:\n${stdout.slice(-2000)}`);
        const figure = JSON.parse(line.slice(RESULT_MARKER.length)) as OnboardingFigure;
        figures.push({ ...figure, storeName: size > 0 ? `${int(store.stats.products)}-product store` : figure.storeName, store: store.stats, storeRequests: store.requests() - before });
      }
    } finally {
      await store.close();
    }
  }
  // Issue 46: every product of a sibling-heavy store gets its prompts (the offline generator alone, in this process).
  const siblings = listEnv('BENCH_SIBLING_SIZES', '75,20000').map(Number).filter((n) => n > 0).map((n) => siblingPromptCoverage(n));
  return { figures, notRun, siblings };
}

const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(1)}x` : '-');

/**
 * How long 2a sat idle after both its inputs (1a, 1c) had ended: 2a throws InputsNotReady while
 * 1c runs and the state machine retries it every 2 s (IntervalSeconds 2 in the ASL), so up to
 * ~2 s (more when the event loop is busy) of the wall time is that poll.
 */
export function createSiteWaitMs(f: OnboardingFigure): number {
  const at = (id: string) => f.steps.find((s) => s.id === id);
  const [a, c, site] = [at('1a'), at('1c'), at('2a')];
  if (a?.endOffsetMs == null || c?.endOffsetMs == null || site?.startOffsetMs == null) return NaN;
  return Math.max(0, site.startOffsetMs - Math.max(a.endOffsetMs, c.endOffsetMs));
}
const label = (f: OnboardingFigure) => `${f.storeName}, ${f.engine}`;

function modelLine(f: OnboardingFigure): string {
  if (f.engine === 'offline' || !f.model) return '0 model calls (offline generators; no LLM_BASE_URL)';
  const m = f.model;
  const parts = Object.entries(m.byPart).map(([k, v]) => `${k} ${int(v)}`).join(', ');
  const fallbacks = (m.narrative?.fallbacks ?? 0) + (m.prompts?.fallbacks ?? 0);
  const failures = (m.narrative?.failures ?? 0) + (m.prompts?.failures ?? 0);
  return `${int(m.calls)} model calls (${parts || 'none'}${m.unrecognized ? `, ${m.unrecognized} unrecognized` : ''}); ` +
    `${failures} failed attempts, ${fallbacks} parts fell back to offline` +
    (m.fallbackReasons.length ? ` (${m.fallbackReasons.join('; ').slice(0, 300)})` : '');
}

const pct = (share: number) => `${(share * 100).toFixed(1)}%`;
export const topFigureText = (q: PromptFigures) => (q.topFigure ? `${pct(q.topFigure.share)} (${q.topFigure.figure} x${int(q.topFigure.count)})` : 'none');

/** Prompt quality per run, one column each, then the offending prompts. */
function printPromptQuality(figs: OnboardingFigure[]): void {
  const withQ = figs.filter((f) => f.promptQuality);
  if (!withQ.length) return;
  heading('onboarding: prompt quality of the stored prompts (test/prompts/prompt-metrics.ts)');
  const q = (f: OnboardingFigure) => f.promptQuality!;
  const intents = Object.keys(withQ[0]!.promptQuality!.intents);
  printTable(['', ...withQ.map(label)], [
    ['prompts (business + product)', ...withQ.map((f) => `${int(q(f).total)} (${int(q(f).business)} + ${int(q(f).product)})`)],
    ['duplicates after normalisation', ...withQ.map((f) => `${int(q(f).duplicates)}${q(f).maxCopies > 1 ? ` (max ${q(f).maxCopies} copies)` : ''}`)],
    ['malformed', ...withQ.map((f) => int(q(f).malformed))],
    ['naming the brand or a product line', ...withQ.map((f) => int(q(f).brandOrLine))],
    ['intents covered (of 5)', ...withQ.map((f) => String(q(f).intentsCovered))],
    ...intents.map((i) => [`  ${i}`, ...withQ.map((f) => `${int(q(f).intents[i as keyof PromptFigures['intents']])} (${pct(q(f).intents[i as keyof PromptFigures['intents']] / Math.max(1, q(f).total))})`)]),
    ['max share of one figure', ...withQ.map((f) => topFigureText(q(f)))],
  ]);
  for (const f of withQ) {
    console.log(`${label(f)}: product lines detected: ${q(f).productLines.join(', ') || 'none'}`);
    for (const m of q(f).malformedExamples) console.log(`  malformed (${m.issue}): ${m.prompt}`);
    for (const p of q(f).brandOrLineExamples) console.log(`  names the brand or a line: ${p}`);
  }
}

export function printOnboardingReport(r: OnboardingReport): void {
  const figs = r.figures;
  if (r.siblings.length) {
    heading('onboarding: prompts for every product of a sibling-heavy store (offline generator, issue 46)');
    for (const c of r.siblings) console.log(coverageLine(c));
  }
  if (!figs.length) return;
  heading('onboarding: whole workflow (ASL in the local Step Functions stand-in), child process per run');
  const stepIds = figs[0].steps.map((s) => s.id);
  printTable(
    ['step', ...figs.map(label)],
    stepIds.map((id) => {
      const name = figs[0].steps.find((s) => s.id === id)?.name ?? '';
      return [`${id} ${name}`, ...figs.map((f) => {
        const s = f.steps.find((x) => x.id === id);
        if (!s) return '-';
        return `${s.status}${s.attempts > 1 ? ` x${s.attempts}` : ''} ${s.durationMs === null ? '-' : ms(s.durationMs)}`;
      })];
    }).concat([
      ['run status', ...figs.map((f) => f.runStatus)],
      ['wall time (generate-all -> finished)', ...figs.map((f) => ms(f.wallMs))],
      ['  of which 2a idle, polling for 1c', ...figs.map((f) => ms(createSiteWaitMs(f)))],
      ['store pages fetched (requests)', ...figs.map((f) => int(f.storeRequests ?? 0))],
      ['model calls', ...figs.map((f) => int(f.model?.calls ?? 0))],
      ['products created', ...figs.map((f) => int(f.products))],
      ['prompts created (business + product)', ...figs.map((f) => `${int(f.prompts)} (${int(f.businessPrompts)} + ${int(f.productPrompts)})`)],
      ['peak RSS at finish', ...figs.map((f) => mb(f.peakRssBytes))],
      ['RSS with the stack up', ...figs.map((f) => mb(f.baselineRssBytes))],
      ['status polls during the run (every 500 ms)', ...figs.map((f) => (f.statusPolls ? int(f.statusPolls.polls) : '-'))],
      ['  answer p50 / p99 / max', ...figs.map((f) => (f.statusPolls ? `${ms(f.statusPolls.p50Ms)} / ${ms(f.statusPolls.p99Ms)} / ${ms(f.statusPolls.maxMs)}` : '-'))],
      ['  failed (reset, timeout, not 200)', ...figs.map((f) => (f.statusPolls ? `${int(f.statusPolls.failed)}${f.statusPolls.errors.length ? ` (${f.statusPolls.errors.join(', ')})` : ''}` : '-'))],
      ['largest item written (limit 400 KB)', ...figs.map((f) => (f.largestItems?.[0] ? `${kb(f.largestItems[0].bytes)} (${f.largestItems[0].sk.split('#')[0]})` : '-'))],
      ['task worker threads', ...figs.map((f) => int(f.taskThreads ?? 0))],
      ['next day: 1% edited, 50 added; daily run', ...figs.map((f) => (f.daily ? `${f.daily.business?.status ?? f.daily.status} in ${ms(f.daily.wallMs)}` : '-'))],
      ['  products before -> after; new ones live', ...figs.map((f) => (f.daily ? `${int(f.daily.productsBefore)} -> ${int(f.daily.productsAfter)}; ${f.daily.addedPublished} of ${f.daily.added}` : '-'))],
      ['  status polls p50 / p99 / max, failed', ...figs.map((f) => (f.daily ? `${ms(f.daily.statusPolls.p50Ms)} / ${ms(f.daily.statusPolls.p99Ms)} / ${ms(f.daily.statusPolls.maxMs)}, ${f.daily.statusPolls.failed}` : '-'))],
      ['  peak RSS during the run; largest item', ...figs.map((f) => (f.daily ? `${mb(f.daily.peakRssBytes)}; ${f.daily.largestItem ? kb(f.daily.largestItem.bytes) : '-'}` : '-'))],
    ]),
  );
  console.log('');
  for (const f of figs) {
    console.log(`${label(f)} (${int(f.store?.totalPages ?? 0)} pages, ${int(f.store?.products ?? 0)} products): ${f.runStatus} in ${ms(f.wallMs)}` +
      ` (generate-all answered 202 in ${ms(f.startMs)}); site engine ${f.siteEngine ?? '-'}, prompt engine ${f.promptEngine ?? '-'}`);
    console.log(`  ${modelLine(f)}`);
    console.log(`  ${int(f.products)} products, ${int(f.productPrompts)} product prompts, ${int(f.productsShort)} products short of their prompts`);
    for (const s of f.steps) {
      const when = s.startOffsetMs === null || s.endOffsetMs === null ? '' : ` +${int(s.startOffsetMs)} -> +${int(s.endOffsetMs)} ms`;
      const detail = s.reason ? `reason: ${s.reason}` : s.result ? JSON.stringify(s.result) : '';
      console.log(`  ${s.id} ${s.status}${when}: ${detail.length > 200 ? `${detail.slice(0, 197)}...` : detail}`);
    }
    if (f.daily?.business) console.log(`  next day: ${f.daily.business.status}${f.daily.business.reason ? ` (${f.daily.business.reason})` : ''}; steps ${Object.entries(f.daily.business.steps).map(([k, v]) => `${k} ${v}`).join(', ')}`);
    const warned = Object.entries(f.warnings);
    if (warned.length) console.log(`  logged: ${warned.map(([k, v]) => `${k} x${v}`).join('; ')}`);
  }
  printPromptQuality(figs);
  for (const engine of ['offline', 'model'] as const) {
    const small = figs.find((f) => f.engine === engine && f.size === 0);
    const big = figs.find((f) => f.engine === engine && f.size > 0);
    if (!small || !big) continue;
    heading(`onboarding (${engine}): ${big.storeName} vs ${small.storeName}`);
    const rows = stepIds.map((id) => {
      const a = small.steps.find((s) => s.id === id)?.durationMs ?? NaN;
      const b = big.steps.find((s) => s.id === id)?.durationMs ?? NaN;
      return [id, ms(a), ms(b), ratio(b, a)];
    });
    rows.push(['wall time', ms(small.wallMs), ms(big.wallMs), ratio(big.wallMs, small.wallMs)]);
    rows.push(['  2a idle (1c poll)', ms(createSiteWaitMs(small)), ms(createSiteWaitMs(big)), '']);
    rows.push(['store pages fetched', int(small.storeRequests ?? 0), int(big.storeRequests ?? 0), ratio(big.storeRequests ?? 0, small.storeRequests ?? 0)]);
    rows.push(['model calls', int(small.model?.calls ?? 0), int(big.model?.calls ?? 0), ratio(big.model?.calls ?? 0, small.model?.calls ?? 0)]);
    rows.push(['products', int(small.products), int(big.products), ratio(big.products, small.products)]);
    rows.push(['prompts', int(small.prompts), int(big.prompts), ratio(big.prompts, small.prompts)]);
    if (small.promptQuality && big.promptQuality) {
      const [a, b] = [small.promptQuality, big.promptQuality];
      rows.push(['  duplicates after normalisation', int(a.duplicates), int(b.duplicates), '']);
      rows.push(['  malformed', int(a.malformed), int(b.malformed), '']);
      rows.push(['  naming the brand or a product line', int(a.brandOrLine), int(b.brandOrLine), '']);
      rows.push(['  intents covered (of 5)', String(a.intentsCovered), String(b.intentsCovered), '']);
      rows.push(['  max share of one figure', topFigureText(a), topFigureText(b), '']);
    }
    rows.push(['peak RSS', mb(small.peakRssBytes), mb(big.peakRssBytes), ratio(big.peakRssBytes, small.peakRssBytes)]);
    printTable(['', small.storeName, big.storeName, 'ratio'], rows);
  }
  console.log('\nNotes: tasks run on worker threads of ONE Node process here (the stand-in for Lambda instances, off the API\'s event loop),' +
    ' on this machine\'s cores, so steps that run in parallel (1a/1c, then 2a/3a/3b) share them and their durations overlap and' +
    ' inflate each other; on AWS each is its own Lambda. The model API is a mock answering at once: model-variant times are our' +
    ' overhead around the calls, not a model\'s latency.');
  if (r.notRun.length) console.log(`\nnot run: ${r.notRun.join('; ')}`);
}

export async function runOnboardingBench(): Promise<OnboardingReport> {
  const report = await measureOnboarding();
  printOnboardingReport(report);
  return report;
}

if (isMain(module)) runBenchEntry(RESULT_MARKER, () => measureChild(Number(argValue('--size') ?? 0), (argValue('--engine') ?? 'offline') as Engine, argValue('--origin'), argValue('--admin')), runOnboardingBench);
