/**
 * The edge-function rollout's data (issue 15) in the one table:
 * - `EDGE#CURRENT`: the current version (ARN, code SHA-256, number, published at / by);
 *   replaced only by a conditional put on the version it replaces.
 * - each AI-site record's `cdnEdgeFunctionVersionArn` (and `cdnEdgeFunctionAttachedAt`): the
 *   version attached to the business's distribution, written only while the record still
 *   names that distribution. The rollout reads them 100 at a time (BatchGetItem with a
 *   projection: the records' large compressed fields never leave the table).
 * - `EDGE#LOCALVERSIONS`: the local stand-in's version counter (atomic ADD).
 * - `EDGE#ROLLOUT`: the one-at-a-time lease (conditional put, deleted by its holder).
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { EdgeVersion } from '../../core/edge/rollout';
import type { DistributionEdgeState, EdgeVersionRepository, RolloutLease } from '../../core/edge/types';
import { batchGetAll, isConditionFailure } from './client';
import { keys } from './keys';

export function createEdgeVersionRepository(db: DynamoDBDocumentClient, table: string, options: { sleep?: (ms: number) => Promise<void> } = {}): EdgeVersionRepository {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));

  async function current(): Promise<EdgeVersion | null> {
    const { Item } = await db.send(new GetCommand({ TableName: table, Key: keys.edgeCurrent, ConsistentRead: true }));
    if (!Item || typeof Item.versionArn !== 'string') return null;
    return {
      versionArn: Item.versionArn,
      codeSha256: typeof Item.codeSha256 === 'string' ? Item.codeSha256 : null,
      version: String(Item.version ?? ''),
      publishedAt: String(Item.publishedAt ?? ''),
      publishedBy: typeof Item.publishedBy === 'string' ? Item.publishedBy : null,
    };
  }

  return {
    current,

    async saveCurrent(next, previousArn) {
      try {
        await db.send(new PutCommand({
          TableName: table,
          Item: { ...keys.edgeCurrent, type: 'edge_version', ...next },
          ...(previousArn === null
            ? { ConditionExpression: 'attribute_not_exists(PK)' }
            : { ConditionExpression: 'versionArn = :prev', ExpressionAttributeValues: { ':prev': previousArn } }),
        }));
        return next;
      } catch (err) {
        if (!isConditionFailure(err)) throw err;
        const now = await current();
        if (!now) throw new Error('the current edge-function version changed while it was being replaced, and is gone');
        return now;
      }
    },

    async distributionsOf(orgSlugs) {
      const items = await batchGetAll(db, table, [...new Set(orgSlugs)].map((slug) => keys.aiSite(slug)), {
        consistent: true, sleep,
        projection: { expression: '#org, #dist, #ver', names: { '#org': 'orgSlug', '#dist': 'cdnDistributionId', '#ver': 'cdnEdgeFunctionVersionArn' } },
      });
      const found: DistributionEdgeState[] = [];
      for (const item of items) {
        if (typeof item.orgSlug !== 'string' || typeof item.cdnDistributionId !== 'string' || !item.cdnDistributionId) continue;
        found.push({
          orgSlug: item.orgSlug,
          distributionId: item.cdnDistributionId,
          versionArn: typeof item.cdnEdgeFunctionVersionArn === 'string' && item.cdnEdgeFunctionVersionArn ? item.cdnEdgeFunctionVersionArn : null,
        });
      }
      return found.sort((a, b) => (a.orgSlug < b.orgSlug ? -1 : a.orgSlug > b.orgSlug ? 1 : 0));
    },

    async recordAttached(orgSlug, distributionId, versionArn, at) {
      try {
        await db.send(new UpdateCommand({
          TableName: table,
          Key: keys.aiSite(orgSlug),
          UpdateExpression: 'SET cdnEdgeFunctionVersionArn = :v, cdnEdgeFunctionAttachedAt = :at',
          ConditionExpression: 'cdnDistributionId = :id',
          ExpressionAttributeValues: { ':v': versionArn, ':at': at, ':id': distributionId },
        }));
        return true;
      } catch (err) {
        if (isConditionFailure(err)) return false;
        throw err;
      }
    },

    async nextLocalVersion() {
      const { Attributes } = await db.send(new UpdateCommand({
        TableName: table,
        Key: keys.edgeLocalVersions,
        UpdateExpression: 'ADD lastVersion :one SET #type = :type',
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: { ':one': 1, ':type': 'edge_local_versions' },
        ReturnValues: 'UPDATED_NEW',
      }));
      const n = Number(Attributes?.lastVersion);
      if (!Number.isInteger(n) || n < 1) throw new Error('the local edge-function version counter returned no number');
      return n;
    },

    async lease() {
      const { Item } = await db.send(new GetCommand({ TableName: table, Key: keys.edgeRolloutLease, ConsistentRead: true }));
      if (!Item || typeof Item.executionId !== 'string') return null;
      return { executionId: Item.executionId, acquiredAt: String(Item.acquiredAt ?? ''), expiresAt: String(Item.expiresAt ?? '') } satisfies RolloutLease;
    },

    async acquireLease(executionId, now, expiresAt, takeOverFrom) {
      try {
        await db.send(new PutCommand({
          TableName: table,
          Item: { ...keys.edgeRolloutLease, type: 'edge_rollout_lease', executionId, acquiredAt: now.toISOString(), expiresAt: expiresAt.toISOString() },
          ConditionExpression: takeOverFrom
            ? 'attribute_not_exists(PK) OR expiresAt < :now OR executionId = :holder'
            : 'attribute_not_exists(PK) OR expiresAt < :now',
          ExpressionAttributeValues: { ':now': now.toISOString(), ...(takeOverFrom ? { ':holder': takeOverFrom } : {}) },
        }));
        return true;
      } catch (err) {
        if (isConditionFailure(err)) return false;
        throw err;
      }
    },

    async releaseLease(executionId) {
      try {
        await db.send(new DeleteCommand({
          TableName: table,
          Key: keys.edgeRolloutLease,
          ConditionExpression: 'executionId = :id',
          ExpressionAttributeValues: { ':id': executionId },
        }));
      } catch (err) {
        if (!isConditionFailure(err)) throw err;
      }
    },
  };
}
