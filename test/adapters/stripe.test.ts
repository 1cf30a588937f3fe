/**
 * The Stripe adapter with the official SDK against the local stateful fake
 * (functions/local/fakes/stripe.ts): the wire calls, the "no such customer" cases and the
 * error mapping (502 with a reason that never holds the key).
 */
import { createServer } from 'node:http';
import type { PaymentProvider } from '../../functions/core/billing/types';
import { UpstreamError, ProviderNotConfiguredError } from '../../functions/core/errors';
import { createStripePayments, parseStripeApiUrl, scrubKey } from '../../functions/adapters/external/stripe';
import { listen } from '../../functions/local/runtime/listen';
import { startStripeFake, type StripeFake } from '../../functions/local/fakes/stripe';

let fake: StripeFake;
let payments: PaymentProvider;
const T = 1_800_000_000;

beforeAll(async () => {
  fake = await startStripeFake();
  payments = createStripePayments({ secretKey: fake.secretKey, apiUrl: fake.apiUrl });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

async function upstreamError(promise: Promise<unknown>): Promise<UpstreamError> {
  const err = await promise.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(UpstreamError);
  return err as UpstreamError;
}

describe('STRIPE_API_URL → SDK host options', () => {
  test.each([
    ['http://127.0.0.1:12111', { host: '127.0.0.1', port: 12111, protocol: 'http' }],
    ['http://127.0.0.1:12111/', { host: '127.0.0.1', port: 12111, protocol: 'http' }],
    ['https://stripe.internal.example', { host: 'stripe.internal.example', port: 443, protocol: 'https' }],
    ['http://localhost', { host: 'localhost', port: 80, protocol: 'http' }],
    ['http://[::1]:8443', { host: '::1', port: 8443, protocol: 'http' }],
  ])('%s', (url, expected) => {
    expect(parseStripeApiUrl(url)).toEqual(expected);
  });

  test.each(['not a url', 'ftp://127.0.0.1:21', 'http://127.0.0.1:12111/v1', 'http://127.0.0.1:1?x=1', 'http://u:p@127.0.0.1:1'])('%s is refused naming STRIPE_API_URL', (url) => {
    expect(() => parseStripeApiUrl(url)).toThrow(ProviderNotConfiguredError);
    expect(() => parseStripeApiUrl(url)).toThrow(/STRIPE_API_URL/);
  });
});

describe('subscriptions', () => {
  test('retrieves the customer, then lists every status of that customer only', async () => {
    const customer = fake.addCustomer();
    const other = fake.addCustomer();
    fake.addSubscription({ customer: customer.id, status: 'canceled', created: T - 50 });
    fake.addSubscription({ customer: customer.id, status: 'trialing', created: T - 10, trial_end: T + 86_400 });
    fake.addSubscription({ customer: other.id, status: 'active', created: T });
    const subs = await payments.subscriptions(customer.id);
    expect(subs).toEqual([
      { id: expect.stringMatching(/^sub_/), status: 'trialing', created: T - 10, trialEnd: T + 86_400 },
      { id: expect.stringMatching(/^sub_/), status: 'canceled', created: T - 50, trialEnd: null },
    ]);
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET /v1/customers/${customer.id}`, 'GET /v1/subscriptions']);
    expect(fake.requests[1].query).toMatchObject({ customer: customer.id, status: 'all', limit: '100' });
  });

  test('follows the list cursor past 100 subscriptions', async () => {
    const customer = fake.addCustomer();
    for (let i = 0; i < 130; i++) fake.addSubscription({ customer: customer.id, status: 'canceled', created: T - i });
    const subs = await payments.subscriptions(customer.id);
    expect(subs).toHaveLength(130);
    expect(new Set(subs!.map((s) => s.id)).size).toBe(130);
    expect(fake.requests.filter((r) => r.path === '/v1/subscriptions').map((r) => Boolean(r.query.starting_after))).toEqual([false, true]);
  });

  test('a customer without subscriptions → []', async () => {
    expect(await payments.subscriptions(fake.addCustomer().id)).toEqual([]);
  });

  test('an unknown customer (404 resource_missing) or a deleted one → null', async () => {
    expect(await payments.subscriptions('cus_doesnotexist')).toBeNull();
    const gone = fake.addCustomer();
    fake.addSubscription({ customer: gone.id, status: 'active' });
    fake.deleteCustomer(gone.id);
    expect(await payments.subscriptions(gone.id)).toBeNull();
    expect(fake.requests.some((r) => r.path === '/v1/subscriptions')).toBe(false);
  });

  test('an empty or malformed customer id never reaches Stripe (an empty filter lists the whole account)', async () => {
    await expect(payments.subscriptions('')).rejects.toThrow(/not a valid Stripe id/);
    await expect(payments.subscriptions('cus_x/../../v1/subscriptions')).rejects.toThrow(/not a valid Stripe id/);
    await expect(payments.portalSession('', 'https://app.example/')).rejects.toThrow(/not a valid Stripe id/);
    expect(fake.requests).toHaveLength(0);
  });
});

describe('portal sessions', () => {
  test('POSTs customer and return_url form-encoded and answers the session URL', async () => {
    const customer = fake.addCustomer();
    const session = await payments.portalSession(customer.id, 'https://app.example/billing?tab=plan');
    expect(session).toEqual({ url: expect.stringMatching(new RegExp(`^${fake.origin}/p/session/bps_`)) });
    expect(fake.requests).toEqual([expect.objectContaining({
      method: 'POST', path: '/v1/billing_portal/sessions', status: 200,
      form: { customer: customer.id, return_url: 'https://app.example/billing?tab=plan' },
      idempotencyKey: expect.any(String),
    })]);
    const page = await fetch(session!.url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('href="https://app.example/billing?tab=plan"');
  });

  test('an unknown or deleted customer → null', async () => {
    expect(await payments.portalSession('cus_doesnotexist', 'https://app.example/')).toBeNull();
    const gone = fake.addCustomer();
    fake.deleteCustomer(gone.id);
    expect(await payments.portalSession(gone.id, 'https://app.example/')).toBeNull();
  });

  test('a 500 is retried once with the same idempotency key', async () => {
    const customer = fake.addCustomer();
    fake.failNext(500);
    expect(await payments.portalSession(customer.id, 'https://app.example/')).toEqual({ url: expect.any(String) });
    const posts = fake.requests.filter((r) => r.method === 'POST');
    expect(posts.map((r) => r.status)).toEqual([500, 200]);
    expect(posts[0].idempotencyKey).toBeDefined();
    expect(posts[1].idempotencyKey).toBe(posts[0].idempotencyKey);
    expect(fake.portalSessions).toHaveLength(1);
  });
});

describe('errors → UpstreamError (502) with a reason, never the key', () => {
  test('a refused key', async () => {
    const wrongKey = 'sk_test_thisisnotthekey0000000000001234';
    const client = createStripePayments({ secretKey: wrongKey, apiUrl: fake.apiUrl });
    const err = await upstreamError(client.subscriptions(fake.addCustomer().id));
    expect(err.status).toBe(502);
    expect(err.message).toMatch(/refused the API key \(STRIPE_SECRET_KEY\)/);
    expect(err.message).not.toContain(wrongKey);
    expect(err.message).not.toContain('1234');
    expect(err.message).not.toContain(fake.secretKey);
  });

  test('500 twice (the retry too) names the failure', async () => {
    const customer = fake.addCustomer();
    fake.failNext(500, { message: 'something broke on our end' }, 2);
    const err = await upstreamError(payments.subscriptions(customer.id));
    expect(err.message).toMatch(/payment provider error while reading the customer: HTTP 500 api_error: something broke on our end \(request req_[0-9a-f]+\)$/);
  });

  test('a rate limit', async () => {
    fake.failNext(429, { type: 'rate_limit_error', code: 'rate_limit', message: 'Too many requests' });
    const err = await upstreamError(payments.portalSession(fake.addCustomer().id, 'https://app.example/'));
    expect(err.message).toMatch(/rate limit/);
  });

  test('a permission error (restricted key)', async () => {
    fake.failNext(403, { type: 'invalid_request_error', message: 'The provided key \'rk_test_*****abcd\' does not have the required permissions' });
    const err = await upstreamError(payments.subscriptions(fake.addCustomer().id));
    expect(err.message).toMatch(/not allowed/);
    expect(err.message).not.toMatch(/rk_test/);
  });

  test('another request error: Stripe\'s message with anything key-shaped removed', async () => {
    fake.failNext(400, { type: 'invalid_request_error', code: 'parameter_unknown', param: 'x', message: `Bad request made with ${fake.secretKey} and sk_live_abc123` });
    const err = await upstreamError(payments.portalSession(fake.addCustomer().id, 'https://app.example/'));
    expect(err.message).toMatch(/HTTP 400 invalid_request_error\/parameter_unknown: Bad request made with \[redacted\] and \[redacted\]/);
    expect(err.message).not.toContain(fake.secretKey);
    expect(err.message).not.toMatch(/sk_(test|live)_/);
  });

  test('an unreachable server', async () => {
    const server = createServer();
    const port = await listen(server);
    await new Promise((resolve) => server.close(resolve));
    const client = createStripePayments({ secretKey: fake.secretKey, apiUrl: `http://127.0.0.1:${port}`, maxNetworkRetries: 0 });
    const err = await upstreamError(client.subscriptions('cus_123'));
    expect(err.message).toMatch(/could not reach the payment provider/);
  });

  test('scrubKey removes the key itself even when it is not key-shaped', () => {
    expect(scrubKey('a secret-value-1 b sk_test_AbC c rk_live_x*y', 'secret-value-1')).toBe('a [redacted] b [redacted] c [redacted]');
  });
});
