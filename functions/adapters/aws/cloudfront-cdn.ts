/**
 * CdnGateway on CloudFront: one distribution per business.
 *
 * - Origins: `store` (the default behaviour's target; custom origin, https-only, carrying
 *   the `x-ai-site-host` custom header the edge function reads) and `ai-site` (the AI-site
 *   host). The edge function switches AI paths to the AI-site host per request (D4, D28);
 *   the `ai-site` origin documents the pair on the distribution and lets later behaviours
 *   target it.
 * - The edge function's numbered version on ORIGIN_REQUEST, without the body.
 * - Managed-AllViewer origin request policy: every viewer header incl. Host reaches the
 *   origin, so the store sees the customer's domain (the edge function sets Host itself
 *   for the AI origin).
 * - Managed-CachingDisabled: store HTML is personal (carts, sessions) and the AI host sets
 *   its own cache headers; nothing is cached at the edge unless a later change says so.
 * - Viewers on http are redirected to https.
 * - Idempotent: the CallerReference comes from the organization; a retried create that
 *   CloudFront refuses with DistributionAlreadyExists returns the distribution created first.
 * - Later changes (store origin, viewer certificate, edge-function version) read the
 *   configuration, change only their part, and update under its ETag (re-read and retried when
 *   another change came between); nothing is written when the distribution already has what is
 *   asked.
 * - The edge-function version attached at creation is the one the caller passes (the stored
 *   current version, issue 15), else `edgeFunctionVersionArn` (the bootstrap setting);
 *   `setEdgeFunction` (the rollout) replaces only the origin-request association's ARN.
 * - With `logBucketDomain` (CDN_LOG_BUCKET_DOMAIN: the access-log bucket's regional domain),
 *   standard logging goes to `cloudfront/proxy/<org>/` there, where the access-log ingest turns
 *   AI-crawler requests into visits; cookies are not logged.
 */
import {
  CloudFrontClient,
  CreateDistributionCommand,
  GetDistributionCommand,
  GetDistributionConfigCommand,
  ListDistributionsCommand,
  UpdateDistributionCommand,
  type DistributionConfig,
  type Origin,
  type PriceClass,
} from '@aws-sdk/client-cloudfront';
import { ValidationError } from '../../core/errors';
import {
  AI_SITE_HOST_HEADER,
  type CertificateToAttach,
  type CdnGateway,
  type CreateDistributionInput,
  type CreatedDistribution,
  type NativeCertificateInfo,
} from '../../core/proxy/types';

/** AWS managed policies (same ids in every account). */
export const MANAGED_ALL_VIEWER_ORIGIN_REQUEST_POLICY = '216adef6-5c7f-47e4-b989-5492eafa07d3';
export const MANAGED_CACHING_DISABLED_POLICY = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';

export const STORE_ORIGIN_ID = 'store';
export const AI_SITE_ORIGIN_ID = 'ai-site';

export interface CloudFrontCdnOptions {
  client: CloudFrontClient;
  /** The edge function's numbered version (`arn:aws:lambda:us-east-1:<acct>:function:<name>:<n>`). */
  edgeFunctionVersionArn: string;
  /** Default `PriceClass_100` (North America and Europe). */
  priceClass?: PriceClass;
  /** Standard logging of new distributions into this bucket (`<bucket>.s3.<region>.amazonaws.com`); none when unset. */
  logBucketDomain?: string;
  /**
   * Imports a certificate into the certificate manager in us-east-1 and returns its ARN
   * (adapters/aws/acm-import.ts; injected so bundles that never attach do not carry the ACM client).
   */
  importCertificate?: (certificate: CertificateToAttach) => Promise<string>;
  /**
   * The certificate manager's own DNS-validated certificates (adapters/aws/acm-native.ts;
   * injected for the same reason).
   */
  nativeCertificates?: {
    request(input: { names: string[]; idempotencyKey: string; tags?: Record<string, string> }): Promise<string>;
    describe(certificateArn: string, names: string[]): Promise<NativeCertificateInfo>;
  };
}

/** The viewer TLS policy of a distribution serving a custom domain. */
export const VIEWER_TLS_POLICY = 'TLSv1.2_2021';

