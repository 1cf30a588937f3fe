/**
 * Settings, read from the environment once (by the composition root). Nothing else in
 * functions/ reads process.env. Names follow ../shared/LOCAL_RUNTIME.md.
 */
import { DEFAULT_QUOTA_POLICY, QUOTA_POLICIES, type QuotaPolicy } from './core/articles/quota';
import { PLATFORM_NUMBERS, SECRET_GROUPS, SECRET_GROUP_NAMES, SECRET_NAMES, type PlatformNumber, type SecretGroup, type SecretValues } from './core/provider-settings';
import { VISIBILITY_BATCH_POLL_SECONDS, EDGE_PROPAGATION_WAIT_SECONDS, EDGE_UPDATE_BATCH_PAUSE_SECONDS, NATIVE_CERTIFICATE_WAIT_SECONDS, PLATFORM_LIMIT_DEFAULTS, VERIFICATION_POLL_INTERVAL_SECONDS } from './core/constants';
import { defaultLogFormat, LOG_FORMATS, LOG_LEVELS, type LogFormat, type LogLevel } from './logger';
import { stateMachineArnVariable, WORKFLOWS, type WorkflowName } from './core/workflows';
import { SITE_LAYOUTS, type SiteLayout } from './core/site/release-manifest';

export interface Config {
  /** Running inside AWS Lambda (AWS_LAMBDA_FUNCTION_NAME is set by the Lambda runtime). */
  onLambda: boolean;
  tableName: string;
  /** Set locally (embedded database) and in tests; unset on AWS. */
  dynamodbEndpoint?: string;
  region: string;
  /**
   * Secret values (functions/core/provider-settings.ts), by setting name. Locally they come
   * from the environment; on AWS only the ARNs below are in the environment, and
   * `container.ready()` reads the values and fills this and the typed fields below
   * (applySecretValues). Never log them.
   */
  secretValues: SecretValues;
  /** On AWS: the Secrets Manager secret of each secret group this Lambda may read (`<GROUP>_..._ARN`). */
  secretArns: Partial<Record<SecretGroup, string>>;
  apiKey?: string;
  jwt: { jwksUrl?: string; issuer?: string; audience?: string };
  idpWebhookSecret?: string;
  allowPrivateNetwork: boolean;
  aiSiteDomain: string;
  /** URL scheme of AI-site URLs: `http` locally, `https` on AWS. */
  aiSiteScheme: string;
  /** Port suffix of AI-site URLs: none on AWS; the local runtime sets its AI-site host's port. */
  aiSitePort: string;
  articleQuotaPolicy: QuotaPolicy;
  logLevel: LogLevel;
  /** `json` (Powertools, one JSON object per line) on Lambda, `text` (readable lines) elsewhere, unless LOG_FORMAT says otherwise. */
  logFormat: LogFormat;
  /** Where AI-site releases live: a directory locally, an S3 bucket (+ KVS) on AWS. */
  /** `layout`: S3 releases as prefixes, or as manifests of shared objects where the edge resolves them (D179). */
  sites: { dir?: string; bucket?: string; kvsArn?: string; layout: SiteLayout };
  /** Workflow artifacts: a directory locally; on AWS, `artifacts/` in the sites bucket. */
  artifactsDir?: string;
  /** A Distributed Map's item lists and results: a directory locally; on AWS, the sites bucket. */
  workflowObjectsDir?: string;
  /** Public base URL of this API (the tracking script posts visits to it). */
  apiPublicUrl: string;
  scrape: { apiUrl?: string; apiKey?: string };
  llm: { baseUrl?: string; apiKey?: string; model?: string };
  /** The single evaluating model; each part defaults to the `llm` one (the key only when the base URL is the same). */
  judge: { baseUrl?: string; apiKey?: string; model?: string };
  /** AI platforms 1..8 (`PLATFORM_<n>_API_URL`, `_API_KEY`, `_MODEL`), always 8 entries. */
  platforms: Array<{ n: PlatformNumber; apiUrl?: string; apiKey?: string; model?: string; workspaceId?: string; vertexProject?: string }>;
  /** Fleet-wide limits applied to each AI platform (PLATFORM_CONCURRENCY, PLATFORM_RATE_PER_MINUTE, PLATFORM_DAILY_BUDGET). */
  platformLimits: { concurrency: number; ratePerMinute: number; dailyBudget: number };
  indexNowKey?: string;
  /** IndexNow submission endpoint; unset: the public IndexNow endpoint. */
  indexNowEndpoint?: string;
  webmaster: { apiUrl?: string; credentials?: string };
  acme: { directoryUrl?: string; caBundle?: string; accountEmail?: string };
  /**
   * Delegated DNS-01 (D203): the Route 53 hosted zone (ACME_DNS_ZONE_ID, ACME_DNS_ZONE_NAME)
   * the customers' `_acme-challenge` CNAMEs point into, where the service writes each challenge
   * TXT itself. Unset: the customer adds each certificate's TXT records. `route53Endpoint`
   * (ROUTE53_ENDPOINT, local only) points the Route 53 SDK at the local fake.
   */
  acmeDelegation?: { zoneId: string; zoneName: string; route53Endpoint?: string };
  /** `host:port` resolvers for DNS checks; empty: public resolvers. */
  dnsResolvers: string[];
  /** Identity provider API (organization members). */
  idp: { apiUrl?: string; secretKey?: string };
  /** Payment provider (the URL lets tests point the official SDK at a local fake). */
  stripe: { apiUrl?: string; secretKey?: string };
  /** Web search (competitors, search-API prompts): Brave Search API shape. */
  search: { apiUrl?: string; apiKey?: string };
  /**
   * Where the crawler vendors' published address lists are fetched from (D193): unset, each
   * vendor's own URL; set (CRAWLER_ADDRESS_LISTS_URL), a mirror holding the same paths under
   * `<mirror>/<vendor host>/<path>` (tests, or a network without direct egress).
   */
  crawlerAddressListsUrl?: string;
  /** Favicon service template with `{domain}`. */
  faviconServiceUrl?: string;
  /**
   * The CDN proxy: CloudFront when the edge function's version ARN is set, the local proxy
   * otherwise. `edgeFunctionVersionArn` is the bootstrap version (the stored current version
   * replaces it once a rollout ran, issue 15); `logBucketDomain` (CDN_LOG_BUCKET_DOMAIN) turns
   * on standard logging of new distributions; `rolloutPauseSeconds` (EDGE_ROLLOUT_PAUSE_SECONDS,
   * default 1) is the pause between rollout batches; `edgeFunctionSourceDir`
   * (EDGE_FUNCTION_SOURCE_DIR, local stand-in only) is the code a local rollout publishes.
   */
  cdn: { edgeFunctionVersionArn?: string; apexGatewayIps: string[]; logBucketDomain?: string; rolloutPauseSeconds: number; edgeFunctionSourceDir?: string };
  /** State machine ARNs on AWS, by workflow (`<WORKFLOW>_STATE_MACHINE_ARN`). */
  stateMachines: Partial<Record<WorkflowName, string>>;
  /** Daily schedule: seconds to wait after the merged deploy for edge propagation (spec: 10). */
  edgePropagationWaitSeconds: number;
  /** Domain connection, Part 2: seconds between webmaster verification polls (D18: 10) and between looks at the native certificate. */
  domain: { verificationPollSeconds: number; nativeCertificateWaitSeconds: number };
  /** Local runtime: run the daily schedule at 14:00 UTC (SCHEDULE_ENABLED, default on). */
  scheduleEnabled: boolean;
  /**
   * The platforms whose daily checks go as vendor batches at half price (VISIBILITY_BATCHES:
   * `on` = 1, 2 and 3, the ones whose vendor sells a batch interface (3 on the Gemini API only:
   * on Vertex AI it has no batch client, D239); `off` = none; or a list
   * such as `2,3`), and how often the daily run looks for their results (VISIBILITY_BATCH_POLL_SECONDS, 600).
   */
  visibilityBatches: { platforms: readonly number[]; pollSeconds: number };
}

