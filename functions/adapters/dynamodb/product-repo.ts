import { GetCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Product } from '../../core/model';
import { addDays } from '../../core/visibility/score';
import type { ProductRepository } from '../../ports';
import { conditionalWrite, putAllIfAbsent } from './client';
import { keys } from './keys';
import { countPrefix, queryPrefix } from './query-all';

export function createProductRepository(db: DynamoDBDocumentClient, table: string): ProductRepository {
  const list = async (orgSlug: string) =>
    (await queryPrefix(db, table, keys.org(orgSlug), keys.productPrefix)).map(toProduct);

  return {
    list,

    // Select COUNT: a 5,000-product business costs no transfer.
    count: (orgSlug) => countPrefix(db, table, keys.org(orgSlug), keys.productPrefix),

    async find(orgSlug, productIdOrEntityId) {
      // One item read by slug; an entity UUID goes through its GSI1 entry. Either way the
      // cost does not grow with the catalogue (stores reach thousands of products).
      const { Item } = await db.send(new GetCommand({ TableName: table, Key: keys.product(orgSlug, productIdOrEntityId) }));
      if (Item) return toProduct(Item);
      const { Items } = await db.send(new QueryCommand({
        TableName: table,
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk AND GSI1SK = :sk',
        ExpressionAttributeValues: { ':pk': keys.entityIndex(productIdOrEntityId).GSI1PK, ':sk': keys.entityIndex(productIdOrEntityId).GSI1SK },
      }));
      // Scoped to the organization: an id of another organization's product finds nothing.
      const match = Items?.find((item) => item.orgSlug === orgSlug);
      return match ? toProduct(match) : null;
    },

    addMissing(products) {
      // One slug twice in a batch: the first is the one written, as when they were written in turn.
      const seen = new Set<string>();
      const firsts = products.filter((p) => !seen.has(`${p.orgSlug}/${p.productId}`) && seen.add(`${p.orgSlug}/${p.productId}`));
      return putAllIfAbsent(db, table, firsts.map((product) => ({ ...keys.product(product.orgSlug, product.productId), ...keys.entityIndex(product.id), type: 'product', ...product })));
    },

    async recordCitations(orgSlug, runDate, counts) {
      // Per product, the day's count sits in a date-keyed map (a re-run sets the same key,
      // never adds twice); `citationCount` is the sum over the days kept.
      const cutoff = addDays(runDate, -CITATION_DAYS_KEPT);
      for (const [productId, count] of Object.entries(counts)) {
        const Key = keys.product(orgSlug, productId);
        const exists = await conditionalWrite(() => db.send(new UpdateCommand({
          TableName: table, Key, ConditionExpression: 'attribute_exists(PK)',
          UpdateExpression: 'SET citationDays = if_not_exists(citationDays, :empty)', ExpressionAttributeValues: { ':empty': {} },
        })));
        if (!exists) continue; // not a product entity (removed, or never saved)
        const { Attributes } = await db.send(new UpdateCommand({
          TableName: table, Key, UpdateExpression: 'SET citationDays.#d = :c', ExpressionAttributeNames: { '#d': runDate },
          ExpressionAttributeValues: { ':c': count }, ReturnValues: 'ALL_NEW',
        }));
        const days = (Attributes?.citationDays ?? {}) as Record<string, number>;
        const old = Object.keys(days).filter((d) => d <= cutoff);
        const total = Object.entries(days).filter(([d]) => d > cutoff).reduce((sum, [, n]) => sum + Number(n), 0);
        await db.send(new UpdateCommand({
          TableName: table, Key,
          UpdateExpression: `SET citationCount = :total${old.length ? ` REMOVE ${old.map((_, i) => `citationDays.#o${i}`).join(', ')}` : ''}`,
          ExpressionAttributeNames: old.length ? Object.fromEntries(old.map((d, i) => [`#o${i}`, d])) : undefined,
          ExpressionAttributeValues: { ':total': total },
        }));
      }
    },
  };
}

/** Citations are counted over the same window as the score history. */
const CITATION_DAYS_KEPT = 365;


function toProduct(item: Record<string, any>): Product {
  return {
    id: item.id,
    orgSlug: item.orgSlug,
    productId: item.productId,
    name: item.name,
    url: item.url ?? null,
    citationCount: item.citationCount ?? 0,
    articleCount: item.articleCount ?? 0,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
  };
}
