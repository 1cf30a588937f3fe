/**
 * The organization record and the webhook receipts against the embedded database: every
 * write creates or merges the one record (business creation and provider events in either
 * order), the provider id finds it through GSI1, an older member list never replaces a newer
 * one, a deleted organization keeps its record with no members, and a receipt is claimed once.
 */
import { createBusinessRepository } from '../../functions/adapters/dynamodb/business-repo';
import { createDocumentClient } from '../../functions/adapters/dynamodb/client';
import { keys } from '../../functions/adapters/dynamodb/keys';
import { createOrganizationRepository } from '../../functions/adapters/dynamodb/organization-repo';
import { createWebhookReceipts, RECEIPT_RETENTION_DAYS } from '../../functions/adapters/dynamodb/webhook-receipt-repo';
import type { OrganizationMember } from '../../functions/core/organizations/members';
import { ensureTable, startEmbeddedDatabase, type EmbeddedDatabase } from '../../functions/local/runtime/database';
import type { OrganizationRepository, WebhookReceipts } from '../../functions/ports';
import { GetCommand } from '@aws-sdk/lib-dynamodb';

const TABLE = 'organization-repo-test';
let database: EmbeddedDatabase;
let repo: OrganizationRepository;
let receipts: WebhookReceipts;
let now = new Date('2026-03-02T10:00:00.000Z');
const db = () => createDocumentClient({ region: 'us-east-1', endpoint: database.endpoint });

beforeAll(async () => {
  database = await startEmbeddedDatabase();
  await ensureTable(database.endpoint, TABLE);
  repo = createOrganizationRepository(db(), TABLE);
  receipts = createWebhookReceipts(db(), TABLE, { now: () => now });
});
afterAll(() => database.close());

const T = (minutes: number) => new Date(Date.parse('2026-03-02T10:00:00.000Z') + minutes * 60_000).toISOString();
const member = (userId: string, role = 'org:member'): OrganizationMember => ({
  membership_id: `orgmem_${userId}`, user_id: userId, role, identifier: `${userId}@example.com`, first_name: null, last_name: null, image_url: null,
});

describe('one record per organization, created by whichever write comes first', () => {
  test('business first, then the provider: the business name stays until the provider names it', async () => {
    await repo.mergeBusiness('acme', { businessId: 'b-1', name: 'Acme Shop', at: T(0) });
    expect(await repo.get('acme')).toEqual({
      orgSlug: 'acme', name: 'Acme Shop', providerOrgId: null, businessId: 'b-1', members: [], membersSyncedAt: null,
      membersTruncated: false, stripeCustomerId: null, deletedAt: null, createdAt: T(0), updatedAt: T(0),
    });
    const linked = await repo.linkProvider('acme', { providerOrgId: 'org_acme', at: T(1) });
    expect(linked).toMatchObject({ name: 'Acme Shop', providerOrgId: 'org_acme', businessId: 'b-1', createdAt: T(0), updatedAt: T(1) });
    expect(await repo.linkProvider('acme', { providerOrgId: 'org_acme', name: 'Acme Inc', at: T(2) })).toMatchObject({ name: 'Acme Inc' });
  });

  test('provider first, then the business: the provider\'s name and members are kept, the business id merged', async () => {
    await repo.linkProvider('globex', { providerOrgId: 'org_globex', name: 'Globex', at: T(0) });
    await repo.saveMembers('globex', { members: [member('u1')], truncated: false }, T(0));
    await repo.mergeBusiness('globex', { businessId: 'b-2', name: 'Globex Store', at: T(1) });
    expect(await repo.get('globex')).toMatchObject({ name: 'Globex', businessId: 'b-2', members: [member('u1')], membersSyncedAt: T(0), createdAt: T(0) });
  });

  test('the payment customer id is one more merged field (created with the record when it is the first write)', async () => {
    await repo.setStripeCustomerId('initech', 'cus_123', T(0));
    expect(await repo.get('initech')).toMatchObject({ orgSlug: 'initech', stripeCustomerId: 'cus_123', members: [], name: null });
    await repo.mergeBusiness('initech', { businessId: 'b-3', name: 'Initech', at: T(1) });
    expect(await repo.get('initech')).toMatchObject({ stripeCustomerId: 'cus_123', businessId: 'b-3', name: 'Initech' });
  });

  test('an unknown slug has no record', async () => {
    expect(await repo.get('nobody')).toBeNull();
  });
});

describe('lookup by the provider\'s organization id (GSI1, IDPORG# prefix)', () => {
  test('finds the record; an unknown id finds nothing; the index entry is the record\'s own GSI1 key', async () => {
    await repo.linkProvider('hooli', { providerOrgId: 'org_hooli', name: 'Hooli', at: T(0) });
    expect(await repo.findByProviderId('org_hooli')).toMatchObject({ orgSlug: 'hooli', name: 'Hooli' });
    expect(await repo.findByProviderId('org_nobody')).toBeNull();
    const { Item } = await db().send(new GetCommand({ TableName: TABLE, Key: keys.organization('hooli') }));
    expect(Item).toMatchObject({ GSI1PK: 'IDPORG#org_hooli', GSI1SK: 'ORGANIZATION' });
  });

  test('a new provider id relinks the slug: the old id no longer finds it', async () => {
    await repo.linkProvider('umbrella', { providerOrgId: 'org_old', at: T(0) });
    await repo.linkProvider('umbrella', { providerOrgId: 'org_new', at: T(1) });
    expect(await repo.findByProviderId('org_new')).toMatchObject({ orgSlug: 'umbrella' });
    expect(await repo.findByProviderId('org_old')).toBeNull();
  });

  test('the index\'s other entries (store domains) are never taken for an organization, nor the reverse', async () => {
    const businesses = createBusinessRepository(db(), TABLE);
    await businesses.create({ id: 'b-9', orgSlug: 'shared', name: 'Shared', url: 'https://org-shared.example', domain: 'org-shared.example', faviconUrl: null, createdAt: T(0), updatedAt: T(0) });
    await repo.linkProvider('shared', { providerOrgId: 'org-shared.example', at: T(0) });
    expect(await repo.findByProviderId('org-shared.example')).toMatchObject({ orgSlug: 'shared' });
    expect(await businesses.findByDomain('org-shared.example')).toMatchObject({ id: 'b-9' });
    expect(await repo.findByProviderId('org-other.example')).toBeNull();
  });
});

