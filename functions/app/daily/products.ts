/**
 * Daily batch 1b (spec: Daily schedule): products from `/products.json`; when the hash of
 * the handles differs from `products_hash`, the new ones (against `products_snapshot`)
 * become entities and get 10 prompts (D9) and a `/llms/{slug}.txt`; the hash and snapshot
 * commit last. Each function is one task of the state machine, and is
 * safe to repeat: every later step recomputes "new" against the uncommitted snapshot. The
 * matching cron routes start the workflow for one business (api/cron/run-for-business.ts).
 *
 * Removed products (docs/decisions.md): their entities, prompts and score history are kept
 * (the product may come back, and its history stays readable); the AI site drops them: the
 * catalogue no longer lists them, so llms.txt, data.json, the sitemap and the product files
 * follow, and their articles are retired by the merged deploy (retire-articles.ts, D150).
 */
import { artifactKeys } from '../../core/artifacts';
import { PRODUCT_PROMPTS_CRON } from '../../core/constants';
import { ValidationError } from '../../core/errors';
import { newProducts, productsHash, productsSnapshot } from '../../core/products/catalog';
import type { Container } from '../../container';
import { requireBusiness } from '../business';
import { commitProductSnapshot, readAndSaveCatalogue } from '../onboarding';
import { generateProductPrompts } from '../prompts';
import { openSitePart, productPartIsCurrent, renderProductPart, type CatalogArtifact } from '../site';
import type { SkippedDailyStep } from './business-run';

export async function discoverNewProducts(container: Container, orgSlug: string) {
  const business = await requireBusiness(container, orgSlug);
  const d = await readAndSaveCatalogue(container, business);
  return {
    products: d.products.length,
    hash_changed: d.hashChanged,
    catalogue_changed: d.catalogChanged,
    new_products: d.newProducts.map((p) => p.productId),
    removed_products: d.removedProducts,
    entities_added: d.entitiesAdded,
    truncated: d.truncated,
    ...(d.collectionsError ? { collections_error: d.collectionsError } : {}),
  };
}

/** The products that are new since the committed snapshot (empty once it is committed). */
async function uncommittedNewProducts(container: Container, orgSlug: string): Promise<string[]> {
  const catalog = await container.artifacts.get<CatalogArtifact>(artifactKeys.catalog(orgSlug));
  if (!catalog) throw new ValidationError(`no product catalogue for ${orgSlug}: product discovery has not run`);
  const site = await container.aiSites.get(orgSlug, { lists: ['productsSnapshot'] });
  return newProducts(site?.productsSnapshot ?? null, catalog.products).map((p) => p.productId);
}

/** 10 prompts (D9) for each new product, topped up to that count (a retry adds none twice). */
export async function promptNewProducts(container: Container, orgSlug: string): Promise<Record<string, unknown> | SkippedDailyStep> {
  const ids = await uncommittedNewProducts(container, orgSlug);
  if (ids.length === 0) return { skipped: 'no new products', result: { products: 0, prompts_saved: 0 } };
  const r = await generateProductPrompts(container, orgSlug, ids, PRODUCT_PROMPTS_CRON);
  return {
    products: ids.length - r.notFound.length, per_product: r.perProduct, prompts_generated: r.generated, prompts_saved: r.saved,
    shortfall: r.shortfall, shortfall_reasons: r.shortfallReasons, not_found: r.notFound, engine: r.engine?.name ?? null,
  };
}

/** The product-llms part from the current catalogue, when it changed since the part was built; saved, not deployed. */
export async function refreshProductFiles(container: Container, orgSlug: string): Promise<Record<string, unknown> | SkippedDailyStep> {
  const site = await container.aiSites.get(orgSlug);
  const previous = (await openSitePart(container, orgSlug, 'product-llms'))?.paths ?? [];
  if (productPartIsCurrent(site) && previous.length > 0) return { skipped: 'the catalogue is unchanged since the product files were built', result: { files: previous.length } };
  const { files, paths } = await renderProductPart(container, orgSlug);
  const before = new Set(previous);
  const after = new Set(paths);
  return {
    files,
    files_added: paths.filter((p) => !before.has(p)),
    files_removed: [...before].filter((p) => !after.has(p)),
    deployed: false,
  };
}

/** Commits `products_hash` and `products_snapshot` to the catalogue read today: the last 1b step. */
export async function commitProducts(container: Container, orgSlug: string): Promise<Record<string, unknown> | SkippedDailyStep> {
  const business = await requireBusiness(container, orgSlug);
  const catalog = await container.artifacts.get<CatalogArtifact>(artifactKeys.catalog(orgSlug));
  if (!catalog) throw new ValidationError(`no product catalogue for ${orgSlug}: product discovery has not run`);
  const committed = await commitProductSnapshot(container, business, {
    hash: productsHash(catalog.products.map((p) => p.productId)),
    items: productsSnapshot(catalog.products),
  });
  return committed ? { committed: true, products: catalog.products.length } : { skipped: 'products_hash already matches the catalogue' };
}
