/**
 * POST /webhooks/idp over the local stack, with the identity provider's membership API
 * played by its local fake: each event type of the spec's table, the three signature header
 * families, forged / tampered / stale deliveries, replays, malformed bodies, and a provider
 * outage (5xx, nothing recorded, the sender's retry succeeds).
 */
import { getContainer } from '../../functions/container';
import { startIdpApiFake, type IdpApiFake } from '../../functions/local/fakes/idp-api';
import { deliver, membershipEvent, newMessageId, organizationEvent, signedHeaders } from '../support/idp-webhooks';
import { startTestStack, type TestStack } from '../support/stack';
import { webhookReceiptsOf } from '../../functions/engines/idp';
import { organizationsOf } from '../../functions/engines/organizations';

let stack: TestStack;
let idp: IdpApiFake;
beforeAll(async () => {
  idp = await startIdpApiFake();
  stack = await startTestStack({ IDP_API_URL: idp.url, IDP_SECRET_KEY: idp.secretKey });
});
afterAll(async () => {
  await stack.close();
  await idp.close();
});
beforeEach(() => idp.reset());

const record = (slug: string) => organizationsOf(getContainer()).get(slug);
const userIds = async (slug: string) => (await record(slug))!.members.map((m) => m.user_id);

describe('each event type of the spec\'s table', () => {
  test('organization.created creates the record, fetches and stores all members, sets members_synced_at', async () => {
    idp.setOrganization({ id: 'org_acme', slug: 'acme', name: 'Acme' }, [
      { userId: 'user_ada', role: 'org:admin', identifier: 'ada@acme.example', firstName: 'Ada', lastName: 'L' },
      { userId: 'user_bob' },
    ]);
    const before = Date.now();
    const res = await deliver(stack, organizationEvent('created', { id: 'org_acme', slug: 'acme', name: 'Acme' }));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'success', event_type: 'organization.created' });
    const acme = (await record('acme'))!;
    expect(acme).toMatchObject({ orgSlug: 'acme', name: 'Acme', providerOrgId: 'org_acme', deletedAt: null });
    expect(acme.members).toEqual([
      { membership_id: 'orgmem_user_ada', user_id: 'user_ada', role: 'org:admin', identifier: 'ada@acme.example', first_name: 'Ada', last_name: 'L', image_url: 'https://img.example/user_ada' },
      { membership_id: 'orgmem_user_bob', user_id: 'user_bob', role: 'org:member', identifier: 'user_bob@example.com', first_name: null, last_name: null, image_url: 'https://img.example/user_bob' },
    ]);
    expect(Date.parse(acme.membersSyncedAt!)).toBeGreaterThanOrEqual(before - 1000);
    expect(idp.membershipRequests('org_acme')).toHaveLength(1);
  });

  test('organization.updated renames the organization and refreshes the members', async () => {
    idp.setOrganization({ id: 'org_upd', slug: 'upd', name: 'Upd' }, [{ userId: 'u1' }]);
    await deliver(stack, organizationEvent('created', { id: 'org_upd', slug: 'upd', name: 'Upd' }));
    idp.addMember('org_upd', { userId: 'u2' });
    const res = await deliver(stack, organizationEvent('updated', { id: 'org_upd', slug: 'upd', name: 'Upd Renamed', updated_at: 2000 }));
    expect(res.body).toEqual({ status: 'success', event_type: 'organization.updated' });
    expect(await record('upd')).toMatchObject({ name: 'Upd Renamed' });
    expect(await userIds('upd')).toEqual(['u1', 'u2']);
    // An older rename arriving late (a retry, reordering) does not undo the newer one.
    await deliver(stack, organizationEvent('updated', { id: 'org_upd', slug: 'upd', name: 'Upd Old', updated_at: 1000 }));
    expect((await record('upd'))!.name).toBe('Upd Renamed');
  });

  test('the payment customer is linked from the organization\'s public metadata; a malformed id is a 400 naming it', async () => {
    idp.setOrganization({ id: 'org_pay', slug: 'pay', name: 'Pay' }, [{ userId: 'u1' }]);
    await deliver(stack, organizationEvent('created', { id: 'org_pay', slug: 'pay', name: 'Pay' }));
    expect((await record('pay'))!.stripeCustomerId ?? null).toBeNull();
    const res = await deliver(stack, organizationEvent('updated', { id: 'org_pay', slug: 'pay', name: 'Pay', public_metadata: { stripe_customer_id: 'cus_Pay123', plan: 'pro' } }));
    expect(res.status).toBe(200);
    expect(await record('pay')).toMatchObject({ stripeCustomerId: 'cus_Pay123' });
    const bad = await deliver(stack, organizationEvent('updated', { id: 'org_pay', slug: 'pay', public_metadata: { stripe_customer_id: 'sk_live_oops' } }));
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/data\.public_metadata\.stripe_customer_id/);
    expect(await record('pay')).toMatchObject({ stripeCustomerId: 'cus_Pay123' });
  });

  test('organization.deleted empties the member list and keeps the record; later membership events fetch nothing', async () => {
    idp.setOrganization({ id: 'org_del', slug: 'del', name: 'Del' }, [{ userId: 'u1' }]);
    await deliver(stack, organizationEvent('created', { id: 'org_del', slug: 'del', name: 'Del' }));
    idp.reset();
    // Clerk's deletion payload carries only the id.
    const res = await deliver(stack, { type: 'organization.deleted', data: { deleted: true, id: 'org_del', object: 'organization' } });
    expect(res.body).toEqual({ status: 'success', event_type: 'organization.deleted' });
    expect(await record('del')).toMatchObject({ name: 'Del', providerOrgId: 'org_del', members: [], deletedAt: expect.any(String) });
    const late = await deliver(stack, membershipEvent('deleted', { id: 'orgmem_u1', organization: { id: 'org_del', slug: 'del' } }));
    expect(late.status).toBe(200);
    expect(late.body.note).toMatch(/deleted/);
    expect(idp.requests).toHaveLength(0);
    expect((await record('del'))!.members).toEqual([]);
  });

  test.each(['created', 'updated', 'deleted'] as const)('organizationMembership.%s fetches a fresh list and updates the cache', async (kind) => {
    const org = { id: `org_m_${kind}`, slug: `m-${kind}`, name: `M ${kind}` };
    idp.setOrganization(org, [{ userId: 'owner', role: 'org:admin' }, { userId: 'member' }]);
    await deliver(stack, organizationEvent('created', org));
    const data = idp.membership(org.id, 'member');
    if (kind === 'created') idp.addMember(org.id, { userId: 'newbie' });
    if (kind === 'updated') idp.setRole(org.id, 'member', 'org:admin');
    if (kind === 'deleted') idp.removeMember(org.id, 'member');
    const res = await deliver(stack, membershipEvent(kind, data));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'success', event_type: `organizationMembership.${kind}` });
    const members = (await record(org.slug))!.members;
    if (kind === 'created') expect(members.map((m) => m.user_id)).toEqual(['owner', 'member', 'newbie']);
    if (kind === 'updated') expect(members.find((m) => m.user_id === 'member')!.role).toBe('org:admin');
    if (kind === 'deleted') expect(members.map((m) => m.user_id)).toEqual(['owner']);
    expect(idp.membershipRequests(org.id)).toHaveLength(2);
  });

  test('an organization the service has never seen is created by any event naming it (D29)', async () => {
    idp.setOrganization({ id: 'org_new', slug: 'fresh-co', name: 'Fresh Co' }, [{ userId: 'u1' }]);
    expect(await record('fresh-co')).toBeNull();
    const res = await deliver(stack, membershipEvent('created', idp.membership('org_new', 'u1')));
    expect(res.status).toBe(200);
    expect(await record('fresh-co')).toMatchObject({ name: 'Fresh Co', providerOrgId: 'org_new', members: [expect.objectContaining({ user_id: 'u1' })] });
    // Later events naming only the provider id find it (GSI1).
    idp.addMember('org_new', { userId: 'u2' });
    await deliver(stack, membershipEvent('created', { id: 'orgmem_u2', organization: { id: 'org_new' } }));
    expect(await userIds('fresh-co')).toEqual(['u1', 'u2']);
  });

  test('members are read across several pages of the provider\'s API', async () => {
    const members = Array.from({ length: 230 }, (_, i) => ({ userId: `user_${String(i).padStart(3, '0')}` }));
    idp.setOrganization({ id: 'org_many', slug: 'many', name: 'Many' }, members);
    expect((await deliver(stack, organizationEvent('created', { id: 'org_many', slug: 'many', name: 'Many' }))).status).toBe(200);
    expect(await userIds('many')).toEqual(members.map((m) => m.userId));
    expect(idp.membershipRequests('org_many').map((r) => r.offset)).toEqual([0, 100, 200]);
  });

  test('other event types are acknowledged and ignored (200 with a note), nothing fetched', async () => {
    for (const type of ['user.created', 'session.created', 'organizationInvitation.accepted']) {
      const res = await deliver(stack, { type, data: { id: 'x' } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'success', event_type: type, note: expect.stringMatching(/not handled.*ignored/) });
    }
    expect(idp.requests).toHaveLength(0);
  });

  test('an organization the provider no longer knows (404) gets an empty member list, with a note', async () => {
    idp.setOrganization({ id: 'org_vanish', slug: 'vanish', name: 'Vanish' }, [{ userId: 'u1' }]);
    await deliver(stack, organizationEvent('created', { id: 'org_vanish', slug: 'vanish', name: 'Vanish' }));
    idp.deleteOrganization('org_vanish');
    const res = await deliver(stack, membershipEvent('deleted', { id: 'orgmem_u1', organization: { id: 'org_vanish', slug: 'vanish' } }));
    expect(res.status).toBe(200);
    expect(res.body.note).toMatch(/404/);
    expect((await record('vanish'))!.members).toEqual([]);
  });
});