const VERSIONED_LAMBDA_ARN = /^arn:aws[a-z-]*:lambda:us-east-1:\d{12}:function:[A-Za-z0-9_-]+:\d+$/;
/** A certificate manager certificate CloudFront can use (us-east-1). */
const CLOUDFRONT_ACM_ARN = /^arn:aws[a-z-]*:acm:us-east-1:\d{12}:certificate\/[A-Za-z0-9-]+$/;
/** Tries of a configuration update whose ETag went stale (PreconditionFailed) in between. */
const UPDATE_TRIES = 3;

export function createCloudFrontCdn(options: CloudFrontCdnOptions): CdnGateway {
  const { client, edgeFunctionVersionArn } = options;
  if (!VERSIONED_LAMBDA_ARN.test(edgeFunctionVersionArn)) {
    throw new Error(`edge function ARN must be a numbered version in us-east-1 (not $LATEST or an alias), got ${edgeFunctionVersionArn}`);
  }
  const priceClass = options.priceClass ?? 'PriceClass_100';

  return {
    async createDistribution(input) {
      const versionArn = input.edgeFunctionVersionArn?.trim() || edgeFunctionVersionArn;
      if (!VERSIONED_LAMBDA_ARN.test(versionArn)) throw new ValidationError(`edgeFunctionVersionArn: not a numbered version in us-east-1: ${versionArn}`);
      const config = distributionConfig(input, versionArn, priceClass, options.logBucketDomain?.trim() || undefined);
      try {
        const { Distribution } = await client.send(new CreateDistributionCommand({ DistributionConfig: config }));
        if (!Distribution?.Id || !Distribution.DomainName) throw new Error('CloudFront CreateDistribution returned no distribution');
        return { distributionId: Distribution.Id, domainName: Distribution.DomainName, edgeFunctionVersionArn: versionArn };
      } catch (err) {
        if ((err as { name?: string }).name !== 'DistributionAlreadyExists') throw err;
        const existing = await findByCallerReference(client, input.callerReference, config.Comment!, errorMessage(err));
        if (!existing) throw err;
        return existing;
      }
    },

    async getDistribution(id) {
      try {
        const { Distribution } = await client.send(new GetDistributionCommand({ Id: id }));
        if (!Distribution?.Id) return null;
        return {
          id: Distribution.Id,
          domainName: Distribution.DomainName ?? '',
          status: Distribution.Status ?? 'Unknown',
          aliases: Distribution.DistributionConfig?.Aliases?.Items ?? [],
          certificateArn: Distribution.DistributionConfig?.ViewerCertificate?.ACMCertificateArn ?? null,
          edgeFunctionVersionArn: Distribution.DistributionConfig ? originRequestArn(Distribution.DistributionConfig) : null,
        };
      } catch (err) {
        if ((err as { name?: string }).name === 'NoSuchDistribution') return null;
        throw err;
      }
    },

    async attachCertificate(distributionId, input) {
      if (!options.importCertificate) throw new Error('attachCertificate needs the certificate manager import (importCertificate option)');
      const certificateArn = await options.importCertificate(input.certificate);
      const aliases = [...new Set(input.aliases.map((a) => a.trim().toLowerCase().replace(/\.$/, '')))];
      const { DistributionConfig: current, ETag } = await client.send(new GetDistributionConfigCommand({ Id: distributionId }));
      if (!current) throw new Error(`CloudFront GetDistributionConfig returned no configuration for ${distributionId}`);
      const updated: DistributionConfig = {
        ...current,
        Aliases: { Quantity: aliases.length, Items: aliases },
        ViewerCertificate: {
          ACMCertificateArn: certificateArn,
          SSLSupportMethod: 'sni-only',
          MinimumProtocolVersion: VIEWER_TLS_POLICY,
          CloudFrontDefaultCertificate: false,
        },
      };
      await client.send(new UpdateDistributionCommand({ Id: distributionId, IfMatch: ETag, DistributionConfig: updated }));
      return { certificateArn, aliases, notAfter: input.certificate.notAfter };
    },

    async setStoreOrigin(distributionId, storeOrigin) {
      const target = storeOriginTarget(storeOrigin);
      const changed = await updateConfig(client, distributionId, (current) => {
        const origins = current.Origins?.Items ?? [];
        const index = origins.findIndex((o) => o.Id === STORE_ORIGIN_ID);
        if (index < 0) throw new Error(`CloudFront distribution ${distributionId} has no "${STORE_ORIGIN_ID}" origin`);
        const aliases = (current.Aliases?.Items ?? []).map((a) => a.toLowerCase());
        if (aliases.includes(target.domainName)) {
          throw new ValidationError(`storeOrigin: ${target.domainName} is served by this distribution itself; the store origin would loop`);
        }
        const store = origins[index];
        const currentPort = store.CustomOriginConfig?.HTTPSPort ?? 443;
        if (store.DomainName?.toLowerCase() === target.domainName && currentPort === target.httpsPort) return null;
        const originConfig = store.CustomOriginConfig ?? customOrigin(STORE_ORIGIN_ID, target.domainName, target.httpsPort, '', {}).CustomOriginConfig!;
        const updatedStore: Origin = { ...store, DomainName: target.domainName, CustomOriginConfig: { ...originConfig, HTTPSPort: target.httpsPort } };
        const items = origins.map((o, i) => (i === index ? updatedStore : o));
        return { ...current, Origins: { ...current.Origins, Quantity: items.length, Items: items } };
      });
      return { storeOrigin: target.origin, changed };
    },

    async requestNativeCertificate(input) {
      if (!options.nativeCertificates) throw new Error('requestNativeCertificate needs the certificate manager (nativeCertificates option)');
      const certificateArn = await options.nativeCertificates.request({ names: input.names, idempotencyKey: input.idempotencyKey, tags: input.tags });
      return { certificateArn };
    },

    async describeNativeCertificate(certificateArn, names) {
      if (!options.nativeCertificates) throw new Error('describeNativeCertificate needs the certificate manager (nativeCertificates option)');
      return options.nativeCertificates.describe(certificateArn, names);
    },

    async useCertificate(distributionId, certificateArn) {
      const arn = certificateArn.trim();
      if (!CLOUDFRONT_ACM_ARN.test(arn)) throw new ValidationError(`certificateArn: not a certificate manager ARN in us-east-1: ${certificateArn}`);
      const viewerCertificate = {
        ACMCertificateArn: arn,
        SSLSupportMethod: 'sni-only',
        MinimumProtocolVersion: VIEWER_TLS_POLICY,
        CloudFrontDefaultCertificate: false,
      } as const;
      await updateConfig(client, distributionId, (current) => {
        const now = current.ViewerCertificate;
        const same = now?.ACMCertificateArn === arn && now.SSLSupportMethod === viewerCertificate.SSLSupportMethod
          && now.MinimumProtocolVersion === viewerCertificate.MinimumProtocolVersion && now.CloudFrontDefaultCertificate === false;
        return same ? null : { ...current, ViewerCertificate: { ...viewerCertificate } };
      });
    },

    async setEdgeFunction(distributionId, versionArn) {
      const arn = versionArn.trim();
      if (!VERSIONED_LAMBDA_ARN.test(arn)) throw new ValidationError(`versionArn: not a numbered Lambda version in us-east-1: ${versionArn}`);
      let previousVersionArn: string | null = null;
      const changed = await updateConfig(client, distributionId, (current) => {
        previousVersionArn = originRequestArn(current);
        if (previousVersionArn === arn) return null;
        const behavior = current.DefaultCacheBehavior;
        if (!behavior) throw new Error(`CloudFront distribution ${distributionId} has no default cache behavior`);
        const items = behavior.LambdaFunctionAssociations?.Items ?? [];
        const index = items.findIndex((a) => a.EventType === 'origin-request');
        const next = index >= 0
          ? items.map((a, i) => (i === index ? { ...a, LambdaFunctionARN: arn } : a))
          : [...items, { EventType: 'origin-request' as const, LambdaFunctionARN: arn, IncludeBody: false }];
        return { ...current, DefaultCacheBehavior: { ...behavior, LambdaFunctionAssociations: { Quantity: next.length, Items: next } } };
      });
      return { changed, previousVersionArn };
    },
  };
}