describe('names ordered by the provider\'s updated_at', () => {
  test('an older rename (a retried or reordered event) is not applied; a newer or equal one is', async () => {
    await repo.linkProvider('wayne', { providerOrgId: 'org_wayne', name: 'Wayne 2', nameUpdatedAt: 2000, at: T(0) });
    await repo.linkProvider('wayne', { providerOrgId: 'org_wayne', name: 'Wayne 1', nameUpdatedAt: 1000, at: T(1) });
    expect((await repo.get('wayne'))!.name).toBe('Wayne 2');
    await repo.linkProvider('wayne', { providerOrgId: 'org_wayne', name: 'Wayne 3', nameUpdatedAt: 3000, at: T(2) });
    expect((await repo.get('wayne'))!.name).toBe('Wayne 3');
  });
});

describe('member lists', () => {
  test('a list fetched earlier never replaces one fetched later', async () => {
    await repo.linkProvider('stark', { providerOrgId: 'org_stark', at: T(0) });
    expect(await repo.saveMembers('stark', { members: [member('a'), member('b')], truncated: false }, T(5))).toBe(true);
    expect(await repo.saveMembers('stark', { members: [member('a')], truncated: false }, T(4))).toBe(false);
    expect(await repo.get('stark')).toMatchObject({ members: [member('a'), member('b')], membersSyncedAt: T(5) });
    expect(await repo.saveMembers('stark', { members: [member('a', 'org:admin')], truncated: true }, T(6))).toBe(true);
    expect(await repo.get('stark')).toMatchObject({ members: [member('a', 'org:admin')], membersSyncedAt: T(6), membersTruncated: true });
  });

  test('no list is stored for an organization without a record', async () => {
    expect(await repo.saveMembers('ghost', { members: [member('a')], truncated: false }, T(0))).toBe(false);
    expect(await repo.get('ghost')).toBeNull();
  });

  test('deletion empties the members and keeps the record; no list is taken until it is revived', async () => {
    await repo.linkProvider('oscorp', { providerOrgId: 'org_oscorp', name: 'Oscorp', at: T(0) });
    await repo.saveMembers('oscorp', { members: [member('a')], truncated: false }, T(0));
    await repo.markDeleted('oscorp', T(1));
    expect(await repo.get('oscorp')).toMatchObject({ name: 'Oscorp', providerOrgId: 'org_oscorp', members: [], membersSyncedAt: T(1), deletedAt: T(1) });
    expect(await repo.saveMembers('oscorp', { members: [member('a')], truncated: false }, T(2))).toBe(false);
    expect(await repo.linkProvider('oscorp', { providerOrgId: 'org_oscorp', revive: true, at: T(3) })).toMatchObject({ deletedAt: null });
    expect(await repo.saveMembers('oscorp', { members: [member('b')], truncated: false }, T(3))).toBe(true);
  });

  test('deleting an organization never seen creates its record, empty', async () => {
    await repo.markDeleted('gone-co', T(0));
    expect(await repo.get('gone-co')).toMatchObject({ orgSlug: 'gone-co', members: [], deletedAt: T(0), membersSyncedAt: T(0) });
  });
});

describe('webhook receipts', () => {
  test('recorded once: a second record is refused; seen afterwards', async () => {
    expect(await receipts.seen('idp', 'msg_1')).toBe(false);
    expect(await receipts.record('idp', 'msg_1', { eventType: 'organization.created', processedAt: T(0) })).toBe(true);
    expect(await receipts.record('idp', 'msg_1', { eventType: 'organization.created', processedAt: T(1) })).toBe(false);
    expect(await receipts.seen('idp', 'msg_1')).toBe(true);
    expect(await receipts.seen('other', 'msg_1')).toBe(false);
  });

  test('two concurrent records of one id: exactly one wins', async () => {
    const results = await Promise.all([1, 2, 3].map(() => receipts.record('idp', 'msg_race', { eventType: 'x', processedAt: T(0) })));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  test('an expired receipt is not seen and may be recorded again', async () => {
    await receipts.record('idp', 'msg_old', { eventType: 'x', processedAt: T(0) });
    const saved = now;
    now = new Date(saved.getTime() + (RECEIPT_RETENTION_DAYS * 86_400 + 1) * 1000);
    try {
      expect(await receipts.seen('idp', 'msg_old')).toBe(false);
      expect(await receipts.record('idp', 'msg_old', { eventType: 'x', processedAt: now.toISOString() })).toBe(true);
    } finally {
      now = saved;
    }
  });
});
