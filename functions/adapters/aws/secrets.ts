/**
 * Secrets kept in Secrets Manager on AWS (their ARNs are in the environment, never the
 * values). Fetched on first use and cached for the life of the Lambda container.
 */
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';

let client: SecretsManagerClient | undefined;
const cache = new Map<string, Promise<string>>();

export function readSecret(arn: string, region: string): Promise<string> {
  let value = cache.get(arn);
  if (!value) {
    client ??= new SecretsManagerClient({ region });
    value = client.send(new GetSecretValueCommand({ SecretId: arn })).then((r) => {
      if (!r.SecretString) throw new Error(`secret ${arn} has no string value`);
      return r.SecretString;
    });
    // A failed fetch must not be cached: the next request tries again.
    value.catch(() => cache.delete(arn));
    cache.set(arn, value);
  }
  return value;
}
