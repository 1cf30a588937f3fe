import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
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
      // Products of one store are few enough (hundreds) that one partition query beats a second index.
      const products = await list(orgSlug);
      return products.find((p) => p.productId === productIdOrEntityId || p.id === productIdOrEntityId) ?? null;
    },

    async addMissing(products) {
      let added = 0;
      for (const product of products) {
        if (await putIfAbsent(db, table, { ...keys.product(product.orgSlug, product.productId), type: 'product', ...product })) added++;
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
