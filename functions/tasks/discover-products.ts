import { discoverProducts } from '../app/onboarding/discover-products';
import { stepTask } from './step-task';

/** 1c: product entities from the store's /products.json. */
export const handler = stepTask('1c', async (container, org) => {
  const d = await discoverProducts(container, org);
  return { products: d.products.length, added: d.entitiesAdded, truncated: d.truncated, collections: d.collections, ...(d.collectionsError ? { collections_error: d.collectionsError } : {}) };
});
