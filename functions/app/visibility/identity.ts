/**
 * Who is being looked for in an AI answer: the business's name and the other names it goes
 * by (vendor names that are the brand, product lines), its hosts (store, custom domain, AI
 * site, CDN) and product names, plus the competitors to label. Read once per analysis.
 */
import { artifactKeys } from '../../core/artifacts';
import { siteHost } from '../../core/crawl/url';
import type { Business } from '../../core/model';
import { brandWords, detectProductLines } from '../../core/prompts/product-lines';
import type { EntityIdentity } from '../../core/visibility/platform-answer';
import type { Container } from '../../container';
import { aiSiteHostOf } from '../site-identity';
import type { CatalogArtifact } from '../discover-products';
import { competitorRepositoryOf } from '../../engines/competitor-repository';

/** Product names handed to the judge and matcher: enough to recognise, bounded for the prompt. */
const MAX_PRODUCT_NAMES = 200;

/** A stored URL or bare domain → its host for matching (siteHost: lower-case, no `www.`). */
const hostOf = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() ? siteHost(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `https://${value}`) : null;

const unique = (values: Array<string | null | undefined>): string[] => [...new Set(values.filter((v): v is string => !!v))];

export interface EntityIdentityRead {
  identity: EntityIdentity;
  catalog: CatalogArtifact | null;
  /** The product entities, for the report's per-product rows. */
  productEntities: Array<{ productId: string; entityId: string }>;
}

export async function entityIdentityOf(container: Container, business: Business): Promise<EntityIdentityRead> {
  const [site, catalog, competitors, productRecords] = await Promise.all([
    container.aiSites.get(business.orgSlug),
    container.artifacts.get<CatalogArtifact>(artifactKeys.catalog(business.orgSlug)),
    competitorRepositoryOf(container).list(business.orgSlug),
    container.products.list(business.orgSlug),
  ]);
  const products = catalog?.products ?? [];
  const identity: EntityIdentity = {
    name: business.name,
    aliases: unique([...brandWords(products, business.name), ...detectProductLines(products, business.name)]).filter((a) => a.toLowerCase() !== business.name.toLowerCase()),
    domains: unique([business.domain, hostOf(business.url), hostOf(site?.customDomain), hostOf(site?.publicOrigin)]),
    aiSiteDomains: unique([aiSiteHostOf(container, business.orgSlug), hostOf(site?.cdnDomain)]),
    productNames: unique(products.map((p) => p.name)).slice(0, MAX_PRODUCT_NAMES),
    competitors: competitors.map((c) => ({ name: c.name, domain: c.domain || null })),
  };
  return { identity, catalog, productEntities: productRecords.map((p) => ({ productId: p.productId, entityId: p.id })) };
}
