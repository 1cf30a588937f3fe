/**
 * POST /api/cron/discover-products (KEY) `{business_id}`, and its deprecated alias
 * /api/cron/discover-products-from-changes (D26: `Deprecation` and `Link` headers): the
 * daily 1b discovery, the same code as the DiscoverNewProducts task. New products become
 * entities; the snapshot commits with `commit: true` or in the schedule's last 1b step.
 */
import * as z from 'zod/mini';
import { commitProducts, discoverNewProducts } from '../../app/daily/products';
import { endpoint, routeOfEvent } from '../../http/endpoint';
import { orgSlug } from '../../http/schemas';
import { discoverProductsResponse } from './daily-schemas';

const body = z.strictObject({ business_id: orgSlug, commit: z.optional(z.boolean()) });
const DEPRECATED = '/api/cron/discover-products-from-changes';

export const handler = endpoint(routeOfEvent, { body, response: discoverProductsResponse }, async ({ body, container, route }) => {
  const found = await discoverNewProducts(container, body.business_id);
  const committed = body.commit ? await commitProducts(container, body.business_id) : null;
  const headers: Record<string, string> = route.path === DEPRECATED
    ? { Deprecation: 'true', Link: '</api/cron/discover-products>; rel="successor-version"' }
    : {};
  return {
    headers,
    body: { status: 'success', business_id: body.business_id, ...found, snapshot_committed: committed !== null && !('skipped' in committed) },
  };
});
