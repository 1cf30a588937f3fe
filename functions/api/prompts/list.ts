/** GET /api/prompts/{business_id}?product_id= (D25). */
import * as z from 'zod/mini';
import { PLATFORM_KEYS } from '../../core/constants';
import type { TrackedPrompt } from '../../core/model';
import { endpoint } from '../../http/endpoint';
import { count, nullableString, orgSlug, productRef } from '../../http/schemas';
import { resolveEntity } from '../entity';
import { jwtAuth } from '../../http/auth/jwt';

/** One tracked prompt (D25): its result on each platform, null while untested there. */
const trackedPrompt = z.object({
  id: z.string(),
  prompt: z.string(),
  entity_id: z.string(),
  product_id: nullableString.check(z.describe('product slug; null for a business prompt')),
  source: z.enum(['search_api', 'generated'] as const satisfies readonly TrackedPrompt['source'][]),
  ...Object.fromEntries(PLATFORM_KEYS.map((k) => [k, z.nullable(z.boolean())])),
  last_tested_at: nullableString,
}).check(z.meta({ id: 'Prompt' }));

export const handler = endpoint('GET /api/prompts/{business_id}', { authenticator: jwtAuth,
  path: z.object({ business_id: orgSlug }),
  query: z.object({ product_id: productRef }),
  response: z.object({ business_id: z.string(), prompts: z.array(trackedPrompt), total: count }),
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
