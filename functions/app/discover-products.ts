/**
 * Product discovery (onboarding 1c, daily 1b): read the store's `/products.json`, compare
 * the handles' hash with `products_hash`, save new products as entities and update the
 * hash and snapshot. Safe to retry: entities are inserted only when missing, and the hash
 * moves last, so a retry after a crash redoes the comparison.
 */
import { randomUUID } from 'node:crypto';
import { artifactKeys } from '../core/artifacts';
import { newProducts, productsHash, productsSnapshot, toCatalogProduct } from '../core/products/catalog';
import type { CatalogCollection, CatalogProduct } from '../core/site/types';
import type { Container } from '../container';
import { requireBusiness } from './business';

export interface CatalogArtifact {
  products: CatalogProduct[];
  collections: CatalogCollection[];
}

export interface ProductDiscovery {
  products: CatalogProduct[];
  newProducts: CatalogProduct[];
  hashChanged: boolean;
  entitiesAdded: number;
  /** The platform's page × limit ceiling was reached. */
  truncated: boolean;
  collections: number;
  /** Collections are optional for the AI site: a store that hides them is noted, not fatal. */
  collectionsError: string | null;
}

export async function discoverProducts(container: Container, orgSlug: string): Promise<ProductDiscovery> {
  const business = await requireBusiness(container, orgSlug);
  const listing = await container.storefront.listProducts(business.url);
  const products = listing.products.map((p) => toCatalogProduct(p, business.url));
  const hash = productsHash(products.map((p) => p.productId));
  const site = await container.aiSites.get(orgSlug);
  const hashChanged = site?.productsHash !== hash;
  const found = hashChanged ? newProducts(site?.productsSnapshot ?? null, products) : [];

  const now = container.clock.now().toISOString();
  const entitiesAdded = await container.products.addMissing(found.map((p) => ({
    id: randomUUID(), orgSlug, productId: p.productId, name: p.name, url: p.url,
    citationCount: 0, articleCount: 0, createdAt: now, updatedAt: now,
  })));
  let collectionsError: string | null = null;
  const collections = await container.storefront.listCollections(business.url).catch((err: Error) => {
    collectionsError = err.message;
    return [];
  });
  const catalog: CatalogArtifact = {
    products,
    collections: collections.map((c) => ({ handle: c.handle, title: c.title, description: c.description, url: `${business.url}/collections/${encodeURIComponent(c.handle)}` })),
  };
  await container.artifacts.put(artifactKeys.catalog(orgSlug), catalog);
  if (hashChanged) {
    await container.aiSites.patch(orgSlug, business.id, { productsHash: hash, productsSnapshot: productsSnapshot(products) });
  }
  return { products, newProducts: found, hashChanged, entitiesAdded, truncated: listing.truncated, collections: collections.length, collectionsError };
}
