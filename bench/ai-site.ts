/**
 * AI-site benchmark: the time to generate and deploy a store's whole AI site with the real
 * onboarding steps on the local stack (embedded in-memory DynamoDB, site files and artifacts
 * under a temp dir, offline narrative generator, built-in scraper), for the default demo store
 * (24 products, ~40 pages) and a 5,000-page demo store.
 *
 * Each store size runs in a child process of its own (`npx tsx bench/ai-site.ts --child --size N`,
 * size 0 = the default store) so its peak RSS (`process.resourceUsage().maxRSS`) is its own.
 * The demo store is served from the parent and its origin passed with `--origin`, so the
 * child's RSS is our code only; without `--origin` the child starts the store itself.
 *
 * Steps, run one after another (the onboarding workflow runs 1a and 1c in parallel; here they are apart):
 *   1a scrapeWebsite     map (robots, sitemaps, one fetch per page) + scrape every page again
 *   1c discoverProducts  /products.json pages + collections
 *   3b generateProductLlmsFiles  one /llms/{product}.txt per product, published with the parts
 *   2a createAiWebsite   generation + deploy (publishes every part: main + product llms)
 * and then 2a's two halves on their own, on the same data:
 *   generation  loadSnapshot + generatorOf(container).generateNarrative + buildSiteFiles
 *   deploy      deploySite(container, { orgSlug, files: <the generated files>, mode: 'replace' })
 * (buildSiteFiles' output already holds the /llms/{product}.txt files 3b makes, so the deploy
 * half publishes the same release 2a does).
 *
 *   npx tsx bench/ai-site.ts                        (BENCH_AI_SITE_SIZES=0,5000)
 *   npx tsx bench/ai-site.ts --child --size 5000    (one size; prints one JSON result line)
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { FidelityReport } from './fidelity';
import { argValue, heading, int, isMain, kb, mb, ms, printTable, ROOT, runBenchEntry } from './lib';

const run = promisify(execFile);
const RESULT_MARKER = '@@ai-site-bench-result ';
const ORG = 'bench-ai-site';

export interface AiSiteStep {
  /** Short key: scrape, products, productLlms, createSite, snapshot, narrative, build, deploy. */
  key: string;
  label: string;
  wallMs: number;
  /** Peak RSS of the child so far (after this step). */
  peakRssBytes: number;
  detail: string;
}

export interface AiSiteFigure {
  size: number;
  storeName: string;
  store: { products: number; collections: number; pages: number; blogPosts: number; totalPages: number };
  steps: AiSiteStep[];
  /** 1a + 1c + 3b + 2a. */
  totalMs: number;
  /** URLs mapped / pages scraped / mapper fetches in 1a. */
  mapped: number;
  scraped: number;
  scrapeFailed: number;
  mapFetches: number;
  truncated: boolean;
  products: number;
  productLlmsFiles: number;
  /** The live release after 2a (main + product llms parts, finalized). */
  filesDeployed: number;
  bytesDeployed: number;
  /** buildSiteFiles' output and what deploySite published from it (adds index, sitemap, robots). */
  generatedFiles: number;
  generatedBytes: number;
  deployOnlyFiles: number;
  deployOnlyBytes: number;
  engine: string;
  /** Requests the demo store saw during the child's run (set by the parent when it serves the store). */
  storeRequests?: number;
  peakRssBytes: number;
  /** RSS of the child once the stack is up, before the first step. */
  baselineRssBytes: number;
  /**
   * The catalogue checks (bench/fidelity.ts) over the live release against the store's own
   * /products.json items (the demo store's catalogue, rebuilt in the child): sizes of llms.txt,
   * data.json and the paged catalogue, and failures per check. Run after every timed step.
   */
  fidelity?: FidelityReport;
  fidelityMs?: number;
}

export interface AiSiteReport {
  figures: AiSiteFigure[];
}

const rss = () => process.resourceUsage().maxRSS * 1024;
const bytesOf = (files: readonly { content: string }[]) => files.reduce((n, f) => n + Buffer.byteLength(f.content), 0);

// ---------------------------------------------------------------------------------------
// child: one store size, the real steps

