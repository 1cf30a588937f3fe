import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { artifactKeys } from '../../core/artifacts';
import type { AiSiteList } from '../../core/model';
import type { AiSiteRepository, ArtifactStore } from '../../ports';
import { keys } from './keys';

/**
 * Lists that grow with the store (5,000 sitemap URLs, thousands of products) would pass
 * DynamoDB's 400 KB item limit as plain attributes; they are stored gzip-compressed, and a
 * list still bigger than `INLINE_BYTES` compressed (20,000 products' snapshot is ~380 KB) is
 * kept in the artifact store behind a pointer `{ artifact, bytes }` (D39). The artifact is
 * named by its content's hash and written before the item, so the item only ever points at a
 * whole list; the list the item pointed at before is deleted after the write. `get` reads a
 * list only when asked for it: most callers want a status or an origin, not 20,000 products.
 */
const COMPRESSED_FIELDS = new Set(['storeSitemapUrls', 'productsSnapshot']);
/** Compressed bytes a list may take inside the item (two such lists and the rest stay far below 400 KB). */
export const INLINE_BYTES = 96 * 1024;
const compress = (value: unknown) => gzipSync(JSON.stringify(value));
const decompress = (value: unknown) => (value instanceof Uint8Array ? JSON.parse(gunzipSync(value).toString('utf8')) : value ?? null);

interface FieldPointer {
  artifact: string;
  bytes: number;
}

const isPointer = (value: unknown): value is FieldPointer =>
  typeof value === 'object' && value !== null && !(value instanceof Uint8Array) && typeof (value as FieldPointer).artifact === 'string';

export function createAiSiteRepository(db: DynamoDBDocumentClient, table: string, artifacts: Pick<ArtifactStore, 'get' | 'put' | 'delete'>): AiSiteRepository {
  const read = async (value: unknown) => (isPointer(value) ? artifacts.get(value.artifact) : decompress(value));
  /** The stored form of a list: compressed in the item, or (too big) in the artifact store behind a pointer. */
  const stored = async (orgSlug: string, field: string, value: unknown): Promise<Uint8Array | FieldPointer> => {
    const packed = compress(value);
    if (packed.byteLength <= INLINE_BYTES) return packed;
    const artifact = artifactKeys.aiSiteField(orgSlug, field, createHash('sha256').update(packed).digest('hex').slice(0, 32));
    await artifacts.put(artifact, value);
    return { artifact, bytes: packed.byteLength };
  };
  const getItem = async (orgSlug: string) => (await db.send(new GetCommand({ TableName: table, Key: keys.aiSite(orgSlug), ConsistentRead: true }))).Item;
  /**
   * The item, with every asked-for list behind a pointer still readable: a write that replaced
   * the list between our read of the item and of its artifact deleted that artifact, so the
   * item is read again. A list that stays missing is an error, never "no list" (1c would take
   * every product for new).
   */
  const whole = async (orgSlug: string, lists: readonly AiSiteList[]) => {
    for (let attempt = 1; ; attempt++) {
      const Item = await getItem(orgSlug);
      if (!Item) return null;
      const resolved = await Promise.all(lists.map(async (field) => [field, await read(Item[field])] as const));
      const lost = resolved.filter(([field, value]) => value === null && isPointer(Item[field])).map(([field]) => field);
      if (!lost.length) return { Item, lists: new Map<string, unknown>(resolved) };
      if (attempt >= 3) throw new Error(`the AI-site record of ${orgSlug} points at a ${lost.join(' and ')} list the artifact store no longer holds`);
    }
  };
  return {
    async get(orgSlug, { lists = [] } = {}) {
      const found = await whole(orgSlug, lists);
      if (!found) return null;
      const { Item } = found;
      const { PK: _pk, SK: _sk, type: _type, storeSitemapUrls: _urls, productsSnapshot: _snapshot, ...record } = Item;
      const list = (field: AiSiteList) => (found.lists.get(field) ?? null) as never;
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
        storeSitemapUrls: list('storeSitemapUrls'),
        productsHash: Item.productsHash ?? null,
        productsSnapshot: list('productsSnapshot'),
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
    const lists = Object.keys(fields).filter((f) => COMPRESSED_FIELDS.has(f) && fields[f] !== undefined);
    // The pointers this write replaces: their artifacts go once the item no longer names them.
    const before = lists.length ? (await db.send(new GetCommand({ TableName: table, Key: keys.aiSite(orgSlug), ConsistentRead: true, ProjectionExpression: lists.map((_, i) => `#l${i}`).join(', '), ExpressionAttributeNames: Object.fromEntries(lists.map((f, i) => [`#l${i}`, f])) }))).Item ?? {} : {};
    for (const [i, [field, value]] of Object.entries(fields).entries()) {
      if (value === undefined) continue;
      names[`#f${i}`] = field;
      values[`:v${i}`] = COMPRESSED_FIELDS.has(field) && value !== null ? await stored(orgSlug, field, value) : value;
      sets.push(`#f${i} = :v${i}`);
    }
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
    const now = new Set(Object.values(values).filter(isPointer).map((p) => p.artifact));
    for (const old of Object.values(before).filter(isPointer)) if (!now.has(old.artifact)) await artifacts.delete(old.artifact);
  }
}