type Env = Record<string, string | undefined>;

export function loadConfig(env: Env = process.env): Config {
  const policy = oneOf('ARTICLE_QUOTA_POLICY', env.ARTICLE_QUOTA_POLICY, QUOTA_POLICIES, DEFAULT_QUOTA_POLICY);
  const local = Boolean(env.DYNAMODB_ENDPOINT);
  const config: Config = {
    onLambda: Boolean(env.AWS_LAMBDA_FUNCTION_NAME),
    tableName: env.TABLE_NAME ?? 'ai-visibility',
    dynamodbEndpoint: env.DYNAMODB_ENDPOINT || undefined,
    region: env.AWS_REGION ?? 'us-east-1',
    secretValues: {},
    secretArns: Object.fromEntries(SECRET_GROUP_NAMES.flatMap((g) => {
      const arn = env[SECRET_GROUPS[g].arnVariable];
      return arn ? [[g, arn]] : [];
    })),
    jwt: {
      jwksUrl: env.JWT_JWKS_URL || undefined,
      issuer: env.JWT_ISSUER || undefined,
      audience: env.JWT_AUDIENCE || undefined,
    },
    allowPrivateNetwork: env.ALLOW_PRIVATE_NETWORK === '1',
    aiSiteDomain: env.AI_SITE_DOMAIN ?? 'localhost',
    aiSiteScheme: env.AI_SITE_SCHEME ?? (local ? 'http' : 'https'),
    aiSitePort: '',
    articleQuotaPolicy: policy,
    logLevel: oneOf('LOG_LEVEL', env.LOG_LEVEL, LOG_LEVELS, 'info'),
    logFormat: oneOf('LOG_FORMAT', env.LOG_FORMAT, LOG_FORMATS, defaultLogFormat(env)),
    sites: {
      dir: env.SITES_DIR || undefined, bucket: env.SITES_BUCKET || undefined, kvsArn: env.SITES_KVS_ARN || undefined,
      layout: oneOf('SITES_LAYOUT', env.SITES_LAYOUT, SITE_LAYOUTS, 'prefix'),
    },
    artifactsDir: env.ARTIFACTS_DIR || undefined,
    workflowObjectsDir: env.WORKFLOW_OBJECTS_DIR || undefined,
    apiPublicUrl: (env.API_PUBLIC_URL ?? 'http://localhost:8080').replace(/\/+$/, ''),
    scrape: { apiUrl: env.SCRAPE_API_URL || undefined },
    llm: { baseUrl: env.LLM_BASE_URL || undefined, model: env.LLM_MODEL || undefined },
    judge: { baseUrl: env.JUDGE_BASE_URL || env.LLM_BASE_URL || undefined, model: env.JUDGE_MODEL || env.LLM_MODEL || undefined },
    platforms: PLATFORM_NUMBERS.map((n) => ({
      n, apiUrl: env[`PLATFORM_${n}_API_URL`] || undefined, model: env[`PLATFORM_${n}_MODEL`] || undefined,
      ...(n === 2 && env.PLATFORM_2_WORKSPACE_ID ? { workspaceId: env.PLATFORM_2_WORKSPACE_ID } : {}),
      ...(n === 3 && env.PLATFORM_3_VERTEX_PROJECT ? { vertexProject: env.PLATFORM_3_VERTEX_PROJECT.trim() } : {}),
    })),
    platformLimits: {
      concurrency: wholeNumber(env, 'PLATFORM_CONCURRENCY', PLATFORM_LIMIT_DEFAULTS.concurrency, 1),
      ratePerMinute: wholeNumber(env, 'PLATFORM_RATE_PER_MINUTE', PLATFORM_LIMIT_DEFAULTS.ratePerMinute, 1),
      dailyBudget: wholeNumber(env, 'PLATFORM_DAILY_BUDGET', PLATFORM_LIMIT_DEFAULTS.dailyBudget, 1),
    },
    indexNowEndpoint: env.INDEXNOW_ENDPOINT || undefined,
    webmaster: { apiUrl: env.WEBMASTER_API_URL || undefined },
    acme: { directoryUrl: env.ACME_DIRECTORY_URL || undefined, caBundle: env.ACME_CA_BUNDLE || undefined, accountEmail: env.ACME_ACCOUNT_EMAIL || undefined },
    acmeDelegation: acmeDelegationOf(env),
    dnsResolvers: list(env.DNS_RESOLVERS),
    idp: { apiUrl: env.IDP_API_URL || undefined },
    stripe: { apiUrl: env.STRIPE_API_URL || undefined },
    search: { apiUrl: env.SEARCH_API_URL || undefined },
    crawlerAddressListsUrl: env.CRAWLER_ADDRESS_LISTS_URL || undefined,
    faviconServiceUrl: env.FAVICON_SERVICE_URL || undefined,
    cdn: {
      edgeFunctionVersionArn: env.EDGE_FUNCTION_VERSION_ARN || undefined,
      apexGatewayIps: list(env.APEX_GATEWAY_IPS),
      logBucketDomain: env.CDN_LOG_BUCKET_DOMAIN || undefined,
      rolloutPauseSeconds: wholeNumber(env, 'EDGE_ROLLOUT_PAUSE_SECONDS', EDGE_UPDATE_BATCH_PAUSE_SECONDS, 0),
      edgeFunctionSourceDir: env.EDGE_FUNCTION_SOURCE_DIR || undefined,
    },
    stateMachines: Object.fromEntries(WORKFLOWS.flatMap((w) => {
      const arn = env[stateMachineArnVariable(w)];
      return arn ? [[w, arn]] : [];
    })),
    edgePropagationWaitSeconds: wholeNumber(env, 'EDGE_PROPAGATION_WAIT_SECONDS', EDGE_PROPAGATION_WAIT_SECONDS, 0),
    domain: {
      verificationPollSeconds: wholeNumber(env, 'VERIFICATION_POLL_SECONDS', VERIFICATION_POLL_INTERVAL_SECONDS, 0),
      nativeCertificateWaitSeconds: wholeNumber(env, 'NATIVE_CERTIFICATE_WAIT_SECONDS', NATIVE_CERTIFICATE_WAIT_SECONDS, 0),
    },
    scheduleEnabled: env.SCHEDULE_ENABLED !== '0',
    visibilityBatches: {
      platforms: batchPlatforms(env.VISIBILITY_BATCHES),
      pollSeconds: wholeNumber(env, 'VISIBILITY_BATCH_POLL_SECONDS', VISIBILITY_BATCH_POLL_SECONDS, 0),
    },
  };
  // Locally every secret is a plain variable; on AWS none is (they arrive through container.ready()).
  applySecretValues(config, Object.fromEntries(SECRET_NAMES.flatMap((name) => (env[name] ? [[name, env[name]]] : []))));
  return config;
}

