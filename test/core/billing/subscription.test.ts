import { parseReturnUrl } from '../../../functions/core/billing/return-url';
import {
  daysRemaining, pickSubscription, statusTier, STRIPE_SUBSCRIPTION_STATUSES, subscriptionStatus,
} from '../../../functions/core/billing/subscription';
import type { SubscriptionRecord } from '../../../functions/core/billing/types';

const T = 1_800_000_000; // a fixed instant (Unix seconds), never the wall clock
const at = (seconds: number) => new Date(seconds * 1000);
const sub = (id: string, status: string, created: number, trialEnd: number | null = null): SubscriptionRecord => ({ id, status, created, trialEnd });

describe('subscription status rules', () => {
  test('no subscription → none with nulls', () => {
    expect(subscriptionStatus([], at(T))).toEqual({ status: 'none', trial_end: null, days_remaining: null });
  });

  test.each(STRIPE_SUBSCRIPTION_STATUSES.filter((s) => s !== 'trialing'))('%s is passed through, trial fields null even when the subscription had a trial', (status) => {
    expect(subscriptionStatus([sub('sub_1', status, T - 100, T + 86_400)], at(T))).toEqual({ status, trial_end: null, days_remaining: null });
  });

  test('trialing carries trial_end and the days left', () => {
    expect(subscriptionStatus([sub('sub_1', 'trialing', T - 100, T + 3 * 86_400)], at(T))).toEqual({ status: 'trialing', trial_end: T + 3 * 86_400, days_remaining: 3 });
  });

  test('trialing without trial_end answers both as null', () => {
    expect(subscriptionStatus([sub('sub_1', 'trialing', T - 100, null)], at(T))).toEqual({ status: 'trialing', trial_end: null, days_remaining: null });
  });

  test.each([
    [0, 0], [-1, 0], [-10 * 86_400, 0], [1, 1], [86_399, 1], [86_400, 1], [86_401, 2], [14 * 86_400, 14], [14 * 86_400 + 1, 15],
  ])('trial_end now%+d s → %d days (ceil, never negative)', (offset, days) => {
    expect(daysRemaining(T + offset, at(T))).toBe(days);
  });

  test('sub-second clock: 24 h minus half a second is 1 day, plus half a second is 2', () => {
    expect(daysRemaining(T + 86_400, new Date(T * 1000 + 500))).toBe(1);
    expect(daysRemaining(T + 86_400, new Date(T * 1000 - 500))).toBe(2);
  });

  test('tiers: live < not in good standing < ended; unknown values sit in the middle', () => {
    expect(['active', 'trialing', 'past_due'].map(statusTier)).toEqual([1, 1, 1]);
    expect(['unpaid', 'paused', 'incomplete', 'something_new'].map(statusTier)).toEqual([2, 2, 2, 2]);
    expect(['canceled', 'incomplete_expired'].map(statusTier)).toEqual([3, 3]);
  });

  test.each([
    ['a live one beats a newer ended one', [sub('a', 'active', T - 900), sub('b', 'canceled', T - 10)], 'a'],
    ['a live one beats a newer unpaid one', [sub('a', 'past_due', T - 900), sub('b', 'unpaid', T - 10)], 'a'],
    ['among live ones the latest created wins', [sub('a', 'active', T - 900), sub('b', 'trialing', T - 10, T + 86_400)], 'b'],
    ['paused beats a newer canceled one', [sub('a', 'paused', T - 900), sub('b', 'canceled', T - 10)], 'a'],
    ['incomplete beats incomplete_expired', [sub('a', 'incomplete_expired', T - 10), sub('b', 'incomplete', T - 900)], 'b'],
    ['among ended ones the latest created wins', [sub('a', 'canceled', T - 900), sub('b', 'incomplete_expired', T - 10)], 'b'],
    ['same tier and created: the greater id, whatever the order', [sub('sub_b', 'active', T), sub('sub_a', 'active', T)], 'sub_b'],
  ])('several subscriptions: %s', (_name, subs, expected) => {
    expect(pickSubscription(subs)?.id).toBe(expected);
    expect(pickSubscription([...subs].reverse())?.id).toBe(expected);
  });
});

describe('return_url', () => {
  test.each([
    ['https://app.example/billing?x=1', 'https://app.example/billing?x=1'],
    ['http://localhost:3000/settings', 'http://localhost:3000/settings'],
    ['HTTPS://App.Example', 'https://app.example/'],
  ])('%s is accepted as %s', (input, href) => {
    expect(parseReturnUrl(input)).toBe(href);
  });

  test.each([
    '', '/billing', 'billing', '//app.example/billing', 'javascript:alert(1)', 'ftp://files.example/', 'data:text/html,hi',
    'https:app.example', 'https://', 'https://user:pass@app.example/', 'https://app.example/a b', 'https://app.example/\n',
  ])('%j is refused', (input) => {
    expect(parseReturnUrl(input)).toBeNull();
  });

  test('at most 2,048 characters', () => {
    const base = 'https://app.example/';
    expect(parseReturnUrl(base + 'a'.repeat(2048 - base.length))).not.toBeNull();
    expect(parseReturnUrl(base + 'a'.repeat(2049 - base.length))).toBeNull();
  });
});
