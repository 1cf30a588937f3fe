/**
 * GSI1 entries of CDN distribution domains: the AI-site item of a business carries
 * `GSI1PK/GSI1SK = keys.distributionIndex(domain)`, so a request's Host (the distribution
 * domain) finds its organization and the distribution's origins in one index query.
 * Used by the local CDN proxy, the stand-in for CloudFront's own host → distribution map.
 *
 * Alias items (connected custom domains) also carry `GSI2PK = CDNALIASES#<org>`, `GSI2SK =
 * <domain>`, so every alias of an organization is found in one GSI2 query (to re-point their
 * store origin with the distribution's, Part 2 of the domain connection).
 */
import { PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { DistributionRoute } from '../../core/proxy/types';
import type { DistributionIndex } from '../../ports';
import { keys } from './keys';
import { queryAll, queryGsi1First } from './query-all';

/** GSI2 key of an organization's alias items (a sparse listing: nothing else uses this prefix). */
const aliasListing = (orgSlug: string, domain: string) => ({ GSI2PK: `CDNALIASES#${orgSlug}`, GSI2SK: domain });

/** Marks the AI-site item of `orgSlug` as the owner of `domain` (idempotent; the item must exist). */
export async function indexDistributionDomain(db: DynamoDBDocumentClient, table: string, orgSlug: string, domain: string): Promise<void> {
  const index = keys.distributionIndex(domain);
  await db.send(new UpdateCommand({
    TableName: table,
    Key: keys.aiSite(orgSlug),
    UpdateExpression: 'SET GSI1PK = :pk, GSI1SK = :sk',
    ConditionExpression: 'attribute_exists(PK)',
    ExpressionAttributeValues: { ':pk': index.GSI1PK, ':sk': index.GSI1SK },
  }));
}

/** The organization whose distribution has `domain` (any case, port ignored), or null. */
export async function findOrgByDistributionDomain(db: DynamoDBDocumentClient, table: string, domain: string): Promise<DistributionRoute | null> {
  const name = domain.trim().replace(/:\d+$/, '').replace(/\.$/, '');
  if (!name) return null;
  const item = await queryGsi1First(db, table, keys.distributionIndex(name));
  if (!item || typeof item.orgSlug !== 'string') return null;
  return {
    orgSlug: item.orgSlug,
    distributionId: String(item.cdnDistributionId ?? ''),
    storeOrigin: String(item.cdnStoreOrigin ?? ''),
    aiSiteHost: String(item.cdnAiSiteHost ?? ''),
  };
}

/**
 * A further host of a distribution (a connected custom domain): its own item
 * (`CDNALIAS#<domain>`), carrying the same GSI1 key shape and route fields as the AI-site
 * item, so `findOrgByDistributionDomain` finds it the same way. Idempotent (a put).
 */
export async function indexDistributionAlias(db: DynamoDBDocumentClient, table: string, route: DistributionRoute, domain: string): Promise<void> {
  const name = domain.trim().toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
  await db.send(new PutCommand({
    TableName: table,
    Item: {
      PK: `CDNALIAS#${name}`,
      SK: 'CDNALIAS',
      ...keys.distributionIndex(name),
      ...aliasListing(route.orgSlug, name),
      orgSlug: route.orgSlug,
      cdnDistributionId: route.distributionId,
      cdnStoreOrigin: route.storeOrigin,
      cdnAiSiteHost: route.aiSiteHost,
    },
  }));
}

/**
 * Sets `cdnStoreOrigin` on the AI-site item of `orgSlug` (which must exist) and on each of the
 * organization's alias items (an alias moved to another organization meanwhile is left
 * alone). Idempotent; `changed` when any item held another value.
 */
export async function setDistributionStoreOrigin(db: DynamoDBDocumentClient, table: string, orgSlug: string, storeOrigin: string): Promise<{ changed: boolean }> {
  let changed = false;
  const set = async (key: Record<string, string>, condition: string, values: Record<string, unknown>): Promise<boolean> => {
    try {
      const { Attributes } = await db.send(new UpdateCommand({
        TableName: table,
        Key: key,
        UpdateExpression: 'SET cdnStoreOrigin = :origin',
        ConditionExpression: condition,
        ExpressionAttributeValues: { ':origin': storeOrigin, ...values },
        ReturnValues: 'UPDATED_OLD',
      }));
      if (Attributes?.cdnStoreOrigin !== storeOrigin) changed = true;
      return true;
    } catch (err) {
      if ((err as { name?: string }).name === 'ConditionalCheckFailedException') return false;
      throw err;
    }
  };
  if (!(await set(keys.aiSite(orgSlug), 'attribute_exists(PK)', {}))) {
    throw new Error(`no AI-site record for ${orgSlug}: its distribution's store origin cannot be set`);
  }
  const listing = aliasListing(orgSlug, '');
  const aliases = await queryAll(db, {
    TableName: table,
    IndexName: 'GSI2',
    KeyConditionExpression: 'GSI2PK = :pk',
    ExpressionAttributeValues: { ':pk': listing.GSI2PK },
  });
  for (const alias of aliases) {
    await set({ PK: String(alias.PK), SK: String(alias.SK) }, 'orgSlug = :org', { ':org': orgSlug });
  }
  return { changed };
}

export function createDistributionIndex(db: DynamoDBDocumentClient, table: string): DistributionIndex {
  return {
    index: (orgSlug, domain) => indexDistributionDomain(db, table, orgSlug, domain),
    findOrg: (domain) => findOrgByDistributionDomain(db, table, domain),
    indexAlias: (route, domain) => indexDistributionAlias(db, table, route, domain),
    setStoreOrigin: (orgSlug, storeOrigin) => setDistributionStoreOrigin(db, table, orgSlug, storeOrigin),
  };
}
