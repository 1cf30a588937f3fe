/**
 * POST /api/billing-portal and GET /api/subscription-status through the real handlers of the
 * local stack, the official Stripe SDK and the local stateful Stripe fake. The container's
 * clock is fixed (and moved by tests), so trial days never depend on the wall clock.
 */
import { randomUUID } from 'node:crypto';
import { STRIPE_SUBSCRIPTION_STATUSES } from '../../functions/core/billing/subscription';
import { getContainer } from '../../functions/container';
import { startStripeFake, type StripeFake } from '../../functions/local/fakes/stripe';
import { startTestStack, type TestStack } from '../support/stack';
import { organizationsOf } from '../../functions/engines/organizations';

const DAY = 86_400;
/** The container clock, in Unix seconds (whole seconds, so the boundaries are exact). */
const T0 = 1_800_000_000;
let nowSeconds = T0;
const clock = { now: () => new Date(nowSeconds * 1000) };

let stack: TestStack;
let fake: StripeFake;

/**
 * The organization as POST /api/business leaves it (D11): the business and the organization
 * record, written through the repositories (no store URL check, so no DNS lookup).
 */
async function createBusiness(org: string): Promise<void> {
  const at = new Date(T0 * 1000).toISOString();
  const id = randomUUID();
  await getContainer().businesses.create({
    id, orgSlug: org, name: `Shop ${org}`, url: `https://${org}.example`, domain: `${org}.example`, faviconUrl: null, createdAt: at, updatedAt: at,
  });
  await organizationsOf(getContainer()).mergeBusiness(org, { businessId: id, name: `Shop ${org}`, at });
}

async function createOrg(org: string): Promise<string> {
  await createBusiness(org);
  return stack.token(org);
}

/** Links the payment customer on the organization record (`stripeCustomerId`). */
async function linkCustomer(org: string, customerId: string): Promise<void> {
  await organizationsOf(getContainer()).setStripeCustomerId(org, customerId, new Date(T0 * 1000).toISOString());
}

/** A new organization with a business, a fake customer linked to it, and its token. */
async function orgWithCustomer(org: string): Promise<{ token: string; customer: string }> {
  const token = await createOrg(org);
  const customer = fake.addCustomer({ email: `billing@${org}.example` }).id;
  await linkCustomer(org, customer);
  return { token, customer };
}

const status = async (token: string) => stack.call('GET', '/api/subscription-status', { token });
const portal = async (token: string, body: unknown = { return_url: 'https://app.example/settings/billing' }) =>
  stack.call('POST', '/api/billing-portal', { token, body });

