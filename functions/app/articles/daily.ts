/**
 * Batch 2a's articles (spec: "many parallel create-ai-article calls, then one deploy"):
 * 1. the day's plan (which entities get how many articles, from the quota policy) is stored
 *    once per business and day, so a retry follows the same plan even though the quota of a
 *    one-time burst reads 0 once the first articles exist;
 * 2. each planned entity creates the articles it still lacks for that day (a retry creates
 *    only the missing ones);
 * 3. one publish of every site part refreshes every page's check date (D112) and puts the
 *    new articles live.
 */
import { artifactKeys } from '../../core/artifacts';
import { todayUtc, type Container } from '../../container';
import type { BusinessTaskInput } from '../daily/business-run';
import { publishChangedSiteParts, publishSiteParts } from '../site-parts';
import { createArticles } from './create';
import { articleQuotaOf } from './quota';

export interface ArticleBatch extends BusinessTaskInput {
  /** Product slug; null: the business entity. */
  product_id: string | null;
  count: number;
}

interface ArticlePlan {
  run_date: string;
  items: Array<{ product_id: string | null; count: number }>;
}

export async function planDailyArticles(container: Container, input: BusinessTaskInput): Promise<{ items: ArticleBatch[] }> {
  const key = artifactKeys.articlePlan(input.org_slug, input.run_date);
  let plan = await container.artifacts.get<ArticlePlan>(key);
  if (!plan) {
    const { quota, products } = await articleQuotaOf(container, input.org_slug, input.run_date);
    const slugOf = new Map(products.map((p) => [p.id, p.productId]));
    const items = [
      ...(quota.business && quota.business.daily_quota > 0 ? [{ product_id: null, count: quota.business.daily_quota }] : []),
      ...quota.products.filter((p) => p.daily_quota > 0 && slugOf.has(p.id)).map((p) => ({ product_id: slugOf.get(p.id)!, count: p.daily_quota })),
    ];
    plan = { run_date: input.run_date, items };
    await container.artifacts.put(key, plan);
  }
  return { items: plan.items.map((item) => ({ ...input, ...item })) };
}

/** Creates the batch's articles that the day's run has not created yet. */
export async function createArticleBatch(container: Container, batch: ArticleBatch) {
  const articles = await container.articles.list(batch.org_slug);
  const existing = articles.filter((a) => a.run_date === batch.run_date && a.product_id === batch.product_id).length;
  const missing = Math.max(0, batch.count - existing);
  const created = missing
    ? await createArticles(container, batch.org_slug, { productId: batch.product_id, count: missing, runDate: batch.run_date, existing: articles })
    : { articles: [], exhausted: null };
  return { product_id: batch.product_id, planned: batch.count, already: existing, created: created.articles.length, exhausted: created.exhausted };
}

/**
 * 2a's one deploy: every part (the new articles' included), every page's check date
 * refreshed. Skipped when no part changed and the site was already published (so checked)
 * today: a second run of the day deploys nothing.
 */
export async function publishArticlesAndTimestamps(container: Container, input: BusinessTaskInput) {
  const [articles, site] = await Promise.all([container.articles.list(input.org_slug), container.aiSites.get(input.org_slug)]);
  const today = articles.filter((a) => a.run_date === input.run_date);
  const checkedToday = site?.deployedAt?.slice(0, 10) === todayUtc(container);
  const release = checkedToday ? await publishChangedSiteParts(container, input.org_slug) : await publishSiteParts(container, input.org_slug);
  return {
    articles_created: today.length,
    article_paths: today.map((a) => a.article_path),
    deployed: release !== null,
    ...(release
      ? { release_id: release.releaseId, files: release.fileCount, refreshed_at: release.deployedAt }
      : { reason: 'no new article or part, and the site was already checked today' }),
  };
}
