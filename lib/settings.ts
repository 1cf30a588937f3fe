/**
 * Deployment settings, read once from CDK context (cdk.json `context`, or `-c key=value`).
 * Only non-secret values live here; secrets are Secrets Manager secrets (lib/secrets.ts).
 * The provider settings come from the one table of functions/core/provider-settings.ts
 * (D104): each `setting` is read from `ai-visibility:<context>` and reaches every Lambda
 * as the variable the local runtime reads; a context key for a `secret` is refused.
 */
import type { Node } from 'constructs';
import { loadConfig } from '../functions/config';
import { contextKeyOf, SECRET_ENTRIES, SETTING_ENTRIES, type SettingName } from '../functions/core/provider-settings';

export const CONTEXT_PREFIX = 'ai-visibility:';

export type QuotaPolicy = 'one-time-burst' | 'weekly-100';
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface AppSettings {
  /** Parent domain of AI sites (`{slug}.{aiSiteDomain}`), env AI_SITE_DOMAIN. */
  aiSiteDomain: string;
  /** ACM certificate (us-east-1) for `*.{aiSiteDomain}`; without it the AI-site distribution uses its cloudfront.net name. */
  aiSiteCertificateArn?: string;
  /**
   * The Route 53 hosted zone that holds `aiSiteDomain` (its id; `aiSiteHostedZoneName`, the
   * zone's own name, defaults to aiSiteDomain): the app then creates the `*.{aiSiteDomain}` alias
   * records (A and AAAA) to the AI-site distribution. Needs the certificate.
   */
  aiSiteHostedZoneId?: string;
  aiSiteHostedZoneName?: string;
  /** The Lambda@Edge router's version ARN (output of the edge stack, deployed first). */
  edgeFunctionVersionArn?: string;
  /**
   * The AI-site manifest resolver's version ARN (output SiteResolverVersionArn of the edge
   * stack). Set: the AI-site distribution resolves manifests at the edge and releases reuse
   * unchanged objects (SITES_LAYOUT=manifest, D179); unset: one prefix per release.
   */
  siteResolverVersionArn?: string;
  jwtJwksUrl?: string;
  jwtIssuer?: string;
  jwtAudience?: string;
  articleQuotaPolicy: QuotaPolicy;
  logLevel: LogLevel;
  /** Stage-wide API Gateway throttling (steady rate per second, burst). */
  apiThrottleRate: number;
  apiThrottleBurst: number;
  /** Provider settings given in context, by variable name (`LLM_BASE_URL`: `-c ai-visibility:llmBaseUrl=...`). */
  providers: Partial<Record<SettingName, string>>;
}

export const DEFAULT_SETTINGS: AppSettings = {
  aiSiteDomain: 'ai-sites.example.com',
  articleQuotaPolicy: 'one-time-burst',
  logLevel: 'info',
  apiThrottleRate: 50,
  apiThrottleBurst: 100,
  providers: {},
};

function str(node: Node, key: string): string | undefined {
  const value: unknown = node.tryGetContext(CONTEXT_PREFIX + key);
  if (value === undefined || value === null || value === '') return undefined;
  return String(value);
}

function num(node: Node, key: string, fallback: number): number {
  const raw = str(node, key);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`context ${CONTEXT_PREFIX}${key} must be a positive number, got ${raw}`);
  return value;
}

