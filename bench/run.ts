/**
 * npm run bench: bundle sizes, HTTP load, cold start, crawl (ours vs Crawlee), AI-site
 * generation + deploy, the whole onboarding workflow and one daily-schedule run in sequence, then the figures side by side. Prints figures only; a slow
 * result never fails the run (a section that crashes does, after the other sections ran).
 *
 * Skip sections with BENCH_SKIP, a comma-separated list of section names:
 *   bundle    esbuild bundle sizes            (cold start then bundles its one module itself)
 *   http      HTTP load with autocannon       (~25 s)
 *   cold      cold start of one handler
 *   crawl     mapper + scraper vs @crawlee/cheerio on a 5,000-page demo store (~1-2 min)
 *   ai-site   AI site generate + deploy, default and 5,000-page demo stores (~1 min)
 *   onboarding  the whole onboarding workflow (ASL + real tasks), default, 5,200- and 20,000-product demo
 *             stores, offline generators and a mock model API (~3 min)
 *   daily     the daily schedule (ASL + real tasks) over 10 and 100 onboarded businesses, each
 *             with its own small demo store, on three days: the first run (20% changed), a day every
 *             store changed, a day none did; per business: task invocations, state transitions,
 *             DynamoDB units, objects written and read; the cost per business and for 1,000 and
 *             10,000 businesses at list prices; the share of unchanged noisy pages flagged as
 *             changed, raw-HTML sha256 vs our fingerprint (~5-6 min, setup included)
 *   capacity  one simulated day (no AWS) of the fan-out for 1,000 / 10,000 / 50,000 businesses
 *             under the real limits: finish time, the limit that binds, the defaults chosen (~15 s)
 *   visibility  batch 2b: checks/s per AI platform (8 vendor fakes, real clients) under the fleet
 *             limits, and the cost units of one business per day (~10 s)
 *   articles  the articles a first run publishes for the demo store, the 50-product yoga store
 *             (messy HTML), the kitchen and colourway fixtures and every catalogue in
 *             ../shared/catalogues: share answering their facet, off-topic sentences, near-copy
 *             pairs, articles per store fact; families, family pages, comparisons (inside a
 *             family, stating two differences with both values), need questions (from the
 *             vocabulary), model fields published ungrounded; then with a stand-in model adding
 *             invented claims: ungrounded sentences dropped and published (~30 s)
 *   article-labels  the labelled set (bench/labels/articles.json, 130 articles of the five shared
 *             catalogues, each labelled by a reader with the catalogue open): regenerated, the share a
 *             shopper asks, that answers, that is true, that opens with a verdict and a fact; and per
 *             catalogue the articles published, by kind, and the share opening with a lead (~25 s)
 *   agents    the User-Agent classifier on the corpus with sources (test/fixtures/ai-user-agents.ts):
 *             AI agents recognised and attributed, browsers and search crawlers counted as AI (<1 s)
 *   answerability  on every catalogue in ../shared/catalogues: questions written from the catalogue
 *             (price, option values, sold-out variant, material, size or capacity, cheapest of a
 *             type, which cost under a figure), answered by BM25 over ~90-word passages (top 3,
 *             the answer counted beside the product's name) from the AI site and from the store's
 *             own Dawn product pages read without JavaScript; per kind, both sides (~15 s)
 * e.g. BENCH_SKIP=crawl,http npm run bench. Each section's own knobs (BENCH_DURATION,
 * BENCH_CRAWL_SIZE, BENCH_AI_SITE_SIZES, BENCH_ONBOARDING_PRODUCTS, BENCH_DAILY_SIZES, ...) are described at the top of its file.
 */
