/**
 * Deployment settings, read once from CDK context (cdk.json `context`, or `-c key=value`).
 * Only non-secret values live here; secrets are Secrets Manager secrets (see api-stack.ts).
 */
import type { Node } from 'constructs';

export const CONTEXT_PREFIX = 'ai-visibility:';

export type QuotaPolicy = 'one-time-burst' | 'weekly-100';
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface AppSettings {
  /** Parent domain of AI sites (`{slug}.{aiSiteDomain}`), env AI_SITE_DOMAIN. */
  aiSiteDomain: string;
  /** ACM certificate (us-east-1) for `*.{aiSiteDomain}`; without it the AI-site distribution uses its cloudfront.net name. */
  aiSiteCertificateArn?: string;
  /** The Lambda@Edge router's version ARN (output of the edge stack, deployed first). */
  edgeFunctionVersionArn?: string;
  jwtJwksUrl?: string;
  jwtIssuer?: string;
  jwtAudience?: string;
  articleQuotaPolicy: QuotaPolicy;
  logLevel: LogLevel;
  /** Stage-wide API Gateway throttling (steady rate per second, burst). */
  apiThrottleRate: number;
  apiThrottleBurst: number;
}

export const DEFAULT_SETTINGS: AppSettings = {
  aiSiteDomain: 'ai-sites.example.com',
  articleQuotaPolicy: 'one-time-burst',
  logLevel: 'info',
  apiThrottleRate: 50,
  apiThrottleBurst: 100,
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
  return {
    aiSiteDomain: str(node, 'aiSiteDomain') ?? DEFAULT_SETTINGS.aiSiteDomain,
    aiSiteCertificateArn: str(node, 'aiSiteCertificateArn'),
    edgeFunctionVersionArn: str(node, 'edgeFunctionVersionArn'),
    jwtJwksUrl: str(node, 'jwtJwksUrl'),
    jwtIssuer: str(node, 'jwtIssuer'),
    jwtAudience: str(node, 'jwtAudience'),
    articleQuotaPolicy: policy,
    logLevel: logLevel as LogLevel,
    apiThrottleRate: num(node, 'apiThrottleRate', DEFAULT_SETTINGS.apiThrottleRate),
    apiThrottleBurst: num(node, 'apiThrottleBurst', DEFAULT_SETTINGS.apiThrottleBurst),
  };
}

/** The environment variables every Lambda of the service gets (names from functions/config.ts). */
export function commonEnvironment(settings: AppSettings, tableName: string): Record<string, string> {
  const env: Record<string, string> = {
    TABLE_NAME: tableName,
    AI_SITE_DOMAIN: settings.aiSiteDomain,
    ARTICLE_QUOTA_POLICY: settings.articleQuotaPolicy,
    LOG_LEVEL: settings.logLevel,
  };
  if (settings.jwtJwksUrl) env.JWT_JWKS_URL = settings.jwtJwksUrl;
  if (settings.jwtIssuer) env.JWT_ISSUER = settings.jwtIssuer;
  if (settings.jwtAudience) env.JWT_AUDIENCE = settings.jwtAudience;
  return env;
}
