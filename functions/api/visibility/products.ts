/**
 * GET /api/visibility/{business_id}/products?from=&to=&sort=&limit=&cursor= (JWT, same org):
 * every product's AI funnel over a window of UTC days (default the last 28): crawled by AI
 * agents, cited, named and recommended by the answers, where it drops out, and per platform
 * (D170). Sorted by one stage, most first.
 */
import * as z from 'zod/mini';
import { requireBusiness } from '../../app/business';
import { FUNNEL_SORTS, funnelRange, productFunnels } from '../../app/visibility/product-funnel';
import { DROP_OUT_RULE } from '../../core/visibility/product-funnel';
import { endpoint } from '../../http/endpoint';
import { visibilityProductsResponse } from './visibility-responses';
import { isoDate, orgSlug } from '../../http/schemas';
import { jwtAuth } from '../../http/auth/jwt';

export const handler = endpoint('GET /api/visibility/{business_id}/products', { authenticator: jwtAuth,
  path: z.object({ business_id: orgSlug }),
  response: visibilityProductsResponse,
  query: z.object({
    from: z.optional(isoDate),
    to: z.optional(isoDate),
    sort: z.optional(z.enum(FUNNEL_SORTS)),
    limit: z.optional(z.string().check(z.regex(/^(?:[1-9]\d?|100)$/, 'must be a whole number from 1 to 100'))),
    cursor: z.optional(z.string().check(z.regex(/^\d{1,7}$/, 'must be the next_cursor of a previous page'))),
  }),
}, async ({ path, query, container }) => {
  await requireBusiness(container, path.business_id);
  const range = funnelRange(container, query);
  const sort = query.sort ?? 'crawled';
  const page = await productFunnels(container, path.business_id, range, { sort, limit: query.limit ? Number(query.limit) : 50, cursor: query.cursor ?? null });
  return { body: { business_id: path.business_id, ...range, sort, drop_out_rule: DROP_OUT_RULE, ...page } };
});
