import type { Business } from '../../core/model';
import type { VisibilityCheck } from '../../core/visibility/checks';
import { buildVisibilityReport, type VisibilityReport } from '../../core/visibility/report';
import type { Container } from '../../container';
import type { CatalogArtifact } from '../discover-products';
import { entityIdentityOf } from './identity';

/**
 * Builds a day's report from its checks, stores it and sets the products' citation counts
 * of that day (a re-run replaces both). The identity is read unless the caller has it.
 */
export async function storeVisibilityReport(
  container: Container, business: Business, runDate: string, checks: VisibilityCheck[],
  known?: Awaited<ReturnType<typeof entityIdentityOf>>,
): Promise<VisibilityReport> {
  const { identity, catalog } = known ?? await entityIdentityOf(container, business);
  const productEntities = (await container.products.list(business.orgSlug)).map((p) => ({ productId: p.productId, entityId: p.id }));
  const report = buildVisibilityReport({
    orgSlug: business.orgSlug, businessName: business.name, aliases: identity.aliases, runDate, checks, competitors: identity.competitors, products: (catalog as CatalogArtifact | null)?.products ?? [],
    storeHosts: identity.domains, aiSiteHosts: identity.aiSiteDomains, productEntities,
  });
  await container.visibilityChecks.putReport(business.orgSlug, runDate, report);
  await container.products.recordCitations(business.orgSlug, runDate, Object.fromEntries(report.products.map((p) => [p.product_id, p.citation_count])));
  return report;
}
