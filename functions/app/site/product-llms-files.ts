/**
 * Onboarding 3b (after 1c, possibly before 2a): one `/llms/{product}.txt` per product,
 * stored as the `product-llms` part and published with the other parts.
 */
import { artifactKeys } from '../../core/artifacts';
import { ValidationError } from '../../core/errors';
import { buildOfflineNarrative } from '../../core/generate/offline-engine';
import { buildProductLlmsFiles } from '../../core/site/build';
import type { SiteNarrative } from '../../core/site/types';
import { storeDomain } from '../../core/store/store-url';
import type { Container } from '../../container';
import { publishSiteParts, saveSitePart } from './parts';
import { requireBusiness } from '../business';
import { productPartInputs, type CatalogArtifact } from './inputs';

export async function generateProductLlmsFiles(container: Container, orgSlug: string): Promise<{ files: number; releaseId: string }> {
  const { files } = await renderProductPart(container, orgSlug);
  const release = await publishSiteParts(container, orgSlug);
  return { files, releaseId: release.releaseId };
}

/**
 * The `product-llms` part: one file per product of the stored catalogue (a product that left
 * the store leaves with it). Saved, not published: onboarding 3b and the daily 1b use it.
 */
export async function renderProductPart(container: Container, orgSlug: string): Promise<{ files: number; paths: string[] }> {
  const business = await requireBusiness(container, orgSlug);
  const inputs = productPartInputs(await container.aiSites.get(orgSlug));
  const catalog = await container.artifacts.get<CatalogArtifact>(artifactKeys.catalog(orgSlug));
  if (!catalog) throw new ValidationError(`no product catalogue for ${orgSlug}: product discovery (1c) has not run`);
  const identity = { name: business.name, orgSlug, url: business.url, domain: storeDomain(new URL(business.url)) };
  // The site narrative may not exist yet (2a can finish later); product summaries then come
  // from the catalogue alone, which is what the offline engine extracts anyway.
  const narrative = (await container.artifacts.get<SiteNarrative>(artifactKeys.narrative(orgSlug)))
    ?? buildOfflineNarrative({ business: identity, pages: [], products: catalog.products, collections: catalog.collections, storeSitemapUrls: [] });
  const files = buildProductLlmsFiles(catalog.products, narrative, { now: container.clock.now().toISOString(), business: identity });
  await saveSitePart(container, orgSlug, 'product-llms', files);
  await container.aiSites.patch(orgSlug, business.id, { productPartBuiltFrom: inputs });
  return { files: files.length, paths: files.map((f) => f.path) };
}
