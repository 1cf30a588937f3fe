import { GetCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ConflictError } from '../../core/errors';
import type { Business } from '../../core/model';
import type { BusinessListing, BusinessRepository } from '../../ports';
import { putIfAbsent } from './client';
import { keys } from './keys';
import { decodeCursor, encodeCursor } from './page-cursor';
import { queryGsi1First } from './query-all';

export function createBusinessRepository(db: DynamoDBDocumentClient, table: string): BusinessRepository {
  return {
    async create(business) {
      const written = await putIfAbsent(db, table, {
        ...keys.business(business.orgSlug),
        ...keys.domainIndex(business.domain),
        ...keys.businessListing(business.orgSlug),
        type: 'business',
        ...business,
      });
      if (!written) throw new ConflictError(`business for organization ${business.orgSlug} already exists`);
    },

    async setFavicon(orgSlug, faviconUrl) {
      await db.send(new UpdateCommand({
        TableName: table,
        Key: keys.business(orgSlug),
        UpdateExpression: 'SET faviconUrl = :f, updatedAt = :now',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':f': faviconUrl, ':now': new Date().toISOString() },
      }));
    },

    async get(orgSlug) {
      const { Item } = await db.send(new GetCommand({ TableName: table, Key: keys.business(orgSlug) }));
      return Item ? toBusiness(Item) : null;
    },

    async findByDomain(domain) {
      const item = await queryGsi1First(db, table, keys.domainIndex(domain.toLowerCase()));
      return item ? toBusiness(item) : null;
    },
  };
}

/** Every business, one page at a time, by organization slug (GSI2: the daily fan-out). */
export function createBusinessListing(db: DynamoDBDocumentClient, table: string): BusinessListing {
  return {
    async list({ cursor, limit }) {
      const page = await db.send(new QueryCommand({
        TableName: table,
        IndexName: 'GSI2',
        KeyConditionExpression: 'GSI2PK = :pk',
        ExpressionAttributeValues: { ':pk': keys.businessListing('').GSI2PK },
        ExclusiveStartKey: decodeCursor(cursor, ['PK', 'SK', 'GSI2PK', 'GSI2SK']),
        Limit: limit,
      }));
      return { businesses: (page.Items ?? []).map(toBusiness), nextCursor: encodeCursor(page.LastEvaluatedKey) };
    },
  };
}

function toBusiness(item: Record<string, any>): Business {
  return {
    id: item.id,
    orgSlug: item.orgSlug,
    name: item.name,
    url: item.url,
    domain: item.domain,
    faviconUrl: item.faviconUrl ?? null,
    ...(typeof item.articleCount === 'number' ? { articleCount: item.articleCount } : {}),
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
  };
}
