import { GetCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Product } from '../../core/model';
import type { ProductRepository } from '../../ports';
import { putIfAbsent } from './client';
import { keys } from './keys';
import { queryPrefix } from './query-all';

export function createProductRepository(db: DynamoDBDocumentClient, table: string): ProductRepository {
  const list = async (orgSlug: string) =>
    (await queryPrefix(db, table, keys.org(orgSlug), keys.productPrefix)).map(toProduct);

  return {
    list,

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

    async addMissing(products) {
      let added = 0;
      for (const product of products) {
        const item = { ...keys.product(product.orgSlug, product.productId), ...keys.entityIndex(product.id), type: 'product', ...product };
        if (await putIfAbsent(db, table, item)) added++;
      }
      return added;
    },
  };
}

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
