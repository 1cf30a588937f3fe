/**
 * Cold start of one handler module: a fresh node process requires it, timing the require
 * with process.hrtime; the esbuild bundle (what Lambda loads) against the TypeScript source
 * through tsx. Each variant runs several times and reports the median.
 *
 *   npx tsx bench/cold-start.ts    (BENCH_COLD_RUNS=7)
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { bundleModule } from './bundle';
import { heading, isMain, mb, median, ms, printTable, ROOT } from './lib';

const run = promisify(execFile);
export const COLD_START_MODULE = 'api/products/list';

export interface ColdStartFigure {
  label: string;
  /** Median time of the require() alone. */
  requireMs: number;
  minMs: number;
  maxMs: number;
  /** Median wall time of the whole process, spawn to exit (node boot included). */
  processMs: number;
  /** Median peak resident set size of the process. */
  peakRssBytes: number;
}

export interface ColdStartReport {
  module: string;
  runs: number;
  bundled: ColdStartFigure;
  /** The bundle with --enable-source-maps, as the CDK app sets in NODE_OPTIONS on Lambda. */
  bundledWithMaps: ColdStartFigure;
  source: ColdStartFigure;
  /** The external SDK packages alone: the part of the bundle figure the bundle does not contain. */
  sdkOnly: ColdStartFigure;
}

/** The child prints how long the require took and its peak RSS (maxRSS is in KB). */
const probe = (file: string) => `
const t0 = process.hrtime.bigint();
const mod = require(${JSON.stringify(file)});
const t1 = process.hrtime.bigint();
if (typeof mod.handler !== 'function') throw new Error('no handler export');
console.log(JSON.stringify({ ms: Number(t1 - t0) / 1e6, maxRss: process.resourceUsage().maxRSS * 1024 }));
`;

async function measure(label: string, nodeArgs: string[], file: string, runs: number): Promise<ColdStartFigure> {
  const requireTimes: number[] = [];
  const processTimes: number[] = [];
  const rss: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const { stdout } = await run(process.execPath, [...nodeArgs, '-e', probe(file)], {
      cwd: ROOT,
      // The bundle leaves @aws-sdk/* external (the Lambda runtime provides it); resolve it from here.
      env: { ...process.env, NODE_PATH: join(ROOT, 'node_modules'), NODE_NO_WARNINGS: '1' },
    });
    processTimes.push(performance.now() - started);
    const result = JSON.parse(stdout.trim().split('\n').pop()!);
    requireTimes.push(result.ms);
    rss.push(result.maxRss);
  }
  return {
    label,
    requireMs: median(requireTimes),
    minMs: Math.min(...requireTimes),
    maxMs: Math.max(...requireTimes),
    processMs: median(processTimes),
    peakRssBytes: median(rss),
  };
}

export async function runColdStart(options: { bundleFile?: string; runs?: number } = {}): Promise<ColdStartReport> {
  const runs = options.runs ?? Number(process.env.BENCH_COLD_RUNS ?? 7);
  const ownDir = options.bundleFile ? undefined : mkdtempSync(join(tmpdir(), 'aivis-cold-'));
  const bundleFile = options.bundleFile
    ?? (await bundleModule(COLD_START_MODULE, join(ROOT, 'functions', `${COLD_START_MODULE}.ts`), ownDir!)).outfile;
  try {
    const bundled = await measure('esbuild bundle (node)', [], bundleFile, runs);
    const bundledWithMaps = await measure('  same, --enable-source-maps (Lambda)', ['--enable-source-maps'], bundleFile, runs);
    const sdkFile = join(dirname(bundleFile), 'aws-sdk-only.js');
    writeFileSync(sdkFile, "require('@aws-sdk/client-dynamodb'); require('@aws-sdk/lib-dynamodb'); exports.handler = () => {};\n");
    const sdkOnly = await measure('  @aws-sdk/* alone (external part)', [], sdkFile, runs);
    const source = await measure('TypeScript source (node --import tsx)', ['--import', 'tsx'], join(ROOT, 'functions', `${COLD_START_MODULE}.ts`), runs);
    return { module: COLD_START_MODULE, runs, bundled, bundledWithMaps, source, sdkOnly };
  } finally {
    if (ownDir) rmSync(ownDir, { recursive: true, force: true });
  }
}

export function printColdStartReport(r: ColdStartReport): void {
  heading(`Cold start: require('${r.module}') in a fresh node process, median of ${r.runs}`);
  printTable(
    ['variant', 'require', 'min', 'max', 'whole process', 'peak RSS'],
    [r.bundled, r.bundledWithMaps, r.sdkOnly, r.source].map((f) => [f.label, ms(f.requireMs), ms(f.minMs), ms(f.maxMs), ms(f.processMs), mb(f.peakRssBytes)]),
  );
  console.log('\n@aws-sdk/* is external to the bundle (as on Lambda), so its require is part of the bundle figure;');
  console.log('tsx transforms are cached on disk after the first run, so the source figure is a warm-cache one.');
}

if (isMain(module)) {
  runColdStart().then(printColdStartReport).catch((err) => {
    console.error(err);
    process.exitCode = 1;
  });
}
