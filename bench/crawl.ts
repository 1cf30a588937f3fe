/**
 * Crawl benchmark: our mapper + built-in scraper against Crawlee's CheerioCrawler, both on the
 * demo store (5,000 pages by default) served from this process on loopback. Each side runs in
 * its own child process (`node --import tsx bench/crawl.ts --child <side>`) so the two never
 * share a heap and each reports its own peak RSS (`process.resourceUsage().maxRSS`).
 *
 * - ours, map:        robots.txt + sitemaps + every page fetched once (links + fingerprint),
 *                     in a child of its own;
 * - ours, map+scrape: the above, then every mapped page fetched again and turned into
 *                     markdown (what a site build does); RSS includes the 5,000 markdown pages;
 * - crawlee:          robots.txt + sitemaps with Crawlee's own helpers, then CheerioCrawler
 *                     from the root and the sitemap URLs, enqueueing same-hostname links,
 *                     respecting robots.txt, with in-memory storage.
 *
 * Same concurrency (fixed, not autoscaled) and the same 5,000-request cap on both sides.
 * Prints figures only; asserts nothing.
 *
 *   npx tsx bench/crawl.ts        (BENCH_CRAWL_SIZE=5000, BENCH_CRAWL_CONCURRENCY=8)
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describeMachine, heading, int, isMain, mb, ms, printTable, ROOT } from './lib';

const run = promisify(execFile);
const RESULT_MARKER = '@@crawl-bench-result ';
const MAX_REQUESTS = 5000;

export interface CrawlSideFigure {
  label: string;
  pages: number;
  wallMs: number;
  pagesPerSecond: number;
  peakRssBytes: number;
  /** Requests the store saw during this run. */
  storeRequests: number;
  failures: number;
  note?: string;
}

export interface CrawlReport {
  size: number;
  totalPages: number;
  concurrency: number;
  map: CrawlSideFigure;
  mapAndScrape: CrawlSideFigure;
  crawlee: CrawlSideFigure;
}

interface OursChildResult {
  side: 'ours' | 'ours-map';
  mapMs: number;
  mapped: number;
  mapRequests: number;
  truncated: boolean;
  mapErrors: number;
  scrapeMs: number;
  scraped: number;
  scrapeFailures: number;
  markdownBytes: number;
  fingerprintsAgreeing: number;
  peakRssBytes: number;
}

interface CrawleeChildResult {
  side: 'crawlee';
  wallMs: number;
  seeded: number;
  finished: number;
  failed: number;
  peakRssBytes: number;
}

type ChildResult = OursChildResult | CrawleeChildResult;

/** Runs the comparison and returns the figures (the demo store lives in this process). */
export async function measureCrawl(options: { size?: number; concurrency?: number } = {}): Promise<CrawlReport> {
  const size = options.size ?? Number(process.env.BENCH_CRAWL_SIZE ?? 5000);
  const concurrency = options.concurrency ?? Number(process.env.BENCH_CRAWL_CONCURRENCY ?? 8);
  const { startDemoStore } = await import('../functions/local/demo-store');
  const store = await startDemoStore({ size });
  const storageDir = mkdtempSync(join(tmpdir(), 'aivis-crawlee-'));
  try {
    const child = async <T extends ChildResult>(side: T['side']): Promise<{ result: T; storeRequests: number }> => {
      const before = store.requests();
      const { stdout } = await run(process.execPath, ['--import', 'tsx', __filename, '--child', side, store.origin, String(concurrency)], {
        cwd: ROOT,
        env: { ...process.env, CRAWLEE_STORAGE_DIR: storageDir, CRAWLEE_PERSIST_STORAGE: 'false', NODE_NO_WARNINGS: '1' },
        maxBuffer: 64 * 1024 * 1024,
      });
      const line = stdout.split('\n').find((l) => l.startsWith(RESULT_MARKER));
      if (!line) throw new Error(`${side} child printed no result:\n${stdout.slice(-2000)}`);
      return { result: JSON.parse(line.slice(RESULT_MARKER.length)) as T, storeRequests: store.requests() - before };
    };

    const mapOnly = await child<OursChildResult>('ours-map');
    const ours = await child<OursChildResult>('ours');
    const crawlee = await child<CrawleeChildResult>('crawlee');
    const m = mapOnly.result;
    const o = ours.result;
    const c = crawlee.result;
    const figure = (label: string, pages: number, wallMs: number, peakRssBytes: number, storeRequests: number, failures: number, note?: string): CrawlSideFigure =>
      ({ label, pages, wallMs, pagesPerSecond: pages / (wallMs / 1000), peakRssBytes, storeRequests, failures, note });
    return {
      size,
      totalPages: store.stats.totalPages,
      concurrency,
      map: figure('ours: map', m.mapped, m.mapMs, m.peakRssBytes, mapOnly.storeRequests, m.mapErrors,
        `truncated=${m.truncated}, ${m.mapErrors} errors`),
      mapAndScrape: figure('ours: map + scrape', o.scraped, o.mapMs + o.scrapeMs, o.peakRssBytes, ours.storeRequests, o.scrapeFailures,
        `map ${ms(o.mapMs)} + scrape ${ms(o.scrapeMs)}; ${mb(o.markdownBytes)} markdown kept; ` +
        `${o.fingerprintsAgreeing}/${o.scraped} fingerprints equal across the two fetches (per-request noise ignored)`),
      crawlee: figure('crawlee: CheerioCrawler', c.finished, c.wallMs, c.peakRssBytes, crawlee.storeRequests, c.failed,
        `${c.seeded} start URLs (root + sitemap URLs)`),
    };
  } finally {
    rmSync(storageDir, { recursive: true, force: true });
    await store.close();
  }
}

