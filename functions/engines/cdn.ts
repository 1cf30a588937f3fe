/**
 * The CDN of this deployment: CloudFront when an edge-function version is configured
 * (`EDGE_FUNCTION_VERSION_ARN` → `config.cdn.edgeFunctionVersionArn`), else the local CDN
 * served by the local CDN proxy. Chosen once per container, with the matching publisher of
 * edge-function versions (issue 15): Lambda in us-east-1 (the function named by the version
 * ARN without its number), or the local stand-in (the edge-function source, versions counted
 * in the table).
 */
import { createLocalCdn, type LocalCdn } from '../adapters/local/local-cdn';
import { createLocalEdgePublisher } from '../adapters/local/local-edge-publisher';
import type { Config } from '../config';
import { unversionedFunctionArn } from '../core/edge/rollout';
import type { EdgeFunctionPublisher } from '../core/edge/types';
import { ProviderNotConfiguredError } from '../core/errors';
import type { CdnGateway, HostResolver } from '../core/proxy/types';
import type { DistributionIndex } from '../ports';
import { edgeVersionsOf } from './edge-versions';
import { perContainer } from './per-container';

export interface CdnEngine {
  /** `unconfigured`: on AWS without EDGE_FUNCTION_VERSION_ARN; its gateway refuses with the reason. */
  kind: 'cloudfront' | 'local' | 'unconfigured';
  gateway: CdnGateway;
  /** Records that `domain` is served by the distribution of `orgSlug` (GSI1 on the AI-site item). */
  indexDomain(orgSlug: string, domain: string): Promise<void>;
  /** The distribution a request Host belongs to (the local CDN proxy's lookup). */
  resolveHost: HostResolver;
  /** Publishes edge-function versions (the rollout's first step). */
  publisher: EdgeFunctionPublisher;
  /** The local stand-in when `kind` is `local` (tests inject faults through it). */
  local?: LocalCdn;
}

export function edgeFunctionVersionArnOf(config: Config): string | undefined {
  return config.cdn.edgeFunctionVersionArn?.trim() || undefined;
}

export const CDN_NOT_CONFIGURED = 'the CDN proxy is not configured: EDGE_FUNCTION_VERSION_ARN (the Lambda@Edge router version) is not set';

export const cdnOf = perContainer((container) => createCdnEngine(container.config, container.distributions, {
  nextLocalVersion: () => edgeVersionsOf(container).nextLocalVersion(),
}));

export interface CdnEngineOptions {
  /** The local stand-in's version counter (EdgeVersionRepository.nextLocalVersion). */
  nextLocalVersion?: () => Promise<number>;
}

export function createCdnEngine(config: Config, distributions: DistributionIndex, options: CdnEngineOptions = {}): CdnEngine {
  const local = createLocalCdn(
    { findByDomain: distributions.findOrg, indexAlias: distributions.indexAlias, setStoreOrigin: distributions.setStoreOrigin },
    { lookupCname: localCnameLookup(config) },
  );
  const indexDomain = distributions.index;
  const arn = edgeFunctionVersionArnOf(config);
  // The local CDN stands in only where everything is local (the embedded database);
  // on AWS a missing edge function is a configuration gap, never a pretend distribution.
  if (!arn && config.dynamodbEndpoint) {
    const publisher = createLocalEdgePublisher({
      sourceDir: config.cdn.edgeFunctionSourceDir,
      nextVersion: options.nextLocalVersion ?? (async () => { throw new Error('the local edge-function publisher has no version counter'); }),
    });
    return { kind: 'local', gateway: local, indexDomain, resolveHost: local.resolveHost, publisher, local };
  }
  if (!arn) {
    const refuse = async (): Promise<never> => { throw new ProviderNotConfiguredError(CDN_NOT_CONFIGURED); };
    const gateway: CdnGateway = {
      createDistribution: refuse,
      getDistribution: refuse,
      attachCertificate: refuse,
      setStoreOrigin: refuse,
      requestNativeCertificate: refuse,
      describeNativeCertificate: refuse,
      useCertificate: refuse,
      setEdgeFunction: refuse,
    };
    const publisher: EdgeFunctionPublisher = { latestCodeSha256: refuse, versionCodeSha256: refuse, publish: refuse };
    return { kind: 'unconfigured', gateway, indexDomain, resolveHost: local.resolveHost, publisher };
  }

  // Loaded only when CloudFront is configured, so other bundles never pull the client in.
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { CloudFrontClient } = require('@aws-sdk/client-cloudfront') as typeof import('@aws-sdk/client-cloudfront');
  const { createCloudFrontCdn } = require('../adapters/aws/cloudfront-cdn') as typeof import('../adapters/aws/cloudfront-cdn');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const gateway = createCloudFrontCdn({
    // CloudFront is global; its API lives in us-east-1.
    client: new CloudFrontClient({ region: 'us-east-1' }),
    edgeFunctionVersionArn: arn,
    logBucketDomain: config.cdn.logBucketDomain,
    importCertificate: async (certificate) => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { importCertificate } = require('../adapters/aws/acm-import') as typeof import('../adapters/aws/acm-import');
      return importCertificate(certificate);
    },
    nativeCertificates: {
      request: async (input) => acmNative().requestNativeCertificate(input),
      describe: async (certificateArn, names) => acmNative().describeNativeCertificate(certificateArn, names),
    },
  });
  return { kind: 'cloudfront', gateway, indexDomain, resolveHost: local.resolveHost, publisher: lambdaPublisher(arn) };
}

/** The Lambda publisher of the function `versionArn` is a version of; the Lambda client is loaded on first use. */
function lambdaPublisher(versionArn: string): EdgeFunctionPublisher {
  let built: EdgeFunctionPublisher | undefined;
  const get = (): EdgeFunctionPublisher => {
    if (!built) {
      const functionArn = unversionedFunctionArn(versionArn);
      if (!functionArn) throw new Error(`EDGE_FUNCTION_VERSION_ARN must be a numbered version in us-east-1, got ${versionArn}`);
      /* eslint-disable @typescript-eslint/no-require-imports */
      const { LambdaClient } = require('@aws-sdk/client-lambda') as typeof import('@aws-sdk/client-lambda');
      const { createLambdaEdgePublisher } = require('../adapters/aws/lambda-edge-publisher') as typeof import('../adapters/aws/lambda-edge-publisher');
      /* eslint-enable @typescript-eslint/no-require-imports */
      // Lambda@Edge functions live in us-east-1.
      built = createLambdaEdgePublisher({ client: new LambdaClient({ region: 'us-east-1' }), functionArn });
    }
    return built;
  };
  return {
    latestCodeSha256: () => get().latestCodeSha256(),
    versionCodeSha256: (arn) => get().versionCodeSha256(arn),
    publish: (sha, description) => get().publish(sha, description),
  };
}

function acmNative(): typeof import('../adapters/aws/acm-native') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('../adapters/aws/acm-native') as typeof import('../adapters/aws/acm-native');
}

/**
 * The local certificate manager's view of DNS: a name's CNAME through the configured
 * resolvers (DNS_RESOLVERS). The DNS adapter is loaded on the first lookup only.
 */
function localCnameLookup(config: Config): (name: string) => Promise<string | null> {
  let checker: import('../core/domain/records').DnsChecker | undefined;
  return async (name) => {
    if (!checker) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { createDnsChecker } = require('../adapters/external/dns') as typeof import('../adapters/external/dns');
      checker = createDnsChecker({ resolvers: config.dnsResolvers });
    }
    return (await checker.captureRecords(name)).CNAME;
  };
}
