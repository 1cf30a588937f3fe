/**
 * GET /api/visibility/{business_id}?product_id= (D25): the score history (each entry with n,
 * interval, rolling values and change, D118), the latest report's share of voice and fact
 * mismatches, and for a product its visibility pooled from the daily checks (D117).
 */
import * as z from 'zod/mini';
import { endpoint } from '../../http/endpoint';
import { orgSlug, productRef } from '../../http/schemas';
import { visibilityExtras } from '../../app/visibility/reads';
import { resolveEntity } from '../entity';

export const handler = endpoint('GET /api/visibility/{business_id}', {
  path: z.object({ business_id: orgSlug }),
  query: z.object({ product_id: productRef }),
}, async ({ path, query, container }) => {
  const entity = await resolveEntity(container, path.business_id, query.product_id);
  const [row, extras] = await Promise.all([
    container.visibility.get(entity.orgSlug, entity.entityId),
    visibilityExtras(container, entity.orgSlug, entity.productId),
  ]);
  return {
    body: {
      business_id: entity.orgSlug,
      product_id: entity.productId,
      recent_score: row?.recentScore ?? null,
      history_scores: row?.history ?? [],
      ...extras,
    },
  };
});
