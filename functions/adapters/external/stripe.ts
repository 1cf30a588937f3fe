/**
 * The payment provider through the official Stripe SDK (`stripe`).
 *
 * - STRIPE_API_URL (an origin such as `http://127.0.0.1:12111`) points the SDK at another
 *   server (the local fake in tests) through its `host`/`port`/`protocol` options; unset:
 *   api.stripe.com. The SDK always adds `/v1/`, so a path in the URL is refused.
 * - Subscriptions: the customer is retrieved first (unknown or deleted → null, the status
 *   rules answer `none`), then every subscription of it (`status=all`, all pages). A
 *   subscription of another customer in the answer is dropped: the list must never widen
 *   to the account (stripe-node#1587: an empty `customer` filter lists every subscription).
 * - Errors become UpstreamError (502) with a reason; the key, or anything shaped like a
 *   Stripe key (Stripe's own messages quote a masked one), never reaches the message.
 * - Timeout 10 s and 1 retry (the SDK's idempotency keys make the POST retry safe), so a
 *   call stays inside API Gateway's 29 s.
 *
 * On AWS the SDK comes from a Lambda layer, not the route bundle (routes.ts `usesStripe`,
 * lib/layers.ts): it is about 1 MB of JavaScript, four times a route's 250 KB budget.
 */
import Stripe from 'stripe';
import type { PaymentProvider, SubscriptionRecord } from '../../core/billing/types';
import { ProviderNotConfiguredError, UpstreamError } from '../../core/errors';
import { createScrubber } from './vendor-request';

export interface StripeSettings {
  secretKey: string;
  /** STRIPE_API_URL: another server than api.stripe.com (an http(s) origin). */
  apiUrl?: string;
  timeoutMs?: number;
  maxNetworkRetries?: number;
}

export const STRIPE_TIMEOUT_MS = 10_000;
export const STRIPE_MAX_NETWORK_RETRIES = 1;
/** More subscriptions than this on one customer is not a real account: stop paging there. */
export const MAX_SUBSCRIPTIONS_READ = 1000;

export interface StripeHost {
  host: string;
  port: number;
  protocol: 'http' | 'https';
}

/** STRIPE_API_URL as the SDK's host options; throws ProviderNotConfiguredError (503) naming the setting. */
export function parseStripeApiUrl(apiUrl: string): StripeHost {
  let url: URL;
  try {
    url = new URL(apiUrl);
  } catch {
    throw new ProviderNotConfiguredError('STRIPE_API_URL is not a URL: set an http(s) origin such as http://127.0.0.1:12111, or unset it for api.stripe.com');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ProviderNotConfiguredError('STRIPE_API_URL must use http or https');
  }
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash || url.username || url.password) {
    throw new ProviderNotConfiguredError('STRIPE_API_URL must be an origin only (scheme, host, port): the SDK adds /v1/ itself');
  }
  const protocol = url.protocol === 'https:' ? 'https' : 'http';
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port ? Number(url.port) : protocol === 'https' ? 443 : 80,
    protocol,
  };
}