describe('business creation and provider events merge into one record (D11)', () => {
  test('business first: the record exists with the business id; the provider\'s event links and fills it', async () => {
    const token = await stack.token('merge-a');
    const created = await stack.call('POST', '/api/business', { token, body: { name: 'Merge A Shop', url: 'merge-a.example' } });
    expect(created.status).toBe(201);
    expect(await record('merge-a')).toMatchObject({ businessId: created.body.business.id, name: 'Merge A Shop', providerOrgId: null, members: [] });
    idp.setOrganization({ id: 'org_merge_a', slug: 'merge-a', name: 'Merge A' }, [{ userId: 'u1' }]);
    await deliver(stack, organizationEvent('created', { id: 'org_merge_a', slug: 'merge-a', name: 'Merge A' }));
    expect(await record('merge-a')).toMatchObject({ businessId: created.body.business.id, name: 'Merge A', providerOrgId: 'org_merge_a', members: [expect.objectContaining({ user_id: 'u1' })] });
  });

  test('events first: business creation merges its id and keeps the provider\'s name and members', async () => {
    idp.setOrganization({ id: 'org_merge_b', slug: 'merge-b', name: 'Merge B' }, [{ userId: 'u1' }]);
    await deliver(stack, organizationEvent('created', { id: 'org_merge_b', slug: 'merge-b', name: 'Merge B' }));
    const created = await stack.call('POST', '/api/business', { token: await stack.token('merge-b'), body: { name: 'Merge B Shop', url: 'merge-b.example' } });
    expect(created.status).toBe(201);
    expect(await record('merge-b')).toMatchObject({ businessId: created.body.business.id, name: 'Merge B', members: [expect.objectContaining({ user_id: 'u1' })] });
  });
});