/**
 * Puts secret values into the config: `secretValues` and the typed fields that hold them.
 * The one place that knows which field a secret feeds; loadConfig uses it for the
 * environment's values, `container.ready()` for the ones read from Secrets Manager.
 */
export function applySecretValues(config: Config, values: SecretValues): void {
  const clean: SecretValues = {};
  for (const [name, value] of Object.entries(values) as [keyof SecretValues, string | undefined][]) {
    const trimmed = value?.trim();
    if (trimmed) clean[name] = trimmed;
  }
  config.secretValues = clean;
  config.apiKey = clean.API_KEY;
  config.idpWebhookSecret = clean.IDP_WEBHOOK_SECRET;
  config.scrape.apiKey = clean.SCRAPE_API_KEY;
  config.search.apiKey = clean.SEARCH_API_KEY;
  config.llm.apiKey = clean.LLM_API_KEY;
  // The model's key goes to the judge only when the judge is that same model API.
  config.judge.apiKey = clean.JUDGE_API_KEY ?? (config.judge.baseUrl === config.llm.baseUrl ? clean.LLM_API_KEY : undefined);
  for (const p of config.platforms) p.apiKey = clean[`PLATFORM_${p.n}_API_KEY`];
  config.indexNowKey = clean.INDEXNOW_KEY;
  config.webmaster.credentials = clean.WEBMASTER_CREDENTIALS;
  config.idp.secretKey = clean.IDP_SECRET_KEY;
  config.stripe.secretKey = clean.STRIPE_SECRET_KEY;
}

