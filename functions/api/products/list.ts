import * as z from 'zod/mini';
import { endpoint } from '../../http/endpoint';
import { orgSlug } from '../../http/schemas';
import { requireBusiness } from '../../app/business';

export const handler = endpoint('GET /api/products/{business_id}', { path: z.object({ business_id: orgSlug }) }, async ({ path, container }) => {
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