describe('signatures (D27)', () => {
  const org = { id: 'org_sig', slug: 'sig', name: 'Sig' };
  beforeEach(() => idp.setOrganization(org, [{ userId: 'u1' }]));
  const body = JSON.stringify(organizationEvent('updated', org));

  test.each(['hook', 'svix', 'webhook'] as const)('the %s-* header family is verified and processed', async (family) => {
    const res = await stack.call('POST', '/webhooks/idp', { rawBody: body, headers: signedHeaders(body, { family }) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'success', event_type: 'organization.updated' });
    expect(idp.membershipRequests('org_sig')).toHaveLength(1);
  });

  test('a signature made with another secret → 401, nothing processed', async () => {
    const forged = signedHeaders(body, { secret: `whsec_${Buffer.from('not-the-signing-secret').toString('base64')}` });
    const res = await stack.call('POST', '/webhooks/idp', { rawBody: body, headers: forged });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ status: 'error', error: expect.stringMatching(/invalid webhook signature/) });
    expect(idp.requests).toHaveLength(0);
  });

  test('a body changed after signing → 401; a signature of another id → 401', async () => {
    const headers = signedHeaders(body);
    expect((await stack.call('POST', '/webhooks/idp', { rawBody: body.replace('"Sig"', '"Evil"'), headers })).status).toBe(401);
    expect((await stack.call('POST', '/webhooks/idp', { rawBody: body, headers: { ...headers, 'hook-id': newMessageId() } })).status).toBe(401);
    expect((await stack.call('POST', '/webhooks/idp', { rawBody: body, headers: { ...headers, 'hook-signature': 'v1,AAAA' } })).status).toBe(401);
    expect(idp.requests).toHaveLength(0);
  });

  test('a timestamp outside the 5-minute tolerance → 401 (past and future), even correctly signed', async () => {
    for (const offsetMs of [-6 * 60_000, 6 * 60_000]) {
      const res = await stack.call('POST', '/webhooks/idp', { rawBody: body, headers: signedHeaders(body, { at: new Date(Date.now() + offsetMs) }) });
      expect(res.status).toBe(401);
      expect(res.body.error).toMatch(/timestamp/i);
    }
    // Within the tolerance it is accepted.
    expect((await stack.call('POST', '/webhooks/idp', { rawBody: body, headers: signedHeaders(body, { at: new Date(Date.now() - 4 * 60_000) }) })).status).toBe(200);
  });

  test('missing or incomplete signature headers → 400 naming them', async () => {
    const headers = signedHeaders(body);
    for (const drop of [['hook-id', 'hook-timestamp', 'hook-signature'], ['hook-signature'], ['hook-timestamp']]) {
      const partial = Object.fromEntries(Object.entries(headers).filter(([k]) => !drop.includes(k)));
      const res = await stack.call('POST', '/webhooks/idp', { rawBody: body, headers: partial });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/hook-id, hook-timestamp and hook-signature/);
    }
    expect(idp.requests).toHaveLength(0);
  });
});

