/**
 * The outside providers' settings and secrets, defined once as data (D104). Every entry is
 * an environment variable of ../shared/LOCAL_RUNTIME.md:
 *   - `setting`: a non-secret value. Locally it comes from the environment; on AWS the CDK
 *     app reads it from context (`-c ai-visibility:<context>=...`) and sets the same
 *     variable on every Lambda (lib/settings.ts).
 *   - `secret`: locally it comes from the environment too; on AWS it is never in the
 *     environment nor the template: it lives in the Secrets Manager secret of its `group`,
 *     whose ARN (only) reaches the Lambdas that may read it (lib/secrets.ts), and
 *     functions read it through `Container.secrets` (functions/container.ts).
 * functions/config.ts maps the entries to typed config fields; nothing here reads process.env.
 */

/** The Secrets Manager secrets that hold secret values on AWS. */
export type SecretGroup = 'providers' | 'accounts' | 'apiKey' | 'idpWebhook';

export interface SecretGroupDef {
  /** The variable that carries the secret's ARN to the Lambdas granted it. */
  arnVariable: string;
  /** `json`: one JSON object keyed by the variable names it holds; `string`: the whole value is the one secret. */
  format: 'json' | 'string';
  /** Fixed Secrets Manager name, for operators (`--secret-id`); none: named by CloudFormation. */
  secretName?: string;
}

export const SECRET_GROUPS: Readonly<Record<SecretGroup, SecretGroupDef>> = {
  /** Content and AI providers: scrape, search, model, platforms, judge, IndexNow, webmaster console. */
  providers: { arnVariable: 'PROVIDER_SECRETS_ARN', format: 'json', secretName: 'ai-visibility/providers' },
  /** Identity provider and payments: kept apart so Lambdas that handle store content never hold them. */
  accounts: { arnVariable: 'ACCOUNT_SECRETS_ARN', format: 'json', secretName: 'ai-visibility/accounts' },
  /** The existing single-value secrets of the API stack. */
  apiKey: { arnVariable: 'API_KEY_SECRET_ARN', format: 'string' },
  idpWebhook: { arnVariable: 'IDP_WEBHOOK_SECRET_ARN', format: 'string' },
};

export const SECRET_GROUP_NAMES = Object.keys(SECRET_GROUPS) as SecretGroup[];

export interface SettingEntry<E extends string = string> {
  env: E;
  kind: 'setting';
  /** CDK context key, without the `ai-visibility:` prefix. */
  context: string;
  provider: string;
}

export interface SecretEntry<E extends string = string> {
  env: E;
  kind: 'secret';
  group: SecretGroup;
  provider: string;
}

export type ProviderEntry = SettingEntry | SecretEntry;

/** The context key is the variable's camelCase form (`LLM_BASE_URL` → `llmBaseUrl`) unless given. */
const setting = <E extends string>(provider: string, env: E, context: string = contextKeyOf(env)): SettingEntry<E> => ({ env, kind: 'setting', context, provider });
const secret = <E extends string>(provider: string, env: E, group: SecretGroup = 'providers'): SecretEntry<E> => ({ env, kind: 'secret', group, provider });

export const PLATFORM_NUMBERS = [1, 2, 3, 4, 5, 6, 7, 8] as const;
export type PlatformNumber = (typeof PLATFORM_NUMBERS)[number];

const platform = <N extends PlatformNumber>(n: N) => [
  setting(`AI platform ${n}`, `PLATFORM_${n}_API_URL`),
  secret(`AI platform ${n}`, `PLATFORM_${n}_API_KEY`),
  setting(`AI platform ${n}`, `PLATFORM_${n}_MODEL`),
] as const;

