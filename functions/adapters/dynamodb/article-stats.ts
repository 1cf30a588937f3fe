import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ArticleStats } from '../../ports';
import { keys } from './keys';

/** Article counters: one per organization and week, one per entity (atomic ADDs). */
export function createArticleStats(db: DynamoDBDocumentClient, table: string): ArticleStats {
  return {
    async countInWeek(orgSlug, weekStart) {
      const { Item } = await db.send(new GetCommand({ TableName: table, Key: keys.articleWeek(orgSlug, weekStart) }));
      return Item?.count ?? 0;
    },

    async recordArticle(orgSlug, weekStart, productId) {
      await db.send(new UpdateCommand({
        TableName: table,
        Key: keys.articleWeek(orgSlug, weekStart),
        UpdateExpression: 'ADD #count :one SET #type = :type',
        ExpressionAttributeNames: { '#count': 'count', '#type': 'type' },
        ExpressionAttributeValues: { ':one': 1, ':type': 'article_week' },
      }));
      await db.send(new UpdateCommand({
        TableName: table,
        // A business article counts on the business entity (the weekly-100 policy's 50 for the business).
        Key: productId ? keys.product(orgSlug, productId) : keys.business(orgSlug),
        UpdateExpression: 'ADD articleCount :one',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':one': 1 },
      }));
    },
  };
}
