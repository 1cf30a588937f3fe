/** GET /api/cron/ai-articles-quota?org_slug= : the policy (D10) is configuration. */
import * as z from 'zod/mini';
import { articleQuotaOf } from '../../app/articles/quota';
import { endpoint } from '../../http/endpoint';
import { orgSlug } from '../../http/schemas';
import { todayUtc } from '../../container';

export const handler = endpoint('GET /api/cron/ai-articles-quota', { query: z.object({ org_slug: orgSlug }) }, async ({ query, container }) => ({
  body: (await articleQuotaOf(container, query.org_slug, todayUtc(container))).quota,
}));