import { rmSync } from 'node:fs';
import { measureAiSite, printAiSiteReport, type AiSiteFigure, type AiSiteReport } from './ai-site';
import { API_BUNDLE_LIMIT_BYTES, bundleAll, oversized, printBundleReport, type BundleReport } from './bundle';
import { COLD_START_MODULE, printColdStartReport, runColdStart, type ColdStartReport } from './cold-start';
import { measureCrawl, printCrawlReport, type CrawlReport, type CrawlSideFigure } from './crawl';
import { printLoadReport, runHttpLoad, type LoadFigure, type LoadReport } from './http-load';
import { fidelityLine } from './fidelity';
import { describeMachine, heading, int, kb, mb, ms, wholeMs } from './lib';
import { capacityLines, measureCapacity, printCapacityReport, type CapacityReport } from './capacity';
import { deploysText, measureDaily, noiseLine, perBusiness, printDailyReport, type DailyReport } from './daily';
import { measureVisibility, printVisibilityReport, visibilityLines, type VisibilityReport } from './visibility';
import { labelsLines, measureLabels, type LabelsReport } from './matcher-labels';
import { articleLines, measureArticles, type StoreArticles } from './articles';
import { articleLabelLines, measureArticleLabels, type LabelFigures } from './article-labels';
import { coverageLine } from './sibling-store';
import { agentsLines, measureAgents, type AgentsReport } from './agents';
import { answerabilityLines, answerabilitySummary, measureAnswerability, type AnswerabilityReport } from './answerability';
import { createSiteWaitMs, measureOnboarding, printOnboardingReport, topFigureText, type OnboardingFigure, type OnboardingReport } from './onboarding';

const SECTIONS = ['bundle', 'http', 'cold', 'crawl', 'ai-site', 'onboarding', 'daily', 'capacity', 'visibility', 'articles', 'article-labels', 'agents', 'answerability'] as const;
type SectionName = (typeof SECTIONS)[number];
const SKIP = new Set((process.env.BENCH_SKIP ?? '').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean));
const skipped = (name: SectionName): boolean => SKIP.has(name);

async function section<T>(name: string, fn: () => Promise<T>): Promise<T | undefined> {
  try {
    return await fn();
  } catch (err) {
    console.error(`\n${name} failed: ${(err as Error).stack ?? err}`);
    process.exitCode = 1;
    return undefined;
  }
}

const ratio = (a: number, b: number): string => (b > 0 ? `${(a / b).toFixed(2)}x` : '-');

function crawlRows(crawl: CrawlReport): [string, string][] {
  const line = (f: CrawlSideFigure) => `${f.label}: ${f.pagesPerSecond.toFixed(0)} pages/s, ${int(f.pages)} pages in ${ms(f.wallMs)}, ` +
    `${mb(f.peakRssBytes)} peak RSS${f.failures ? `, ${f.failures} failures` : ''}`;
  const vs = (f: CrawlSideFigure) => `${f.label} / crawlee: ${ratio(f.pagesPerSecond, crawl.crawlee.pagesPerSecond)} pages/s, ` +
    `${ratio(f.wallMs, crawl.crawlee.wallMs)} wall time, ${ratio(f.peakRssBytes, crawl.crawlee.peakRssBytes)} peak RSS`;
  return [
    [`crawl (${int(crawl.totalPages)} pages, conc ${crawl.concurrency})`, line(crawl.map)],
    ['', line(crawl.mapAndScrape)],
    ['', line(crawl.crawlee)],
    ['', vs(crawl.map)],
    ['', vs(crawl.mapAndScrape)],
  ];
}

function aiSiteRows(ai: AiSiteReport): [string, string][] {
  const rows: [string, string][] = [];
  const stepMs = (f: AiSiteFigure, key: string) => f.steps.find((s) => s.key === key)?.wallMs ?? NaN;
  const generationMs = (f: AiSiteFigure) => stepMs(f, 'snapshot') + stepMs(f, 'narrative') + stepMs(f, 'build');
  for (const f of ai.figures) {
    rows.push([`ai site (${f.storeName})`, `${ms(f.totalMs)} total: 1a scrape ${ms(stepMs(f, 'scrape'))}, 1c products ${ms(stepMs(f, 'products'))}, ` +
      `3b product llms ${ms(stepMs(f, 'productLlms'))}, 2a site ${ms(stepMs(f, 'createSite'))}`]);
    rows.push(['', `2a alone: generation ${ms(generationMs(f))} + deploy ${ms(stepMs(f, 'deploy'))}; ${int(f.filesDeployed)} files, ${mb(f.bytesDeployed)} deployed; ` +
      `${int(f.scraped)} pages scraped, ${int(f.storeRequests ?? 0)} store requests; ${mb(f.peakRssBytes)} peak RSS`]);
  }
  for (const f of ai.figures) {
    if (!f.fidelity) continue;
    const z = f.fidelity.sizes;
    rows.push(['', `${f.storeName}: llms.txt ${kb(z.llmsTxtBytes)}, data.json ${kb(z.dataJsonBytes)}, paged catalogue ${kb(z.catalogPagesBytes)} in ${z.catalogPages} files; ` +
      `catalogue checks (${int(f.fidelity.checked.offers)} offers, ${int(f.fidelity.products)} products): ${fidelityLine(f.fidelity)}`]);
  }
  const [small, big] = [ai.figures.find((f) => f.size === 0), ai.figures.find((f) => f.size > 0)];
  if (small && big) {
    rows.push(['', `${big.storeName} / default: ${ratio(big.totalMs, small.totalMs)} total time, ${ratio(generationMs(big), generationMs(small))} generation, ` +
      `${ratio(stepMs(big, 'deploy'), stepMs(small, 'deploy'))} deploy, ${ratio(big.filesDeployed, small.filesDeployed)} files, ` +
      `${ratio(big.bytesDeployed, small.bytesDeployed)} bytes, ${ratio(big.peakRssBytes, small.peakRssBytes)} peak RSS`]);
  }
  return rows;
}

