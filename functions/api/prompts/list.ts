/** GET /api/prompts/{business_id}?product_id= (D25). */
import * as z from 'zod/mini';
import { PLATFORM_KEYS } from '../../core/constants';
import { endpoint } from '../../http/endpoint';
import { orgSlug, productRef } from '../../http/schemas';
import { resolveEntity } from '../entity';

export const handler = endpoint('GET /api/prompts/{business_id}', {
  path: z.object({ business_id: orgSlug }),
  query: z.object({ product_id: productRef }),
}, async ({ path, query, container }) => {
  const entity = await resolveEntity(container, path.business_id, query.product_id);
  const prompts = await container.prompts.list(entity.orgSlug, query.product_id ? { entityId: entity.entityId } : {});
  return {
    body: {
      business_id: entity.orgSlug,
      prompts: prompts.map((p) => ({
        id: p.id,
        prompt: p.prompt,
        entity_id: p.entityId,
        product_id: p.productId,
        source: p.source,
        ...Object.fromEntries(PLATFORM_KEYS.map((k) => [k, p[k]])),
        last_tested_at: p.lastTestedAt,
      })),
      total: prompts.length,
    },
  };
});
