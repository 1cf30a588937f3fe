/** The store as the AI site is built from it: the scraped pages (1a) and the catalogue (1c). */
import { artifactKeys } from '../../core/artifacts';
import { ValidationError } from '../../core/errors';
import type { Business } from '../../core/model';
import type { StoreSnapshot } from '../../core/site/types';
import { storeDomain } from '../../core/store/store-url';
import type { Container } from '../../container';
import { requireBusiness } from '../business';
import type { CatalogArtifact, ScrapeArtifact } from './inputs';

export async function loadSnapshot(container: Container, orgSlug: string, known?: Business): Promise<StoreSnapshot> {
  const business = known ?? await requireBusiness(container, orgSlug);
  const [scrape, catalog] = await Promise.all([
    container.artifacts.get<ScrapeArtifact>(artifactKeys.scrape(orgSlug)),
    container.artifacts.get<CatalogArtifact>(artifactKeys.catalog(orgSlug)),
  ]);
  if (!scrape) throw new ValidationError(`no scraped pages for ${orgSlug}: the website scrape (1a) has not run`);
  return {
    business: snapshotBusiness(business),
    pages: scrape.pages,
    products: catalog?.products ?? [],
    collections: catalog?.collections ?? [],
    storeSitemapUrls: scrape.urls.map((u) => ({ loc: u.url, ...(u.lastmod ? { lastmod: u.lastmod } : {}), ...(u.images?.length ? { images: u.images } : {}) })),
    ...(scrape.agentFiles?.length ? { storeAgentFiles: scrape.agentFiles } : {}),
  };
}

/** The business as every snapshot names it: the store domain from its URL (the stored one if the URL no longer parses). */
export function snapshotBusiness(business: Business): StoreSnapshot['business'] {
  let domain = business.domain;
  try { domain = storeDomain(new URL(business.url)); } catch { /* keep the stored domain */ }
  return { name: business.name, orgSlug: business.orgSlug, url: business.url, domain, logoUrl: business.faviconUrl };
}
