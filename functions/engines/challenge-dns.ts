/**
 * The delegated-challenge writer of a container (D203): challenge TXTs in the Route 53 zone of
 * ACME_DNS_ZONE_ID / ACME_DNS_ZONE_NAME, or, when those are not set, the reason delegation is
 * skipped (the customer then adds each TXT). Locally ROUTE53_ENDPOINT points the SDK at the
 * Route 53 fake (functions/local/fakes/route53.ts), with stand-in credentials as the local
 * database has. Part of the certificate engines, so only the certificate tasks load the SDK.
 */
import type { ChallengeDns } from '../adapters/aws/route53-challenge-dns';
import type { Config } from '../config';

export type ChallengeDelegation =
  | { writer: ChallengeDns; zone: string }
  | { writer: null; reason: string };

export const DELEGATION_NOT_CONFIGURED = 'delegated DNS-01 is not configured (ACME_DNS_ZONE_ID and ACME_DNS_ZONE_NAME are not set): the TXT records are added by hand';

export function challengeDelegationOf(config: Config): ChallengeDelegation {
  const zone = config.acmeDelegation;
  if (!zone) return { writer: null, reason: DELEGATION_NOT_CONFIGURED };
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Route53Client } = require('@aws-sdk/client-route-53') as typeof import('@aws-sdk/client-route-53');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { createRoute53ChallengeDns } = require('../adapters/aws/route53-challenge-dns') as typeof import('../adapters/aws/route53-challenge-dns');
  const client = new Route53Client({
    region: config.region,
    ...(zone.route53Endpoint ? { endpoint: zone.route53Endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
  });
  // The local fake is in sync at its second read: no need to wait Route 53's usual 2 s between reads.
  return { writer: createRoute53ChallengeDns({ client, hostedZoneId: zone.zoneId, ...(zone.route53Endpoint ? { pollMs: 50 } : {}) }), zone: zone.zoneName };
}
