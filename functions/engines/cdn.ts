/**
 * The CDN of this deployment: CloudFront when an edge-function version is configured
 * (`EDGE_FUNCTION_VERSION_ARN` → `config.cdn.edgeFunctionVersionArn`), else the local CDN
 * served by the local CDN proxy. Chosen once per container.
 */
import { createDocumentClient } from '../adapters/dynamodb/client';
import { findOrgByDistributionDomain, indexDistributionDomain } from '../adapters/dynamodb/distribution-index';
import { createLocalCdn } from '../adapters/local/local-cdn';
import type { Config } from '../config';
import type { Container } from '../container';
import { ProviderNotConfiguredError } from '../core/errors';
import type { CdnGateway, HostResolver } from '../core/proxy/types';

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

const chosen = new WeakMap<Container, CdnEngine>();

export function cdnOf(container: Container): CdnEngine {
  let engine = chosen.get(container);
  if (!engine) {
    engine = createCdnEngine(container.config);
    chosen.set(container, engine);
  }
  return engine;
}

export function createCdnEngine(config: Config): CdnEngine {
  const db = createDocumentClient({ region: config.region, endpoint: config.dynamodbEndpoint });
  const table = config.tableName;
  const registry = { findByDomain: (domain: string) => findOrgByDistributionDomain(db, table, domain) };
  const local = createLocalCdn(registry);
  const indexDomain = (orgSlug: string, domain: string) => indexDistributionDomain(db, table, orgSlug, domain);
  const arn = edgeFunctionVersionArnOf(config);
  // The local CDN stands in only where everything is local (the embedded database);
  // on AWS a missing edge function is a configuration gap, never a pretend distribution.
  if (!arn && config.dynamodbEndpoint) return { kind: 'local', gateway: local, indexDomain, resolveHost: local.resolveHost };
  if (!arn) {
    const refuse = async (): Promise<never> => { throw new ProviderNotConfiguredError(CDN_NOT_CONFIGURED); };
    return { kind: 'unconfigured', gateway: { createDistribution: refuse, getDistribution: refuse }, indexDomain, resolveHost: local.resolveHost };
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
  });
  return { kind: 'cloudfront', gateway, indexDomain, resolveHost: local.resolveHost };
}
