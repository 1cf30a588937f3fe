/**
 * GET /organization/{org_id}/members (D8) over the local stack with a controllable clock:
 * a list at most 5 minutes old is served from the cache, an older one is refreshed from the
 * identity provider first, a failed refresh serves the cached list with `stale: true` and
 * the reason (an error only when nothing was ever cached), and a token only reads its own
 * organization's members.
 */
import { getContainer } from '../../functions/container';
import { NOT_LINKED_REASON } from '../../functions/app/organizations/members';
import { startIdpApiFake, type IdpApiFake } from '../../functions/local/fakes/idp-api';
import { deliver, organizationEvent } from '../support/idp-webhooks';
import { startTestStack, type TestStack } from '../support/stack';
import { organizationsOf } from '../../functions/engines/organizations';

let stack: TestStack;
let idp: IdpApiFake;
let nowMs = Date.parse('2026-05-04T09:00:00.000Z');
const MINUTE = 60_000;
const advance = (ms: number) => { nowMs += ms; };
const iso = () => new Date(nowMs).toISOString();

beforeAll(async () => {
  idp = await startIdpApiFake();
  stack = await startTestStack({ IDP_API_URL: idp.url, IDP_SECRET_KEY: idp.secretKey }, { clock: { now: () => new Date(nowMs) } });
});
afterAll(async () => {
  await stack.close();
  await idp.close();
});
beforeEach(() => idp.reset());

/** An organization whose members were cached by its organization.created event, now. */
async function cachedOrganization(slug: string, userIds: string[], name = slug.toUpperCase()) {
  idp.setOrganization({ id: `org_${slug}`, slug, name }, userIds.map((userId) => ({ userId })));
  const res = await deliver(stack, organizationEvent('created', { id: `org_${slug}`, slug, name }));
  expect(res.status).toBe(200);
  idp.reset();
  return { providerOrgId: `org_${slug}`, syncedAt: iso() };
}

const getMembers = async (slug: string, tokenOrg = slug) =>
  stack.call('GET', `/organization/${slug}/members`, { token: await stack.token(tokenOrg) });
const ids = (body: any) => body.members.map((m: any) => m.user_id);

describe('the response (D8)', () => {
  test('{org_id, business_name, members, members_synced_at, stale}', async () => {
    idp.setOrganization({ id: 'org_shape', slug: 'shape', name: 'Shape Co' }, [{ userId: 'user_1', role: 'org:admin', identifier: 'one@shape.example', firstName: 'One', lastName: 'First' }]);
    await deliver(stack, organizationEvent('created', { id: 'org_shape', slug: 'shape', name: 'Shape Co' }));
    const res = await getMembers('shape');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      org_id: 'shape',
      business_name: 'Shape Co',
      members: [{ membership_id: 'orgmem_user_1', user_id: 'user_1', role: 'org:admin', identifier: 'one@shape.example', first_name: 'One', last_name: 'First', image_url: 'https://img.example/user_1' }],
      members_synced_at: iso(),
      stale: false,
    });
  });
});

