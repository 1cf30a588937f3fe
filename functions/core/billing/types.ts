/**
 * The payment provider contract (spec "Billing"). The Stripe adapter
 * (adapters/external/stripe.ts) implements it; use cases reach it through
 * functions/engines/billing.ts.
 */

/** One subscription as the provider reports it; only what the status rules read. */
export interface SubscriptionRecord {
  id: string;
  /** The provider's value, passed through (Stripe: trialing, active, past_due, ...). */
  status: string;
  /** Unix seconds. */
  created: number;
  /** Unix seconds; null when the subscription has (had) no trial. */
  trialEnd: number | null;
}

export interface PaymentProvider {
  /**
   * Every subscription of the customer, whatever its status (ended ones too).
   * Null when the provider has no such customer, or it was deleted there.
   * Any other failure rejects with UpstreamError (502) whose message never holds the key.
   */
  subscriptions(customerId: string): Promise<SubscriptionRecord[] | null>;
  /**
   * A customer-portal session that sends the user back to `returnUrl`.
   * Null when the provider has no such (or a deleted) customer.
   */
  portalSession(customerId: string, returnUrl: string): Promise<{ url: string } | null>;
}