function onboardingRows(r: OnboardingReport): [string, string][] {
  const rows: [string, string][] = [];
  const stepMs = (f: OnboardingFigure, id: string) => f.steps.find((s) => s.id === id)?.durationMs ?? NaN;
  const calls = (f: OnboardingFigure) => (f.engine === 'model' && f.model
    ? `${int(f.model.calls)} model calls, ${(f.model.narrative?.fallbacks ?? 0) + (f.model.prompts?.fallbacks ?? 0)} fallbacks`
    : '0 model calls');
  for (const f of r.figures) {
    rows.push([`onboarding (${f.storeName}, ${f.engine})`, `${f.runStatus} in ${ms(f.wallMs)}, ${mb(f.peakRssBytes)} peak RSS; ` +
      `${int(f.storeRequests ?? 0)} store pages fetched, ${calls(f)}; ${int(f.products)} products, ${int(f.prompts)} prompts, ${int(f.productsShort)} products short of their prompts`]);
    rows.push(['', `steps: 1a ${ms(stepMs(f, '1a'))}, 1c ${ms(stepMs(f, '1c'))}, 2a ${ms(stepMs(f, '2a'))} (after ${ms(createSiteWaitMs(f))} idle polling for 1c), ` +
      `3a ${ms(stepMs(f, '3a'))}, 3b ${ms(stepMs(f, '3b'))}`]);
  }
  for (const f of r.figures) {
    const q = f.promptQuality;
    if (!q) continue;
    rows.push(['', `${f.storeName}, ${f.engine}: prompts ${int(q.total)}, ${int(q.duplicates)} duplicates after normalisation, ${int(q.malformed)} malformed, ` +
      `${int(q.brandOrLine)} naming the brand/a line, ${q.intentsCovered}/5 intents, max figure share ${topFigureText(q)}`]);
  }
  for (const c of r.siblings) rows.push(['', coverageLine(c)]);
  for (const engine of ['offline', 'model'] as const) {
    const small = r.figures.find((f) => f.engine === engine && f.size === 0);
    const big = r.figures.find((f) => f.engine === engine && f.size > 0);
    if (!small || !big) continue;
    rows.push(['', `${engine}: ${big.storeName} / default: ${ratio(big.wallMs, small.wallMs)} wall time, ${ratio(big.peakRssBytes, small.peakRssBytes)} peak RSS, ` +
      `${ratio(big.storeRequests ?? 0, small.storeRequests ?? 0)} store pages` +
      (engine === 'model' ? `, ${ratio(big.model?.calls ?? 0, small.model?.calls ?? 0)} model calls` : '')]);
  }
  if (r.notRun.length) rows.push(['', `not run: ${r.notRun.join('; ')}`]);
  return rows;
}

