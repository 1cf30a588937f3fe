/**
 * GET /api/subscription-status (JWT with org_id) → `{status, trial_end, days_remaining}` of the
 * token's organization; `none` with nulls when no payment customer is linked. Errors: 404
 * unknown organization, 503 payments not configured (STRIPE_SECRET_KEY), 502 the payment
 * provider failed. Rules: core/billing/subscription.ts.
 */
import * as z from 'zod/mini';
import { readSubscriptionStatus } from '../../app/billing/subscription';
import { STRIPE_SUBSCRIPTION_STATUSES } from '../../core/billing/subscription';
import { endpoint } from '../../http/endpoint';
import { jwtAuth } from '../../http/auth/jwt';

const nullableWhole = z.nullable(z.int());

export const handler = endpoint('GET /api/subscription-status', { authenticator: jwtAuth,
  response: z.object({
    // Every value the payment provider has is passed through, and one it adds later too.
    status: z.string().check(z.minLength(1), z.describe(`none (no subscription) or the payment provider's status: ${STRIPE_SUBSCRIPTION_STATUSES.join(', ')}`)),
    trial_end: nullableWhole.check(z.describe('Unix seconds; set only while trialing')),
    days_remaining: z.nullable(z.int().check(z.minimum(0))).check(z.describe('whole days left of the trial, rounded up; set only while trialing')),
  }),
}, async ({ auth, container, log }) => {
  return { body: await readSubscriptionStatus(container, auth.orgId, log) };
});
