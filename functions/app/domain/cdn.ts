/**
 * The CDN proxy of a business: creating its distribution (onboarding step 1f) and the
 * spec's "Proxy information" (get-proxy).
 *
 * A new distribution gets the current edge-function version (issue 15: the version the last
 * rollout stored, else the bootstrap EDGE_FUNCTION_VERSION_ARN, else none locally), and the
 * AI-site record keeps the version it got (`cdnEdgeFunctionVersionArn`), which is what the
 * rollout compares with the current version.
 */
import type { AiSiteRecord } from '../../core/model';
import type { AiSiteProxyFields, CreatedDistribution, ProxyInfo } from '../../core/proxy/types';
import type { Container } from '../../container';
import { cdnOf, edgeFunctionVersionArnOf } from '../../engines/cdn';
import { edgeVersionsOf } from '../../engines/edge-versions';
import { requireBusiness } from '../business';
import { aiSiteHostOf } from '../site';

export interface CdnDistributionResult extends CreatedDistribution {
  /** False when the business already had a distribution (nothing was created). */
  created: boolean;
}

/** The CloudFront CallerReference of a business's distribution: one per organization. */
export const callerReferenceOf = (orgSlug: string): string => `ai-visibility-proxy-${orgSlug}`;

/**
 * Creates the business's CDN distribution once: a business that already has one gets it
 * back, and a retry after a crash between the create and the record update finds the
 * distribution of the first attempt through the caller reference.
 */
export async function createCdnDistribution(container: Container, orgSlug: string): Promise<CdnDistributionResult> {
  const business = await requireBusiness(container, orgSlug);
  const site = await container.aiSites.get(orgSlug);
  const existing = proxyFieldsOf(site);
  if (existing.cdnDistributionId && existing.cdnDomain) {
    return { distributionId: existing.cdnDistributionId, domainName: existing.cdnDomain, created: false };
  }

  const cdn = cdnOf(container);
  const storeOrigin = business.url;
  const aiSiteHost = aiSiteHostOf(container, orgSlug);
  const edgeFunctionVersionArn = await currentEdgeFunctionVersionArn(container);
  const distribution = await cdn.gateway.createDistribution({
    orgSlug, storeOrigin, aiSiteHost, callerReference: callerReferenceOf(orgSlug), edgeFunctionVersionArn,
  });
  const attached = distribution.edgeFunctionVersionArn === undefined ? edgeFunctionVersionArn : distribution.edgeFunctionVersionArn;
  const fields: AiSiteProxyFields & { cdnEdgeFunctionAttachedAt: string } = {
    cdnDistributionId: distribution.distributionId,
    cdnDomain: distribution.domainName,
    cdnStoreOrigin: storeOrigin,
    cdnAiSiteHost: aiSiteHost,
    cdnEdgeFunctionVersionArn: attached,
    cdnEdgeFunctionAttachedAt: container.clock.now().toISOString(),
    // Never move a later state back (a concurrent run may already have gone further).
    proxyStatus: existing.proxyStatus ?? 'PENDING_VALIDATION',
  };
  await container.aiSites.patch(orgSlug, business.id, { ...fields });
  await cdn.indexDomain(orgSlug, distribution.domainName);
  return { ...distribution, edgeFunctionVersionArn: attached, created: true };
}

/** The edge-function version new distributions get: the stored current one, else the bootstrap setting, else none. */
async function currentEdgeFunctionVersionArn(container: Container): Promise<string | null> {
  const stored = await edgeVersionsOf(container).current();
  return stored?.versionArn ?? edgeFunctionVersionArnOf(container.config) ?? null;
}

/** The spec's "Proxy information" of a business. */
export async function getProxyInfo(container: Container, orgSlug: string): Promise<ProxyInfo> {
  const site = await container.aiSites.get(orgSlug);
  const p = proxyFieldsOf(site);
  const connection = connectionFieldsOf(site, p);
  if (!p.cdnDistributionId) {
    return {
      has_proxy: false,
      proxy_status: null,
      cdn_domain: null,
      distribution_id: null,
      certificate_arn: null,
      origin_cname: null,
      original_www_cname: null,
      custom_domain: null,
      domain_type: 'subdomain',
      naked_domain: null,
      subdomain_label: null,
      original_apex_a_records: [],
      apex_gateway_ips: null,
      ...connection,
    };
  }
  const apex = p.domainType === 'apex' || (p.domainType == null && p.subdomainLabel === '@');
  return {
    has_proxy: true,
    proxy_status: p.proxyStatus ?? null,
    cdn_domain: p.cdnDomain ?? null,
    distribution_id: p.cdnDistributionId,
    certificate_arn: p.certificateArn ?? null,
    origin_cname: p.originCname ?? null,
    original_www_cname: apex ? null : p.originalWwwCname ?? null,
    custom_domain: p.customDomain ?? null,
    domain_type: apex ? 'apex' : 'subdomain',
    naked_domain: p.nakedDomain ?? null,
    subdomain_label: p.subdomainLabel ?? null,
    original_apex_a_records: apex ? p.originalApexARecords ?? [] : [],
    apex_gateway_ips: apex && p.customDomain ? container.config.cdn.apexGatewayIps : null,
    ...connection,
  };
}

/** The domain connection's progress fields of get-proxy (D148). */
function connectionFieldsOf(site: AiSiteRecord | null, p: AiSiteProxyFields) {
  const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
  const native = site?.nativeCertificate as { status?: unknown } | null | undefined;
  return {
    certificate_type: p.certificateType ?? null,
    certificate_not_after: text(site?.certificateNotAfter),
    native_certificate_status: text(native?.status),
    google_verification_status: text(site?.googleVerificationStatus),
    public_origin: text(site?.publicOrigin),
  };
}

/** The proxy fields of an AI-site record, each type-checked (the record allows any extra field). */
function proxyFieldsOf(site: AiSiteRecord | null): AiSiteProxyFields {
  if (!site) return {};
  const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
  const list = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : null);
  return {
    cdnDistributionId: text(site.cdnDistributionId),
    cdnDomain: text(site.cdnDomain),
    cdnStoreOrigin: text(site.cdnStoreOrigin),
    cdnAiSiteHost: text(site.cdnAiSiteHost),
    cdnEdgeFunctionVersionArn: text(site.cdnEdgeFunctionVersionArn),
    proxyStatus: text(site.proxyStatus) as AiSiteProxyFields['proxyStatus'],
    customDomain: text(site.customDomain),
    domainType: text(site.domainType) as AiSiteProxyFields['domainType'],
    nakedDomain: text(site.nakedDomain),
    subdomainLabel: text(site.subdomainLabel),
    originCname: text(site.originCname),
    originalWwwCname: text(site.originalWwwCname),
    originalApexARecords: list(site.originalApexARecords),
    certificateArn: text(site.certificateArn),
    certificateType: text(site.certificateType) as AiSiteProxyFields['certificateType'],
  };
}
