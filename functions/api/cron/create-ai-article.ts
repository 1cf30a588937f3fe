/**
 * POST /api/cron/create-ai-article (KEY) `{business_id, product_id?, backdate_to?}`: one AI
 * article, written by the extractive engine within the request (a model-written article is
 * long work: the daily run's 2a batches write those, D152), saved (record and files) but not deployed (spec rule 1: many creates, then one
 * deploy-site, then submit-indexnow). 409 when the store's content answers no further question
 * about the entity (D35), with the gate's reasons.
 */
import * as z from 'zod/mini';
import { createArticleResponse, createArticles } from '../../app/articles/create';
import { ConflictError } from '../../core/errors';
import { endpoint } from '../../http/endpoint';
import { isoDate, orgSlug, productRef } from '../../http/schemas';
import { keyAuth } from '../../http/auth/key';

const body = z.strictObject({ business_id: orgSlug, product_id: productRef, backdate_to: z.optional(z.nullable(isoDate)) });

/** 201: the spec's response; the files are saved, not deployed (deploy-site does that). */
const str = z.string();
const response = z.object({
  status: z.literal('success'),
  files: z.array(z.object({ path: str, content: str })).check(z.describe('to deploy with deploy-site')),
  article_path: str.check(z.describe('/<slug>/')),
  title: str,
  published_date: str,
  project_name: str,
  ai_site_url: str,
  existing_posts: z.array(z.object({ title: str, article_path: str })),
  faq_category: z.enum(['business_article', 'product_article']),
});

export const handler = endpoint('POST /api/cron/create-ai-article', { authenticator: keyAuth, body, response }, async ({ body, container }) => {
  const { articles, rejected, shortfall, existing } = await createArticles(container, body.business_id, { productId: body.product_id ?? null, count: 1, backdateTo: body.backdate_to ?? null });
  if (!articles[0]) {
    const turnedDown = rejected.slice(0, 3).map((r) => `"${r.title}": ${r.reason}`).join('; ');
    throw new ConflictError(`${shortfall ?? 'no article could be created'}${turnedDown ? `. Turned down: ${turnedDown}` : ''}`);
  }
  return { statusCode: 201, body: createArticleResponse(container, body.business_id, articles[0], existing) };
});
