/**
 * The ACME account key in its own Secrets Manager secret (not in a provider group: only the
 * certificate task Lambdas may read it). The secret's value is the PEM itself.
 *
 * - get: GetSecretValue; a missing secret, a secret without a value yet, or a value that is
 *   not a PEM private key (e.g. the random placeholder a CDK `Secret` starts with) is "no key
 *   yet": the engine then generates one and puts it.
 * - put: PutSecretValue on the secret (created by the stack, or by an earlier put); when it
 *   does not exist and `secretId` is a name (not an ARN), CreateSecret.
 * Values are never cached here: the engine keeps the key for the life of its container.
 */
import {
  CreateSecretCommand,
  GetSecretValueCommand,
  PutSecretValueCommand,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import type { AccountKeyStore } from '../../core/domain/certificate';

/** The secret's fixed name (`--secret-id` for operators). */
export const ACME_ACCOUNT_KEY_SECRET_NAME = 'ai-visibility/acme-account-key';

export interface SecretsAccountKeyStoreOptions {
  /** Name or ARN; default ACME_ACCOUNT_KEY_SECRET_NAME. */
  secretId?: string;
  client?: SecretsManagerClient;
  /** For the default client. */
  region?: string;
}

const notFound = (err: unknown) => (err as Error)?.name === 'ResourceNotFoundException';

export function createSecretsAccountKeyStore(options: SecretsAccountKeyStoreOptions = {}): AccountKeyStore {
  const secretId = options.secretId?.trim() || ACME_ACCOUNT_KEY_SECRET_NAME;
  let client = options.client;
  const sm = () => (client ??= new SecretsManagerClient(options.region ? { region: options.region } : {}));

  return {
    async get() {
      try {
        const { SecretString } = await sm().send(new GetSecretValueCommand({ SecretId: secretId }));
        return SecretString && /-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(SecretString) ? SecretString : null;
      } catch (err) {
        if (notFound(err)) return null;
        throw err;
      }
    },
    async put(pem) {
      try {
        await sm().send(new PutSecretValueCommand({ SecretId: secretId, SecretString: pem }));
      } catch (err) {
        if (!notFound(err) || secretId.startsWith('arn:')) throw err;
        await sm().send(new CreateSecretCommand({
          Name: secretId,
          SecretString: pem,
          Description: 'ACME account private key of the certificate engine (free certificates by DNS-01)',
        }));
      }
    },
  };
}
