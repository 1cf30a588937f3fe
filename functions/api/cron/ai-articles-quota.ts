/** GET /api/cron/ai-articles-quota?org_slug= : the policy (D10) is configuration. */
import * as z from 'zod/mini';
import { computeArticleQuota, weekBounds } from '../../core/articles/quota';
import { endpoint } from '../../http/endpoint';
import { orgSlug } from '../../http/schemas';
import { todayUtc } from '../entity';
import { requireBusiness } from '../../app/business';

export const handler = endpoint('GET /api/cron/ai-articles-quota', { query: z.object({ org_slug: orgSlug }) }, async ({ query, container }) => {
  const business = await requireBusiness(container, query.org_slug);
  const today = todayUtc(container);
  const [products, articlesThisWeek] = await Promise.all([
    container.products.list(query.org_slug),
    container.articleStats.countInWeek(query.org_slug, weekBounds(today).weekStart),
  ]);
  return {
    body: computeArticleQuota({
      policy: container.config.articleQuotaPolicy,
      orgSlug: query.org_slug,
      today,
      articlesThisWeek,
      business: { id: business.id, name: business.name, articleCount: 0 },
      products: products.map((p) => ({ id: p.id, name: p.name, articleCount: p.articleCount })),
    }),
  };
});
