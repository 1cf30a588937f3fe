/**
 * POST /api/billing-portal (JWT with org_id): body `{return_url}` → `{url}`, a customer-portal
 * session of the token's organization. Errors: 400 invalid return_url (naming it) or no
 * linked payment customer, 404 unknown organization, 503 payments not configured
 * (STRIPE_SECRET_KEY), 502 the payment provider failed (functions/app/billing/subscription.ts).
 */
import * as z from 'zod/mini';
import { parseReturnUrl, RETURN_URL_MAX_LENGTH } from '../../core/billing/return-url';
import { openBillingPortal } from '../../app/billing/subscription';
import { endpoint } from '../../http/endpoint';
import { jwtAuth } from '../../http/auth/jwt';

const returnUrl = z.string({ error: 'return_url is required' }).check(
  z.minLength(1, 'return_url is required'),
  z.maxLength(RETURN_URL_MAX_LENGTH, `return_url is longer than ${RETURN_URL_MAX_LENGTH} characters`),
  z.refine((v) => parseReturnUrl(v) !== null, 'return_url must be an absolute http(s) URL (https://host/path)'),
);

export const handler = endpoint('POST /api/billing-portal', { authenticator: jwtAuth,
  body: z.object({ return_url: returnUrl }),
  response: z.object({ url: z.string().check(z.describe('the customer-portal session: redirect the user to it')) }),
}, async ({ body, auth, container }) => {
  const session = await openBillingPortal(container, auth.orgId, parseReturnUrl(body.return_url)!);
  return { body: { url: session.url } };
});