async function measureChild(size: number, givenOrigin?: string): Promise<AiSiteFigure> {
  const { startLocalStack } = await import('../functions/local/runtime');
  const { startDemoStore } = await import('../functions/local/demo-store');
  const { getContainer } = await import('../functions/container');
  const { scrapeWebsite } = await import('../functions/app/onboarding/scrape-website');
  const { discoverProducts } = await import('../functions/app/onboarding/discover-products');
  const { generateProductLlmsFiles } = await import('../functions/app/site/product-llms-files');
  const { createAiWebsite } = await import('../functions/app/site/create');
  const { loadSnapshot } = await import('../functions/app/site/snapshot');
  const { deploySite } = await import('../functions/app/site/deploy');
  const { siteIdentity } = await import('../functions/app/site/identity');
  const { generatorOf } = await import('../functions/engines/generator');
  const { buildSiteFiles } = await import('../functions/core/site/build');

  const store = givenOrigin ? undefined : await startDemoStore(size > 0 ? { size } : {});
  const origin = givenOrigin ?? store!.origin;
  const stack = await startLocalStack({ env: { LOG_LEVEL: 'warn' } });
  try {
    const token = await stack.idp.mint({ orgId: ORG });
    const created = await fetch(`${stack.api.url}/api/business`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'AI Site Bench Store', url: origin }),
    });
    if (created.status !== 201) throw new Error(`POST /api/business answered ${created.status}: ${await created.text()}`);
    const container = getContainer();
    const baselineRssBytes = rss();

    const steps: AiSiteStep[] = [];
    const step = async <T>(key: string, label: string, fn: () => Promise<T> | T, detail: (r: T) => string): Promise<T> => {
      const t0 = performance.now();
      const result = await fn();
      const wallMs = performance.now() - t0;
      steps.push({ key, label, wallMs, peakRssBytes: rss(), detail: detail(result) });
      return result;
    };

    const scrape = await step('scrape', '1a scrapeWebsite', () => scrapeWebsite(container, ORG),
      (s) => `${s.mapped} mapped, ${s.scraped} scraped, ${s.failed} failed, ${s.pagesFetched} store requests${s.truncated ? ', truncated' : ''} (${s.scraper})`);
    const products = await step('products', '1c discoverProducts', () => discoverProducts(container, ORG),
      (d) => `${d.products.length} products, ${d.entitiesAdded} entities added${d.truncated ? ', truncated' : ''}`);
    const productLlms = await step('productLlms', '3b generateProductLlmsFiles', () => generateProductLlmsFiles(container, ORG),
      (p) => `${p.files} files, published with the parts`);
    const site = await step('createSite', '2a createAiWebsite', () => createAiWebsite(container, ORG),
      (s) => `${s.files} files deployed (${s.engine.name} engine)`);
    const live = await container.siteStore.readCurrent(ORG);
    const bytesDeployed = live ? bytesOf(live.files) : 0;

    // 2a's halves on their own, on the same stored data.
    const snapshot = await step('snapshot', '  generation: loadSnapshot', () => loadSnapshot(container, ORG),
      (s) => `${s.pages.length} pages, ${s.products.length} products`);
    const narrative = await step('narrative', '  generation: generateNarrative', () => generatorOf(container).generateNarrative(snapshot),
      (n) => `${n.engine.name} engine${n.engine.fallbackReason ? ` (${n.engine.fallbackReason})` : ''}`);
    const identity = await siteIdentity(container, ORG);
    const files = await step('build', '  generation: buildSiteFiles', () => buildSiteFiles(snapshot, narrative, {
      now: container.clock.now().toISOString(),
      indexNowKey: identity.indexNowKey,
      trackingEndpoint: `${container.config.apiPublicUrl}/webhooks/ai-recommendation-store`,
    }), (f) => `${f.length} files, ${mb(bytesOf(f))}`);
    const deployed = await step('deploy', '  deploy: deploySite (replace)', () => deploySite(container, { orgSlug: ORG, files, mode: 'replace' }),
      (d) => `${d.fileCount} files, ${mb(d.bytes)} published`);

    // Catalogue fidelity of the live release, after everything timed (peakRssBytes below includes it).
    const { checkSiteFidelity } = await import('./fidelity');
    const { buildCatalogue } = await import('../functions/local/demo-store/catalogue');
    const { productJson } = await import('../functions/local/demo-store/shopify-json');
    const tf = performance.now();
    const raw = buildCatalogue(size > 0 ? { size } : {}).products.map((p) => productJson(p, origin));
    const fidelity = checkSiteFidelity(live?.files ?? [], raw, { currency: 'USD', storeOrigin: origin });
    const fidelityMs = performance.now() - tf;

    const main = ['scrape', 'products', 'productLlms', 'createSite'];
    return {
      size,
      storeName: size > 0 ? `${int(size)}-page demo store` : 'default demo store',
      store: store?.stats ?? { products: products.products.length, collections: 0, pages: 0, blogPosts: 0, totalPages: scrape.mapped },
      steps,
      totalMs: steps.filter((s) => main.includes(s.key)).reduce((n, s) => n + s.wallMs, 0),
      mapped: scrape.mapped,
      scraped: scrape.scraped,
      scrapeFailed: scrape.failed,
      mapFetches: scrape.pagesFetched,
      truncated: scrape.truncated,
      products: products.products.length,
      productLlmsFiles: productLlms.files,
      filesDeployed: site.files,
      bytesDeployed,
      generatedFiles: files.length,
      generatedBytes: bytesOf(files),
      deployOnlyFiles: deployed.fileCount,
      deployOnlyBytes: deployed.bytes,
      engine: site.engine.name,
      storeRequests: store?.requests(),
      peakRssBytes: rss(),
      baselineRssBytes,
      fidelity,
      fidelityMs,
    };
  } finally {
    await stack.close(); // also removes its temporary site files and artifacts
    await store?.close();
  }
}

