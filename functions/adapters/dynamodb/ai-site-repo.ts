import { gunzipSync, gzipSync } from 'node:zlib';
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AiSiteRepository } from '../../ports';
import { keys } from './keys';

/**
 * Lists that grow with the store (5,000 sitemap URLs, thousands of products) would pass
 * DynamoDB's 400 KB item limit as plain attributes; they are stored gzip-compressed.
 */
const COMPRESSED_FIELDS = new Set(['storeSitemapUrls', 'productsSnapshot']);
const compress = (value: unknown) => gzipSync(JSON.stringify(value));
const decompress = (value: unknown) => (value instanceof Uint8Array ? JSON.parse(gunzipSync(value).toString('utf8')) : value ?? null);

export function createAiSiteRepository(db: DynamoDBDocumentClient, table: string): AiSiteRepository {
  return {
    async get(orgSlug) {
      const { Item } = await db.send(new GetCommand({ TableName: table, Key: keys.aiSite(orgSlug), ConsistentRead: true }));
      if (!Item) return null;
      const { PK: _pk, SK: _sk, type: _type, ...record } = Item;
      return {
        ...record,
        orgSlug,
        entityId: Item.entityId,
        projectName: Item.projectName ?? null,
        deploymentUrl: Item.deploymentUrl ?? null,
        deployedAt: Item.deployedAt ?? null,
        releaseId: Item.releaseId ?? null,
        fileCount: Item.fileCount ?? null,
        sourceUrl: Item.sourceUrl ?? null,
        storeSitemapUrls: decompress(Item.storeSitemapUrls),
        productsHash: Item.productsHash ?? null,
        productsSnapshot: decompress(Item.productsSnapshot),
      };
    },

    async patch(orgSlug, entityId, fields) {
      await update(orgSlug, entityId, fields);
    },

    async patchWhenStatus(orgSlug, entityId, fields, expected) {
      try {
        await update(orgSlug, entityId, fields, expected);
        return true;
      } catch (err) {
        if ((err as { name?: string }).name === 'ConditionalCheckFailedException') return false;
        throw err;
      }
    },
  };

  /** One single-item update; with `expected`, only while `proxyStatus` is one of `in`, or the record names this execution. */
  async function update(orgSlug: string, entityId: string, fields: Record<string, unknown>, expected?: { proxyStatusIn: string[]; orExecution?: { field: string; id: string } }) {
    const names: Record<string, string> = { '#type': 'type', '#entity': 'entityId', '#org': 'orgSlug' };
    const values: Record<string, unknown> = { ':type': 'ai_site', ':entity': entityId, ':org': orgSlug };
    const sets = ['#type = :type', '#entity = :entity', '#org = :org'];
    Object.entries(fields).forEach(([field, value], i) => {
      if (value === undefined) return;
      names[`#f${i}`] = field;
      values[`:v${i}`] = COMPRESSED_FIELDS.has(field) && value !== null ? compress(value) : value;
      sets.push(`#f${i} = :v${i}`);
    });
    const conditions: string[] = [];
    if (expected) {
      names['#proxyStatus'] = 'proxyStatus';
      conditions.push(`#proxyStatus IN (${expected.proxyStatusIn.map((status, i) => { values[`:ps${i}`] = status; return `:ps${i}`; }).join(', ')})`);
      if (expected.orExecution) {
        names['#execution'] = expected.orExecution.field;
        values[':execution'] = expected.orExecution.id;
        conditions.push('#execution = :execution');
      }
    }
    await db.send(new UpdateCommand({
      TableName: table,
      Key: keys.aiSite(orgSlug),
      UpdateExpression: `SET ${sets.join(', ')}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ...(conditions.length ? { ConditionExpression: conditions.join(' OR ') } : {}),
    }));
  }
}
