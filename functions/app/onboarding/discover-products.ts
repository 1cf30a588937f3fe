/**
 * Product discovery (onboarding 1c, daily 1b): read the store's `/products.json`, compare
 * the handles' hash with `products_hash`, save new products as entities and update the
 * hash and snapshot. Safe to retry: entities are inserted only when missing, and the hash
 * moves last, so a retry after a crash redoes the comparison. The daily schedule commits
 * the hash in its own last step (after prompts and files for the new products).
 */
import { randomUUID } from 'node:crypto';
import { newProducts, productsHash, productsSnapshot, toCatalogProduct } from '../../core/products/catalog';
import { htmlToMarkdown } from '../../core/text/markdown';
import type { Business } from '../../core/model';
import type { CatalogProduct } from '../../core/site/types';
import type { Container } from '../../container';
import { requireBusiness } from '../business';
import { saveSiteInput, type CatalogArtifact } from '../site';


export interface ProductDiscovery {
  products: CatalogProduct[];
  newProducts: CatalogProduct[];
  /** Handles of the last snapshot that the store no longer lists. */
  removedProducts: string[];
  hashChanged: boolean;
  /** The stored catalogue changed (new, removed or edited products or collections). */
  catalogChanged: boolean;
  entitiesAdded: number;
  /** The platform's page × limit ceiling was reached. */
  truncated: boolean;
  collections: number;
  /** Collections are optional for the AI site: a store that hides them is noted, not fatal. */
  collectionsError: string | null;
  /** The hash and snapshot to commit once everything that depends on the new products is done. */
  snapshot: { hash: string; items: ReturnType<typeof productsSnapshot> };
}

/** Onboarding 1c: discover, then commit the hash and snapshot at once. */
export async function discoverProducts(container: Container, orgSlug: string): Promise<ProductDiscovery> {
  const business = await requireBusiness(container, orgSlug);
  const discovery = await readAndSaveCatalogue(container, business);
  await commitProductSnapshot(container, business, discovery.snapshot);
  return discovery;
}

/**
 * The store's catalogue now: new products become entities (never duplicated), the catalogue
 * artifact is rewritten only when its content changed. Nothing is committed to the snapshot.
 */
export async function readAndSaveCatalogue(container: Container, business: Business): Promise<ProductDiscovery> {
  const orgSlug = business.orgSlug;
  const listing = await container.storefront.listProducts(business.url);
  // The store's own statement of its currency (never assumed); a failure only leaves it unknown.
  const first = listing.products[0];
  const currency = await container.storefront
    .storeCurrency(business.url, first ? `/products/${encodeURIComponent(first.handle)}` : undefined)
    .catch(() => null);
  const products = listing.products.map((p) => toCatalogProduct(p, business.url, currency));
  const hash = productsHash(products.map((p) => p.productId));
  const site = await container.aiSites.get(orgSlug);
  const hashChanged = site?.productsHash !== hash;
  // The snapshot (20,000 products in a big store) is read only when the catalogue moved.
  const snapshot = hashChanged && site ? (await container.aiSites.get(orgSlug, { lists: ['productsSnapshot'] }))?.productsSnapshot ?? null : null;
  const found = hashChanged ? newProducts(snapshot, products) : [];
  const current = new Set(products.map((p) => p.productId));
  const removedProducts = hashChanged ? (snapshot ?? []).map((p) => p.handle).filter((h) => !current.has(h)) : [];

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
    collections: collections.map((c) => ({ handle: c.handle, title: c.title, description: htmlToMarkdown(c.descriptionHtml), url: `${business.url}/collections/${encodeURIComponent(c.handle)}` })),
  };
  const catalogChanged = await saveSiteInput(container, orgSlug, business.id, 'catalog', catalog);
  return {
    products, newProducts: found, removedProducts, hashChanged, catalogChanged, entitiesAdded, truncated: listing.truncated,
    collections: collections.length, collectionsError, snapshot: { hash, items: productsSnapshot(products) },
  };
}

/** Moves `products_hash` and `products_snapshot` to the catalogue just read (last, so nothing new is ever hidden). */
export async function commitProductSnapshot(container: Container, business: Business, snapshot: ProductDiscovery['snapshot']): Promise<boolean> {
  const site = await container.aiSites.get(business.orgSlug);
  if (site?.productsHash === snapshot.hash) return false;
  await container.aiSites.patch(business.orgSlug, business.id, { productsHash: snapshot.hash, productsSnapshot: snapshot.items });
  return true;
}
