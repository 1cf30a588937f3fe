/**
 * Visibility-engine benchmark (batch 2b): how many checks per second each of the 8 platform
 * clients gets through under the fleet-wide limits, and what one business costs per day.
 *
 * In one process: the embedded database (the limiter's slots, minute counters and budget
 * live there, as on AWS), the 8 vendor fakes (functions/local/fakes/platforms: real HTTP in
 * each vendor's wire format, answering after BENCH_VIS_LATENCY_MS, default 200, to stand in
 * for a vendor's answer time), the real platform clients and the deterministic matcher.
 * Per platform, BENCH_VIS_CHECKS checks (default 40) go through `limiter.acquire` → `ask` →
 * `matchAnswer`, all 8 platforms at once, each with `PLATFORM_CONCURRENCY` in flight
 * (default limits: core/constants.ts PLATFORM_LIMIT_DEFAULTS).
 *
 * Printed side by side per platform: measured checks/s (concurrency-bound: the per-minute
 * counter is not reached by 40 checks at the default 60/min), the configured rate ceiling
 * (rate/60 per second, what a whole fleet sustains), the effective sustained figure
 * (the lower of the two) and the cost units a business costs per day (10 prompts × the mean
 * units per check, in the vendor's unit as the fake reports it: tokens from its answer and
 * prompt lengths, searches for the SERP API). Prints figures only; asserts nothing.
 *
 *   npx tsx bench/visibility.ts
 *   BENCH_VIS_CHECKS=80 BENCH_VIS_LATENCY_MS=500 PLATFORM_CONCURRENCY=8 npx tsx bench/visibility.ts
 */
import { createPlatformClients } from '../functions/adapters/external/platforms';
import { createDocumentClient } from '../functions/adapters/dynamodb/client';
import { createPlatformLimiter } from '../functions/adapters/dynamodb/platform-limiter';
import { loadConfig } from '../functions/config';
import { PLATFORM_KEYS, type PlatformKey } from '../functions/core/constants';
import { matchAnswer } from '../functions/core/visibility/mention-matcher';
import type { EntityIdentity, PlatformClient } from '../functions/core/visibility/platform-answer';
import { PROMPTS_PER_DAY } from '../functions/core/visibility/sample';
import { ensureTable, startEmbeddedDatabase } from '../functions/local/runtime/database';
import { startPlatformFakes } from '../functions/local/fakes/platforms';
import { configureLogging, createLogger } from '../functions/logger';
import { heading, isMain, printTable } from './lib';

export interface PlatformFigure {
  platform: PlatformKey;
  checks: number;
  failed: number;
  wallMs: number;
  checksPerSecond: number;
  rateCeilingPerSecond: number;
  costUnitsPerCheck: number;
  costUnit: string;
}

export interface VisibilityReport {
  limits: { concurrency: number; ratePerMinute: number; dailyBudget: number };
  latencyMs: number;
  platforms: PlatformFigure[];
  mentionedShare: number;
}

