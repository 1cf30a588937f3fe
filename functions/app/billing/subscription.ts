/**
 * Billing use cases (spec "Billing"): the customer-portal link and the subscription status
 * of the token's organization. Checks, in order: payments configured (503 naming
 * STRIPE_SECRET_KEY; the spec has no row for it), organization exists (404), a customer is
 * linked (billing-portal 400, subscription-status `none`), then the provider (its failures
 * 502 with a reason). The status rules are core/billing/subscription.ts.
 */
import { NO_SUBSCRIPTION_ANSWER, subscriptionStatus, type SubscriptionStatusAnswer } from '../../core/billing/subscription';
import type { PaymentProvider } from '../../core/billing/types';
import { ProviderNotConfiguredError, ValidationError } from '../../core/errors';
import type { Container } from '../../container';
import type { Logger } from '../../logger';
import { paymentProviderOf } from '../../engines/billing';
import { paymentCustomerOf } from './customer';

export const PAYMENTS_NOT_CONFIGURED = 'payments are not configured: set STRIPE_SECRET_KEY (the payment provider\'s secret key)';

function paymentsOf(container: Container): PaymentProvider {
  const payments = paymentProviderOf(container);
  if (!payments) throw new ProviderNotConfiguredError(PAYMENTS_NOT_CONFIGURED);
  return payments;
}

export async function openBillingPortal(container: Container, orgSlug: string, returnUrl: string): Promise<{ url: string }> {
  const payments = paymentsOf(container);
  const customerId = await paymentCustomerOf(container, orgSlug);
  if (!customerId) throw new ValidationError(`no payment customer is linked to organization ${orgSlug}`);
  const session = await payments.portalSession(customerId, returnUrl);
  if (!session) throw new ValidationError(`the payment customer linked to organization ${orgSlug} does not exist at the payment provider`);
  return session;
}

export async function readSubscriptionStatus(container: Container, orgSlug: string, log?: Logger): Promise<SubscriptionStatusAnswer> {
  const payments = paymentsOf(container);
  const customerId = await paymentCustomerOf(container, orgSlug);
  if (!customerId) return { ...NO_SUBSCRIPTION_ANSWER };
  const subscriptions = await payments.subscriptions(customerId);
  // A link to a customer the provider does not know (or deleted): no subscription, but say so.
  if (!subscriptions) log?.warn('the linked payment customer does not exist at the payment provider', { org: orgSlug, customer: customerId });
  return subscriptionStatus(subscriptions ?? [], container.clock.now());
}
