import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AiSiteRecord } from '../../core/model';
import type { AiSiteRepository } from '../../ports';
import { keys } from './keys';

export function createAiSiteRepository(db: DynamoDBDocumentClient, table: string): AiSiteRepository {
  return {
    async get(orgSlug) {
      const { Item } = await db.send(new GetCommand({ TableName: table, Key: keys.aiSite(orgSlug) }));
      if (!Item) return null;
      const { PK: _pk, SK: _sk, type: _type, ...record } = Item;
      return {
        ...record,
        orgSlug,
        entityId: Item.entityId,
        projectName: Item.projectName ?? null,
        deploymentUrl: Item.deploymentUrl ?? null,
        deployedAt: Item.deployedAt ?? null,
        sourceUrl: Item.sourceUrl ?? null,
      };
    },
  };
}
