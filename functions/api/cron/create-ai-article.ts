/**
 * POST /api/cron/create-ai-article (KEY) `{business_id, product_id?, backdate_to?}`: one AI
 * article, saved (record and files) but not deployed (spec rule 1: many creates, then one
 * deploy-site, then submit-indexnow). 409 when the entity's title space is used up.
 */
import * as z from 'zod/mini';
import { createArticleResponse, createArticles } from '../../app/articles/create';
import { ConflictError } from '../../core/errors';
import { endpoint } from '../../http/endpoint';
import { isoDate, orgSlug, productRef } from '../../http/schemas';

const body = z.strictObject({ business_id: orgSlug, product_id: productRef, backdate_to: z.optional(z.nullable(isoDate)) });

export const handler = endpoint('POST /api/cron/create-ai-article', { body }, async ({ body, container }) => {
  const { articles, exhausted, existing } = await createArticles(container, body.business_id, { productId: body.product_id ?? null, count: 1, backdateTo: body.backdate_to ?? null });
  if (!articles[0]) throw new ConflictError(exhausted ?? 'no article could be created');
  return { statusCode: 201, body: createArticleResponse(container, body.business_id, articles[0], existing) };
});