export function printCrawlReport(r: CrawlReport): void {
  heading(`Crawl: demo store of ${int(r.totalPages)} pages, concurrency ${r.concurrency}, cap ${int(MAX_REQUESTS)}`);
  const sides = [r.map, r.mapAndScrape, r.crawlee];
  printTable(
    ['side', 'pages', 'wall time', 'pages/s', 'peak RSS', 'store requests', 'failures'],
    sides.map((f) => [f.label, int(f.pages), ms(f.wallMs), f.pagesPerSecond.toFixed(0), mb(f.peakRssBytes), int(f.storeRequests), int(f.failures)]),
  );
  for (const f of sides) if (f.note) console.log(`  ${f.label}: ${f.note}`);
  const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(2)}x` : '-');
  console.log('\nratios against crawlee (ours / crawlee):');
  printTable(
    ['', 'pages/s', 'wall time', 'peak RSS'],
    [r.map, r.mapAndScrape].map((f) => [f.label, ratio(f.pagesPerSecond, r.crawlee.pagesPerSecond), ratio(f.wallMs, r.crawlee.wallMs), ratio(f.peakRssBytes, r.crawlee.peakRssBytes)]),
  );
  console.log('\nmap = robots + sitemaps + one fetch per page (links + fingerprint); map + scrape fetches each page a');
  console.log('second time and keeps its markdown. The store runs in the parent process, the crawlers in children.');
}

/** Prints the comparison (the entry point bench/run.ts can call). */
export async function runCrawlBench(): Promise<void> {
  printCrawlReport(await measureCrawl());
}

// ---------------------------------------------------------------------------------------
// children

async function oursChild(origin: string, concurrency: number, scrape: boolean): Promise<OursChildResult> {
  const { createGuardedFetch } = await import('../functions/adapters/external/guarded-fetch');
  const { mapSite } = await import('../functions/adapters/external/mapper');
  const { createBuiltinScraper } = await import('../functions/adapters/external/scraper/builtin');
  const fetchUrl = createGuardedFetch({ allowPrivateNetwork: true, timeoutMs: 30_000 });

  const t0 = performance.now();
  const map = await mapSite(fetchUrl, origin, { concurrency, maxPages: MAX_REQUESTS });
  const t1 = performance.now();
  const pages = map.urls.filter((u) => u.fingerprint !== undefined);
  const scraped = scrape ? await createBuiltinScraper(fetchUrl).scrape(pages, { concurrency }) : { pages: [], failures: [] };
  const t2 = performance.now();

  const fingerprints = new Map(pages.map((u) => [u.url, u.fingerprint]));
  return {
    side: scrape ? 'ours' : 'ours-map',
    mapMs: t1 - t0,
    mapped: map.urls.length,
    mapRequests: map.fetched,
    truncated: map.truncated,
    mapErrors: map.errors.length,
    scrapeMs: t2 - t1,
    scraped: scraped.pages.length,
    scrapeFailures: scraped.failures.length,
    markdownBytes: scraped.pages.reduce((n, p) => n + Buffer.byteLength(p.markdown), 0),
    fingerprintsAgreeing: scraped.pages.filter((p) => fingerprints.get(p.url) === p.fingerprint).length,
    peakRssBytes: process.resourceUsage().maxRSS * 1024,
  };
}

async function crawleeChild(origin: string, concurrency: number): Promise<CrawleeChildResult> {
  const { CheerioCrawler, Configuration, log, LogLevel } = await import('@crawlee/cheerio');
  // @crawlee/utils ships with @crawlee/cheerio (its own dependency): Crawlee's sitemap helpers.
  const { RobotsTxtFile, Sitemap } = await import('@crawlee/utils');
  log.setLevel(LogLevel.ERROR);
  const config = new Configuration({ persistStorage: false, purgeOnStart: true });

  const t0 = performance.now();
  const robots = await RobotsTxtFile.find(`${origin}/`);
  const declared = robots.getSitemaps();
  const sitemap = await Sitemap.load(declared.length > 0 ? declared : [`${origin}/sitemap.xml`]);
  const seeds = [`${origin}/`, ...sitemap.urls].slice(0, MAX_REQUESTS);
  let failed = 0;
  let finished = 0;
  const crawler = new CheerioCrawler(
    {
      minConcurrency: concurrency,
      maxConcurrency: concurrency,
      maxRequestsPerCrawl: MAX_REQUESTS,
      respectRobotsTxtFile: true,
      async requestHandler({ $, enqueueLinks }) {
        finished++;
        $('title').first().text();
        await enqueueLinks({ strategy: 'same-hostname' });
      },
      failedRequestHandler() {
        failed++;
      },
    },
    config,
  );
  await crawler.run(seeds);
  const wallMs = performance.now() - t0;
  return { side: 'crawlee', wallMs, seeded: seeds.length, finished, failed, peakRssBytes: process.resourceUsage().maxRSS * 1024 };
}

async function child(side: string, origin: string, concurrency: number): Promise<void> {
  const result = side === 'crawlee' ? await crawleeChild(origin, concurrency) : await oursChild(origin, concurrency, side === 'ours');
  process.stdout.write(`${RESULT_MARKER}${JSON.stringify(result)}\n`);
}

if (isMain(module)) {
  const at = process.argv.indexOf('--child');
  const main = at >= 0
    ? child(process.argv[at + 1], process.argv[at + 2], Number(process.argv[at + 3]))
    : (console.log(`machine: ${describeMachine()}`), runCrawlBench());
  main.then(
    () => {
      // Crawlee keeps timers alive after run(); a child has said what it had to say.
      if (at >= 0) process.exit(0);
    },
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