describe('with payments configured (STRIPE_SECRET_KEY, STRIPE_API_URL → the local fake)', () => {
  beforeAll(async () => {
    fake = await startStripeFake();
    stack = await startTestStack({ STRIPE_SECRET_KEY: fake.secretKey, STRIPE_API_URL: fake.apiUrl }, { clock });
  });
  afterAll(async () => {
    await stack.close();
    await fake.close();
  });
  beforeEach(() => { nowSeconds = T0; });

  describe('auth (spec Errors: 401 rows)', () => {
    test.each([
      ['POST', '/api/billing-portal'],
      ['GET', '/api/subscription-status'],
    ])('%s %s: no token, a malformed token, a token without org_id → 401', async (method, path) => {
      const body = method === 'POST' ? { return_url: 'https://app.example/' } : undefined;
      const before = fake.requests.length;
      expect((await stack.call(method, path, { body })).status).toBe(401);
      expect((await stack.call(method, path, { body, headers: { Authorization: 'Bearer nope' } })).status).toBe(401);
      const noOrg = await stack.call(method, path, { body, token: await stack.token(null) });
      expect(noOrg.status).toBe(401);
      expect(noOrg.body).toEqual({ status: 'error', error: expect.stringMatching(/org_id/) });
      expect(fake.requests.length).toBe(before);
    });
  });

  describe('organization not found → 404 (spec Errors)', () => {
    test('an organization record without a business (identity-provider events made it) is found', async () => {
      const customer = fake.addCustomer().id;
      fake.addSubscription({ customer, status: 'active', created: T0 - DAY });
      await linkCustomer('idp-only-org', customer);
      expect((await status(await stack.token('idp-only-org'))).body).toEqual({ status: 'active', trial_end: null, days_remaining: null });
    });

    test('no organization record: both routes', async () => {
      const token = await stack.token('ghost-org');
      const a = await portal(token);
      const b = await status(token);
      expect([a.status, b.status]).toEqual([404, 404]);
      expect(a.body).toEqual({ status: 'error', error: 'organization ghost-org not found' });
      expect(b.body).toEqual({ status: 'error', error: 'organization ghost-org not found' });
    });
  });

  describe('no payment customer linked', () => {
    test('billing-portal → 400 (spec Errors); subscription-status → none with nulls; Stripe is not called', async () => {
      const token = await createOrg('unlinked');
      const before = fake.requests.length;
      const a = await portal(token);
      expect(a.status).toBe(400);
      expect(a.body).toEqual({ status: 'error', error: 'no payment customer is linked to organization unlinked' });
      const b = await status(token);
      expect(b.status).toBe(200);
      expect(b.body).toEqual({ status: 'none', trial_end: null, days_remaining: null });
      expect(fake.requests.length).toBe(before);
    });

    test('a linked customer Stripe does not know, or deleted there: portal 400, status none', async () => {
      const token = await createOrg('stale-link');
      await linkCustomer('stale-link', 'cus_neverexisted');
      expect(await status(token)).toMatchObject({ status: 200, body: { status: 'none', trial_end: null, days_remaining: null } });
      const missing = await portal(token);
      expect(missing.status).toBe(400);
      expect(missing.body.error).toBe('the payment customer linked to organization stale-link does not exist at the payment provider');
      expect(stack.logs.some((l) => l.includes('the linked payment customer does not exist at the payment provider'))).toBe(true);

      const deleted = fake.addCustomer();
      fake.addSubscription({ customer: deleted.id, status: 'active' });
      fake.deleteCustomer(deleted.id);
      await linkCustomer('stale-link', deleted.id);
      expect((await status(token)).body).toEqual({ status: 'none', trial_end: null, days_remaining: null });
      expect((await portal(token)).status).toBe(400);
    });

    test('a stored customer id that is no Stripe id → 500, never sent to Stripe', async () => {
      const token = await createOrg('bad-link');
      await linkCustomer('bad-link', 'cus_1/../../v1/subscriptions');
      const before = fake.requests.length;
      expect(await status(token)).toMatchObject({ status: 500, body: { status: 'error', error: 'internal error' } });
      expect((await portal(token)).status).toBe(500);
      expect(fake.requests.length).toBe(before);
    });

    test('a blank stored customer id is no link', async () => {
      const token = await createOrg('blank-link');
      await linkCustomer('blank-link', '   ');
      expect((await status(token)).body).toEqual({ status: 'none', trial_end: null, days_remaining: null });
      expect((await portal(token)).status).toBe(400);
    });

    test('a customer without any subscription → none', async () => {
      const { token } = await orgWithCustomer('no-subs');
      expect((await status(token)).body).toEqual({ status: 'none', trial_end: null, days_remaining: null });
    });
  });

  describe('subscription-status: every Stripe status value', () => {
    test.each(STRIPE_SUBSCRIPTION_STATUSES.map((s) => [s]))('%s', async (value) => {
      const org = `status-${value.replace(/_/g, '-')}`;
      const { token, customer } = await orgWithCustomer(org);
      // Every subscription had a trial: only `trialing` may show it.
      fake.addSubscription({ customer, status: value, created: T0 - 5 * DAY, trial_end: T0 + 3 * DAY });
      const res = await status(token);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.body).toEqual(value === 'trialing'
        ? { status: 'trialing', trial_end: T0 + 3 * DAY, days_remaining: 3 }
        : { status: value, trial_end: null, days_remaining: null });
    });

    test('paused (a trial that ended without a payment method) is answered as paused, trial fields null', async () => {
      const { token, customer } = await orgWithCustomer('paused-trial');
      fake.addSubscription({ customer, status: 'paused', created: T0 - 20 * DAY, trial_end: T0 - 6 * DAY });
      fake.addSubscription({ customer, status: 'canceled', created: T0 - DAY });
      expect((await status(token)).body).toEqual({ status: 'paused', trial_end: null, days_remaining: null });
    });
  });

  describe('subscription-status: several subscriptions (live, then not in good standing, then ended; latest created inside)', () => {
    test.each([
      ['an older active beats a newer canceled', [['active', 30], ['canceled', 1]], 'active'],
      ['an older past_due beats a newer unpaid', [['past_due', 30], ['unpaid', 1]], 'past_due'],
      ['two live ones: the newer trialing wins', [['active', 30], ['trialing', 2]], 'trialing'],
      ['two live ones: the newer past_due wins', [['trialing', 30], ['past_due', 2]], 'past_due'],
      ['an older unpaid beats a newer incomplete_expired', [['unpaid', 30], ['incomplete_expired', 1]], 'unpaid'],
      ['incomplete beats a newer canceled', [['incomplete', 30], ['canceled', 1]], 'incomplete'],
      ['only ended ones: the newest', [['canceled', 30], ['incomplete_expired', 3], ['canceled', 9]], 'incomplete_expired'],
    ] as const)('%s', async (name, subs, expected) => {
      const org = `multi-${name.replace(/[^a-z]+/g, '-').slice(0, 40)}`.replace(/-+$/, '');
      const { token, customer } = await orgWithCustomer(org);
      for (const [value, daysAgo] of subs) {
        fake.addSubscription({ customer, status: value, created: T0 - daysAgo * DAY, trial_end: value === 'trialing' ? T0 + DAY : undefined });
      }
      expect((await status(token)).body.status).toBe(expected);
    });
  });

  describe('subscription-status: days_remaining = ceil(days from now to trial_end), never negative', () => {
    test.each([
      [14 * DAY, 14],
      [14 * DAY + 1, 15],
      [DAY + 1, 2],
      [DAY, 1],
      [DAY - 1, 1],
      [1, 1],
      [0, 0],
      [-1, 0],
      [-3 * DAY, 0],
    ])('trial_end = now + (%i s) → %i days', async (offset, days) => {
      const org = `round-${String(offset).replace('-', 'minus')}`;
      const { token, customer } = await orgWithCustomer(org);
      fake.addSubscription({ customer, status: 'trialing', created: T0 - DAY, trial_end: T0 + offset });
      expect((await status(token)).body).toEqual({ status: 'trialing', trial_end: T0 + offset, days_remaining: days });
    });

    test('the container clock moving on shortens the trial', async () => {
      const { token, customer } = await orgWithCustomer('trial-clock');
      fake.addSubscription({ customer, status: 'trialing', created: T0 - DAY, trial_end: T0 + 2 * DAY });
      const days = [];
      for (const at of [T0, T0 + DAY - 1, T0 + DAY, T0 + DAY + 1, T0 + 2 * DAY, T0 + 3 * DAY]) {
        nowSeconds = at;
        days.push((await status(token)).body.days_remaining);
      }
      expect(days).toEqual([2, 2, 1, 1, 0, 0]);
    });
  });

  describe('billing-portal', () => {
    test('answers {url} of a portal session for the organization\'s customer, returning to return_url', async () => {
      const { token, customer } = await orgWithCustomer('portal-ok');
      const res = await portal(token, { return_url: 'https://app.example/settings/billing?from=portal' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ url: expect.stringMatching(new RegExp(`^${fake.origin}/p/session/bps_`)) });
      expect(fake.portalSessions.at(-1)).toMatchObject({ customer, return_url: 'https://app.example/settings/billing?from=portal', url: res.body.url });
      const page = await fetch(res.body.url);
      expect(page.status).toBe(200);
    });

    test('return_url is normalized before it is sent', async () => {
      const { token } = await orgWithCustomer('portal-normalized');
      expect((await portal(token, { return_url: 'HTTPS://App.Example' })).status).toBe(200);
      expect(fake.portalSessions.at(-1)?.return_url).toBe('https://app.example/');
    });

    test.each([
      ['missing', {}, /return_url: return_url is required/],
      ['null', { return_url: null }, /return_url: return_url is required/],
      ['not a string', { return_url: 42 }, /return_url: return_url is required/],
      ['empty', { return_url: '' }, /return_url: return_url is required/],
      ['relative', { return_url: '/settings/billing' }, /return_url: return_url must be an absolute http\(s\) URL/],
      ['scheme-relative', { return_url: '//app.example/billing' }, /return_url: return_url must be an absolute http\(s\) URL/],
      ['javascript:', { return_url: 'javascript:alert(document.cookie)' }, /return_url: return_url must be an absolute http\(s\) URL/],
      ['ftp:', { return_url: 'ftp://files.example/billing' }, /return_url: return_url must be an absolute http\(s\) URL/],
      ['data:', { return_url: 'data:text/html,<script>alert(1)</script>' }, /return_url: return_url must be an absolute http\(s\) URL/],
      ['with credentials', { return_url: 'https://user:pass@app.example/' }, /return_url: return_url must be an absolute http\(s\) URL/],
      ['too long', { return_url: `https://app.example/${'a'.repeat(2100)}` }, /return_url: return_url is longer than 2048 characters/],
    ])('return_url %s → 400 naming the field, nothing sent to Stripe', async (_name, body, message) => {
      const { token } = await orgWithCustomer(`rurl-${_name.replace(/[^a-z]+/g, '-').replace(/-+$/, '')}`);
      const before = fake.requests.length;
      const res = await portal(token, body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ status: 'error', error: expect.stringMatching(message) });
      expect(res.body.error).toMatch(/^invalid body: return_url: /);
      expect(fake.requests.length).toBe(before);
    });

    test('no body at all → 400', async () => {
      const { token } = await orgWithCustomer('portal-nobody');
      const res = await stack.call('POST', '/api/billing-portal', { token });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/JSON body is required/);
    });
  });

  describe('organization isolation', () => {
    test('another organization\'s token never reaches this organization\'s customer', async () => {
      const a = await orgWithCustomer('iso-owner');
      fake.addSubscription({ customer: a.customer, status: 'trialing', created: T0 - DAY, trial_end: T0 + 5 * DAY });
      const intruder = await createOrg('iso-intruder');

      expect((await status(a.token)).body).toEqual({ status: 'trialing', trial_end: T0 + 5 * DAY, days_remaining: 5 });
      expect((await status(intruder)).body).toEqual({ status: 'none', trial_end: null, days_remaining: null });
      expect((await portal(intruder)).status).toBe(400);
      // Naming the other organization anywhere (D5) is refused, not obeyed.
      expect((await portal(intruder, { return_url: 'https://app.example/', org_id: 'iso-owner' })).status).toBe(403);
      expect((await portal(intruder, { return_url: 'https://app.example/', business_id: 'iso-owner' })).status).toBe(403);
      expect((await stack.call('GET', '/api/subscription-status?business_id=iso-owner', { token: intruder })).status).toBe(403);
      expect((await stack.call('GET', '/api/subscription-status?org_slug=iso-owner', { token: intruder })).status).toBe(403);
      expect(fake.portalSessions.filter((s) => s.customer === a.customer)).toHaveLength(0);
      // Every Stripe call made for the intruder was about no customer at all.
      const callsForOwner = fake.requests.filter((r) => r.path.includes(a.customer) || r.query.customer === a.customer || r.form.customer === a.customer);
      expect(callsForOwner).toHaveLength(2); // the owner's own status read: the customer, then its subscriptions
    });
  });

  describe('Stripe errors → 502 with a reason, the key never in it', () => {
    test('a 500 on both tries', async () => {
      const { token } = await orgWithCustomer('err-500');
      fake.failNext(500, { message: 'An unknown error occurred' }, 2);
      const res = await status(token);
      expect(res.status).toBe(502);
      expect(res.body).toEqual({ status: 'error', error: expect.stringMatching(/^payment provider error while reading the customer: HTTP 500 api_error: An unknown error occurred/) });
    });

    test('a rate limit on the portal', async () => {
      const { token } = await orgWithCustomer('err-429');
      fake.failNext(429, { type: 'rate_limit_error', code: 'rate_limit', message: 'Too many requests made to the API too quickly' });
      const res = await portal(token);
      expect(res.status).toBe(502);
      expect(res.body.error).toMatch(/rate limit/);
    });

    test('a key-shaped string in Stripe\'s message is removed', async () => {
      const { token } = await orgWithCustomer('err-echo');
      fake.failNext(400, { type: 'invalid_request_error', code: 'parameter_unknown', message: `Request with ${fake.secretKey} rejected` });
      const res = await portal(token);
      expect(res.status).toBe(502);
      expect(res.body.error).toMatch(/Request with \[redacted\] rejected/);
      expect(JSON.stringify(res.body)).not.toContain(fake.secretKey);
    });

    test('a rolled (refused) key: 502 naming STRIPE_SECRET_KEY, neither key in the answer or the logs', async () => {
      const { token } = await orgWithCustomer('err-key');
      const configured = fake.secretKey;
      fake.setSecretKey('sk_test_rolledkey0000000000000000009876');
      try {
        for (const res of [await status(token), await portal(token)]) {
          expect(res.status).toBe(502);
          expect(res.body.error).toMatch(/refused the API key \(STRIPE_SECRET_KEY\)/);
          const text = JSON.stringify(res.body);
          expect(text).not.toContain(configured);
          expect(text).not.toContain(configured.slice(-4));
          expect(text).not.toMatch(/sk_test_/);
        }
        expect(stack.logs.join('\n')).not.toContain(configured);
      } finally {
        fake.setSecretKey(configured);
      }
    });
  });
});