// ---------------------------------------------------------------------------------------
// parent

/** Runs every size in its own child process, serving the demo store from this process. */
export async function measureAiSite(options: { sizes?: number[] } = {}): Promise<AiSiteReport> {
  const sizes = options.sizes ?? (process.env.BENCH_AI_SITE_SIZES ?? '0,5000').split(',').map((s) => Number(s.trim()));
  const { startDemoStore } = await import('../functions/local/demo-store');
  const figures: AiSiteFigure[] = [];
  for (const size of sizes) {
    const store = await startDemoStore(size > 0 ? { size } : {});
    try {
      const before = store.requests();
      const { stdout } = await run(process.execPath, ['--import', 'tsx', __filename, '--child', '--size', String(size), '--origin', store.origin], {
        cwd: ROOT,
        env: { ...process.env, NODE_NO_WARNINGS: '1' },
        maxBuffer: 64 * 1024 * 1024,
      });
      const line = stdout.split('\n').find((l) => l.startsWith(RESULT_MARKER));
      if (!line) throw new Error(`ai-site child (size ${size}) printed no result:\n${stdout.slice(-2000)}`);
      const figure = JSON.parse(line.slice(RESULT_MARKER.length)) as AiSiteFigure;
      figures.push({ ...figure, store: store.stats, storeRequests: store.requests() - before });
    } finally {
      await store.close();
    }
  }
  return { figures };
}

