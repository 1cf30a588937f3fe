import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ArticleStats } from '../../ports';
import { keys } from './keys';

/** Reads the per-week article counter that article creation increments (ADD). */
export function createArticleStats(db: DynamoDBDocumentClient, table: string): ArticleStats {
  return {
    async countInWeek(orgSlug, weekStart) {
      const { Item } = await db.send(new GetCommand({ TableName: table, Key: keys.articleWeek(orgSlug, weekStart) }));
      return Item?.count ?? 0;
    },
  };
}
