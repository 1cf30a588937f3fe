/**
 * The articles a first daily run publishes (issue 20, D35): for the bundled demo store (24
 * products) and the real-shaped yoga store (50 products with messy merchant HTML, sold-out
 * variants, SKUs), every product's planned questions are written by the extractive engine
 * and judged by the quality gate, at most the one-time burst's share per product (1,000
 * spread over the products), exactly as 2a does; the published pages are then measured
 * (article-quality.ts). With `modelWriter`, the model engine writes them instead.
 * `npx tsx bench/articles.ts` prints the figures (~10 s).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildArticleFiles } from '../functions/core/articles/article-page';
import { articleCatalogue, entityQuestions, extractiveWriter, reviewQuestion, subjectOf, type AnswerWriter } from '../functions/core/articles/compose';
import type { PublishedFingerprint } from '../functions/core/articles/gate';
import { readArticleSources } from '../functions/core/articles/site-sources';
import { articleSlug } from '../functions/core/articles/slugs';
import { buildOfflineNarrative, inferIndustry } from '../functions/core/generate';
import { toCatalogProduct, type StorefrontProduct } from '../functions/core/products/catalog';
import { buildSiteFiles } from '../functions/core/site/build';
import type { StoreSnapshot } from '../functions/core/site/types';
import { articleQualityLine, measureArticleQuality, type ArticleQuality, type MeasuredArticle } from './article-quality';
import { buildDemoSiteInProcess } from './fidelity';
import { ROOT } from './lib';

const NOW = '2026-03-14T09:12:00.000Z';
const BURST = 1000;

export interface StoreArticles {
  label: string;
  quality: ArticleQuality;
  /** Questions planned, and turned down by the gate, by reason. */
  planned: number;
  rejected: Record<string, number>;
  ms: number;
}

export function yogaSnapshot(): StoreSnapshot {
  const origin = 'https://lotus-stone.example';
  const fixture = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/yoga-store-products.json'), 'utf8')) as { products: StorefrontProduct[] };
  const products = fixture.products.map((p) => toCatalogProduct(p, origin, 'USD'));
  return { business: { name: 'Lotus & Stone', orgSlug: 'lotus', url: origin, domain: 'lotus-stone.example' }, pages: [], products, collections: [], storeSitemapUrls: [] };
}

/** A first run's product articles for one store (see the header). */
export async function storeArticles(label: string, snapshot: StoreSnapshot, write: AnswerWriter = extractiveWriter): Promise<StoreArticles> {
  const t0 = performance.now();
  const narrative = buildOfflineNarrative(snapshot);
  const files = buildSiteFiles(snapshot, narrative, { now: NOW, indexNowKey: 'a1b2c3d4e5f60718', trackingEndpoint: 'https://api.example/hook' });
  const sources = readArticleSources({
    llmsTxt: files.find((f) => f.path === '/llms.txt')?.content ?? '',
    dataJson: JSON.parse(files.find((f) => f.path === '/data.json')?.content ?? 'null'),
    pages: files.filter((f) => /\.(html|md)$/.test(f.path)),
  });
  const businessName = snapshot.business.name;
  const catalogue = articleCatalogue(snapshot.products, sources, businessName);
  const context = { businessName, industry: narrative.industry || inferIndustry(snapshot).industry, sources };
  const taken = new Set(files.map((f) => f.path));
  const published: PublishedFingerprint[] = [];
  const articles: MeasuredArticle[] = [];
  const rejected: Record<string, number> = {};
  let planned = 0;
  const n = snapshot.products.length;
  for (const [i, product] of snapshot.products.entries()) {
    const share = Math.floor(BURST / n) + (i < BURST % n ? 1 : 0);
    let made = 0;
    for (const question of entityQuestions(catalogue, product.productId, context)) {
      if (made >= share) break;
      planned++;
      const reviewed = await reviewQuestion(question, write, published);
      if (!reviewed.ok) {
        const reason = reviewed.reason.replace(/ \/.*$/, '').replace(/\(.*\)/, '(…)');
        rejected[reason] = (rejected[reason] ?? 0) + 1;
        continue;
      }
      const slug = articleSlug(question.title, taken);
      taken.add(slug);
      const build = buildArticleFiles({ title: question.title, slug, business: { name: businessName, url: snapshot.business.url }, product, answer: reviewed.answer, publishedDate: NOW, relatedPosts: [] });
      published.push({ title: question.title, subject: subjectOf(question), path: build.articlePath, shingles: reviewed.shingles });
      articles.push({ title: question.title, productId: product.productId, html: build.files[0]!.content });
      made++;
    }
  }
  return { label, quality: measureArticleQuality(articles, snapshot.products), planned, rejected, ms: performance.now() - t0 };
}

export async function measureArticles(): Promise<StoreArticles[]> {
  return [
    await storeArticles('demo store (24 products)', buildDemoSiteInProcess(0, { prompts: false }).snapshot),
    await storeArticles('yoga store (50 products, messy HTML)', yogaSnapshot()),
  ];
}

export function articleLines(report: StoreArticles): string[] {
  const reasons = Object.entries(report.rejected).map(([r, c]) => `${r}: ${c}`).join('; ');
  return [`${report.label}: ${articleQualityLine(report.quality)}`, `  ${report.planned} questions planned, ${report.planned - report.quality.published} turned down${reasons ? ` (${reasons})` : ''}`];
}

if (require.main === module) {
  measureArticles().then((reports) => {
    for (const r of reports) for (const line of articleLines(r)) console.log(line);
  }).catch((err) => {
    console.error(err);
    process.exitCode = 1;
  });
}