const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(1)}x` : '-');

export function printAiSiteReport(r: AiSiteReport): void {
  for (const f of r.figures) {
    heading(`AI site: ${f.storeName} (${int(f.store.totalPages)} pages, ${int(f.store.products)} products), child process`);
    printTable(
      ['step', 'wall time', 'peak RSS so far'],
      f.steps.map((s) => [s.label, ms(s.wallMs), mb(s.peakRssBytes)]),
    );
    console.log('');
    for (const s of f.steps) console.log(`  ${s.label.trim()}: ${s.detail}`);
    console.log(`\n1a+1c+3b+2a: ${ms(f.totalMs)}; live release ${int(f.filesDeployed)} files, ${mb(f.bytesDeployed)}; ` +
      `${int(f.storeRequests ?? 0)} store requests (${int(f.mapFetches)} by step 1a, which scrapes what it maps in one fetch, + product/collection feeds); ` +
      `peak RSS ${mb(f.peakRssBytes)} (${mb(f.baselineRssBytes)} with the stack up, before step 1a)`);
    const gen = f.steps.filter((s) => ['snapshot', 'narrative', 'build'].includes(s.key)).reduce((n, s) => n + s.wallMs, 0);
    const dep = f.steps.find((s) => s.key === 'deploy')?.wallMs ?? NaN;
    console.log(`2a split: generation ${ms(gen)} (${int(f.generatedFiles)} files, ${mb(f.generatedBytes)}) + deploy ${ms(dep)} ` +
      `(${int(f.deployOnlyFiles)} files, ${mb(f.deployOnlyBytes)} once index, sitemap, robots and favicon are added)`);
  }
  printFidelity(r.figures);
  const [small, big] = [r.figures.find((f) => f.size === 0) ?? r.figures[0], r.figures.find((f) => f.size > 0 && f !== r.figures[0]) ?? r.figures[1]];
  if (small && big) {
    heading(`AI site: ${big.storeName} vs ${small.storeName}`);
    const rows = big.steps.map((s) => {
      const o = small.steps.find((x) => x.key === s.key);
      return [s.label, ms(o?.wallMs ?? NaN), ms(s.wallMs), ratio(s.wallMs, o?.wallMs ?? 0)];
    });
    rows.push(['total 1a+1c+3b+2a', ms(small.totalMs), ms(big.totalMs), ratio(big.totalMs, small.totalMs)]);
    rows.push(['pages scraped', int(small.scraped), int(big.scraped), ratio(big.scraped, small.scraped)]);
    rows.push(['store requests', int(small.storeRequests ?? 0), int(big.storeRequests ?? 0), ratio(big.storeRequests ?? 0, small.storeRequests ?? 0)]);
    rows.push(['files deployed', int(small.filesDeployed), int(big.filesDeployed), ratio(big.filesDeployed, small.filesDeployed)]);
    rows.push(['bytes deployed', mb(small.bytesDeployed), mb(big.bytesDeployed), ratio(big.bytesDeployed, small.bytesDeployed)]);
    rows.push(['peak RSS', mb(small.peakRssBytes), mb(big.peakRssBytes), ratio(big.peakRssBytes, small.peakRssBytes)]);
    if (small.fidelity && big.fidelity) {
      const [a, b] = [small.fidelity.sizes, big.fidelity.sizes];
      rows.push(['llms.txt', kb(a.llmsTxtBytes), kb(b.llmsTxtBytes), ratio(b.llmsTxtBytes, a.llmsTxtBytes)]);
      rows.push(['data.json', kb(a.dataJsonBytes), kb(b.dataJsonBytes), ratio(b.dataJsonBytes, a.dataJsonBytes)]);
      rows.push(['paged catalogue files', kb(a.catalogPagesBytes), kb(b.catalogPagesBytes), ratio(b.catalogPagesBytes, a.catalogPagesBytes)]);
      const failed = (x: FidelityReport) => Object.values(x.failureCounts).reduce((n, v) => n + v, 0);
      rows.push(['catalogue check failures', int(failed(small.fidelity)), int(failed(big.fidelity)), '']);
    }
    printTable(['', small.storeName, big.storeName, 'ratio'], rows);
  }
}

/** Site sizes and the catalogue checks, one column per store, then every failure found. */
function printFidelity(figures: AiSiteFigure[]): void {
  const figs = figures.filter((f) => f.fidelity);
  if (!figs.length) return;
  heading('AI site: catalogue fidelity of the live release (bench/fidelity.ts), vs the store\'s /products.json');
  const fid = (f: AiSiteFigure) => f.fidelity!;
  const rows: string[][] = [
    ['llms.txt', ...figs.map((f) => `${kb(fid(f).sizes.llmsTxtBytes)} (${int(fid(f).sizes.llmsTxtProducts)} products listed)`)],
    ['data.json', ...figs.map((f) => `${kb(fid(f).sizes.dataJsonBytes)} (${int(fid(f).sizes.dataJsonProducts)} products)`)],
    ['paged catalogue /llms/catalog/<n>.txt', ...figs.map((f) => `${kb(fid(f).sizes.catalogPagesBytes)} in ${int(fid(f).sizes.catalogPages)} files`)],
    ['  /llms/catalog/full.txt', ...figs.map((f) => kb(fid(f).sizes.fullCatalogBytes))],
    ['product text files /llms/<slug>.txt', ...figs.map((f) => `${mb(fid(f).sizes.productTextBytes)} in ${int(fid(f).sizes.productTextFiles)} files`)],
    ['offers checked', ...figs.map((f) => int(fid(f).checked.offers))],
    ['product pages / variant lines / notes', ...figs.map((f) => `${int(fid(f).checked.productPages)} / ${int(fid(f).checked.variantLines)} / ${int(fid(f).checked.listedNotes)}`)],
    ['ranges / partly sold out / sold out', ...figs.map((f) => `${int(fid(f).checked.ranges)} / ${int(fid(f).checked.partlySoldOut)} / ${int(fid(f).checked.soldOut)}`)],
    ['Q&A pages / text files scanned', ...figs.map((f) => `${int(fid(f).checked.qaPages)} / ${int(fid(f).checked.textFiles)}`)],
  ];
  for (const check of Object.keys(figs[0]!.fidelity!.failureCounts)) {
    rows.push([`failures: ${check}`, ...figs.map((f) => int(fid(f).failureCounts[check as keyof FidelityReport['failureCounts']]))]);
  }
  rows.push(['check time', ...figs.map((f) => ms(f.fidelityMs ?? NaN))]);
  printTable(['', ...figs.map((f) => f.storeName)], rows);
  for (const f of figs) {
    for (const [check, list] of Object.entries(fid(f).failures)) {
      if (!list.length) continue;
      const count = fid(f).failureCounts[check as keyof FidelityReport['failureCounts']];
      console.log(`\n${f.storeName}: ${check} failed ${int(count)} times${count > list.length ? ` (first ${list.length})` : ''}:`);
      for (const line of list) console.log(`  ${line}`);
    }
  }
}

export async function runAiSiteBench(): Promise<AiSiteReport> {
  const report = await measureAiSite();
  printAiSiteReport(report);
  return report;
}

if (isMain(module)) runBenchEntry(RESULT_MARKER, () => measureChild(Number(argValue('--size') ?? 0), argValue('--origin')), runAiSiteBench);