/** The ARN of the default behaviour's origin-request function, or null. */
function originRequestArn(config: DistributionConfig): string | null {
  const found = config.DefaultCacheBehavior?.LambdaFunctionAssociations?.Items?.find((a) => a.EventType === 'origin-request');
  return found?.LambdaFunctionARN ?? null;
}

/**
 * Reads the distribution's configuration, lets `change` return the new one (null: nothing to
 * change) and updates it under the ETag read; a PreconditionFailed (another update came
 * between) starts over. True when an update was made.
 */
async function updateConfig(client: CloudFrontClient, distributionId: string, change: (current: DistributionConfig) => DistributionConfig | null): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    const { DistributionConfig: current, ETag } = await client.send(new GetDistributionConfigCommand({ Id: distributionId }));
    if (!current) throw new Error(`CloudFront GetDistributionConfig returned no configuration for ${distributionId}`);
    const updated = change(current);
    if (!updated) return false;
    try {
      await client.send(new UpdateDistributionCommand({ Id: distributionId, IfMatch: ETag, DistributionConfig: updated }));
      return true;
    } catch (err) {
      if ((err as { name?: string }).name !== 'PreconditionFailed' || attempt >= UPDATE_TRIES) throw err;
    }
  }
}

/**
 * A new store origin: `https://host[:port]` only (CloudFront fetches the store over https),
 * as its origin domain, https port and canonical URL.
 */
