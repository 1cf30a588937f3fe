/**
 * The CDN of this deployment: CloudFront when an edge-function version is configured
 * (`EDGE_FUNCTION_VERSION_ARN` → `config.cdn.edgeFunctionVersionArn`), else the local CDN
 * served by the local CDN proxy. Chosen once per container.
 */
import { createLocalCdn } from '../adapters/local/local-cdn';
import type { Config } from '../config';
import { ProviderNotConfiguredError } from '../core/errors';
import type { CdnGateway, HostResolver } from '../core/proxy/types';
import type { DistributionIndex } from '../ports';
import { perContainer } from './per-container';

export interface CdnEngine {
  /** `unconfigured`: on AWS without EDGE_FUNCTION_VERSION_ARN; its gateway refuses with the reason. */
  kind: 'cloudfront' | 'local' | 'unconfigured';
  gateway: CdnGateway;
  /** Records that `domain` is served by the distribution of `orgSlug` (GSI1 on the AI-site item). */
  indexDomain(orgSlug: string, domain: string): Promise<void>;
  /** The distribution a request Host belongs to (the local CDN proxy's lookup). */
  resolveHost: HostResolver;
}

export function edgeFunctionVersionArnOf(config: Config): string | undefined {
  return config.cdn.edgeFunctionVersionArn?.trim() || undefined;
}

export const CDN_NOT_CONFIGURED = 'the CDN proxy is not configured: EDGE_FUNCTION_VERSION_ARN (the Lambda@Edge router version) is not set';

export const cdnOf = perContainer((container) => createCdnEngine(container.config, container.distributions));

export function createCdnEngine(config: Config, distributions: DistributionIndex): CdnEngine {
  const local = createLocalCdn(
    { findByDomain: distributions.findOrg, indexAlias: distributions.indexAlias, setStoreOrigin: distributions.setStoreOrigin },
    { lookupCname: localCnameLookup(config) },
  );
  const indexDomain = distributions.index;
  const arn = edgeFunctionVersionArnOf(config);
  // The local CDN stands in only where everything is local (the embedded database);
  // on AWS a missing edge function is a configuration gap, never a pretend distribution.
  if (!arn && config.dynamodbEndpoint) return { kind: 'local', gateway: local, indexDomain, resolveHost: local.resolveHost };
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
    };
    return { kind: 'unconfigured', gateway, indexDomain, resolveHost: local.resolveHost };
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
  return { kind: 'cloudfront', gateway, indexDomain, resolveHost: local.resolveHost };
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
