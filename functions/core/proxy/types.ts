/**
 * The CDN proxy on a customer's domain (domain connection, onboarding step 1f).
 *
 * One CDN distribution per business: its default origin is the store, the shared edge
 * function (edge-function/index.ts) runs on origin-request and sends the AI paths (D28) to
 * the business's AI-site host, which the store origin names in its `x-ai-site-host` custom
 * header. CloudFront on AWS (adapters/aws/cloudfront-cdn.ts); locally a stand-in whose
 * distributions the local CDN proxy serves (adapters/local/local-cdn.ts, local/runtime/cdn-proxy.ts).
 */

export interface CreateDistributionInput {
  orgSlug: string;
  /** The store's origin URL, e.g. `https://shop.example`. */
  storeOrigin: string;
  /** The AI-site host name, e.g. `demo-store.aisites.example` (no scheme, no port). */
  aiSiteHost: string;
  /**
   * Idempotency key, derived from the organization slug: a retried create with the same
   * reference returns the distribution the first call created.
   */
  callerReference: string;
  /**
   * The edge-function version to attach (the stored current version, issue 15); omitted: the
   * gateway's bootstrap version (EDGE_FUNCTION_VERSION_ARN on AWS, none locally).
   */
  edgeFunctionVersionArn?: string | null;
}

export interface CreatedDistribution {
  distributionId: string;
  /** `<id>.cloudfront.net` on AWS, `<id>.cdn.localhost` locally. */
  domainName: string;
  /**
   * The edge-function version the distribution has (for a retried create, the one the first
   * create attached); null when none is known (locally without a published version).
   */
  edgeFunctionVersionArn?: string | null;
}

export interface DistributionInfo {
  id: string;
  domainName: string;
  /** CloudFront's `InProgress` / `Deployed`. */
  status: string;
  /** Alternate domain names (the connected customer domains). */
  aliases: string[];
  /** The viewer certificate's ARN; null while the distribution serves its default certificate. */
  certificateArn?: string | null;
  /** The edge-function version on origin-request; null when none (or, locally, not known in this process). */
  edgeFunctionVersionArn?: string | null;
}

/** An issued certificate to put on a distribution (issue 13 Part 1). The key never leaves the task that got it. */
export interface CertificateToAttach {
  certificatePem: string;
  /** Intermediates (PEM), leaf excluded. */
  chainPem: string;
  privateKeyPem: string;
  notAfter: string;
  /** The certificate this one replaces (re-imported onto the same ARN on AWS). */
  existingArn?: string | null;
  /** Tags of a first import. */
  tags?: Record<string, string>;
}

export interface AttachedCertificate {
  /** The certificate manager's ARN on AWS; `local:<distribution id>:<serial>` locally. */
  certificateArn: string;
  aliases: string[];
  notAfter: string;
}

export interface CdnGateway {
  createDistribution(input: CreateDistributionInput): Promise<CreatedDistribution>;
  /** Null when no such distribution exists. */
  getDistribution(id: string): Promise<DistributionInfo | null>;
  /**
   * Serves `aliases` (the custom domains) on the distribution with this certificate: on AWS
   * the certificate is imported into the certificate manager (us-east-1) and the
   * distribution gets the aliases, the certificate (SNI) and the TLS policy.
   */
  attachCertificate(distributionId: string, input: { aliases: string[]; certificate: CertificateToAttach }): Promise<AttachedCertificate>;
  /**
   * Re-points the distribution's `store` origin (domain connection Part 2: once DNS sends the
   * customer's domain to the CDN, an origin on that domain would loop, so the store is reached
   * at the domain's original CNAME target). `storeOrigin` is an origin URL, `https://host[:port]`
   * (the local CDN also takes `http://`). Only the origin's host and port change (its path and
   * the AI-site header stay). `changed: false` when it already pointed there (nothing written).
   * An origin on one of the distribution's own hosts is refused (ValidationError).
   */
  setStoreOrigin(distributionId: string, storeOrigin: string): Promise<{ storeOrigin: string; changed: boolean }>;
  /**
   * Requests the certificate manager's own DNS-validated certificate (renewed automatically
   * while its validation CNAMEs stay in DNS) for `names` (the first is the subject). A retry
   * with the same key and names returns the same certificate (on AWS for an hour: keep the ARN).
   */
  requestNativeCertificate(input: NativeCertificateRequest): Promise<{ certificateArn: string }>;
  /**
   * Status, validation CNAMEs (the records to add, one per distinct name/value, empty while the
   * certificate manager has not published them yet) and end of validity of a native certificate.
   * `names` are the names it was requested for.
   */
  describeNativeCertificate(certificateArn: string, names: string[]): Promise<NativeCertificateInfo>;
  /**
   * Serves the distribution with an already-issued certificate (SNI, VIEWER_TLS_POLICY), keeping
   * its aliases; nothing is written when it already does.
   */
  useCertificate(distributionId: string, certificateArn: string): Promise<void>;
  /**
   * Moves the distribution's origin-request edge function to `versionArn` (the edge-function
   * rollout, issue 15); only that association changes. `changed: false` when it already had it
   * (nothing written); `previousVersionArn` is what it had.
   */
  setEdgeFunction(distributionId: string, versionArn: string): Promise<{ changed: boolean; previousVersionArn: string | null }>;
}

