/**
 * The subscription-status answer (spec "Billing", "Subscription status"), as pure rules:
 * `{status, trial_end, days_remaining}` from the customer's subscriptions and the clock.
 *
 * Rules (docs/decisions.md records them):
 * - Values. Every status Stripe has is passed through as it is: `trialing`, `active`,
 *   `past_due`, `canceled`, `unpaid`, `incomplete`, `incomplete_expired`, `paused`; `none`
 *   when there is no subscription (no linked customer, a customer the provider does not
 *   know or deleted, or a customer without subscriptions). A value Stripe adds later is
 *   passed through too rather than mapped to a guess.
 * - `paused` (the spec's value list omits it): Stripe pauses a subscription whose trial
 *   ended without a payment method. It is answered as `paused`, with `trial_end` and
 *   `days_remaining` null: the trial is over, and mapping it to `canceled` or `past_due`
 *   would misstate what the customer can do (add a payment method to resume).
 * - Several subscriptions: the one that describes the customer's access now wins.
 *   Tier 1, live: `active`, `trialing`, `past_due`. Tier 2, exists but not in good
 *   standing or not started: `unpaid`, `paused`, `incomplete` (and any unknown value).
 *   Tier 3, ended: `canceled`, `incomplete_expired`. The lowest tier wins; inside a tier
 *   the latest `created` wins, then the greater id (so the answer is deterministic).
 * - `trial_end` and `days_remaining` are set only when the chosen status is `trialing`
 *   (spec), otherwise null. `days_remaining` = ceil((trial_end - now) / 1 day), never
 *   negative: 1 s to 24 h left is 1, exactly 24 h is 1, 24 h + 1 s is 2, a trial_end at
 *   or before now (Stripe has not moved the subscription on yet) is 0. A trialing
 *   subscription without trial_end (Stripe always sets one) answers both as null.
 */
import type { SubscriptionRecord } from './types';

/** Every subscription status Stripe has (stripe@23 Subscription.Status). */
export const STRIPE_SUBSCRIPTION_STATUSES = [
  'trialing', 'active', 'past_due', 'canceled', 'unpaid', 'incomplete', 'incomplete_expired', 'paused',
] as const;
export type StripeSubscriptionStatus = (typeof STRIPE_SUBSCRIPTION_STATUSES)[number];

/** The answer when the organization has no subscription at all. */
export const NO_SUBSCRIPTION = 'none';

export interface SubscriptionStatusAnswer {
  status: string;
  /** Unix seconds; only while trialing. */
  trial_end: number | null;
  /** Whole days left of the trial, rounded up; only while trialing. */
  days_remaining: number | null;
}

export const NO_SUBSCRIPTION_ANSWER: SubscriptionStatusAnswer = Object.freeze({ status: NO_SUBSCRIPTION, trial_end: null, days_remaining: null });

const DAY_MS = 86_400_000;

const TIER: Readonly<Record<StripeSubscriptionStatus, number>> = {
  active: 1, trialing: 1, past_due: 1,
  unpaid: 2, paused: 2, incomplete: 2,
  canceled: 3, incomplete_expired: 3,
};
const UNKNOWN_STATUS_TIER = 2;

export function statusTier(status: string): number {
  return (TIER as Record<string, number>)[status] ?? UNKNOWN_STATUS_TIER;
}

/** The subscription that describes the customer now (rules above); null for none. */
export function pickSubscription(subscriptions: readonly SubscriptionRecord[]): SubscriptionRecord | null {
  let best: SubscriptionRecord | null = null;
  for (const s of subscriptions) {
    if (!best || ranksBefore(s, best)) best = s;
  }
  return best;
}

function ranksBefore(a: SubscriptionRecord, b: SubscriptionRecord): boolean {
  const tierA = statusTier(a.status);
  const tierB = statusTier(b.status);
  if (tierA !== tierB) return tierA < tierB;
  if (a.created !== b.created) return a.created > b.created;
  return a.id > b.id;
}

/** ceil of the days from `now` to `trialEnd` (Unix seconds), never negative. */
export function daysRemaining(trialEnd: number, now: Date): number {
  return Math.max(0, Math.ceil((trialEnd * 1000 - now.getTime()) / DAY_MS));
}

export function subscriptionStatus(subscriptions: readonly SubscriptionRecord[], now: Date): SubscriptionStatusAnswer {
  const chosen = pickSubscription(subscriptions);
  if (!chosen) return { ...NO_SUBSCRIPTION_ANSWER };
  if (chosen.status !== 'trialing' || chosen.trialEnd === null) {
    return { status: chosen.status, trial_end: null, days_remaining: null };
  }
  return { status: chosen.status, trial_end: chosen.trialEnd, days_remaining: daysRemaining(chosen.trialEnd, now) };
}
