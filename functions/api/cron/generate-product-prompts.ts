/**
 * POST /api/cron/generate-product-prompts (KEY) `{business_id, product_ids?}`: 10 prompts
 * (D9) for each product, topped up to that count, so a repeat adds nothing; without
 * `product_ids`, the products new since the last snapshot. The same code as the daily task.
 */
import { promptNewProducts } from '../../app/daily/products';
import { endpoint } from '../../http/endpoint';
import { productPromptsRequest, productPromptsResponse } from './daily-schemas';

export const handler = endpoint('POST /api/cron/generate-product-prompts', { body: productPromptsRequest, response: productPromptsResponse }, async ({ body, container }) => {
  const r = await promptNewProducts(container, body.business_id, body.product_ids);
  if ('skipped' in r && typeof r.skipped === 'string') {
    return { body: { status: 'skipped', business_id: body.business_id, products: 0, prompts_generated: 0, prompts_saved: 0, not_found: [], skipped_reason: r.skipped } };
  }
  const done = r as { products: number; prompts_generated: number; prompts_saved: number; not_found: string[] };
  return { body: { status: 'success', business_id: body.business_id, products: done.products, prompts_generated: done.prompts_generated, prompts_saved: done.prompts_saved, not_found: done.not_found } };
});
