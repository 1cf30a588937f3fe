/**
 * Creating AI articles (spec: create-ai-article; issue 12): a question title picked at
 * random among the entity's unused variations (core/articles/titles.ts), a slug that collides
 * with nothing the site serves (slugs.ts), the page built only from the AI site's own content
 * (llms.txt, data.json, its pages: article-page.ts), the record claimed in the database by
 * its slug, and the files stored as the article's own site part. Nothing is deployed: the
 * next publish (2a's combined deploy, deploy-site, update-all-timestamps) puts it live.
 */
import { articlePart, artifactKeys } from '../../core/artifacts';
import { buildArticleFiles, publishedDateOf, readArticleSources, type ArticleBuild } from '../../core/articles/article-page';
import type { ArticleRecord } from '../../core/articles/record';
import { weekBounds } from '../../core/articles/quota';
import { articleSlug, takenSlugs } from '../../core/articles/slugs';
import { pickTitle, titleContext } from '../../core/articles/titles';
import { NotFoundError, ValidationError } from '../../core/errors';
import type { CatalogProduct, SiteFile, SiteNarrative } from '../../core/site/types';
import { aiSiteOrigin, type Container } from '../../container';
import { requireBusiness } from '../business';
import { loadSnapshot } from '../snapshot';
import { saveSitePart } from '../site-part-store';

export interface CreateArticlesOptions {
  /** Product slug or entity id; null/absent: a business article. */
  productId?: string | null;
  count: number;
  /** The daily run planning them; absent for the route. */
  runDate?: string | null;
  /** YYYY-MM-DD: the publication date instead of today. */
  backdateTo?: string | null;
  random?: () => number;
  /** The organization's articles when the caller has just listed them (saves listing them again). */
  existing?: ArticleRecord[];
}

export interface CreatedArticle {
  record: ArticleRecord;
  build: ArticleBuild;
}

/** The AI site's own content an article may draw on (spec: not the original website). */
interface SiteContent {
  llmsTxt: string;
  dataJson: unknown;
  pages: SiteFile[];
  paths: string[];
}

async function siteContent(container: Container, orgSlug: string): Promise<SiteContent> {
  const current = await container.siteStore.readCurrent(orgSlug);
  if (!current) throw new ValidationError(`the AI site of ${orgSlug} is not deployed yet: articles are written from its content`);
  const file = (path: string) => current.files.find((f) => f.path === path)?.content;
  let dataJson: unknown = null;
  try {
    dataJson = JSON.parse(file('/data.json') ?? 'null');
  } catch {
    dataJson = null;
  }
  return {
    llmsTxt: file('/llms.txt') ?? '',
    dataJson,
    pages: current.files.filter((f) => /\.(html|md)$/.test(f.path)),
    paths: current.files.map((f) => f.path),
  };
}

/** The product entity (404 when unknown) and its catalogue record (a minimal one when the catalogue lacks it). */
async function productEntity(container: Container, orgSlug: string, productId: string) {
  const entity = await container.products.find(orgSlug, productId);
  if (!entity) throw new NotFoundError(`product ${productId} not found for business ${orgSlug}`);
  return entity;
}

function catalogProductOf(entity: { productId: string; name: string; url?: string | null }, products: readonly CatalogProduct[]): CatalogProduct {
  return products.find((p) => p.productId === entity.productId) ?? {
    productId: entity.productId, name: entity.name, url: entity.url ?? '', description: '', productType: '', vendor: '', tags: [],
    price: null, compareAtPrice: null, currency: null, available: true, imageUrls: [], updatedAt: null,
  };
}

/**
 * Creates up to `count` articles for one entity; `exhausted` says why fewer were made, and
 * `existing` holds the organization's articles as they were before (the pages' existing posts).
 */
export async function createArticles(container: Container, orgSlug: string, options: CreateArticlesOptions): Promise<{ articles: CreatedArticle[]; exhausted: string | null; existing: ArticleRecord[] }> {
  const business = await requireBusiness(container, orgSlug);
  const now = container.clock.now().toISOString();
  const today = now.slice(0, 10);
  if (options.backdateTo && options.backdateTo > today) throw new ValidationError('backdate_to must not be in the future');
  const entity = options.productId ? await productEntity(container, orgSlug, options.productId) : null;
  const snapshot = await loadSnapshot(container, orgSlug, business);
  const target = entity ? { entityId: entity.id, product: catalogProductOf(entity, snapshot.products) } : null;
  const [context, content, existing] = await Promise.all([
    container.artifacts.get<SiteNarrative>(artifactKeys.narrative(orgSlug)).then((narrative) => titleContext(snapshot, narrative, { now, product: target?.product ?? null })),
    siteContent(container, orgSlug),
    options.existing ?? container.articles.list(orgSlug),
  ]);
  const titles = existing.map((a) => a.title);
  const taken = takenSlugs([...content.paths, ...existing.map((a) => a.article_path)]);
  const posts = existing.map((a) => ({ title: a.title, article_path: a.article_path }));
  const random = options.random ?? Math.random;
  const publishedDate = publishedDateOf(options.backdateTo ?? null, now);
  // Read once for the batch: a 5,000-page site takes ~0.6 s to read, an article ~70 ms to write.
  const sources = readArticleSources(content);
  const created: CreatedArticle[] = [];

  // A lost race for a slug (another create picked the same title) costs one more pick.
  for (let attempts = 0; created.length < options.count && attempts < options.count * 3; attempts++) {
    const picked = pickTitle(context, titles, random);
    if (!picked) return { articles: created, existing, exhausted: `every article title of this ${target ? 'product' : 'business'} is used (the year's variations open again on ${context.year + 1}-01-01)` };
    titles.push(picked.title);
    const slug = articleSlug(picked.title, taken);
    taken.add(slug);
    const build = buildArticleFiles({
      title: picked.title, slug, business: { name: business.name, url: business.url }, product: target?.product ?? null, slots: picked.slots,
      llmsTxt: content.llmsTxt, dataJson: content.dataJson, pages: content.pages, publishedDate, now, existingPosts: posts,
    }, sources);
    const record: ArticleRecord = {
      slug, title: build.title, article_path: build.articlePath, published_date: build.publishedDate.slice(0, 10), faq_category: build.faqCategory,
      product_id: target?.product.productId ?? null, entity_id: target?.entityId ?? business.id,
      week_start: weekBounds(today).weekStart, run_date: options.runDate ?? null, created_at: now,
    };
    // The slug is claimed first: a create that lost the race for it (two entities picked the
    // same title) must not overwrite the winner's files. Should the files fail to save, the
    // claim is given back so the slug and its count do not point at nothing.
    if (!(await container.articles.add(orgSlug, record))) continue;
    try {
      await saveSitePart(container, orgSlug, articlePart(slug), build.files);
    } catch (err) {
      await container.articles.remove(orgSlug, record).catch(() => undefined);
      throw err;
    }
    posts.push({ title: record.title, article_path: record.article_path });
    created.push({ record, build });
  }
  return { articles: created, exhausted: null, existing };
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
