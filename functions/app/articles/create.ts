/**
 * Creating AI articles (spec: create-ai-article; D35, D36): the entity's questions planned
 * from the AI site's own content (core/articles/questions.ts), each answered (the extractive
 * engine, or the model's grounded answer) and judged by the quality gate before its slug is
 * claimed; a slug that collides with nothing the site serves (slugs.ts), the record claimed
 * in the database by its slug, and the files stored as the article's own site part. Nothing is deployed: the
 * next publish (2a's combined deploy, deploy-site, update-all-timestamps) puts it live.
 */
import { articlePart } from '../../core/artifacts';
import { buildArticleFiles, publishedDateOf, type ArticleBuild } from '../../core/articles/article-page';
import {
  entityQuestions, extractiveWriter, fingerprintOf, reviewQuestion, type ArticleModel, type ArticleModelUsage,
} from '../../core/articles/compose';
import { concurrentTwin, recordFingerprint, type PublishedFingerprint } from '../../core/articles/gate';
import type { ArticleRecord } from '../../core/articles/record';
import { weekBounds } from '../../core/articles/quota';
import { encodeShingles } from '../../core/articles/shingles';
import { articleSlug } from '../../core/articles/slugs';
import { NotFoundError, ValidationError } from '../../core/errors';
import { aiSiteOrigin, type Container } from '../../container';
import { saveSitePart } from '../site';
import { loadArticleSite, type ArticleSite } from './materials';
import { countMetric } from '../../metrics';

export interface CreateArticlesOptions {
  /** Product slug or entity id; null/absent: a business article. */
  productId?: string | null;
  count: number;
  /** The daily run planning them; absent for the route. */
  runDate?: string | null;
  /** YYYY-MM-DD: the publication date instead of today. */
  backdateTo?: string | null;
  /** The configured article model (LLM_*); absent or null: the extractive engine writes. */
  model?: ArticleModel | null;
  /** The organization's articles when the caller has just listed them (saves listing them again). */
  existing?: ArticleRecord[];
  /** What the articles are written from, when the caller loaded it for several entities (`loadArticleSite`). */
  site?: ArticleSite;
  /** Question titles the gate turned down earlier the same day: not asked again. */
  turnedDown?: readonly string[];
}

export interface CreatedArticle {
  record: ArticleRecord;
  build: ArticleBuild;
}

/** The product entity, or 404 when the business has none with that id. */
async function productEntity(container: Container, orgSlug: string, productId: string) {
  const entity = await container.products.find(orgSlug, productId);
  if (!entity) throw new NotFoundError(`product ${productId} not found for business ${orgSlug}`);
  return entity;
}


/** Why a planned question was not published (D35): recorded in the plan's outcome. */
export interface RejectedQuestion {
  title: string;
  reason: string;
}

export interface CreateArticlesResult {
  articles: CreatedArticle[];
  /** Questions written and judged but not published, with the gate's reason. */
  rejected: RejectedQuestion[];
  /** Why fewer than `count` were made (the store's content answers no further question, the gate's turn-downs); null when all were. */
  shortfall: string | null;
  /** The organization's articles as they were before. */
  existing: ArticleRecord[];
  /** What the article model spent and dropped; null when the extractive engine wrote. */
  modelUsage: ArticleModelUsage | null;
}

/**
 * Creates up to `count` articles for one entity: its planned questions not asked yet, in
 * intent order, each written, gated (D35) and only then claimed and saved. `shortfall` says
 * why fewer were made; `rejected` lists the questions the gate turned down.
 */