/** Every provider setting and secret (LOCAL_RUNTIME.md "Outside providers", plus the service's own secrets). */
export const PROVIDER_SETTINGS = [
  setting('batch scrape', 'SCRAPE_API_URL'),
  secret('batch scrape', 'SCRAPE_API_KEY'),
  setting('search', 'SEARCH_API_URL'),
  secret('search', 'SEARCH_API_KEY'),
  setting('model', 'LLM_BASE_URL'),
  secret('model', 'LLM_API_KEY'),
  setting('model', 'LLM_MODEL'),
  ...PLATFORM_NUMBERS.flatMap((n) => platform(n)),
  // platform_2 through Claude Platform on AWS (D235): the workspace its requests target.
  setting('AI platform 2', 'PLATFORM_2_WORKSPACE_ID'),
  // platform_3 through Gemini on Vertex AI (D239): the Google Cloud project its calls name.
  setting('AI platform 3', 'PLATFORM_3_VERTEX_PROJECT'),
  setting('AI platform limits', 'PLATFORM_CONCURRENCY'),
  setting('AI platform limits', 'PLATFORM_RATE_PER_MINUTE'),
  setting('AI platform limits', 'PLATFORM_DAILY_BUDGET'),
  setting('AI platform batches', 'VISIBILITY_BATCHES'),
  setting('AI platform batches', 'VISIBILITY_BATCH_POLL_SECONDS'),
  setting('judge', 'JUDGE_BASE_URL'),
  secret('judge', 'JUDGE_API_KEY'),
  setting('judge', 'JUDGE_MODEL'),
  setting('IndexNow', 'INDEXNOW_ENDPOINT', 'indexNowEndpoint'),
  secret('IndexNow', 'INDEXNOW_KEY'),
  setting('webmaster console', 'WEBMASTER_API_URL'),
  secret('webmaster console', 'WEBMASTER_CREDENTIALS'),
  setting('ACME', 'ACME_DIRECTORY_URL'),
  setting('ACME', 'ACME_CA_BUNDLE'),
  setting('ACME', 'ACME_ACCOUNT_EMAIL'),
  setting('ACME delegation', 'ACME_DNS_ZONE_ID'),
  setting('ACME delegation', 'ACME_DNS_ZONE_NAME'),
  setting('DNS checks', 'DNS_RESOLVERS'),
  setting('apex gateway', 'APEX_GATEWAY_IPS'),
  setting('domain connection', 'VERIFICATION_POLL_SECONDS'),
  setting('domain connection', 'NATIVE_CERTIFICATE_WAIT_SECONDS'),
  setting('favicon service', 'FAVICON_SERVICE_URL'),
  setting('crawler address lists', 'CRAWLER_ADDRESS_LISTS_URL'),
  setting('daily schedule', 'EDGE_PROPAGATION_WAIT_SECONDS'),
  setting('identity provider', 'IDP_API_URL'),
  secret('identity provider', 'IDP_SECRET_KEY', 'accounts'),
  setting('payments', 'STRIPE_API_URL'),
  secret('payments', 'STRIPE_SECRET_KEY', 'accounts'),
  secret('internal API key', 'API_KEY', 'apiKey'),
  secret('identity provider webhooks', 'IDP_WEBHOOK_SECRET', 'idpWebhook'),
] as const;

type Entry = (typeof PROVIDER_SETTINGS)[number];
export type SecretName = Extract<Entry, { kind: 'secret' }>['env'];
export type SettingName = Extract<Entry, { kind: 'setting' }>['env'];
/** Secret values by name; a missing or empty one means "not configured". */
export type SecretValues = Partial<Record<SecretName, string>>;

export const SECRET_ENTRIES = PROVIDER_SETTINGS.filter((e): e is Extract<Entry, { kind: 'secret' }> => e.kind === 'secret');
export const SETTING_ENTRIES = PROVIDER_SETTINGS.filter((e): e is Extract<Entry, { kind: 'setting' }> => e.kind === 'setting');
export const SECRET_NAMES: readonly SecretName[] = SECRET_ENTRIES.map((e) => e.env);

const groupOfSecret = new Map<string, SecretGroup>(SECRET_ENTRIES.map((e) => [e.env, e.group]));

export function secretGroupOf(name: SecretName): SecretGroup {
  return groupOfSecret.get(name)!;
}

export function secretsInGroup(group: SecretGroup): SecretName[] {
  return SECRET_ENTRIES.filter((e) => e.group === group).map((e) => e.env);
}

/** `LLM_API_KEY` → `llmApiKey`: the context key a value of that name would have. */
export function contextKeyOf(env: string): string {
  return env.toLowerCase().replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}