/** Both zone settings or neither: a zone id without its name (or the reverse) cannot build a delegated name. */
function acmeDelegationOf(env: Env): Config['acmeDelegation'] {
  const zoneId = env.ACME_DNS_ZONE_ID?.trim().replace(/^\/?hostedzone\//, '');
  const zoneName = env.ACME_DNS_ZONE_NAME?.trim().toLowerCase().replace(/\.$/, '');
  if (!zoneId && !zoneName) return undefined;
  if (!zoneId) throw new Error('ACME_DNS_ZONE_ID is needed with ACME_DNS_ZONE_NAME (the Route 53 hosted zone id of that zone)');
  if (!zoneName) throw new Error('ACME_DNS_ZONE_NAME is needed with ACME_DNS_ZONE_ID (the name of that Route 53 hosted zone)');
  if (!/^[A-Z0-9]+$/i.test(zoneId)) throw new Error(`ACME_DNS_ZONE_ID must be a Route 53 hosted zone id (Z...), got ${zoneId}`);
  if (!/^(?!-)[a-z0-9-]{1,63}(\.(?!-)[a-z0-9-]{1,63})+$/.test(zoneName)) throw new Error(`ACME_DNS_ZONE_NAME must be a DNS zone name (acme.example.com), got ${zoneName}`);
  return { zoneId, zoneName, route53Endpoint: env.ROUTE53_ENDPOINT || undefined };
}

function list(raw: string | undefined): string[] {
  return (raw ?? '').split(',').map((item) => item.trim()).filter(Boolean);
}

/** A whole-number setting of at least `least` (1: a count; 0: seconds, where 0 means none). */
function wholeNumber(env: Env, name: string, fallback: number, least: 0 | 1): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < least) throw new Error(`${name} must be a whole number ${least ? 'of 1 or more' : 'of seconds (0 or more)'}, got ${raw}`);
  return value;
}

/** The platforms with a vendor batch interface (adapters/external/platforms/batch/). */
export const BATCH_PLATFORM_NUMBERS = [1, 2, 3] as const;

function batchPlatforms(raw: string | undefined): number[] {
  const value = (raw ?? '').trim();
  if (value === '' || value === 'on') return [...BATCH_PLATFORM_NUMBERS];
  if (value === 'off') return [];
  const numbers = value.split(',').map((s) => Number(s.trim()));
  const wrong = numbers.filter((n) => !(BATCH_PLATFORM_NUMBERS as readonly number[]).includes(n));
  if (wrong.length > 0 || numbers.length === 0) throw new Error(`VISIBILITY_BATCHES must be on, off or a list of ${BATCH_PLATFORM_NUMBERS.join(', ')} (the platforms with a batch interface), got ${raw}`);
  return [...new Set(numbers)].sort();
}

function oneOf<T extends string>(name: string, raw: string | undefined, allowed: readonly T[], fallback: T): T {
  if (raw === undefined || raw === '') return fallback;
  if (!(allowed as readonly string[]).includes(raw)) throw new Error(`${name} must be one of ${allowed.join(', ')}, got ${raw}`);
  return raw as T;
}
