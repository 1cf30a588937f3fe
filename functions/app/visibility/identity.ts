/**
 * Who is being looked for in an AI answer: the business's name and the other names it goes
 * by (vendor names that are the brand, product lines), its hosts (store, custom domain, AI
 * site, CDN) and product names, plus the competitors to label. Read once per analysis.
 *
 * Aliases follow core/visibility/brand-aliases.ts: a single word or a part of the name counts
 * only when the store uses it standalone (vendor field, its scraped pages or product titles,
 * its domain's first label) and, for a single word, it is not a common English word
 * (common-words.ts). Where the word list cannot be read (a bundled Lambda without it), every
 * single word is taken as ordinary: fewer aliases, never a false mention.
 */
import { artifactKeys } from '../../core/artifacts';
import { siteHost } from '../../core/crawl/url';
import type { Business } from '../../core/model';
import { brandWords, detectProductLines } from '../../core/prompts/product-lines';
import { brandAliases } from '../../core/visibility/brand-aliases';
import type { EntityIdentity } from '../../core/visibility/platform-answer';
import { isCommonWord } from './common-words';
import type { Container } from '../../container';
import { aiSiteHostOf, type CatalogArtifact, type ScrapeArtifact } from '../site';
import { competitorRepositoryOf } from '../../engines/competitor-repository';

/** Product names handed to the judge and matcher: enough to recognise, bounded for the prompt. */
const MAX_PRODUCT_NAMES = 200;

/** A stored URL or bare domain → its host for matching (siteHost: lower-case, no `www.`). */
const hostOf = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() ? siteHost(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `https://${value}`) : null;

const unique = (values: Array<string | null | undefined>): string[] => [...new Set(values.filter((v): v is string => !!v))];

/** `isCommonWord`, or "every word is ordinary" when the list cannot be read (see the module comment). */
function ordinaryWord(word: string): boolean {
  try {
    return isCommonWord(word);
  } catch {
    return true;
  }
}

export interface EntityIdentityRead {
  identity: EntityIdentity;
  catalog: CatalogArtifact | null;
  /** The product entities, for the report's per-product rows. */
  productEntities: Array<{ productId: string; entityId: string }>;
}

export async function entityIdentityOf(container: Container, business: Business): Promise<EntityIdentityRead> {
  const [site, catalog, competitors, productRecords, scrape] = await Promise.all([
    container.aiSites.get(business.orgSlug),
    container.artifacts.get<CatalogArtifact>(artifactKeys.catalog(business.orgSlug)),
    competitorRepositoryOf(container).list(business.orgSlug),
    container.products.list(business.orgSlug),
    container.artifacts.get<ScrapeArtifact>(artifactKeys.scrape(business.orgSlug)),
  ]);
  const products = catalog?.products ?? [];
  const domains = unique([business.domain, hostOf(business.url), hostOf(site?.customDomain), hostOf(site?.publicOrigin)]);
  const candidates = unique([...brandWords(products, business.name), ...detectProductLines(products, business.name)]);
  const aliases = brandAliases({
    businessName: business.name,
    candidates,
    vendors: products.map((p) => p.vendor ?? ''),
    texts: [...(scrape?.pages ?? []).map((p) => `${p.title}\n${p.markdown}`), ...products.map((p) => p.name)],
    domains: unique([business.domain, hostOf(business.url), hostOf(site?.customDomain)]),
  }, ordinaryWord);
  const identity: EntityIdentity = {
    name: business.name,
    aliases,
    domains,
    aiSiteDomains: unique([aiSiteHostOf(container, business.orgSlug), hostOf(site?.cdnDomain)]),
    productNames: unique(products.map((p) => p.name)).slice(0, MAX_PRODUCT_NAMES),
    competitors: competitors.map((c) => ({ name: c.name, domain: c.domain || null })),
  };
  return { identity, catalog, productEntities: productRecords.map((p) => ({ productId: p.productId, entityId: p.id })) };
}
