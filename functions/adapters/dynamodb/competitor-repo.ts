/**
 * Competitors in the organization's partition: `PK = ORG#<slug>`, `SK = COMPETITOR#<id>`.
 * A business has at most 12 (10 auto-discovered + 2 user-added), so one partition query
 * answers every read; it is strongly consistent, because the add path re-reads right after
 * its own write to enforce the limits (core/competitors/rules.ts `exceedsLimitAfterWrite`).
 */
import { DeleteCommand, GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ConflictError } from '../../core/errors';
import { ALREADY_EXISTS, countBySource } from '../../core/competitors/rules';
import type { Competitor, CompetitorRepository } from '../../core/competitors/types';
import { putIfAbsent } from './client';
import { keys } from './keys';
import { queryAll } from './query-all';

const TYPE = 'competitor';

export function createCompetitorRepository(db: DynamoDBDocumentClient, table: string): CompetitorRepository {
  const list = async (orgSlug: string): Promise<Competitor[]> => {
    const items = await queryAll(db, {
      TableName: table,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.org(orgSlug), ':prefix': keys.competitorPrefix },
      ConsistentRead: true,
    });
    return items
      .filter((item) => item.type === TYPE)
      .map(toCompetitor)
      .sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  };

  return {
    list,

    async get(orgSlug, id) {
      const { Item } = await db.send(new GetCommand({ TableName: table, Key: keys.competitor(orgSlug, id) }));
      return Item && Item.type === TYPE ? toCompetitor(Item) : null;
    },

    async add(competitor) {
      const written = await putIfAbsent(db, table, { ...keys.competitor(competitor.orgSlug, competitor.id), type: TYPE, ...competitor });
      if (!written) throw new ConflictError(`${ALREADY_EXISTS}: ${competitor.domain}`);
    },

    async remove(orgSlug, id) {
      await db.send(new DeleteCommand({ TableName: table, Key: keys.competitor(orgSlug, id) }));
    },

    async countBySource(orgSlug) {
      return countBySource(await list(orgSlug));
    },

    async findByDomain(orgSlug, domain) {
      return (await list(orgSlug)).find((c) => c.domain === domain) ?? null;
    },
  };
}

function toCompetitor(item: Record<string, any>): Competitor {
  return {
    id: item.id,
    orgSlug: item.orgSlug,
    name: item.name,
    url: item.url,
    domain: item.domain,
    description: item.description ?? '',
    faviconUrl: item.faviconUrl ?? '',
    scrapedContent: item.scrapedContent ?? '',
    source: item.source === 'user_added' ? 'user_added' : 'auto_discovered',
    products: Array.isArray(item.products) ? item.products : [],
    targetMarket: item.targetMarket ?? '',
    createdAt: item.createdAt,
  };
}
