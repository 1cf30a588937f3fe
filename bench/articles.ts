/**
 * The articles a first daily run publishes (issues 20 and 33, D35, D37): for the bundled demo
 * store (24 products), the real-shaped yoga store (50 products with messy merchant HTML,
 * sold-out variants, SKUs), the kitchen and colourway-yoga fixtures (a knife pair; one mat sold
 * as six prints) and every real store's catalogue in ../shared/catalogues (read-only test
 * data; BENCH_CATALOGUES=<dir> elsewhere; absent: skipped), every product's planned questions
 * are written by the extractive engine and judged by the quality gate, at most the one-time
 * burst's share per product (1,000 spread over the products), exactly as 2a does; the
 * published pages are then measured (article-quality.ts, article-realism.ts), and a model that
 * invents the fields it fills is run through the narrative's check. Then the demo and yoga
 * stores with a stand-in model that adds two invented claims to every answer, through the
 * model engine's check: how many it drops, and how many get published (0).
 * `npx tsx bench/articles.ts` prints the figures (~30 s); BENCH_ARTICLES_DUMP=<dir> also writes the pages.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildArticleFiles } from '../functions/core/articles/article-page';
import { articleCatalogue, entityQuestions, extractiveWriter, reviewQuestion, fingerprintOf, type AnswerWriter, type ArticleCatalogue } from '../functions/core/articles/compose';
import type { PublishedFingerprint } from '../functions/core/articles/gate';
import { groundedAnswer } from '../functions/core/articles/model-answer';
import { answeredFromValues, answerText, leadSentence, writeExtractiveAnswer } from '../functions/core/articles/answers';
import { groundNarrative } from '../functions/core/generate/ground-narrative';
import { readArticleSources, siteContentOf } from '../functions/core/articles/site-sources';
import { articleSlug } from '../functions/core/articles/slugs';
import { buildOfflineNarrative, inferIndustry } from '../functions/core/generate';
import { toCatalogProduct, type StorefrontProduct } from '../functions/core/products/catalog';
import { buildSiteFiles } from '../functions/core/site/build';
import type { StoreSnapshot } from '../functions/core/site/types';
import { articleQualityLine, measureArticleQuality, type ArticleQuality, type MeasuredArticle } from './article-quality';
import { articleRealismLine, measureArticleRealism, type ArticleRealism, type RealismArticle } from './article-realism';
import { measureRoughText, roughTextLine, type RoughText } from './rough-text';
import { buildDemoSiteInProcess } from './fidelity';
import { ROOT } from './lib';

const NOW = '2026-03-14T09:12:00.000Z';
const BURST = 1000;

export interface StoreArticles {
  label: string;
  /** Set for the model run: sentences the check removed, and invented ones that still got published. */
  model?: { dropped: number; inventedPublished: number };
  quality: ArticleQuality;
  /** Families, comparisons and need questions as a shopper would judge them (article-realism.ts). */
  realism: ArticleRealism;
  /** Connectives and pronouns leaning on nothing, mis-decoded characters, bullet debris (rough-text.ts). */
  rough: RoughText;
  /** Fields a model filled (industry, audience, categories) that reach the site without support in the store's content. */
  modelFields?: { invented: number; published: number };
  /** Questions planned, and turned down by the gate, by reason. */
  planned: number;
  rejected: Record<string, number>;
  /** Published articles holding one of the invented claims (must be 0). */
  inventedSentences: number;
  /** The published articles as text (the labelled set's bench reads them: article-labels.ts). */
  published: PublishedArticle[];
  ms: number;
}

export interface PublishedArticle {
  title: string;
  intent: string;
  subjectIds: string[];
  /** The answer's first sentence (its verdict and fact), without the live stock. */
  lead: string;
  /** The whole answer as plain text (answers.ts `answerText`). */
  text: string;
}

/** A store from a Shopify `/products.json` file: its products, nothing else scraped. */
export function productsJsonSnapshot(file: string, name: string, currency = 'USD'): StoreSnapshot {
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
  const origin = `https://${slug}.example`;
  const fixture = JSON.parse(readFileSync(file, 'utf8')) as { products: StorefrontProduct[] };
  const products = fixture.products.map((p) => toCatalogProduct(p, origin, currency));
  return { business: { name, orgSlug: slug, url: origin, domain: `${slug}.example` }, pages: [], products, collections: [], storeSitemapUrls: [] };
}

