/**
 * GET /api/subscription-status (JWT with org_id) → `{status, trial_end, days_remaining}` of the
 * token's organization; `none` with nulls when no payment customer is linked. Errors: 404
 * unknown organization, 503 payments not configured (STRIPE_SECRET_KEY), 502 the payment
 * provider failed. Rules: core/billing/subscription.ts.
 */
import * as z from 'zod/mini';
import { readSubscriptionStatus } from '../../app/billing';
import { endpoint } from '../../http/endpoint';

const nullableWhole = z.nullable(z.int());

export const handler = endpoint('GET /api/subscription-status', {
  response: z.object({ status: z.string().check(z.minLength(1)), trial_end: nullableWhole, days_remaining: nullableWhole }),
}, async ({ auth, container, log }) => {
  if (auth.kind !== 'jwt') throw new Error('JWT route without token context');
  return { body: await readSubscriptionStatus(container, auth.orgId, log) };
});
