/** GET /api/domain/get-proxy/{org_id} (JWT): the spec's "Proxy information" of the business. */
import * as z from 'zod/mini';
import { getProxyInfo } from '../../app/cdn';
import { endpoint } from '../../http/endpoint';
import { orgSlug } from '../../http/schemas';
import { requireBusiness } from '../../app/business';

export const handler = endpoint('GET /api/domain/get-proxy/{org_id}', {
  path: z.object({ org_id: orgSlug }),
}, async ({ path, container }) => {
  await requireBusiness(container, path.org_id);
  return { body: await getProxyInfo(container, path.org_id) };
});
