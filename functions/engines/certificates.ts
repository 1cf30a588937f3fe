/**
 * The certificate engines of a container (issue 13 Part 1): the ACME engine (acme-client)
 * and the live DNS checker. Imported by the certificate task modules only: acme-client is far
 * over the route bundle budget (D20).
 *
 * The delegated-challenge writer (engines/challenge-dns.ts, D203) is one of them: the Route 53
 * SDK is loaded only where certificates are.
 *
 * The ACME account key: locally a file next to the other local data (`<data dir>/acme`,
 * beside ARTIFACTS_DIR); on AWS its own Secrets Manager secret.
 */
import { dirname, join } from 'node:path';
import { createAcmeEngine, type AcmeEngine } from '../adapters/external/acme';
import type { Config } from '../config';
import type { AccountKeyStore } from '../core/domain/certificate';
import type { DnsChecker } from '../core/domain/records';
import { createLogger } from '../logger';
import { challengeDelegationOf, type ChallengeDelegation } from './challenge-dns';
import { dnsCheckerOf } from './dns';
import { perContainer } from './per-container';

export interface CertificateEngines {
  acme: Pick<AcmeEngine, 'directoryUrl' | 'startOrder' | 'completeOrder'>;
  dns: DnsChecker;
  delegation: ChallengeDelegation;
}

export function accountKeyStoreOf(config: Config): AccountKeyStore {
  if (!config.sites.bucket && config.artifactsDir) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { createFsAccountKeyStore } = require('../adapters/local/fs-account-key-store') as typeof import('../adapters/local/fs-account-key-store');
    return createFsAccountKeyStore(join(dirname(config.artifactsDir), 'acme'));
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { createSecretsAccountKeyStore } = require('../adapters/aws/secrets-account-key-store') as typeof import('../adapters/aws/secrets-account-key-store');
  return createSecretsAccountKeyStore({ region: config.region });
}

export const certificatesOf = perContainer((container): CertificateEngines => {
  const { config } = container;
  return {
    acme: createAcmeEngine({
      directoryUrl: config.acme.directoryUrl,
      caBundle: config.acme.caBundle,
      accountEmail: config.acme.accountEmail,
      accountKeyStore: accountKeyStoreOf(config),
      log: createLogger({ component: 'acme' }),
    }),
    dns: dnsCheckerOf(container),
    delegation: challengeDelegationOf(config),
  };
});
