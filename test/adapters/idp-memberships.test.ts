/**
 * The identity provider's membership client against the local fake of its API (Clerk's
 * Backend API shape): bearer key, pagination to the end, 404 as "no such organization",
 * retries on 5xx, no retry on refused credentials, the key never in an error, the cap.
 */
import { createIdpDirectory } from '../../functions/adapters/external/idp/memberships';
import { ProviderNotConfiguredError, UpstreamError } from '../../functions/core/errors';
import { startIdpApiFake, type IdpApiFake } from '../../functions/local/fakes/idp-api';

let fake: IdpApiFake;
beforeAll(async () => { fake = await startIdpApiFake(); });
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const noWait = { sleep: async () => undefined };
const client = (overrides: Partial<Parameters<typeof createIdpDirectory>[0]> = {}) =>
  createIdpDirectory({ settings: () => ({ apiUrl: fake.url, secretKey: fake.secretKey }), retry: noWait, ...overrides });
const users = (n: number, prefix = 'user_') => Array.from({ length: n }, (_, i) => ({ userId: `${prefix}${String(i).padStart(3, '0')}` }));

test('lists every member across pages, in the provider\'s order, in the stored shape', async () => {
  fake.setOrganization({ id: 'org_big', slug: 'big', name: 'Big' }, [
    { userId: 'user_admin', role: 'org:admin', identifier: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace', imageUrl: 'https://img.example/ada' },
    ...users(249),
  ]);
  const list = await client().listMembers('org_big');
  expect(list!.truncated).toBe(false);
  expect(list!.members).toHaveLength(250);
  expect(list!.members[0]).toEqual({
    membership_id: 'orgmem_user_admin', user_id: 'user_admin', role: 'org:admin', identifier: 'ada@example.com',
    first_name: 'Ada', last_name: 'Lovelace', image_url: 'https://img.example/ada',
  });
  expect(list!.members[249].user_id).toBe('user_248');
  const pages = fake.membershipRequests('org_big');
  expect(pages.map((r) => [r.limit, r.offset])).toEqual([[100, 0], [100, 100], [100, 200]]);
  expect(pages.every((r) => r.authorized)).toBe(true);
});

test('an organization without members is an empty list after one request', async () => {
  fake.setOrganization({ id: 'org_empty', slug: 'empty', name: 'Empty' }, []);
  expect(await client().listMembers('org_empty')).toEqual({ members: [], truncated: false });
  expect(fake.membershipRequests('org_empty')).toHaveLength(1);
});

test('an organization the provider does not know is null (404), not an error', async () => {
  expect(await client().listMembers('org_missing')).toBeNull();
});

test('5xx answers are retried; a provider that stays down is an UpstreamError naming the status', async () => {
  fake.setOrganization({ id: 'org_r', slug: 'r', name: 'R' }, users(3));
  fake.failNext(503, 2);
  expect((await client().listMembers('org_r'))!.members).toHaveLength(3);
  expect(fake.membershipRequests('org_r').map((r) => r.status)).toEqual([503, 503, 200]);

  fake.down();
  const err = await client().listMembers('org_r').catch((e) => e);
  expect(err).toBeInstanceOf(UpstreamError);
  expect(err.message).toMatch(/HTTP 503.*after 3 attempts/);
});

test('a refused key is not retried, and the key never appears in the error', async () => {
  fake.setOrganization({ id: 'org_k', slug: 'k', name: 'K' }, users(1));
  const wrongKey = 'sk_test_wrong_key_value';
  const err = await client({ settings: () => ({ apiUrl: fake.url, secretKey: wrongKey }) }).listMembers('org_k').catch((e) => e);
  expect(err).toBeInstanceOf(UpstreamError);
  expect(err.message).toMatch(/HTTP 403/);
  expect(err.message).not.toContain(wrongKey);
  expect(fake.membershipRequests('org_k')).toHaveLength(1);
});

test('a network failure (nothing listening) is an UpstreamError after the retries', async () => {
  const err = await client({ settings: () => ({ apiUrl: 'http://127.0.0.1:9/v1', secretKey: 'sk_x_1234' }) }).listMembers('org_x').catch((e) => e);
  expect(err).toBeInstanceOf(UpstreamError);
  expect(err.message).toMatch(/network error/);
});

test('not configured: a clear ProviderNotConfiguredError naming both settings, and no request', async () => {
  for (const settings of [{}, { apiUrl: fake.url }, { secretKey: 'sk' }]) {
    const err = await client({ settings: () => settings }).listMembers('org_x').catch((e) => e);
    expect(err).toBeInstanceOf(ProviderNotConfiguredError);
    expect(err.message).toMatch(/IDP_API_URL and IDP_SECRET_KEY/);
  }
  expect(fake.requests).toHaveLength(0);
});

test('the list is capped: past the cap the first members are kept and it is marked truncated', async () => {
  fake.setOrganization({ id: 'org_cap', slug: 'cap', name: 'Cap' }, users(25));
  const list = await client({ pageSize: 10, maxMembers: 15 }).listMembers('org_cap');
  expect(list!.truncated).toBe(true);
  expect(list!.members.map((m) => m.user_id)).toEqual(users(15).map((u) => u.userId));
  expect(fake.membershipRequests('org_cap')).toHaveLength(2);
});

test('a malformed answer is an UpstreamError naming what is wrong', async () => {
  const answers: unknown[] = [{ items: [] }, { data: [], total_count: 'x' }, { data: [{ id: 'm1', role: 'r' }], total_count: 1 }];
  for (const answer of answers) {
    const fetchImpl = async () => ({ status: 200, headers: { get: () => null }, text: async () => JSON.stringify(answer) });
    const err = await client({ fetchImpl }).listMembers('org_m').catch((e) => e);
    expect(err).toBeInstanceOf(UpstreamError);
    expect(err.message).toMatch(/malformed membership list: (no data array|no total_count|data\[0\]\.public_user_data\.user_id is missing)/);
  }
});

test('a member listed twice (the list shifted between pages) is kept once', async () => {
  const page = (offset: number) => ({
    data: (offset === 0 ? ['a', 'b'] : ['b', 'c']).map((u) => ({ id: `orgmem_${u}`, role: 'org:member', public_user_data: { user_id: u } })),
    total_count: 4,
  });
  const fetchImpl = async (url: string) => ({ status: 200, headers: { get: () => null }, text: async () => JSON.stringify(page(Number(new URL(url).searchParams.get('offset')))) });
  const list = await client({ fetchImpl, pageSize: 2 }).listMembers('org_shift');
  expect(list!.members.map((m) => m.user_id)).toEqual(['a', 'b', 'c']);
});