describe('payments not configured (no STRIPE_SECRET_KEY)', () => {
  let bare: TestStack;
  beforeAll(async () => { bare = await startTestStack({ STRIPE_SECRET_KEY: undefined, STRIPE_API_URL: undefined }); });
  afterAll(() => bare.close());

  test.each([
    ['POST', '/api/billing-portal'],
    ['GET', '/api/subscription-status'],
  ])('%s %s → 503 naming STRIPE_SECRET_KEY, with or without a business', async (method, path) => {
    const body = method === 'POST' ? { return_url: 'https://app.example/' } : undefined;
    const org = `unconfigured-${method.toLowerCase()}`;
    const token = await bare.token(org);
    const withoutBusiness = await bare.call(method, path, { token, body });
    expect(withoutBusiness.status).toBe(503);
    expect(withoutBusiness.body).toEqual({ status: 'error', error: expect.stringContaining('STRIPE_SECRET_KEY') });
    await createBusiness(org);
    const withBusiness = await bare.call(method, path, { token, body });
    expect(withBusiness.status).toBe(503);
    expect(withBusiness.body.error).toMatch(/payments are not configured: set STRIPE_SECRET_KEY/);
  });

  test('auth still comes first: 401 without a token', async () => {
    expect((await bare.call('GET', '/api/subscription-status')).status).toBe(401);
  });
});
