/**
 * Bundle size of every Lambda the CDK app builds: each distinct handler module of the route
 * manifest (plus the edge function, if present), bundled with the same esbuild settings.
 * Packages a route loads from a Lambda layer (routes.ts `usesStripe`, lib/layers.ts) are
 * external there and here: the route's figure is its bundle without them, and each layer's
 * size is printed separately, from the very directory the CDK app deploys.
 *
 *   npx tsx bench/bundle.ts           print the table
 *   npx tsx bench/bundle.ts --check   also exit 1 if an API bundle exceeds the size limit
 */
import { build, type Metafile } from 'esbuild';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { deflateRawSync, gzipSync } from 'node:zlib';
import { ROUTES } from '../functions/routes';
import { buildPackageLayer, externalsOf, FLEET_LAYERS, layerPackagesOf, type LayerPackage } from '../lib/layers';
import { heading, isMain, kb, printTable, ROOT } from './lib';

/** The issue's aim for one API Lambda bundle (minified). */
export const API_BUNDLE_LIMIT_BYTES = 250 * 1024;
export const EDGE_MODULE = 'edge-function/index';

export interface BundleFigure {
  /** Module path as in the manifest (`api/products/list`) or `edge-function/index`. */
  module: string;
  kind: 'api' | 'edge';
  outfile: string;
  minBytes: number;
  /** The external source map next to it (deployed too, loaded with --enable-source-maps). */
  mapBytes: number;
  gzipBytes: number;
  /** Inputs by bytes contributed to the output, largest first. */
  inputs: { path: string; bytes: number }[];
  /** The same inputs summed per npm package (or per top-level source folder), largest first. */
  packages: { name: string; bytes: number }[];
  /** Packages left out of this bundle because a Lambda layer provides them. */
  fromLayers: LayerPackage[];
}

/** A Lambda layer of the route functions (outside the per-route budget). */
export interface LayerFigure {
  package: LayerPackage;
  version: string;
  files: number;
  /** Unzipped bytes (Lambda: 250 MB for a function and its layers together). */
  bytes: number;
  /** Each file deflated, summed: about the layer zip's size. */
  deflatedBytes: number;
  /** Route modules that attach it. */
  usedBy: string[];
}

export interface BundleReport {
  outDir: string;
  bundles: BundleFigure[];
  layers: LayerFigure[];
  failures: { module: string; error: string }[];
}

/**
 * Distinct handler modules of the manifest, in manifest order, plus the edge function if it
 * exists; `fromLayers`: the packages the module's routes load from layers.
 */
export function lambdaModules(): { module: string; kind: 'api' | 'edge'; entry: string; fromLayers: LayerPackage[] }[] {
  const api = [...new Set(ROUTES.map((r) => r.handler))].map((module) => ({
    module, kind: 'api' as const, entry: join(ROOT, 'functions', `${module}.ts`),
    fromLayers: [...FLEET_LAYERS, ...new Set(ROUTES.filter((r) => r.handler === module).flatMap(layerPackagesOf))],
  }));
  const edgeEntry = join(ROOT, `${EDGE_MODULE}.ts`);
  return existsSync(edgeEntry) ? [...api, { module: EDGE_MODULE, kind: 'edge' as const, entry: edgeEntry, fromLayers: [] }] : api;
}

/**
 * Bundles one entry exactly as the CDK app does: lib/constructs/api-function.ts gives
 * NodejsFunction minify, sourceMap, target node22 and @aws-sdk/* external (cjs, node: its
 * defaults), plus the route's layer packages external.
 */
export async function bundleModule(module: string, entry: string, outDir: string, kind: 'api' | 'edge' = 'api', fromLayers: LayerPackage[] = []): Promise<BundleFigure> {
  const outfile = join(outDir, `${module}.js`);
  const result = await build({
    entryPoints: [entry],
    outfile,
    platform: 'node',
    target: 'node22',
    format: 'cjs',
    bundle: true,
    minify: true,
    external: ['@aws-sdk/*', ...externalsOf(fromLayers)],
    sourcemap: true,
    metafile: true,
    logLevel: 'silent',
  });
  const code = readFileSync(outfile);
  const inputs = largestInputs(result.metafile, outfile);
  return {
    module, kind, outfile,
    minBytes: code.length,
    mapBytes: statSync(`${outfile}.map`).size,
    gzipBytes: gzipSync(code).length,
    inputs,
    packages: byPackage(inputs),
    fromLayers,
  };
}

/** Each layer package the manifest's routes use, measured from the directory the CDK app deploys. */
export function measureLayers(): LayerFigure[] {
  const users = new Map<LayerPackage, Set<string>>();
  for (const route of ROUTES) {
    for (const pkg of [...FLEET_LAYERS, ...layerPackagesOf(route)]) users.set(pkg, (users.get(pkg) ?? new Set()).add(route.handler));
  }
  return [...users].map(([pkg, modules]) => {
    const layer = buildPackageLayer(pkg);
    const files = listFiles(layer.dir);
    return {
      package: pkg,
      version: layer.version,
      files: files.length,
      bytes: layer.bytes,
      deflatedBytes: files.reduce((sum, f) => sum + deflateRawSync(readFileSync(f)).length, 0),
      usedBy: [...modules],
    };
  });
}

function listFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? listFiles(path) : [path];
  });
}

function largestInputs(metafile: Metafile, outfile: string): { path: string; bytes: number }[] {
  const output = Object.entries(metafile.outputs).find(([path]) => resolve(path) === outfile)?.[1];
  if (!output) throw new Error(`esbuild metafile has no output ${outfile}`);
  return Object.entries(output.inputs)
    .map(([path, info]) => ({ path, bytes: info.bytesInOutput }))
    .sort((a, b) => b.bytes - a.bytes);
}

function byPackage(inputs: { path: string; bytes: number }[]): { name: string; bytes: number }[] {
  const sums = new Map<string, number>();
  for (const { path, bytes } of inputs) {
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)?.[1] ?? path.split('/').slice(0, 2).join('/');
    sums.set(pkg, (sums.get(pkg) ?? 0) + bytes);
  }
  return [...sums].map(([name, bytes]) => ({ name, bytes })).sort((a, b) => b.bytes - a.bytes);
}

export async function bundleAll(outDir = mkdtempSync(join(tmpdir(), 'aivis-bundles-'))): Promise<BundleReport> {
  const report: BundleReport = { outDir, bundles: [], layers: [], failures: [] };
  for (const { module, kind, entry, fromLayers } of lambdaModules()) {
    try {
      report.bundles.push(await bundleModule(module, entry, outDir, kind, fromLayers));
    } catch (err) {
      report.failures.push({ module, error: (err as Error).message.split('\n').slice(0, 6).join('\n') });
    }
  }
  try {
    report.layers = measureLayers();
  } catch (err) {
    report.failures.push({ module: 'layers', error: (err as Error).message });
  }
  return report;
}

export function oversized(report: BundleReport): BundleFigure[] {
  return report.bundles.filter((b) => b.kind === 'api' && b.minBytes > API_BUNDLE_LIMIT_BYTES);
}

export function printBundleReport(report: BundleReport): void {
  heading('Lambda bundles (esbuild: node22, cjs, minify, sourcemap, @aws-sdk/* external)');
  const byMin = [...report.bundles].sort((a, b) => b.minBytes - a.minBytes);
  printTable(
    ['route module', 'minified', 'gzip', 'source map', 'vs limit'],
    byMin.map((b) => [
      b.fromLayers.length ? `${b.module} (+ layer: ${b.fromLayers.join(', ')})` : b.module,
      kb(b.minBytes), kb(b.gzipBytes), kb(b.mapBytes), b.kind === 'api' ? `${((b.minBytes / API_BUNDLE_LIMIT_BYTES) * 100).toFixed(0)}%` : 'n/a',
    ]),
  );
  if (report.layers.length) {
    console.log('\nLambda layers (outside the per-route limit; lib/layers.ts):');
    printTable(['layer', 'files', 'unzipped', 'deflated', 'used by'], report.layers.map((l) => [
      `${l.package}@${l.version}`, String(l.files), kb(l.bytes), kb(l.deflatedBytes), FLEET_LAYERS.includes(l.package) ? `every Lambda (${l.usedBy.length} route modules, the tasks)` : l.usedBy.join(', '),
    ]));
  }
  const biggest = byMin[0];
  if (biggest) {
    console.log(`\nlargest inputs of the biggest bundle (${biggest.module}):`);
    printTable(['input', 'bytes in output', 'share'], biggest.inputs.slice(0, 3).map((i) => [
      i.path, kb(i.bytes), `${((i.bytes / biggest.minBytes) * 100).toFixed(1)}%`,
    ]));
    console.log(`\nthe same bundle by package:`);
    printTable(['package', 'bytes in output', 'share'], biggest.packages.slice(0, 5).map((p) => [
      p.name, kb(p.bytes), `${((p.bytes / biggest.minBytes) * 100).toFixed(1)}%`,
    ]));
  }
  for (const f of report.failures) console.log(`\nCOULD NOT BUNDLE ${f.module}:\n${f.error}`);
  console.log(`\nlimit for an API bundle: ${kb(API_BUNDLE_LIMIT_BYTES)} minified (${API_BUNDLE_LIMIT_BYTES} bytes); bundles in ${report.outDir}`);
}

async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  const report = await bundleAll();
  printBundleReport(report);
  if (!check) return;
  rmSync(report.outDir, { recursive: true, force: true }); // npm run build runs this every time

  const tooBig = oversized(report);
  for (const b of tooBig) console.error(`check: ${b.module} is ${kb(b.minBytes)} minified, over the ${kb(API_BUNDLE_LIMIT_BYTES)} limit`);
  for (const f of report.failures) console.error(`check: ${f.module} could not be bundled`);
  if (tooBig.length || report.failures.length) {
    process.exitCode = 1;
  } else {
    console.log(`check: all ${report.bundles.filter((b) => b.kind === 'api').length} API bundles are within ${kb(API_BUNDLE_LIMIT_BYTES)}`);
  }
}

if (isMain(module)) {
  main().catch((err) => {
    console.error(err);
    process.exitCode = 1;
  });
}
