/** POST /api/business (D11): the organization comes from the token, never from the body. */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { parseStoreUrl, storeDomain } from '../../core/store/store-url';
import { endpoint } from '../../http/endpoint';

const body = z.object({
  name: z.string().trim().min(1, 'name is required').max(200),
  url: z.string().trim().min(1, 'url is required').max(2048),
}).strict();

export const handler = endpoint('POST /api/business', { body }, async ({ body, auth, container }) => {
  if (auth.kind !== 'jwt') throw new Error('JWT route without token context');
  const url = parseStoreUrl(body.url);
  const now = container.clock.now().toISOString();
  const business = {
    id: randomUUID(),
    orgSlug: auth.orgId,
    name: body.name,
    url: url.origin,
    domain: storeDomain(url),
    faviconUrl: null,
    createdAt: now,
    updatedAt: now,
  };
  await container.businesses.create(business);
  return {
    statusCode: 201,
    body: {
      status: 'success',
      business: { id: business.id, name: business.name, org_slug: business.orgSlug, url: business.url, favicon_url: business.faviconUrl },
    },
  };
});
