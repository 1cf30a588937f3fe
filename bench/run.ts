/**
 * npm run bench: bundle sizes, HTTP load and cold start in sequence, then the figures side by
 * side. Prints figures only; a slow result never fails the run (a section that crashes does).
 */
import { rmSync } from 'node:fs';
import { API_BUNDLE_LIMIT_BYTES, bundleAll, oversized, printBundleReport, type BundleReport } from './bundle';
import { COLD_START_MODULE, printColdStartReport, runColdStart, type ColdStartReport } from './cold-start';
import { printLoadReport, runHttpLoad, type LoadFigure, type LoadReport } from './http-load';
import { describeMachine, heading, int, kb, mb, ms, wholeMs } from './lib';

async function section<T>(name: string, fn: () => Promise<T>): Promise<T | undefined> {
  try {
    return await fn();
  } catch (err) {
    console.error(`\n${name} failed: ${(err as Error).stack ?? err}`);
    process.exitCode = 1;
    return undefined;
  }
}

function summary(bundles?: BundleReport, load?: LoadReport, cold?: ColdStartReport): void {
  heading('figures, side by side');
  const rows: [string, string][] = [['machine', describeMachine()]];
  if (bundles) {
    const api = bundles.bundles.filter((b) => b.kind === 'api').sort((a, b) => b.minBytes - a.minBytes);
    const [big, small] = [api[0], api[api.length - 1]];
    const over = oversized(bundles).length;
    rows.push(['bundles', `${api.length} API modules; largest ${big?.module} ${kb(big?.minBytes ?? 0)} min / ${kb(big?.gzipBytes ?? 0)} gz; ` +
      `smallest ${small?.module} ${kb(small?.minBytes ?? 0)}; ${over} over ${kb(API_BUNDLE_LIMIT_BYTES)}` +
      (bundles.failures.length ? `; ${bundles.failures.length} failed to bundle` : '')]);
    if (big) rows.push(['', `top packages of ${big.module}: ${big.packages.slice(0, 3).map((p) => `${p.name} ${kb(p.bytes)}`).join(', ')}`]);
  }
  if (load) {
    const line = (f: LoadFigure) => `${f.label}: ${int(f.requestsPerSecond)} req/s, p50 ${wholeMs(f.p50)}, p99 ${wholeMs(f.p99)}, ${f.non2xx + f.errors + f.timeouts} non-2xx/errors`;
    rows.push([`http (${load.connections} conn)`, line(load.health)]);
    rows.push(['', line(load.products_)]);
    rows.push(['', `ratio ${(load.health.requestsPerSecond / load.products_.requestsPerSecond).toFixed(1)}x req/s; DB calls alone ${ms(load.dbQueryMs)}`]);
  }
  if (cold) {
    rows.push([`cold start`, `${COLD_START_MODULE} bundle ${ms(cold.bundled.requireMs)} require (${mb(cold.bundled.peakRssBytes)} peak RSS), ` +
      `${ms(cold.bundledWithMaps.requireMs)} with --enable-source-maps, of which @aws-sdk alone ~${ms(cold.sdkOnly.requireMs)}`]);
    rows.push(['', `source via tsx ${ms(cold.source.requireMs)} require (${mb(cold.source.peakRssBytes)} peak RSS)`]);
  }
  const width = Math.max(...rows.map(([k]) => k.length));
  for (const [k, v] of rows) console.log(`${k.padEnd(width)}  ${v}`);
}

async function main(): Promise<void> {
  console.log(`machine: ${describeMachine()}`);
  const bundles = await section('bundle', bundleAll);
  if (bundles) printBundleReport(bundles);
  const load = await section('http load', () => runHttpLoad());
  if (load) printLoadReport(load);
  const listBundle = bundles?.bundles.find((b) => b.module === COLD_START_MODULE)?.outfile;
  const cold = await section('cold start', () => runColdStart({ bundleFile: listBundle }));
  if (cold) printColdStartReport(cold);
  summary(bundles, load, cold);
  if (bundles) rmSync(bundles.outDir, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