function dailyRows(r: DailyReport): [string, string][] {
  const rows: [string, string][] = [];
  const dec = (v: number) => (Number.isFinite(v) ? (Number.isInteger(v) ? String(v) : v.toFixed(1)) : '-');
  for (const f of r.figures) {
    const { changed: c, unchanged: u } = f;
    const notOk = ['partial', 'failed', 'skipped'].filter((k) => f.counts[k]).map((k) => `${f.counts[k]} ${k}`).join(', ');
    rows.push([`daily (${int(f.businesses)} businesses)`, `${f.executionStatus}${notOk ? ` (businesses: ${notOk})` : ''} in ${ms(f.wallMs)} (${ms(f.wallMs / f.businesses)} per business), ${mb(f.peakRssBytes)} peak RSS; ` +
      `${f.storeProducts}-product stores (${f.storePages} pages), ${f.changedStores} changed; ${int(f.totalStoreRequests)} store requests`]);
    rows.push(['', `per business, changed / unchanged: ${dec(c.storeRequests)} / ${dec(u.storeRequests)} store requests, ` +
      `${dec(c.pagesScraped)} / ${dec(u.pagesScraped)} pages scraped, ${deploysText(c)} / ${deploysText(u)} deploys; 0 model calls (offline)`]);
    rows.push(['', noiseLine(f.noise)]);
    const steady = perBusiness(f.steadyDay.usage, f.businesses);
    const changedDay = perBusiness(f.changedDay.usage, f.businesses);
    rows.push(['', `steady day (none changed): ${ms(f.steadyDay.wallMs)}, ${mb(f.steadyDay.peakRssBytes)} peak RSS; every store changed: ${ms(f.changedDay.wallMs)}; ` +
      `objects written on S3 per business: ${dec(steady.s3ObjectsWritten)} steady / ${dec(changedDay.s3ObjectsWritten)} changed; ` +
      `manifest layout (D179): ${dec(steady.s3ObjectsWrittenManifest)} steady / ${dec(changedDay.s3ObjectsWrittenManifest)} changed`]);
  }
  const [small, big] = [r.figures[0], r.figures[r.figures.length - 1]];
  if (small && big && small !== big) {
    rows.push(['', `${int(big.businesses)} / ${int(small.businesses)} businesses: ${ratio(big.wallMs, small.wallMs)} wall time, ` +
      `${ratio(big.wallMs / big.businesses, small.wallMs / small.businesses)} per business, ${ratio(big.peakRssBytes, small.peakRssBytes)} peak RSS, ` +
      `${ratio(big.totalStoreRequests, small.totalStoreRequests)} store requests`]);
  }
  return rows;
}

interface Results {
  bundles?: BundleReport;
  load?: LoadReport;
  cold?: ColdStartReport;
  crawl?: CrawlReport;
  ai?: AiSiteReport;
  onboarding?: OnboardingReport;
  daily?: DailyReport;
  capacity?: CapacityReport;
  visibility?: VisibilityReport;
  /** The matcher's precision/recall on the labelled set (printed with visibility). */
  matcherLabels?: LabelsReport;
  articles?: StoreArticles[];
  articleLabels?: LabelFigures | null;
  agents?: AgentsReport;
  answerability?: AnswerabilityReport;
}

function summary({ bundles, load, cold, crawl, ai, onboarding, daily, capacity, visibility, matcherLabels, articles, articleLabels, agents, answerability }: Results): void {
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
  if (crawl) rows.push(...crawlRows(crawl));
  if (ai) rows.push(...aiSiteRows(ai));
  if (onboarding) rows.push(...onboardingRows(onboarding));
  if (daily) rows.push(...dailyRows(daily));
  if (capacity) capacityLines(capacity).forEach((line, i) => rows.push([i === 0 ? 'capacity (simulated day)' : '', line]));
  if (visibility) {
    const p = visibility.platforms;
    const rate = (f: (typeof p)[number]) => `${f.platform.replace('platform_', 'p')} ${f.checksPerSecond.toFixed(1)}/s (${(f.checksPerSecond / f.rateCeilingPerSecond).toFixed(1)}x ceiling)`;
    rows.push(['visibility (per platform)', p.map(rate).join(', ')]);
    rows.push(['', `per business/day: ${p.map((f) => `${f.platform.replace('platform_', 'p')} ${(f.costUnitsPerCheck * 10).toFixed(0)} ${f.costUnit}`).join(', ')}`]);
    for (const line of visibilityLines(visibility)) rows.push(['', line]);
  }
  if (matcherLabels) for (const line of labelsLines(matcherLabels)) rows.push([visibility ? '' : 'visibility', line]);
  if (articles) {
    articles.forEach((report, i) => {
      articleLines(report).forEach((line, j) => rows.push([i === 0 && j === 0 ? 'articles (first run)' : '', line.trim()]));
    });
  }
  if (articleLabels) articleLabelLines(articleLabels).slice(0, 2).forEach((line, i) => rows.push([i === 0 ? 'articles (labelled set)' : '', line.trim()]));
  if (agents) agentsLines(agents).slice(0, 2).forEach((line, i) => rows.push([i === 0 ? 'agents (User-Agent classes)' : '', line]));
  if (answerability) answerabilitySummary(answerability).forEach((line, i) => rows.push([i === 0 ? 'answerability (top 3)' : '', line]));
  const notRun = SECTIONS.filter(skipped);
  if (notRun.length) rows.push(['skipped', `${notRun.join(', ')} (BENCH_SKIP)`]);
  const width = Math.max(...rows.map(([k]) => k.length));
  for (const [k, v] of rows) console.log(`${k.padEnd(width)}  ${v}`);
}