export interface NativeCertificateRequest {
  distributionId: string;
  /** Fully-qualified names; the first is the certificate's subject, all are SANs. */
  names: string[];
  /** Stable per certificate wanted (e.g. org + domain): the request's idempotency token is derived from it. */
  idempotencyKey: string;
  /** Tags of the certificate, e.g. `{service: 'ai-visibility', org: '<slug>'}`. */
  tags?: Record<string, string>;
}

/** The certificate manager's statuses (ACM `CertificateStatus`). */
export const NATIVE_CERTIFICATE_STATUSES = ['PENDING_VALIDATION', 'ISSUED', 'FAILED', 'EXPIRED', 'REVOKED', 'INACTIVE', 'VALIDATION_TIMED_OUT'] as const;
export type NativeCertificateStatus = (typeof NATIVE_CERTIFICATE_STATUSES)[number];

/** A DNS-validation CNAME: `name` (no final dot) must point at `value`. */
export interface ValidationRecord {
  name: string;
  value: string;
}

export interface NativeCertificateInfo {
  status: NativeCertificateStatus;
  validationRecords: ValidationRecord[];
  /** ISO 8601 end of validity; null until issued. */
  notAfter: string | null;
  /** Why it is not issued (failure reason, records not published yet, no DNS lookup locally). */
  reason?: string;
}

/** What the edge function of one distribution needs: where its store and AI site are. */
export interface DistributionRoute {
  orgSlug: string;
  distributionId: string;
  storeOrigin: string;
  aiSiteHost: string;
}

/** Finds the distribution a request's Host belongs to (the local CDN proxy's lookup). */
export type HostResolver = (host: string) => Promise<ResolvedHost | null>;

export interface ResolvedHost {
  orgSlug: string;
  storeOrigin: string;
  aiSiteHost: string;
  distributionId?: string;
}

/** The custom header on the store origin that names the AI-site host (read by the edge function). */
export const AI_SITE_HOST_HEADER = 'x-ai-site-host';

/** The proxy_status values (spec "States"). */
export const PROXY_STATUSES = ['PENDING_VALIDATION', 'SSL_VALIDATING', 'SSL_VALIDATED', 'DEPLOYED', 'DISCONNECTED'] as const;
export type ProxyStatus = (typeof PROXY_STATUSES)[number];

/**
 * The proxy fields of the AI-site record (`ai_sites`), camelCase like the rest of the record.
 * The CDN fields are written by app/domain/cdn.ts; the domain-connection fields by later steps.
 */
export interface AiSiteProxyFields {
  cdnDistributionId?: string | null;
  cdnDomain?: string | null;
  /** The distribution's store origin and AI-site host, as configured at creation. */
  cdnStoreOrigin?: string | null;
  cdnAiSiteHost?: string | null;
  /** The edge-function version attached to the distribution (issue 15; null: none recorded). */
  cdnEdgeFunctionVersionArn?: string | null;
  proxyStatus?: ProxyStatus | null;
  customDomain?: string | null;
  /** `apex` or `subdomain`. */
  domainType?: 'apex' | 'subdomain' | null;
  nakedDomain?: string | null;
  /** `www`, a label, `a.b`, or `@` for apex. */
  subdomainLabel?: string | null;
  originCname?: string | null;
  originalWwwCname?: string | null;
  originalApexARecords?: string[] | null;
  certificateArn?: string | null;
  certificateType?: 'FREE_CA' | 'NATIVE' | null;
  /** ISO 8601 end of validity of the attached certificate. */
  certificateNotAfter?: string | null;
}

/** The spec's "Proxy information" (response of get-proxy). */
export interface ProxyInfo {
  has_proxy: boolean;
  proxy_status: string | null;
  cdn_domain: string | null;
  distribution_id: string | null;
  certificate_arn: string | null;
  origin_cname: string | null;
  original_www_cname: string | null;
  custom_domain: string | null;
  domain_type: 'subdomain' | 'apex';
  naked_domain: string | null;
  subdomain_label: string | null;
  original_apex_a_records: string[];
  apex_gateway_ips: string[] | null;
  /**
   * Beyond the spec's fields (D148): what the domain connection has reached, so a client can
   * show it without polling each operation: the certificate on the distribution and its end,
   * the native certificate's status, the webmaster verification, the origin the site names.
   */
  certificate_type: 'FREE_CA' | 'NATIVE' | null;
  certificate_not_after: string | null;
  native_certificate_status: string | null;
  google_verification_status: string | null;
  public_origin: string | null;
}