describe('replays and retries', () => {
  test('the same message id delivered twice is processed once; the second is acknowledged as a duplicate', async () => {
    idp.setOrganization({ id: 'org_dup', slug: 'dup', name: 'Dup' }, [{ userId: 'u1' }]);
    const event = organizationEvent('created', { id: 'org_dup', slug: 'dup', name: 'Dup' });
    const id = newMessageId();
    const first = await deliver(stack, event, { id });
    expect(first.body).toEqual({ status: 'success', event_type: 'organization.created' });
    idp.addMember('org_dup', { userId: 'u2' });
    // The sender's retry of the same message: a new timestamp and signature, the same id.
    const again = await deliver(stack, event, { id, family: 'svix' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ status: 'success', event_type: 'organization.created', duplicate: true });
    expect(idp.membershipRequests('org_dup')).toHaveLength(1);
    expect(await userIds('dup')).toEqual(['u1']);
    // A new message id is a new event.
    await deliver(stack, event);
    expect(await userIds('dup')).toEqual(['u1', 'u2']);
  });

  test('provider down → 502 and the id is not recorded; the sender\'s later retry with the same id succeeds', async () => {
    idp.setOrganization({ id: 'org_down', slug: 'down', name: 'Down' }, [{ userId: 'u1' }, { userId: 'u2' }]);
    const event = organizationEvent('created', { id: 'org_down', slug: 'down', name: 'Down' });
    const id = newMessageId();
    idp.down();
    const failed = await deliver(stack, event, { id });
    expect(failed.status).toBe(502);
    expect(failed.body).toEqual({ status: 'error', error: expect.stringMatching(/identity provider.*HTTP 503/) });
    expect(await webhookReceiptsOf(getContainer()).seen('idp', id)).toBe(false);
    expect((await record('down'))!.membersSyncedAt).toBeNull();
    idp.up();
    const retried = await deliver(stack, event, { id });
    expect(retried.status).toBe(200);
    expect(retried.body).toEqual({ status: 'success', event_type: 'organization.created' });
    expect(await userIds('down')).toEqual(['u1', 'u2']);
    expect(await webhookReceiptsOf(getContainer()).seen('idp', id)).toBe(true);
  });

  test('a brief provider hiccup (one 503) is absorbed by the client\'s own retry', async () => {
    idp.setOrganization({ id: 'org_blip', slug: 'blip', name: 'Blip' }, [{ userId: 'u1' }]);
    idp.failNext(503);
    const res = await deliver(stack, organizationEvent('created', { id: 'org_blip', slug: 'blip', name: 'Blip' }));
    expect(res.status).toBe(200);
    expect(idp.membershipRequests('org_blip').map((r) => r.status)).toEqual([503, 200]);
  });

  test('identity provider not configured → 503 naming the settings, id not recorded', async () => {
    const container = getContainer();
    // The directory reads the settings per call: take them away for this one delivery.
    const configured = container.config.idp;
    container.config.idp = {};
    try {
      const id = newMessageId();
      const res = await deliver(stack, organizationEvent('created', { id: 'org_nc', slug: 'nc', name: 'NC' }), { id });
      expect(res.status).toBe(503);
      expect(res.body.error).toMatch(/IDP_API_URL and IDP_SECRET_KEY/);
      expect(await webhookReceiptsOf(container).seen('idp', id)).toBe(false);
    } finally {
      container.config.idp = configured;
    }
  });
});

