/**
 * The organization record: one item `ORG#<slug>` / `ORGANIZATION` in the organization's
 * partition (name, the identity provider's organization id, the member cache, the payment
 * provider's customer id). The provider id is indexed on GSI1 (`IDPORG#<id>` /
 * `ORGANIZATION`, beside the `DOMAIN#` and `CDN#` entries of that index), so a membership
 * event naming only the provider id finds its organization in one query.
 *
 * Every write is one single-item UpdateItem that creates the item when missing, so
 * business creation (D11) and provider events (D29) may come in either order and merge.
 * Member lists carry the time their fetch started; a list fetched earlier never replaces
 * one fetched later, and a deleted organization takes no list.
 */
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { OrganizationMember, OrganizationRecord } from '../../core/organizations/members';
import type { OrganizationRepository } from '../../ports';
import { conditionalWrite } from './client';
import { keys } from './keys';
import { queryGsi1First } from './query-all';

/**
 * One single-item update that creates the record when missing: `set` is added to the
 * fields every record has. `members` starts empty unless `set` gives it.
 */
function upsertCommand(table: string, orgSlug: string, at: string, set: string[], values: Record<string, unknown> = {}, names: Record<string, string> = {}, remove = '') {
  const base = ['orgSlug = :slug', '#type = :type', 'createdAt = if_not_exists(createdAt, :at)', 'updatedAt = :at'];
  const setsMembers = set.some((s) => s.startsWith('members '));
  if (!setsMembers) base.push('members = if_not_exists(members, :none)');
  return new UpdateCommand({
    TableName: table,
    Key: keys.organization(orgSlug),
    UpdateExpression: `SET ${[...base, ...set].join(', ')}${remove ? ` REMOVE ${remove}` : ''}`,
    ExpressionAttributeNames: { '#type': 'type', ...names },
    ExpressionAttributeValues: { ':slug': orgSlug, ':type': 'organization', ':at': at, ...(setsMembers ? {} : { ':none': [] }), ...values },
  });
}

export function createOrganizationRepository(db: DynamoDBDocumentClient, table: string): OrganizationRepository {
  const get = async (orgSlug: string): Promise<OrganizationRecord | null> => {
    const { Item } = await db.send(new GetCommand({ TableName: table, Key: keys.organization(orgSlug), ConsistentRead: true }));
    return Item ? toRecord(Item) : null;
  };

  return {
    get,

    async findByProviderId(providerOrgId) {
      const item = await queryGsi1First(db, table, keys.providerOrgIndex(providerOrgId));
      // The index is eventually consistent: read the item itself for its current state.
      return item && typeof item.orgSlug === 'string' ? get(item.orgSlug) : null;
    },

    async linkProvider(orgSlug, { providerOrgId, name, nameUpdatedAt, revive, stripeCustomerId, at }) {
      const index = keys.providerOrgIndex(providerOrgId);
      await db.send(upsertCommand(table, orgSlug, at, [
        'providerOrgId = :pid', 'GSI1PK = :gpk', 'GSI1SK = :gsk', ...(stripeCustomerId ? ['stripeCustomerId = :cus'] : []),
      ], {
        ':pid': providerOrgId, ':gpk': index.GSI1PK, ':gsk': index.GSI1SK, ...(stripeCustomerId ? { ':cus': stripeCustomerId } : {}),
      }, {}, revive ? 'deletedAt' : ''));
      if (name !== undefined) {
        // A name change older than the one stored (a retried or reordered event) is not applied.
        await conditionalWrite(() => db.send(new UpdateCommand({
          TableName: table,
          Key: keys.organization(orgSlug),
          UpdateExpression: nameUpdatedAt === undefined ? 'SET #name = :name' : 'SET #name = :name, nameUpdatedAt = :u',
          ConditionExpression: nameUpdatedAt === undefined ? undefined : 'attribute_not_exists(nameUpdatedAt) OR nameUpdatedAt <= :u',
          ExpressionAttributeNames: { '#name': 'name' },
          ExpressionAttributeValues: nameUpdatedAt === undefined ? { ':name': name } : { ':name': name, ':u': nameUpdatedAt },
        })));
      }
      return (await get(orgSlug))!;
    },

    async mergeBusiness(orgSlug, { businessId, name, at }) {
      await db.send(upsertCommand(table, orgSlug, at, ['businessId = :bid', '#name = if_not_exists(#name, :name)'], { ':bid': businessId, ':name': name }, { '#name': 'name' }));
    },

    saveMembers(orgSlug, list, syncedAt) {
      return conditionalWrite(() => db.send(new UpdateCommand({
        TableName: table,
        Key: keys.organization(orgSlug),
        UpdateExpression: 'SET members = :m, membersSyncedAt = :t, membersTruncated = :tr, updatedAt = :t',
        ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(deletedAt) AND (attribute_not_exists(membersSyncedAt) OR membersSyncedAt <= :t)',
        ExpressionAttributeValues: { ':m': list.members, ':t': syncedAt, ':tr': list.truncated },
      })));
    },

    async markDeleted(orgSlug, at) {
      await db.send(upsertCommand(table, orgSlug, at, ['members = :empty', 'membersSyncedAt = :at', 'membersTruncated = :false', 'deletedAt = :at'], { ':empty': [], ':false': false }));
    },

    async setStripeCustomerId(orgSlug, stripeCustomerId, at) {
      await db.send(upsertCommand(table, orgSlug, at, ['stripeCustomerId = :cid'], { ':cid': stripeCustomerId }));
    },
  };
}

function toRecord(item: Record<string, any>): OrganizationRecord {
  const str = (v: unknown) => (typeof v === 'string' ? v : null);
  return {
    orgSlug: item.orgSlug,
    name: str(item.name),
    providerOrgId: str(item.providerOrgId),
    businessId: str(item.businessId),
    members: Array.isArray(item.members) ? (item.members as OrganizationMember[]) : [],
    membersSyncedAt: str(item.membersSyncedAt),
    membersTruncated: item.membersTruncated === true,
    stripeCustomerId: str(item.stripeCustomerId),
    deletedAt: str(item.deletedAt),
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
  };
}
