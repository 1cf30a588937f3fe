import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ArticleStats } from '../../ports';
import { keys } from './keys';

/** Article counters: one per organization and week, one per entity (atomic ADDs). */
export function createArticleStats(db: DynamoDBDocumentClient, table: string): ArticleStats {
  const countEntity = async (orgSlug: string, productId: string | null, by: 1 | -1) => {
    await db.send(new UpdateCommand({
      TableName: table,
      // A business article counts on the business entity (the weekly-100 policy's 50 for the business).
      Key: productId ? keys.product(orgSlug, productId) : keys.business(orgSlug),
      UpdateExpression: 'ADD articleCount :by',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: { ':by': by },
    }));
  };
  const count = async (orgSlug: string, weekStart: string, productId: string | null, by: 1 | -1) => {
    await db.send(new UpdateCommand({
      TableName: table,
      Key: keys.articleWeek(orgSlug, weekStart),
      UpdateExpression: 'ADD #count :by SET #type = :type',
      ExpressionAttributeNames: { '#count': 'count', '#type': 'type' },
      ExpressionAttributeValues: { ':by': by, ':type': 'article_week' },
    }));
    await countEntity(orgSlug, productId, by);
  };
  return {
    async countInWeek(orgSlug, weekStart) {
      const { Item } = await db.send(new GetCommand({ TableName: table, Key: keys.articleWeek(orgSlug, weekStart) }));
      return Item?.count ?? 0;
    },

    recordArticle: (orgSlug, weekStart, productId) => count(orgSlug, weekStart, productId, 1),
    unrecordArticle: (orgSlug, weekStart, productId) => count(orgSlug, weekStart, productId, -1),
    unrecordEntityArticle: (orgSlug, productId) => countEntity(orgSlug, productId, -1),
  };
}