export async function createArticles(container: Container, orgSlug: string, options: CreateArticlesOptions): Promise<CreateArticlesResult> {
  const now = container.clock.now().toISOString();
  const today = now.slice(0, 10);
  if (options.backdateTo && options.backdateTo > today) throw new ValidationError('backdate_to must not be in the future');
  const entity = options.productId ? await productEntity(container, orgSlug, options.productId) : null;
  const [{ business, snapshot, takenSlugs: siteSlugs, sources, catalogue, industry }, existing] = await Promise.all([
    options.site ?? loadArticleSite(container, orgSlug),
    options.existing ?? container.articles.list(orgSlug),
  ]);
  const productId = entity?.productId ?? null;
  const product = productId ? snapshot.products.find((p) => p.productId === productId) ?? null : null;
  const publishedDate = publishedDateOf(options.backdateTo ?? null, now);
  if (entity && !product) return { articles: [], rejected: [], existing, modelUsage: null, shortfall: `${entity.name} is no longer in the store's catalogue: no article is written for it` };
  const asked = new Set([...existing.filter((a) => a.product_id === productId).map((a) => a.question_key ?? a.title), ...(options.turnedDown ?? [])]);
  const questions = entityQuestions(catalogue, productId, { businessName: business.name, industry, sources })
    .filter((q) => !asked.has(q.key) && !asked.has(q.title));
  const published: PublishedFingerprint[] = existing.map(recordFingerprint);
  // The organization's articles, deployed or not, by their own slug (takenSlugs reads file
  // paths: an article_path, `/<slug>/`, gives it none).
  const taken = new Set(existing.map((a) => a.slug));
  const isTaken = { has: (slug: string) => siteSlugs.has(slug) || taken.has(slug) };
  const related = existing.filter((a) => a.product_id === productId).map((a) => ({ title: a.title, article_path: a.article_path }));
  const model = options.model ? options.model.forBusiness(business.name, catalogue) : null;
  const write = model?.write ?? extractiveWriter;
  const created: CreatedArticle[] = [];
  const rejected: RejectedQuestion[] = [];

  for (const question of questions) {
    if (created.length >= options.count) break;
    const reviewed = await reviewQuestion(question, write, published);
    if (!reviewed.ok) {
      rejected.push({ title: question.title, reason: reviewed.reason });
      continue;
    }
    const slug = articleSlug(question.title, isTaken);
    taken.add(slug);
    const build = buildArticleFiles({
      title: question.title, slug, business: { name: business.name, url: business.url }, product, answer: reviewed.answer,
      publishedDate, now, relatedPosts: related,
    });
    const record: ArticleRecord = {
      slug, title: build.title, article_path: build.articlePath, published_date: build.publishedDate.slice(0, 10), faq_category: build.faqCategory,
      product_id: productId, entity_id: entity?.id ?? business.id,
      week_start: weekBounds(today).weekStart, run_date: options.runDate ?? null, created_at: now,
      question_key: question.key, subjects: question.subjects.map((s) => s.product.productId),
      shingles: encodeShingles(reviewed.shingles), engine: reviewed.answer.engine,
    };
    // The slug is claimed first: a create that lost the race for it must not overwrite the
    // winner's files. Should the files fail to save, the claim is given back.
    if (!(await container.articles.add(orgSlug, record))) continue;
    // Other batches of the business run in parallel (2a's Map): the gate did not see what they
    // wrote meanwhile, so the claim is checked against those; the later of two twins gives way.
    const fingerprint = fingerprintOf(question, record.article_path, reviewed.shingles);
    const known = new Set(published.map((p) => p.path));
    // Only a daily run's batches run at once, all on its run date: its day's articles are the ones to check.
    const others = options.runDate ? await container.articles.listOfRunDate(orgSlug, options.runDate) : await container.articles.list(orgSlug);
    const twin = concurrentTwin({ ...fingerprint, slug, createdAt: record.created_at }, others.filter((a) => !known.has(a.article_path)));
    if (twin) {
      await container.articles.remove(orgSlug, record);
      rejected.push({ title: question.title, reason: twin });
      continue;
    }
    try {
      await saveSitePart(container, orgSlug, articlePart(slug), build.files);
    } catch (err) {
      await container.articles.remove(orgSlug, record).catch(() => undefined);
      throw err;
    }
    published.push(fingerprint);
    related.push({ title: record.title, article_path: record.article_path });
    created.push({ record, build });
  }
  countMetric('ArticlesCreated', created.length);
  const shortfall = created.length < options.count
    ? `${created.length} of ${options.count} written: the store's content answers no further question about ${entity ? entity.name : 'the business'}` +
      (rejected.length ? ` (${rejected.length} turned down by the quality gate)` : '')
    : null;
  return { articles: created, rejected, existing, shortfall, modelUsage: model?.usage() ?? null };
}

/** The response of POST /api/cron/create-ai-article (spec table). */
export function createArticleResponse(container: Container, orgSlug: string, created: CreatedArticle, existing: ArticleRecord[]) {
  return {
    status: 'success' as const,
    files: created.build.files.map((f) => ({ path: f.path, content: f.content })),
    article_path: created.record.article_path,
    title: created.record.title,
    published_date: created.record.published_date,
    project_name: orgSlug,
    ai_site_url: aiSiteOrigin(container.config, orgSlug),
    existing_posts: existing.filter((a) => a.slug !== created.record.slug).map((a) => ({ title: a.title, article_path: a.article_path })),
    faq_category: created.record.faq_category,
  };
}
