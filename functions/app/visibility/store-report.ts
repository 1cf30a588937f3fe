import type { Business } from '../../core/model';
import type { VisibilityCheck } from '../../core/visibility/checks';
import { buildVisibilityReport, type VisibilityReport } from '../../core/visibility/report';
import type { Container } from '../../container';
import { entityIdentityOf, type EntityIdentityRead } from './identity';
import { storeFunnelChecks } from './product-funnel';

/**
 * Builds a day's report from its checks, stores it and sets the products' citation counts
 * and funnel checks of that day (a re-run replaces them). The identity is read unless the caller has it.
 */
export async function storeVisibilityReport(
  container: Container, business: Business, runDate: string, checks: VisibilityCheck[],
  known?: EntityIdentityRead,
): Promise<VisibilityReport> {
  const { identity, catalog, productEntities } = known ?? await entityIdentityOf(container, business);
  const report = buildVisibilityReport({
    orgSlug: business.orgSlug, businessName: business.name, aliases: identity.aliases, runDate, checks, competitors: identity.competitors, products: catalog?.products ?? [],
    storeHosts: identity.domains, aiSiteHosts: identity.aiSiteDomains, productEntities,
  });
  await container.visibilityChecks.putReport(business.orgSlug, runDate, report);
  await storeFunnelChecks(container, report, checks);
  await container.products.recordCitations(business.orgSlug, runDate, Object.fromEntries(report.products.map((p) => [p.product_id, p.citation_count])));
  return report;
}