export function yogaSnapshot(): StoreSnapshot {
  return productsJsonSnapshot(join(ROOT, 'test/fixtures/yoga-store-products.json'), 'Lotus & Stone');
}

/** The currency each shared catalogue's store sells in, by file name (a file not listed: USD). */
export const CATALOGUE_CURRENCIES: Readonly<Record<string, string>> = {
  'apparel-womenswear-annie-thompson': 'NZD', // a New Zealand store
  'drinkware-stanley': 'USD',
  'electrical-popup-outlets': 'USD',
  'electronics-headphones': 'GBP', // a UK retailer
  'home-garden-outdoor': 'GBP', // a UK garden store
};

/** Real stores' catalogues beside the project (../shared/catalogues, read-only test data; BENCH_CATALOGUES=<dir> elsewhere). */
export function sharedCatalogues(): Array<{ label: string; file: string; currency: string; snapshot: StoreSnapshot }> {
  const dir = process.env.BENCH_CATALOGUES ?? join(ROOT, '..', 'shared', 'catalogues');
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((f) => {
    const name = f.replace(/\.json$/, '');
    const currency = CATALOGUE_CURRENCIES[name] ?? 'USD';
    const snapshot = productsJsonSnapshot(join(dir, f), name.replace(/-/g, ' '), currency);
    return { label: `${name} (${snapshot.products.length} products)`, file: join(dir, f), currency, snapshot };
  });
}

/** A first run's product articles for one store (see the header). */
/** The writer of a run, given the store's fact sheets. */
type WriterFor = (catalogue: ArticleCatalogue) => AnswerWriter;

export async function storeArticles(label: string, snapshot: StoreSnapshot, writerFor: WriterFor = () => extractiveWriter): Promise<StoreArticles> {
  const t0 = performance.now();
  const narrative = buildOfflineNarrative(snapshot);
  const files = buildSiteFiles(snapshot, narrative, { now: NOW, indexNowKey: 'a1b2c3d4e5f60718', trackingEndpoint: 'https://api.example/hook' });
  const sources = readArticleSources(siteContentOf(files));
  const businessName = snapshot.business.name;
  const catalogue = articleCatalogue(snapshot.products, sources, businessName);
  const write = writerFor(catalogue);
  const context = { businessName, industry: narrative.industry || inferIndustry(snapshot).industry, sources };
  const taken = new Set(files.map((f) => f.path));
  const published: PublishedFingerprint[] = [];
  const articles: Array<MeasuredArticle & RealismArticle> = [];
  const texts: PublishedArticle[] = [];
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
      published.push(fingerprintOf(question, build.articlePath, reviewed.shingles));
      articles.push({ title: question.title, productId: product.productId, html: build.files[0]!.content, intent: question.intent, subjectIds: question.subjects.map((x) => x.product.productId) });
      texts.push({ title: question.title, intent: question.intent, subjectIds: [product.productId, ...question.subjects.map((x) => x.product.productId).filter((id) => id !== product.productId)], lead: leadSentence(reviewed.answer), text: answerText(reviewed.answer) });
      made++;
    }
  }
  // BENCH_ARTICLES_DUMP=<dir>: the published pages, to read them as a shopper would.
  if (process.env.BENCH_ARTICLES_DUMP) {
    const dir = join(process.env.BENCH_ARTICLES_DUMP, label.replace(/[^a-z0-9]+/gi, '-'));
    mkdirSync(dir, { recursive: true });
    for (const a of articles) writeFileSync(join(dir, `${a.productId}--${a.title.replace(/[^a-z0-9]+/gi, '-').slice(0, 80)}.html`), a.html);
  }
  const inventedSentences = articles.filter((a) => INVENTED_MARK.test(a.html)).length;
  return {
    label, quality: measureArticleQuality(articles, snapshot.products), realism: measureArticleRealism(articles, snapshot.products), rough: measureRoughText(articles, snapshot.products),
    modelFields: modelFieldsUngrounded(snapshot), planned, rejected, inventedSentences, published: texts, ms: performance.now() - t0,
  };
}

/** Words no store writes: a model that puts them in the fields it fills is inventing. */
const INVENTED_FIELD = /Zephyrine|Quillfeather/;

/**
 * A model's narrative whose fields invent (an audience "who follow the Zephyrine Quillfeather
 * method", an industry and a category the store never names), through the same check a real
 * model's narrative goes through (ground-narrative.ts): how many such fields reach the site's
 * files.
 */