async function main(): Promise<void> {
  console.log(`machine: ${describeMachine()}`);
  const unknown = [...SKIP].filter((name) => !(SECTIONS as readonly string[]).includes(name));
  if (unknown.length) console.warn(`BENCH_SKIP: unknown section(s) ${unknown.join(', ')}; known: ${SECTIONS.join(', ')}`);
  if (SKIP.size) console.log(`skipping: ${SECTIONS.filter(skipped).join(', ') || 'nothing'}`);

  const results: Results = {};
  try {
    if (!skipped('bundle')) {
      results.bundles = await section('bundle', bundleAll);
      if (results.bundles) printBundleReport(results.bundles);
    }
    if (!skipped('http')) {
      results.load = await section('http load', () => runHttpLoad());
      if (results.load) printLoadReport(results.load);
    }
    if (!skipped('cold')) {
      const listBundle = results.bundles?.bundles.find((b) => b.module === COLD_START_MODULE)?.outfile;
      results.cold = await section('cold start', () => runColdStart({ bundleFile: listBundle }));
      if (results.cold) printColdStartReport(results.cold);
    }
    if (!skipped('crawl')) {
      results.crawl = await section('crawl', () => measureCrawl());
      if (results.crawl) printCrawlReport(results.crawl);
    }
    if (!skipped('ai-site')) {
      results.ai = await section('ai site', () => measureAiSite());
      if (results.ai) printAiSiteReport(results.ai);
    }
    if (!skipped('onboarding')) {
      results.onboarding = await section('onboarding', () => measureOnboarding());
      if (results.onboarding) printOnboardingReport(results.onboarding);
    }
    if (!skipped('daily')) {
      results.daily = await section('daily', () => measureDaily());
      if (results.daily) printDailyReport(results.daily);
    }
    if (!skipped('capacity')) {
      results.capacity = await section('capacity', () => measureCapacity());
      if (results.capacity) printCapacityReport(results.capacity);
    }
    if (!skipped('visibility')) {
      results.visibility = await section('visibility', () => measureVisibility());
      if (results.visibility) printVisibilityReport(results.visibility);
      results.matcherLabels = measureLabels();
      for (const line of labelsLines(results.matcherLabels)) console.log(line);
    }
    if (!skipped('articles')) {
      results.articles = await section('articles', () => measureArticles());
      if (results.articles) {
        heading('articles');
        for (const report of results.articles) for (const line of articleLines(report)) console.log(line);
      }
    }
    if (!skipped('article-labels')) {
      results.articleLabels = await section('article labels', () => measureArticleLabels());
      if (results.articleLabels) {
        heading('articles, labelled set');
        for (const line of articleLabelLines(results.articleLabels)) console.log(line);
      }
    }
    if (!skipped('agents')) {
      results.agents = await section('agents', async () => measureAgents());
      if (results.agents) {
        heading('agents');
        for (const line of agentsLines(results.agents)) console.log(line);
      }
    }
    if (!skipped('answerability')) {
      results.answerability = await section('answerability', async () => measureAnswerability());
      if (results.answerability) {
        heading('answerability');
        for (const line of answerabilityLines(results.answerability)) console.log(line);
      }
    }
    summary(results);
  } finally {
    if (results.bundles) rmSync(results.bundles.outDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
