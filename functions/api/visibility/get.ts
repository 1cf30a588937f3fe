/** GET /api/visibility/{business_id}?product_id= (D25). */
import * as z from 'zod/mini';
import { endpoint } from '../../http/endpoint';
import { orgSlug, productRef } from '../../http/schemas';
import { resolveEntity } from '../entity';

export const handler = endpoint('GET /api/visibility/{business_id}', {
  path: z.object({ business_id: orgSlug }),
  query: z.object({ product_id: productRef }),
}, async ({ path, query, container }) => {
  const entity = await resolveEntity(container, path.business_id, query.product_id);
  const row = await container.visibility.get(entity.orgSlug, entity.entityId);
  return {
    body: {
      business_id: entity.orgSlug,
      product_id: entity.productId,
      recent_score: row?.recentScore ?? null,
      history_scores: row?.history ?? [],
    },
  };
});