function modelFieldsUngrounded(snapshot: StoreSnapshot): { invented: number; published: number } {
  const offline = buildOfflineNarrative(snapshot);
  const model = {
    ...offline,
    industry: 'artisan supplies for the Zephyrine Quillfeather guild',
    audience: 'home cooks who follow the Zephyrine Quillfeather method',
    categories: [...offline.categories.slice(0, 3), 'Quillfeather Heirlooms'],
    engine: { name: 'model' as const, model: 'bench-inventing-model' },
  };
  const grounded = groundNarrative(model, snapshot, offline);
  const files = buildSiteFiles(snapshot, grounded, { now: NOW, indexNowKey: 'a1b2c3d4e5f60718', trackingEndpoint: 'https://api.example/hook' });
  const fields = [grounded.industry, grounded.audience, ...grounded.categories];
  const published = fields.filter((f) => INVENTED_FIELD.test(f) && files.some((file) => file.content.includes(f))).length;
  return { invented: 3, published };
}

/** Claims no store states: a model that adds them to every answer is what the check is for. */
const INVENTED = ['It is assembled in Reykjavik and carries a lifetime guarantee.', 'Professional athletes rank it first, according to 2,000 reviews.'];
const INVENTED_MARK = /Reykjavik|lifetime guarantee|Professional athletes|2,000 reviews/;

/**
 * A stand-in for a model that answers from the fact sheet and adds invented claims: its
 * sentences go through the same check as a real model's (model-answer.ts `groundedAnswer`).
 */
function inventingModel(businessName: string, counter: { dropped: number }): WriterFor {
  return (catalogue) => async (question) => {
    if (answeredFromValues(question)) return writeExtractiveAnswer(question);
    const sentences = [...question.evidence.slice(0, 3).map((f) => (f.sentence ? f.text : `${f.text}.`)), ...INVENTED];
    const grounded = groundedAnswer(question, sentences, businessName, catalogue.sheets);
    counter.dropped += grounded.dropped.length;
    return grounded.answer;
  };
}

async function withInventingModel(label: string, snapshot: StoreSnapshot): Promise<StoreArticles> {
  const counter = { dropped: 0 };
  const report = await storeArticles(label, snapshot, inventingModel(snapshot.business.name, counter));
  return { ...report, model: { dropped: counter.dropped, inventedPublished: report.inventedSentences } };
}

export async function measureArticles(): Promise<StoreArticles[]> {
  const demo = buildDemoSiteInProcess(0, { prompts: false }).snapshot;
  const yoga = yogaSnapshot();
  const fixtures = [
    { label: 'kitchen store (15 products, knives)', snapshot: productsJsonSnapshot(join(ROOT, 'test/fixtures/kitchen-store-products.json'), 'Fernwood Kitchen Supply') },
    { label: 'colourway yoga store (11 products, printed mats)', snapshot: productsJsonSnapshot(join(ROOT, 'test/fixtures/colourway-yoga-products.json'), 'Sukha Mats') },
  ];
  const catalogues = [];
  for (const c of [...fixtures, ...sharedCatalogues()]) catalogues.push(await storeArticles(c.label, c.snapshot));
  return [
    await storeArticles('demo store (24 products)', demo),
    await storeArticles('yoga store (50 products, messy HTML)', yoga),
    ...catalogues,
    await withInventingModel('demo store, model adding 2 invented claims per answer', demo),
    await withInventingModel('yoga store, model adding 2 invented claims per answer', yoga),
  ];
}

export function articleLines(report: StoreArticles): string[] {
  const reasons = Object.entries(report.rejected).map(([r, c]) => `${r}: ${c}`).join('; ');
  return [
    `${report.label}: ${articleQualityLine(report.quality)}; ${roughTextLine(report.rough)}`,
    `  ${articleRealismLine(report.realism)}` + (report.modelFields && !report.model ? `; model fields published ungrounded ${report.modelFields.published} of ${report.modelFields.invented} invented` : ''),
    `  ${report.planned} questions planned, ${report.planned - report.quality.published} turned down${reasons ? ` (${reasons})` : ''}` +
      (report.model ? `; ungrounded sentences dropped ${report.model.dropped}, published ${report.model.inventedPublished}` : '') + `; ${report.ms.toFixed(0)} ms`,
  ];
}

if (require.main === module) {
  measureArticles().then((reports) => {
    for (const r of reports) for (const line of articleLines(r)) console.log(line);
  }).catch((err) => {
    console.error(err);
    process.exitCode = 1;
  });
}
