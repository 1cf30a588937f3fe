/**
 * Settings, read from the environment once (by the composition root). Nothing else in
 * functions/ reads process.env. Names follow ../shared/LOCAL_RUNTIME.md.
 */
import type { QuotaPolicy } from './core/articles/quota';

export interface Config {
  /** Running inside AWS Lambda (AWS_LAMBDA_FUNCTION_NAME is set by the Lambda runtime). */
  onLambda: boolean;
  tableName: string;
  /** Set locally (embedded database) and in tests; unset on AWS. */
  dynamodbEndpoint?: string;
  region: string;
  apiKey?: string;
  /** On AWS the secrets arrive as Secrets Manager ARNs and are read at first use. */
  apiKeySecretArn?: string;
  idpWebhookSecretArn?: string;
  jwt: { jwksUrl?: string; issuer?: string; audience?: string };
  idpWebhookSecret?: string;
  allowPrivateNetwork: boolean;
  aiSiteDomain: string;
  /** URL scheme of AI-site URLs: `http` locally, `https` on AWS. */
  aiSiteScheme: string;
  /** Port suffix of AI-site URLs: none on AWS; the local runtime sets its AI-site host's port. */
  aiSitePort: string;
  articleQuotaPolicy: QuotaPolicy;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
  /** Where AI-site releases live: a directory locally, an S3 bucket (+ KVS) on AWS. */
  sites: { dir?: string; bucket?: string; kvsArn?: string };
  /** Workflow artifacts: a directory locally; on AWS, `artifacts/` in the sites bucket. */
  artifactsDir?: string;
  /** Public base URL of this API (the tracking script posts visits to it). */
  apiPublicUrl: string;
  scrape: { apiUrl?: string; apiKey?: string };
  llm: { baseUrl?: string; apiKey?: string; model?: string };
  indexNowKey?: string;
  /** Web search (competitors, search-API prompts): Brave Search API shape. */
  search: { apiUrl?: string; apiKey?: string };
  /** Favicon service template with `{domain}`. */
  faviconServiceUrl?: string;
  /** The CDN proxy: CloudFront when the edge function's version ARN is set, the local proxy otherwise. */
  cdn: { edgeFunctionVersionArn?: string; apexGatewayIps: string[] };
  /** State machine ARNs on AWS, by workflow. */
  stateMachines: Partial<Record<'onboarding', string>>;
}

type Env = Record<string, string | undefined>;

export function loadConfig(env: Env = process.env): Config {
  const policy = env.ARTICLE_QUOTA_POLICY ?? 'one-time-burst';
  if (policy !== 'one-time-burst' && policy !== 'weekly-100') {
    throw new Error(`ARTICLE_QUOTA_POLICY must be one-time-burst or weekly-100, got ${policy}`);
  }
  const local = Boolean(env.DYNAMODB_ENDPOINT);
  return {
    onLambda: Boolean(env.AWS_LAMBDA_FUNCTION_NAME),
    tableName: env.TABLE_NAME ?? 'ai-visibility',
    dynamodbEndpoint: env.DYNAMODB_ENDPOINT || undefined,
    region: env.AWS_REGION ?? 'us-east-1',
    apiKey: env.API_KEY || undefined,
    apiKeySecretArn: env.API_KEY_SECRET_ARN || undefined,
    idpWebhookSecretArn: env.IDP_WEBHOOK_SECRET_ARN || undefined,
    jwt: {
      jwksUrl: env.JWT_JWKS_URL || undefined,
      issuer: env.JWT_ISSUER || undefined,
      audience: env.JWT_AUDIENCE || undefined,
    },
    idpWebhookSecret: env.IDP_WEBHOOK_SECRET || undefined,
    allowPrivateNetwork: env.ALLOW_PRIVATE_NETWORK === '1',
    aiSiteDomain: env.AI_SITE_DOMAIN ?? 'localhost',
    aiSiteScheme: env.AI_SITE_SCHEME ?? (local ? 'http' : 'https'),
    aiSitePort: '',
    articleQuotaPolicy: policy,
    logLevel: (env.LOG_LEVEL as Config['logLevel']) ?? 'info',
    sites: { dir: env.SITES_DIR || undefined, bucket: env.SITES_BUCKET || undefined, kvsArn: env.SITES_KVS_ARN || undefined },
    artifactsDir: env.ARTIFACTS_DIR || undefined,
    apiPublicUrl: (env.API_PUBLIC_URL ?? 'http://localhost:8080').replace(/\/+$/, ''),
    scrape: { apiUrl: env.SCRAPE_API_URL || undefined, apiKey: env.SCRAPE_API_KEY || undefined },
    llm: { baseUrl: env.LLM_BASE_URL || undefined, apiKey: env.LLM_API_KEY || undefined, model: env.LLM_MODEL || undefined },
    indexNowKey: env.INDEXNOW_KEY || undefined,
    search: { apiUrl: env.SEARCH_API_URL || undefined, apiKey: env.SEARCH_API_KEY || undefined },
    faviconServiceUrl: env.FAVICON_SERVICE_URL || undefined,
    cdn: {
      edgeFunctionVersionArn: env.EDGE_FUNCTION_VERSION_ARN || undefined,
      apexGatewayIps: (env.APEX_GATEWAY_IPS ?? '').split(',').map((ip) => ip.trim()).filter(Boolean),
    },
    stateMachines: env.ONBOARDING_STATE_MACHINE_ARN ? { onboarding: env.ONBOARDING_STATE_MACHINE_ARN } : {},
  };
}
