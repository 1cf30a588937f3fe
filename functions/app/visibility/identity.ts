/**
 * Who is being looked for in an AI answer: the business's name and the other names it goes
 * by (vendor names that are the brand, product lines), its hosts (store, custom domain, AI
 * site, CDN) and product names, plus the competitors to label. Read once per analysis.
 */
import { artifactKeys } from '../../core/artifacts';
import type { Business } from '../../core/model';
import { brandWords, detectProductLines } from '../../core/prompts/product-lines';
import type { EntityIdentity } from '../../core/visibility/platform-answer';
import type { Container } from '../../container';
import { aiSiteHostOf } from '../cdn';
import type { CatalogArtifact } from '../discover-products';

/** Product names handed to the judge and matcher: enough to recognise, bounded for the prompt. */
const MAX_PRODUCT_NAMES = 200;

const hostOf = (value: unknown): string | null => {
  if (typeof value !== 'string' || !value.trim()) return null;
  try {
    return new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `https://${value}`).hostname.toLowerCase().replace(/^www\./, '');
  } catch {
    return null;
  }
};

const unique = (values: Array<string | null | undefined>): string[] => [...new Set(values.filter((v): v is string => !!v))];

export async function entityIdentityOf(container: Container, business: Business): Promise<{ identity: EntityIdentity; catalog: CatalogArtifact | null }> {
  const [site, catalog, competitors] = await Promise.all([
    container.aiSites.get(business.orgSlug),
    container.artifacts.get<CatalogArtifact>(artifactKeys.catalog(business.orgSlug)),
    container.competitors.list(business.orgSlug),
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
  return { identity, catalog };
}