export function settingsFromContext(node: Node): AppSettings {
  const policy = str(node, 'articleQuotaPolicy') ?? DEFAULT_SETTINGS.articleQuotaPolicy;
  if (policy !== 'one-time-burst' && policy !== 'weekly-100') {
    throw new Error(`context ${CONTEXT_PREFIX}articleQuotaPolicy must be one-time-burst or weekly-100, got ${policy}`);
  }
  const logLevel = str(node, 'logLevel') ?? DEFAULT_SETTINGS.logLevel;
  if (!['debug', 'info', 'warn', 'error'].includes(logLevel)) {
    throw new Error(`context ${CONTEXT_PREFIX}logLevel must be debug, info, warn or error, got ${logLevel}`);
  }
  const settings: AppSettings = {
    aiSiteDomain: str(node, 'aiSiteDomain') ?? DEFAULT_SETTINGS.aiSiteDomain,
    aiSiteCertificateArn: str(node, 'aiSiteCertificateArn'),
    aiSiteHostedZoneId: str(node, 'aiSiteHostedZoneId'),
    aiSiteHostedZoneName: str(node, 'aiSiteHostedZoneName'),
    edgeFunctionVersionArn: str(node, 'edgeFunctionVersionArn'),
    siteResolverVersionArn: str(node, 'siteResolverVersionArn'),
    jwtJwksUrl: str(node, 'jwtJwksUrl'),
    jwtIssuer: str(node, 'jwtIssuer'),
    jwtAudience: str(node, 'jwtAudience'),
    articleQuotaPolicy: policy,
    logLevel: logLevel as LogLevel,
    apiThrottleRate: num(node, 'apiThrottleRate', DEFAULT_SETTINGS.apiThrottleRate),
    apiThrottleBurst: num(node, 'apiThrottleBurst', DEFAULT_SETTINGS.apiThrottleBurst),
    providers: providerSettingsFromContext(node),
  };
  if (settings.aiSiteHostedZoneId && !settings.aiSiteCertificateArn) {
    throw new Error(`context ${CONTEXT_PREFIX}aiSiteHostedZoneId needs ${CONTEXT_PREFIX}aiSiteCertificateArn: the distribution answers *.${settings.aiSiteDomain} only with its certificate`);
  }
  const zoneName = settings.aiSiteHostedZoneName ?? settings.aiSiteDomain;
  if (settings.aiSiteHostedZoneId && settings.aiSiteDomain !== zoneName && !settings.aiSiteDomain.endsWith(`.${zoneName}`)) {
    throw new Error(`context ${CONTEXT_PREFIX}aiSiteHostedZoneName ${zoneName} does not hold ${settings.aiSiteDomain}`);
  }
  // The functions' own reader checks the values (a bad number fails synth, not every cold start).
  try {
    loadConfig(commonEnvironment(settings, 'table'));
  } catch (err) {
    const message = (err as Error).message;
    const entry = SETTING_ENTRIES.find((e) => message.startsWith(`${e.env} `));
    throw new Error(entry ? `context ${CONTEXT_PREFIX}${entry.context}: ${message}` : message);
  }
  return settings;
}

function providerSettingsFromContext(node: Node): Partial<Record<SettingName, string>> {
  // A secret never goes through context: it would land in the template and the Lambda configuration.
  const secretKeys = new Map(SECRET_ENTRIES.map((e) => [contextKeyOf(e.env).toLowerCase(), e]));
  for (const key of contextKeys(node)) {
    const entry = secretKeys.get(key.toLowerCase());
    if (entry && str(node, key) !== undefined) {
      throw new Error(`context ${CONTEXT_PREFIX}${key}: ${entry.env} is a secret; put it in the Secrets Manager secret of the ${entry.group} group, never in context (docs/operations.md: Provider settings and secrets)`);
    }
  }
  const values: Partial<Record<SettingName, string>> = {};
  for (const entry of SETTING_ENTRIES) {
    const value = str(node, entry.context);
    if (value !== undefined) values[entry.env] = value;
  }
  return values;
}

/** Every `ai-visibility:` context key (cdk.json, `-c`, the App's own context), without the prefix. */
function contextKeys(node: Node): string[] {
  return Object.keys(node.getAllContext() as Record<string, unknown>)
    .filter((k) => k.startsWith(CONTEXT_PREFIX))
    .map((k) => k.slice(CONTEXT_PREFIX.length));
}

/** The environment variables every Lambda of the service gets (names from functions/config.ts). */
export function commonEnvironment(settings: AppSettings, tableName: string): Record<string, string> {
  const env: Record<string, string> = {
    TABLE_NAME: tableName,
    AI_SITE_DOMAIN: settings.aiSiteDomain,
    ARTICLE_QUOTA_POLICY: settings.articleQuotaPolicy,
    LOG_LEVEL: settings.logLevel,
    // Manifest releases only where the AI-site distribution can resolve them (D179).
    SITES_LAYOUT: settings.siteResolverVersionArn ? 'manifest' : 'prefix',
  };
  if (settings.jwtJwksUrl) env.JWT_JWKS_URL = settings.jwtJwksUrl;
  if (settings.jwtIssuer) env.JWT_ISSUER = settings.jwtIssuer;
  if (settings.jwtAudience) env.JWT_AUDIENCE = settings.jwtAudience;
  return { ...env, ...settings.providers };
}
