/** GET /api/domain/get-proxy/{org_id} (JWT): the spec's "Proxy information" of the business. */
import * as z from 'zod/mini';
import { getProxyInfo } from '../../app/cdn';
import { NotFoundError } from '../../core/errors';
import { endpoint } from '../../http/endpoint';
import { orgSlug } from '../../http/schemas';

export const handler = endpoint('GET /api/domain/get-proxy/{org_id}', {
  path: z.object({ org_id: orgSlug }),
}, async ({ path, container }) => {
  const business = await container.businesses.get(path.org_id);
  if (!business) throw new NotFoundError(`business ${path.org_id} not found`);
  return { body: await getProxyInfo(container, path.org_id) };
});