function storeOriginTarget(storeOrigin: string): { domainName: string; httpsPort: number; origin: string } {
  let url: URL;
  try {
    url = new URL(storeOrigin.trim());
  } catch {
    throw new ValidationError(`storeOrigin: not a URL: ${storeOrigin}`);
  }
  if (url.protocol !== 'https:') throw new ValidationError(`storeOrigin: must be an https origin (https://host[:port]): ${storeOrigin}`);
  if (url.username || url.password || url.search || url.hash || url.pathname !== '/') {
    throw new ValidationError(`storeOrigin: an origin only (https://host[:port]), no path, query or credentials: ${storeOrigin}`);
  }
  const { domainName: host, httpsPort } = originOf(url.origin);
  const domainName = host.replace(/\.$/, '');
  return { domainName, httpsPort, origin: `https://${domainName}${url.port ? `:${url.port}` : ''}` };
}

/** Where a business's standard logs go in the access-log bucket. */
const proxyLogPrefix = (orgSlug: string): string => `cloudfront/proxy/${orgSlug}/`;

/** The full DistributionConfig of a business's proxy (exported for tests and the rollout). */
export function distributionConfig(input: CreateDistributionInput, edgeFunctionVersionArn: string, priceClass: PriceClass = 'PriceClass_100', logBucketDomain?: string): DistributionConfig {
  const store = originOf(input.storeOrigin);
  return {
    CallerReference: input.callerReference,
    Comment: commentOf(input.callerReference),
    Enabled: true,
    PriceClass: priceClass,
    HttpVersion: 'http2and3',
    IsIPV6Enabled: true,
    Aliases: { Quantity: 0, Items: [] },
    Origins: {
      Quantity: 2,
      Items: [
        customOrigin(STORE_ORIGIN_ID, store.domainName, store.httpsPort, store.path, { [AI_SITE_HOST_HEADER]: input.aiSiteHost }),
        customOrigin(AI_SITE_ORIGIN_ID, input.aiSiteHost, 443, '', {}),
      ],
    },
    DefaultCacheBehavior: {
      TargetOriginId: STORE_ORIGIN_ID,
      ViewerProtocolPolicy: 'redirect-to-https',
      AllowedMethods: {
        Quantity: 7,
        Items: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'POST', 'PATCH', 'DELETE'],
        CachedMethods: { Quantity: 2, Items: ['GET', 'HEAD'] },
      },
      Compress: true,
      CachePolicyId: MANAGED_CACHING_DISABLED_POLICY,
      OriginRequestPolicyId: MANAGED_ALL_VIEWER_ORIGIN_REQUEST_POLICY,
      LambdaFunctionAssociations: {
        Quantity: 1,
        Items: [{ EventType: 'origin-request', LambdaFunctionARN: edgeFunctionVersionArn, IncludeBody: false }],
      },
      FunctionAssociations: { Quantity: 0, Items: [] },
    },
    CacheBehaviors: { Quantity: 0, Items: [] },
    // The customer's certificate and aliases are attached when the domain is connected.
    ViewerCertificate: { CloudFrontDefaultCertificate: true },
    Restrictions: { GeoRestriction: { RestrictionType: 'none', Quantity: 0, Items: [] } },
    ...(logBucketDomain ? { Logging: { Enabled: true, IncludeCookies: false, Bucket: logBucketDomain, Prefix: proxyLogPrefix(input.orgSlug) } } : {}),
  };
}

