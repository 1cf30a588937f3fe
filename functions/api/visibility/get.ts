/**
 * GET /api/visibility/{business_id}?product_id= (D25): the score history (each entry with n,
 * interval, rolling values and change, D118), the latest report's share of voice and fact
 * mismatches, and for a product its visibility pooled from the daily checks (D117) and its
 * AI funnel over `from`..`to` (default the last 28 UTC days, D170).
 */
import * as z from 'zod/mini';
import { endpoint } from '../../http/endpoint';
import { visibilityResponse } from './visibility-responses';
import { isoDate, orgSlug, productRef } from '../../http/schemas';
import { funnelRange, productFunnel } from '../../app/visibility/product-funnel';
import { DROP_OUT_RULE } from '../../core/visibility/product-funnel';
import { visibilityExtras } from '../../app/visibility/reads';
import { resolveEntity } from '../entity';
import { jwtAuth } from '../../http/auth/jwt';

export const handler = endpoint('GET /api/visibility/{business_id}', { authenticator: jwtAuth,
  path: z.object({ business_id: orgSlug }),
  response: visibilityResponse,
  query: z.object({ product_id: productRef, from: z.optional(isoDate), to: z.optional(isoDate) }),
}, async ({ path, query, container }) => {
  const entity = await resolveEntity(container, path.business_id, query.product_id);
  const [row, extras, funnel] = await Promise.all([
    container.visibility.get(entity.orgSlug, entity.entityId),
    visibilityExtras(container, entity.orgSlug, entity.productId),
    entity.productId ? productFunnel(container, entity.orgSlug, entity.productId, funnelRange(container, query)) : null,
  ]);
  return {
    body: {
      business_id: entity.orgSlug,
      product_id: entity.productId,
      recent_score: row?.recentScore ?? null,
      history_scores: row?.history ?? [],
      ...extras,
      // A product's AI funnel over the window (default the last 28 days; D170).
      ...(funnel ? { funnel: { ...funnel, drop_out_rule: DROP_OUT_RULE } } : {}),
    },
  };
});
