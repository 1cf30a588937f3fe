/**
 * POST /api/business (D11): the organization comes from the token, never from the body.
 * A store URL the fetch policy refuses (D24) is a 400 naming the reason.
 */
import { randomUUID } from 'node:crypto';
import * as z from 'zod/mini';
import { parseStoreUrl, storeDomain } from '../../core/store/store-url';
import { mergeBusinessIntoOrganization } from '../../app/organizations/business';
import { ConflictError } from '../../core/errors';
import { endpoint } from '../../http/endpoint';
import { requiredText } from '../../http/schemas';
import { jwtAuth } from '../../http/auth/jwt';

const body = z.strictObject({ name: requiredText('name', 200), url: requiredText('url', 2048) });

/** 201: the business as created (its favicon is fetched later, by onboarding step 1d). */
const response = z.object({
  status: z.literal('success'),
  business: z.object({
    id: z.string().check(z.describe('business entity id (UUID)')),
    name: z.string(),
    org_slug: z.string(),
    url: z.string().check(z.describe('the store origin, as the fetch policy accepted it')),
    favicon_url: z.null().check(z.describe('always null at creation; onboarding step 1d fetches it')),
  }),
});

export const handler = endpoint('POST /api/business', { authenticator: jwtAuth, body, response }, async ({ body, auth, container }) => {
  // The store becomes a fetch target (onboarding, the schedule) and the CDN's origin: the
  // one fetch policy applies now, so no private, loopback or metadata address is ever stored.
  const url = await container.checkUrl(parseStoreUrl(body.url).href);
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
  try {
    await container.businesses.create(business);
  } catch (err) {
    // Already created (a retry after the merge below failed, or a business from before the
    // organization record): the 409 stands, but the existing business is merged first, so
    // the retry repairs what the first call left half done.
    const existing = err instanceof ConflictError ? await container.businesses.get(business.orgSlug) : null;
    if (existing) await mergeBusinessIntoOrganization(container, existing);
    throw err;
  }
  await mergeBusinessIntoOrganization(container, business);
  return {
    statusCode: 201,
    body: {
      status: 'success',
      business: { id: business.id, name: business.name, org_slug: business.orgSlug, url: business.url, favicon_url: business.faviconUrl },
    },
  };
});