const IDENTITY: EntityIdentity = {
  name: 'Quillfeather Coffee', aliases: [], domains: ['quillfeather.example'], aiSiteDomains: ['quill.ai.example'],
  productNames: ['Harbor House Blend'], competitors: [{ name: 'Rival Roasters', domain: 'rival.example' }],
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function measureVisibility(options: { checks?: number; latencyMs?: number } = {}): Promise<VisibilityReport> {
  const checks = options.checks ?? Number(process.env.BENCH_VIS_CHECKS ?? 40);
  const latencyMs = options.latencyMs ?? Number(process.env.BENCH_VIS_LATENCY_MS ?? 200);
  configureLogging({ level: 'error', format: 'text' });
  const limits = loadConfig(process.env).platformLimits;
  const database = await startEmbeddedDatabase();
  const fakes = await startPlatformFakes({
    answerFor: (prompt, platform) => ({
      text: Number(platform.slice(-1)) % 2
        ? `1. Quillfeather Coffee — the best for "${prompt}". 2. Rival Roasters.`
        : `Rival Roasters is a good choice for "${prompt}".`,
      citations: ['https://quillfeather.example/products/harbor-house-blend', 'https://guide.example/coffee'],
    }),
  });
  // The fakes answer at once; a vendor takes its time. Delay every response by `latencyMs`.
  const slowFetch: typeof fetch = async (url, init) => { await sleep(latencyMs); return fetch(url, init); };
  try {
    await ensureTable(database.endpoint, 'bench-visibility');
    const db = createDocumentClient({ region: 'us-east-1', endpoint: database.endpoint });
    const limiter = createPlatformLimiter(db, 'bench-visibility', { limits, clock: { now: () => new Date() } });
    const config = loadConfig({ ...fakes.env, ...fakes.searchEnv });
    const clients = createPlatformClients({ platforms: config.platforms, search: config.search }, { log: createLogger({ component: 'bench' }), fetchImpl: slowFetch });
    let mentioned = 0;
    const figures = await Promise.all(clients.map(async (client: PlatformClient): Promise<PlatformFigure> => {
      let next = 0;
      let failed = 0;
      let units = 0;
      let unit = '';
      const started = performance.now();
      const worker = async () => {
        while (next < checks) {
          const i = next++;
          const slot = await limiter.acquire(client.platform);
          if (!slot.ok) { failed++; continue; }
          try {
            const outcome = await client.ask(`best fresh coffee beans, variation ${i}`);
            if (!outcome.ok) { failed++; continue; }
            units += outcome.answer.costUnits;
            unit = outcome.answer.costUnit;
            if (matchAnswer(outcome.answer, IDENTITY).mentioned) mentioned++;
          } finally {
            await slot.release();
          }
        }
      };
      await Promise.all(Array.from({ length: limits.concurrency }, worker));
      const wallMs = performance.now() - started;
      const done = checks - failed;
      return {
        platform: client.platform, checks: done, failed, wallMs, checksPerSecond: done / (wallMs / 1000),
        rateCeilingPerSecond: limits.ratePerMinute / 60, costUnitsPerCheck: done ? units / done : 0, costUnit: unit,
      };
    }));
    return { limits, latencyMs, platforms: figures, mentionedShare: mentioned / (PLATFORM_KEYS.length * checks) };
  } finally {
    await fakes.stop();
    await database.close();
  }
}

export function visibilityLines(r: VisibilityReport): string[] {
  const total = r.platforms.reduce((a, p) => a + Math.min(p.checksPerSecond, p.rateCeilingPerSecond), 0);
  return [
    `limits per platform: ${r.limits.concurrency} concurrent, ${r.limits.ratePerMinute}/min, ${r.limits.dailyBudget} checks/day; vendor latency ${r.latencyMs} ms`,
    `sustained across the 8 platforms: ${total.toFixed(1)} checks/s (the per-minute rates bind), ` +
      `so ${Math.floor((r.limits.dailyBudget) / PROMPTS_PER_DAY)} businesses a day fit in each platform's budget of ${r.limits.dailyBudget} checks`,
  ];
}

export function printVisibilityReport(r: VisibilityReport): void {
  heading('visibility (batch 2b): checks per platform under the fleet limits, cost per business per day');
  printTable(
    ['platform', 'checks', 'failed', 'measured checks/s', 'rate ceiling/s', 'measured / ceiling', 'cost per check', `per business/day (${PROMPTS_PER_DAY} prompts)`],
    r.platforms.map((p) => [
      p.platform, String(p.checks), String(p.failed), p.checksPerSecond.toFixed(1), p.rateCeilingPerSecond.toFixed(2),
      `${(p.checksPerSecond / p.rateCeilingPerSecond).toFixed(1)}x`, `${p.costUnitsPerCheck.toFixed(0)} ${p.costUnit}`,
      `${(p.costUnitsPerCheck * PROMPTS_PER_DAY).toFixed(0)} ${p.costUnit}`,
    ]),
  );
  for (const line of visibilityLines(r)) console.log(line);
  console.log('Measured checks/s is what one instance reaches with the concurrency limit and the vendor latency; the fleet sustains at most' +
    ' the rate ceiling (a measured/ceiling above 1x means the per-minute counter, not concurrency, is what holds the fleet back).' +
    ' Cost units are what the fakes report in each vendor\'s unit (token counts from text lengths): real bills depend on the vendor\'s prices.');
}

if (isMain(module)) {
  measureVisibility().then(printVisibilityReport, (err) => { console.error(err); process.exitCode = 1; });
}
