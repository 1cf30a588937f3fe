/** GET /api/articles/{business_id}?product_id= (JWT, same org; D25): the business's AI articles, oldest first. */
import * as z from 'zod/mini';
import type { ArticleRecord } from '../../core/articles/record';
import { endpoint } from '../../http/endpoint';
import { count, nullableString, orgSlug, productRef } from '../../http/schemas';
import { resolveEntity } from '../entity';
import { jwtAuth } from '../../http/auth/jwt';

const article = z.object({
  title: z.string().check(z.describe('always a question')),
  article_path: z.string().check(z.describe('/<slug>/ on the AI site')),
  published_date: z.string().check(z.describe('YYYY-MM-DD')),
  faq_category: z.enum(['business_article', 'product_article'] as const satisfies readonly ArticleRecord['faq_category'][]),
  product_id: nullableString.check(z.describe('product slug; null for a business article')),
}).check(z.meta({ id: 'Article' }));

export const handler = endpoint('GET /api/articles/{business_id}', { authenticator: jwtAuth,
  path: z.object({ business_id: orgSlug }),
  query: z.object({ product_id: productRef }),
  response: z.object({ business_id: z.string(), articles: z.array(article), total: count }),
}, async ({ path, query, container }) => {
  const entity = await resolveEntity(container, path.business_id, query.product_id);
  const articles = (await container.articles.list(path.business_id))
    .filter((a) => !entity.productId || a.product_id === entity.productId)
    .map((a) => ({ title: a.title, article_path: a.article_path, published_date: a.published_date, faq_category: a.faq_category, product_id: a.product_id }));
  return { body: { business_id: path.business_id, articles, total: articles.length } };
});
