/**
 * Secret values on AWS (D104): one Secrets Manager secret per secret group of
 * functions/core/provider-settings.ts. The JSON groups (`ai-visibility/providers`,
 * `ai-visibility/accounts`) hold many provider keys in one object and live in the data
 * stack; the API key and the webhook secret are single-value secrets of the API stack. A
 * Lambda that may use a group gets the secret's ARN in the group's variable and
 * GetSecretValue on that secret only; values never reach the template or an environment.
 */
import { RemovalPolicy, SecretValue, Validations } from 'aws-cdk-lib';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { SECRET_GROUP_NAMES, SECRET_GROUPS, type SecretGroup } from '../functions/core/provider-settings';
import type { ApiFunction } from './constructs/api-function';

export type SecretsByGroup = Partial<Record<SecretGroup, secretsmanager.ISecret>>;

const JSON_SECRET_DESCRIPTIONS: Partial<Record<SecretGroup, string>> = {
  providers: 'API keys of the content and AI providers (scrape, search, model, platforms, judge, IndexNow, webmaster console), as one JSON object keyed by setting name',
  accounts: 'Keys of the identity provider and the payment provider (IDP_SECRET_KEY, STRIPE_SECRET_KEY), as one JSON object keyed by setting name',
};

/**
 * The JSON-object secrets, created with `{}` (every provider "not configured") under their
 * fixed names, so operators can set keys with `put-secret-value --secret-id <name>`.
 * CloudFormation writes the value only when the template's `{}` changes, which it never
 * does, so keys put there are kept across deploys; RETAIN keeps them past a stack deletion.
 */
export function createJsonSecrets(scope: Construct): SecretsByGroup {
  const out: SecretsByGroup = {};
  for (const group of SECRET_GROUP_NAMES) {
    const def = SECRET_GROUPS[group];
    if (def.format !== 'json') continue;
    const secret = new secretsmanager.Secret(scope, `${group[0].toUpperCase()}${group.slice(1)}Secret`, {
      secretName: def.secretName,
      description: JSON_SECRET_DESCRIPTIONS[group],
      secretStringValue: SecretValue.unsafePlainText('{}'),
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(secret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason: 'Provider API keys are issued by each provider and pasted here by an operator; AWS cannot rotate them.',
    });
    out[group] = secret;
  }
  return out;
}

/** Lets `fn` read the secrets of `groups`: each group's ARN variable plus GetSecretValue on that secret. */
export function grantSecretGroups(fn: ApiFunction, secrets: SecretsByGroup, groups: Iterable<SecretGroup>): void {
  for (const group of new Set(groups)) {
    const secret = secrets[group];
    if (!secret) throw new Error(`no secret for the ${group} secret group`);
    fn.addEnvironment(SECRET_GROUPS[group].arnVariable, secret.secretArn);
    secret.grantRead(fn);
  }
}
