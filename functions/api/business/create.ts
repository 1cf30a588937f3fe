/** POST /api/business (D11): the organization comes from the token, never from the body. */
import { randomUUID } from 'node:crypto';
import * as z from 'zod/mini';
import { parseStoreUrl, storeDomain } from '../../core/store/store-url';
import { endpoint } from '../../http/endpoint';
import { requiredText } from '../../http/schemas';

const body = z.strictObject({ name: requiredText('name', 200), url: requiredText('url', 2048) });

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