describe('the 5-minute cache', () => {
  test('fresh (up to 5 minutes old): served from the cache without asking the provider', async () => {
    const { providerOrgId, syncedAt } = await cachedOrganization('fresh', ['a', 'b']);
    idp.addMember(providerOrgId, { userId: 'c' });
    advance(2 * MINUTE);
    expect(ids((await getMembers('fresh')).body)).toEqual(['a', 'b']);
    advance(3 * MINUTE); // exactly 5 minutes: not yet older than 5 minutes
    const res = await getMembers('fresh');
    expect(res.body).toMatchObject({ members_synced_at: syncedAt, stale: false });
    expect(ids(res.body)).toEqual(['a', 'b']);
    expect(idp.requests).toHaveLength(0);
  });

  test('older than 5 minutes: refreshed from the provider first, and the new list is cached', async () => {
    const { providerOrgId } = await cachedOrganization('older', ['a', 'b']);
    idp.addMember(providerOrgId, { userId: 'c' });
    idp.removeMember(providerOrgId, 'a');
    advance(5 * MINUTE + 1000);
    const res = await getMembers('older');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ members_synced_at: iso(), stale: false });
    expect(ids(res.body)).toEqual(['b', 'c']);
    expect(idp.membershipRequests(providerOrgId)).toHaveLength(1);
    // The refreshed list is fresh again: the next read does not ask.
    advance(MINUTE);
    expect(ids((await getMembers('older')).body)).toEqual(['b', 'c']);
    expect(idp.membershipRequests(providerOrgId)).toHaveLength(1);
    expect((await organizationsOf(getContainer()).get('older'))!.members.map((m) => m.user_id)).toEqual(['b', 'c']);
  });

  test('a refresh reads every page of a large organization', async () => {
    const { providerOrgId } = await cachedOrganization('large', ['first']);
    for (let i = 0; i < 240; i++) idp.addMember(providerOrgId, { userId: `user_${String(i).padStart(3, '0')}` });
    advance(10 * MINUTE);
    const res = await getMembers('large');
    expect(res.body.members).toHaveLength(241);
    expect(idp.membershipRequests(providerOrgId).map((r) => r.offset)).toEqual([0, 100, 200]);
  });

  test('refresh failed: the cached list with stale: true and the reason; the next read tries again', async () => {
    const { providerOrgId, syncedAt } = await cachedOrganization('flaky', ['a', 'b']);
    advance(6 * MINUTE);
    idp.down();
    const res = await getMembers('flaky');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      org_id: 'flaky', business_name: 'FLAKY', members: expect.any(Array), members_synced_at: syncedAt,
      stale: true, stale_reason: expect.stringMatching(/identity provider.*HTTP 503/),
    });
    expect(ids(res.body)).toEqual(['a', 'b']);
    // The cache is left as it was.
    expect((await organizationsOf(getContainer()).get('flaky'))!.membersSyncedAt).toBe(syncedAt);
    idp.up();
    idp.addMember(providerOrgId, { userId: 'c' });
    const recovered = await getMembers('flaky');
    expect(recovered.body).toMatchObject({ stale: false, members_synced_at: iso() });
    expect(ids(recovered.body)).toEqual(['a', 'b', 'c']);
  });

  test('refresh failed with no list ever cached: 502', async () => {
    idp.setOrganization({ id: 'org_never', slug: 'never', name: 'Never' }, [{ userId: 'a' }]);
    idp.down();
    // The event links the organization but cannot fetch its members (and answers 502 itself).
    expect((await deliver(stack, organizationEvent('created', { id: 'org_never', slug: 'never', name: 'Never' }))).status).toBe(502);
    const res = await getMembers('never');
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ status: 'error', error: expect.stringMatching(/HTTP 503/) });
    idp.up();
    const later = await getMembers('never');
    expect(later.status).toBe(200);
    expect(ids(later.body)).toEqual(['a']);
  });

  test('a deleted organization serves its empty list, without asking the provider', async () => {
    await cachedOrganization('closed', ['a']);
    await deliver(stack, organizationEvent('deleted', { id: 'org_closed' }));
    advance(30 * MINUTE);
    const res = await getMembers('closed');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ org_id: 'closed', members: [], stale: false });
    expect(idp.requests).toHaveLength(0);
  });

  test('a business created before any provider event: its empty list, stale, saying why', async () => {
    const token = await stack.token('unlinked');
    expect((await stack.call('POST', '/api/business', { token, body: { name: 'Unlinked Shop', url: 'unlinked.example' } })).status).toBe(201);
    const res = await stack.call('GET', '/organization/unlinked/members', { token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ org_id: 'unlinked', business_name: 'Unlinked Shop', members: [], members_synced_at: null, stale: true, stale_reason: NOT_LINKED_REASON });
  });

  test('an organization with no record at all: 404', async () => {
    const res = await getMembers('nobody-here');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ status: 'error', error: expect.stringMatching(/not found/) });
  });
});

describe('organization isolation (D5)', () => {
  test('a token of organization A cannot read organization B\'s members (403), and B\'s list is not fetched', async () => {
    await cachedOrganization('org-a', ['alice']);
    await cachedOrganization('org-b', ['bob']);
    advance(10 * MINUTE);
    const res = await getMembers('org-b', 'org-a');
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ status: 'error', error: expect.any(String) });
    expect(JSON.stringify(res.body)).not.toContain('bob');
    expect(idp.requests).toHaveLength(0);
    expect(ids((await getMembers('org-a')).body)).toEqual(['alice']);
    expect(ids((await getMembers('org-b')).body)).toEqual(['bob']);
  });

  test('no token → 401; a malformed org id in the path → 400', async () => {
    expect((await stack.call('GET', '/organization/org-a/members')).status).toBe(401);
    const bad = await stack.call('GET', '/organization/bad!slug/members', { token: await stack.token('org-a') });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/org_id/);
  });
});