describe('malformed bodies → 400 naming the problem, nothing processed', () => {
  test('a correctly signed body that is not JSON', async () => {
    for (const raw of ['not json', '{"type": "organization.created",', '']) {
      const res = await deliver(stack, raw);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ status: 'error', error: expect.stringMatching(/JSON/) });
    }
  });

  test.each([
    ['no type', { data: { id: 'org_x', slug: 'x' } }, /type/],
    ['type not a string', { type: 42, data: {} }, /type/],
    ['no data', { type: 'organization.created' }, /invalid event: data: is required/],
    ['data not an object', { type: 'organization.created', data: 'org_x' }, /invalid event: data/],
    ['a JSON array', [1, 2], /invalid event/],
    ['organization.created without data.id', { type: 'organization.created', data: { slug: 'x' } }, /data\.id: is required/],
    ['organization.created without data.slug', { type: 'organization.created', data: { id: 'org_x' } }, /data\.slug: is required/],
    ['a slug that is no organization slug', { type: 'organization.created', data: { id: 'org_x', slug: 'a b/c' } }, /data\.slug: must be an organization slug/],
    ['organization.updated without data.id', { type: 'organization.updated', data: { name: 'X' } }, /data\.id/],
    ['membership without data.organization', { type: 'organizationMembership.created', data: { id: 'orgmem_1' } }, /data\.organization: is required/],
    ['membership without data.organization.id', { type: 'organizationMembership.created', data: { organization: { slug: 'x' } } }, /data\.organization\.id/],
    ['membership of an unknown organization without its slug', { type: 'organizationMembership.created', data: { organization: { id: 'org_unseen' } } }, /data\.organization\.slug: required for an organization this service has not seen/],
    ['organization.updated of an unknown organization without its slug', { type: 'organization.updated', data: { id: 'org_unseen', name: 'X' } }, /data\.slug: required/],
  ])('%s', async (_name, event, message) => {
    const res = await deliver(stack, event);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ status: 'error', error: expect.stringMatching(message) });
    expect(idp.requests).toHaveLength(0);
  });

  test('a malformed message is not recorded: once corrected under a new id it is processed', async () => {
    idp.setOrganization({ id: 'org_fix', slug: 'fix', name: 'Fix' }, [{ userId: 'u1' }]);
    const id = newMessageId();
    expect((await deliver(stack, { type: 'organization.created', data: { id: 'org_fix' } }, { id })).status).toBe(400);
    expect(await webhookReceiptsOf(getContainer()).seen('idp', id)).toBe(false);
    expect((await deliver(stack, organizationEvent('created', { id: 'org_fix', slug: 'fix', name: 'Fix' }))).status).toBe(200);
  });

  test('organization.deleted of an organization never seen, without a slug: acknowledged, nothing to do', async () => {
    const res = await deliver(stack, { type: 'organization.deleted', data: { deleted: true, id: 'org_never' } });
    expect(res.status).toBe(200);
    expect(res.body.note).toMatch(/nothing to delete/);
  });
});
