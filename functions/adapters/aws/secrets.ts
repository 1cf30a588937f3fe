/**
 * Secrets kept in Secrets Manager on AWS (their ARNs are in the environment, never the
 * values). Fetched on first use and cached for the life of the Lambda container. Loaded
 * with require() by the composition root only when an ARN is set, so the client never
 * weighs on a local run and stays out of the hot path of the other bundles.
 */
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';

let client: SecretsManagerClient | undefined;
const cache = new Map<string, Promise<string | undefined>>();

/**
 * The secret's current string value; undefined when the secret has no value (or no longer
 * exists): the settings it would hold are then "not configured". Other failures reject
 * and are not cached, so the next use tries again.
 */
export function readSecret(arn: string, region: string): Promise<string | undefined> {
  let value = cache.get(arn);
  if (!value) {
    client ??= new SecretsManagerClient({ region });
    value = client.send(new GetSecretValueCommand({ SecretId: arn })).then(
      (r) => {
        if (r.SecretString === undefined) throw new Error(`secret ${arn} has no string value`);
        return r.SecretString;
      },
      (err: unknown) => {
        if ((err as Error)?.name === 'ResourceNotFoundException') return undefined;
        throw err;
      },
    );
    // A failed fetch must not be cached: the next request tries again.
    value.catch(() => cache.delete(arn));
    cache.set(arn, value);
  }
  return value;
}
