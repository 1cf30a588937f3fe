/** GET /api/cron/ai-articles-quota?org_slug= : the policy (D10) is configuration. */
import * as z from 'zod/mini';
import { articleQuotaOf } from '../../app/articles/quota';
import { QUOTA_POLICIES } from '../../core/articles/quota';
import { endpoint } from '../../http/endpoint';
import { orgSlug } from '../../http/schemas';
import { todayUtc } from '../../container';
import { keyAuth } from '../../http/auth/key';

const count = z.number();
const quotaItem = z.object({ id: z.string(), name: z.string(), daily_quota: count, total_articles: count });

/** The spec's response (core/articles/quota.ts `ArticleQuotaResponse`); which optional fields appear depends on the policy (D10). */
const response = z.object({
  org_slug: z.string(),
  week_start: z.string().check(z.describe('Monday of the week, YYYY-MM-DD')),
  week_end: z.string().check(z.describe('Sunday of the week, YYYY-MM-DD')),
  weekly_target: count,
  articles_this_week: count,
  articles_remaining: z.optional(count).check(z.describe('one-time-burst: on a first run only; weekly-100: always')),
  total_products: z.optional(count).check(z.describe('present when products exist')),
  products: z.array(quotaItem).check(z.describe('items with a daily_quota of 0 are left out')),
  total_daily_quota: count,
  architecture: z.optional(z.enum(QUOTA_POLICIES)).check(z.describe('the policy; absent under one-time-burst when there are no products')),
  business: z.optional(quotaItem).check(z.describe('weekly-100 only: the business entity\'s share')),
  message: z.string(),
});

export const handler = endpoint('GET /api/cron/ai-articles-quota', { authenticator: keyAuth, query: z.object({ org_slug: orgSlug }), response }, async ({ query, container }) => ({
  body: (await articleQuotaOf(container, query.org_slug, todayUtc(container))).quota,
}));
