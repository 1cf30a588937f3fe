/**
 * POST /api/cron/update-all-timestamps (KEY) `{business_id}`: batch 2a's timestamp refresh on
 * its own: every stored part published again, each page's `Last checked` line and title year
 * moved to now; modified dates, data.json and the sitemap's lastmod stay (D112).
 */
import { requireBusiness } from '../../app/business';
import { publishSiteParts } from '../../app/site-parts';
import { endpoint } from '../../http/endpoint';
import { businessRequest } from './daily-schemas';

export const handler = endpoint('POST /api/cron/update-all-timestamps', { body: businessRequest }, async ({ body, container }) => {
  await requireBusiness(container, body.business_id);
  const release = await publishSiteParts(container, body.business_id);
  return { body: { status: 'success', business_id: body.business_id, release_id: release.releaseId, files: release.fileCount, refreshed_at: release.deployedAt } };
});
