/**
 * POST /api/domain/resubmit-sitemap/{org_id} (KEY, called by the schedule): the site's
 * sitemap to the webmaster console. Submitted (200), skipped with the reason while the domain
 * is not verified or not connected (200, `status: 'skipped'`), or the console's failure (502).
 */
import * as z from 'zod/mini';
import { requireBusiness } from '../../app/business';
import { resubmitSitemap } from '../../app/site/search-notify';
import { endpoint } from '../../http/endpoint';
import { orgSlug } from '../../http/schemas';
import { resubmitSitemapResponse } from './verification-schemas';
import { keyAuth } from '../../http/auth/key';

export const handler = endpoint('POST /api/domain/resubmit-sitemap/{org_id}', { authenticator: keyAuth, path: z.object({ org_id: orgSlug }), response: resubmitSitemapResponse }, async ({ path, container }) => {
  await requireBusiness(container, path.org_id);
  const sitemap = await resubmitSitemap(container, path.org_id);
  if (sitemap.status === 'failed') return { statusCode: 502, body: { status: 'error', error: `the webmaster console refused the sitemap: ${sitemap.reason}`, org_id: path.org_id, sitemap } };
  return { body: { status: sitemap.status === 'submitted' ? 'success' : 'skipped', org_id: path.org_id, ...(sitemap.status === 'skipped' ? { reason: sitemap.reason } : {}), sitemap } };
});
