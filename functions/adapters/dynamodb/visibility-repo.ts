import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { VisibilityHistory } from '../../core/model';
import type { VisibilityRepository } from '../../ports';
import { isConditionFailure } from './client';
import { keys } from './keys';

/** Same-entity writers each win a round (each retry re-reads the row): 50 at once need up to 50 rounds. */
const MAX_ATTEMPTS = 80;

export function createVisibilityRepository(db: DynamoDBDocumentClient, table: string): VisibilityRepository {
  const get = async (orgSlug: string, entityId: string): Promise<VisibilityHistory | null> => {
    const { Item } = await db.send(new GetCommand({ TableName: table, Key: keys.visibility(orgSlug, entityId), ConsistentRead: true }));
    return Item ? { entityId, recentScore: Item.recentScore, history: Item.history ?? [], version: Item.version ?? 0 } : null;
  };

  return {
    get,

    async update(orgSlug, entityId, apply) {
      for (let attempt = 1; ; attempt++) {
        const current = await get(orgSlug, entityId);
        const next = apply(current ? current.history : null);
        const version = current?.version ?? 0;
        try {
          // The whole history is one item (365 entries stay far below 400 KB), so the
          // version check makes each writer's append atomic without transactions.
          await db.send(new PutCommand({
            TableName: table,
            Item: {
              ...keys.visibility(orgSlug, entityId), type: 'visibility', orgSlug, entityId,
              recentScore: next.recentScore, history: next.history, version: version + 1,
              updatedAt: new Date().toISOString(),
            },
            ConditionExpression: current ? 'version = :v' : 'attribute_not_exists(PK)',
            ExpressionAttributeValues: current ? { ':v': version } : undefined,
          }));
          return next.result;
        } catch (err) {
          if (!isConditionFailure(err) || attempt >= MAX_ATTEMPTS) throw err;
          // Jittered back-off spreads out writers that collided.
          await new Promise((r) => setTimeout(r, Math.random() * 10 * attempt));
        }
      }
    },
  };
}
