import { computeArticleQuota, weekBounds, type ArticleQuotaResponse } from '../../core/articles/quota';
import type { Product } from '../../core/model';
import type { Container } from '../../container';
import { requireBusiness } from '../business';

/** The article quota of a business on a day, under the configured policy (D10). */
export async function articleQuotaOf(container: Container, orgSlug: string, today: string): Promise<{ quota: ArticleQuotaResponse; products: Product[] }> {
  const business = await requireBusiness(container, orgSlug);
  const [products, articlesThisWeek] = await Promise.all([
    container.products.list(orgSlug),
    container.articleStats.countInWeek(orgSlug, weekBounds(today).weekStart),
  ]);
  const quota = computeArticleQuota({
    policy: container.config.articleQuotaPolicy,
    orgSlug,
    today,
    articlesThisWeek,
    business: { id: business.id, name: business.name, articleCount: business.articleCount ?? 0 },
    products: products.map((p) => ({ id: p.id, name: p.name, articleCount: p.articleCount })),
  });
  return { quota, products };
}
