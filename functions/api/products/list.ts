import * as z from 'zod/mini';
import { endpoint } from '../../http/endpoint';
import { count, orgSlug } from '../../http/schemas';
import { requireBusiness } from '../../app/business';
import { jwtAuth } from '../../http/auth/jwt';

/** The spec's product object (Resources: Business and product entities). */
const product = z.object({
  id: z.string().check(z.describe('product entity id (UUID)')),
  product_id: z.string().check(z.describe('slugified product identifier (the store handle)')),
  name: z.string(),
  url: z.optional(z.string()).check(z.describe('product page URL; absent when unknown')),
  favicon_url: z.null().check(z.describe('always null for products')),
  citation_count: count,
  created_at: z.string(),
  updated_at: z.string(),
}).check(z.meta({ id: 'Product' }));

export const handler = endpoint('GET /api/products/{business_id}', { authenticator: jwtAuth,
  path: z.object({ business_id: orgSlug }),
  response: z.object({ business_id: z.string(), products: z.array(product), total: count }),
}, async ({ path, container }) => {
  await requireBusiness(container, path.business_id);
  const products = await container.products.list(path.business_id);
  return {
    body: {
      business_id: path.business_id,
      products: products.map((p) => ({
        id: p.id,
        product_id: p.productId,
        name: p.name,
        url: p.url ?? undefined,
        favicon_url: null,
        citation_count: p.citationCount,
        created_at: p.createdAt,
        updated_at: p.updatedAt,
      })),
      total: products.length,
    },
  };
});