export function createStripePayments(settings: StripeSettings): PaymentProvider {
  const stripe = new Stripe(settings.secretKey, {
    ...(settings.apiUrl ? parseStripeApiUrl(settings.apiUrl) : {}),
    timeout: settings.timeoutMs ?? STRIPE_TIMEOUT_MS,
    maxNetworkRetries: settings.maxNetworkRetries ?? STRIPE_MAX_NETWORK_RETRIES,
    telemetry: false,
  });
  const fail = (err: unknown, action: string) => toUpstreamError(err, action, settings.secretKey);

  return {
    async subscriptions(customerId) {
      assertCustomerId(customerId);
      let customer: Stripe.Customer | Stripe.DeletedCustomer;
      try {
        customer = await stripe.customers.retrieve(customerId);
      } catch (err) {
        if (isMissing(err)) return null;
        throw fail(err, 'reading the customer');
      }
      if (customer.deleted) return null;

      const records: SubscriptionRecord[] = [];
      try {
        for await (const sub of stripe.subscriptions.list({ customer: customerId, status: 'all', limit: 100 })) {
          if (idOf(sub.customer) !== customerId) continue;
          records.push({ id: sub.id, status: sub.status, created: sub.created, trialEnd: sub.trial_end ?? null });
          if (records.length >= MAX_SUBSCRIPTIONS_READ) break;
        }
      } catch (err) {
        if (isMissing(err)) return null;
        throw fail(err, 'listing the subscriptions');
      }
      return records;
    },

    async portalSession(customerId, returnUrl) {
      assertCustomerId(customerId);
      let session: Stripe.BillingPortal.Session;
      try {
        session = await stripe.billingPortal.sessions.create({ customer: customerId, return_url: returnUrl });
      } catch (err) {
        if (isMissing(err, 'customer')) return null;
        throw fail(err, 'creating the billing portal session');
      }
      if (typeof session.url !== 'string' || !/^https?:\/\//.test(session.url)) {
        throw new UpstreamError('payment provider answered the billing portal session without a URL');
      }
      return { url: session.url };
    },
  };
}

/**
 * A customer id is never empty (an empty filter would widen a list to the whole account) and
 * is a Stripe id. A stored id that is not is this service's data fault: a 500, logged.
 */
function assertCustomerId(customerId: string): void {
  if (typeof customerId !== 'string' || !/^[A-Za-z0-9_]+$/.test(customerId)) {
    throw new Error('the linked payment customer id is not a valid Stripe id');
  }
}

const idOf = (ref: string | { id: string } | null | undefined): string | undefined => (typeof ref === 'string' ? ref : ref?.id);

/** Stripe's "No such ...": 404 on a retrieve, 400 with `param` on a create or a list filter. */
function isMissing(err: unknown, param?: string): boolean {
  if (!(err instanceof Stripe.errors.StripeInvalidRequestError) || err.code !== 'resource_missing') return false;
  return param === undefined ? err.statusCode === 404 || err.param === 'customer' || err.param === 'id' : err.param === param;
}

const KEY_SHAPED = /\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9*]+/g;

/** Removes the key itself and anything shaped like a Stripe key from a message. */
export function scrubKey(message: string, secretKey: string): string {
  return createScrubber(secretKey)(message).replace(KEY_SHAPED, '[redacted]');
}

export function toUpstreamError(err: unknown, action: string, secretKey: string): UpstreamError {
  const E = Stripe.errors;
  if (err instanceof E.StripeAuthenticationError) {
    return new UpstreamError(`payment provider refused the API key (STRIPE_SECRET_KEY) while ${action}: authentication failed`);
  }
  if (err instanceof E.StripePermissionError) {
    return new UpstreamError(`payment provider: the API key (STRIPE_SECRET_KEY) is not allowed to do this (${action})`);
  }
  if (err instanceof E.StripeRateLimitError) {
    return new UpstreamError(`payment provider rate limit reached while ${action}; try again shortly`);
  }
  if (err instanceof E.StripeConnectionError) {
    return new UpstreamError(`could not reach the payment provider while ${action}`);
  }
  if (err instanceof E.StripeError) {
    const kind = [err.rawType ?? err.type, err.code].filter(Boolean).join('/');
    const status = err.statusCode ? `HTTP ${err.statusCode} ` : '';
    // Stripe's request id lets support find the call; it is no secret.
    const request = err.requestId ? ` (request ${err.requestId})` : '';
    return new UpstreamError(scrubKey(`payment provider error while ${action}: ${status}${kind}: ${err.message}${request}`, secretKey));
  }
  return new UpstreamError(scrubKey(`payment provider call failed while ${action}: ${(err as Error)?.message ?? String(err)}`, secretKey));
}
