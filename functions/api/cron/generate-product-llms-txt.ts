/**
 * POST /api/cron/generate-product-llms-txt (KEY) `{business_id}`: the product llms files of
 * the current catalogue, saved as the site's `product-llms` part. Not deployed (spec: "files
 * are returned without deploying"): the merged deploy (update-ai-site) or deploy-site
 * publishes them with the other parts. The same code as the daily task.
 */
import { refreshProductFiles } from '../../app/daily/products';
import { endpoint } from '../../http/endpoint';
import { businessRequest, productFilesResponse } from './daily-schemas';

export const handler = endpoint('POST /api/cron/generate-product-llms-txt', { body: businessRequest, response: productFilesResponse }, async ({ body, container }) => {
  const r = await refreshProductFiles(container, body.business_id);
  if ('skipped' in r && typeof r.skipped === 'string') {
    return { body: { status: 'skipped', business_id: body.business_id, files: Number((r.result as { files?: number } | undefined)?.files ?? 0), files_added: [], files_removed: [], deployed: false, skipped_reason: r.skipped } };
  }
  const done = r as { files: number; files_added: string[]; files_removed: string[] };
  return { body: { status: 'success', business_id: body.business_id, files: done.files, files_added: done.files_added, files_removed: done.files_removed, deployed: false } };
});
