/**
 * The payment provider of a container: the Stripe adapter, or null without STRIPE_SECRET_KEY
 * (the billing routes then answer 503 naming it). Built once per container, after
 * `container.ready()` has read the accounts secret on AWS. Only the billing use cases import
 * this module, so only their bundles reference `stripe` (a Lambda layer on AWS, see
 * routes.ts `usesStripe`).
 */
import { createStripePayments } from '../adapters/external/stripe';
import type { PaymentProvider } from '../core/billing/types';
import { perContainer } from './per-container';

export const paymentProviderOf = perContainer((container): PaymentProvider | null => {
  const { stripe } = container.config;
  return stripe.secretKey ? createStripePayments({ secretKey: stripe.secretKey, apiUrl: stripe.apiUrl }) : null;
});