/** `https://shop.example[:port][/base]` → origin domain, https port and origin path. */
function originOf(storeOrigin: string): { domainName: string; httpsPort: number; path: string } {
  let url: URL;
  try {
    url = new URL(storeOrigin);
  } catch {
    throw new Error(`store origin is not a URL: ${storeOrigin}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`store origin must be http(s): ${storeOrigin}`);
  // The store is always fetched over https (https-only); a port only counts when given for https.
  const httpsPort = url.protocol === 'https:' && url.port ? Number(url.port) : 443;
  const path = url.pathname.replace(/\/+$/, '');
  return { domainName: url.hostname, httpsPort, path };
}

function customOrigin(id: string, domainName: string, httpsPort: number, path: string, headers: Record<string, string>): Origin {
  const items = Object.entries(headers).map(([HeaderName, HeaderValue]) => ({ HeaderName, HeaderValue }));
  return {
    Id: id,
    DomainName: domainName,
    OriginPath: path,
    CustomHeaders: { Quantity: items.length, Items: items },
    CustomOriginConfig: {
      HTTPPort: 80,
      HTTPSPort: httpsPort,
      OriginProtocolPolicy: 'https-only',
      OriginSslProtocols: { Quantity: 1, Items: ['TLSv1.2'] },
      OriginReadTimeout: 30,
      OriginKeepaliveTimeout: 5,
    },
    ConnectionAttempts: 3,
    ConnectionTimeout: 10,
    OriginShield: { Enabled: false },
  };
}

/** The distribution's comment names its caller reference, so a lost create can be found again. */
export function commentOf(callerReference: string): string {
  return `ai-visibility proxy ${callerReference}`.slice(0, 128);
}

function errorMessage(err: unknown): string {
  const e = err as { message?: string; Message?: string };
  return `${e.Message ?? ''} ${e.message ?? ''}`;
}

/**
 * The distribution created with `callerReference`: the id CloudFront names in the error
 * when it does, else the distributions whose comment matches; each candidate is confirmed
 * by its CallerReference.
 */
async function findByCallerReference(client: CloudFrontClient, callerReference: string, comment: string, message: string): Promise<CreatedDistribution | null> {
  /** The configuration of `id` when it is the one created with `callerReference`, else null. */
  const confirm = async (id: string): Promise<DistributionConfig | null> => {
    try {
      const { DistributionConfig } = await client.send(new GetDistributionConfigCommand({ Id: id }));
      return DistributionConfig?.CallerReference === callerReference ? DistributionConfig : null;
    } catch (err) {
      if ((err as { name?: string }).name === 'NoSuchDistribution') return null;
      throw err;
    }
  };
  const named = /\b(E[A-Z0-9]{7,})\b/.exec(message)?.[1];
  const namedConfig = named ? await confirm(named) : null;
  if (named && namedConfig) {
    const { Distribution } = await client.send(new GetDistributionCommand({ Id: named }));
    if (Distribution?.Id && Distribution.DomainName) return { distributionId: Distribution.Id, domainName: Distribution.DomainName, edgeFunctionVersionArn: originRequestArn(namedConfig) };
  }
  let marker: string | undefined;
  do {
    const { DistributionList } = await client.send(new ListDistributionsCommand({ Marker: marker, MaxItems: 100 }));
    for (const summary of DistributionList?.Items ?? []) {
      if (summary.Comment !== comment || !summary.Id || !summary.DomainName) continue;
      const config = await confirm(summary.Id);
      if (config) return { distributionId: summary.Id, domainName: summary.DomainName, edgeFunctionVersionArn: originRequestArn(config) };
    }
    marker = DistributionList?.IsTruncated ? DistributionList.NextMarker : undefined;
  } while (marker);
  return null;
}
