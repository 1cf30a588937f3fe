/**
 * Composition root: picks every adapter once per cold start (per process locally).
 * Handlers and tasks ask for `getContainer()` and never build clients themselves.
 * Heavy engines (scraper, generator) are picked in functions/engines/*, imported only by
 * the code that needs them, so every other Lambda bundle stays small.
 */
import { applySecretValues, loadConfig, type Config } from './config';
import { createLogger, configureLogging } from './logger';
import { createFsArtifactStore } from './adapters/local/fs-artifact-store';
import { createOnboardingRepository } from './adapters/dynamodb/onboarding-repo';
import { createPrepaymentScanRepository } from './adapters/dynamodb/prepayment-scan-repo';
import { createDistributionIndex } from './adapters/dynamodb/distribution-index';
import { createDocumentClient } from './adapters/dynamodb/client';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createBusinessListing, createBusinessRepository } from './adapters/dynamodb/business-repo';
import { createDailyRunRepository } from './adapters/dynamodb/daily-run-repo';
import { createProductRepository } from './adapters/dynamodb/product-repo';
import { createPromptRepository } from './adapters/dynamodb/prompt-repo';
import { createVisibilityRepository } from './adapters/dynamodb/visibility-repo';
import { createAiSiteRepository } from './adapters/dynamodb/ai-site-repo';
import { createArticleStats } from './adapters/dynamodb/article-stats';
import { createArticleRepository } from './adapters/dynamodb/article-repo';
import { createRateLimiter } from './adapters/dynamodb/rate-limiter';
import { createPlatformLimiter } from './adapters/dynamodb/platform-limiter';
import { createVisibilityCheckRepository } from './adapters/dynamodb/visibility-check-repo';
import { createGuardedFetch, createUrlGuard } from './adapters/external/guarded-fetch';
import { createStorefront } from './adapters/external/storefront';
import { createFsSiteStore } from './adapters/local/fs-site-store';
import { ProviderNotConfiguredError } from './core/errors';
import {
  SECRET_GROUPS, SECRET_NAMES, secretGroupOf, secretsInGroup, type SecretGroup, type SecretName, type SecretValues,
} from './core/provider-settings';
import type {
  AiSiteRepository, ArticleRepository, ArticleStats, BusinessListing, DailyRunRepository, ArtifactStore, DistributionIndex, OnboardingRepository, PrepaymentScanRepository, WorkflowStarter, BusinessRepository, Clock, HttpFetcher, ProductRepository,
  PlatformLimiter, PromptRepository, RateLimiter, SiteStore, Storefront, UrlGuard, VisibilityCheckRepository, VisibilityRepository,
} from './ports';

export interface Container {
  config: Config;
  clock: Clock;
  businesses: BusinessRepository;
  /** Every business, page by page (the daily fan-out). */
  businessListing: BusinessListing;
  /** Run records of the daily schedule. */
  dailyRuns: DailyRunRepository;
  products: ProductRepository;
  prompts: PromptRepository;
  visibility: VisibilityRepository;
  /** Batch 2b's sample, per-check records and report of each day. */
  visibilityChecks: VisibilityCheckRepository;
  /** Fleet-wide concurrency, rate and daily budget of each AI platform. */
  platformLimiter: PlatformLimiter;
  aiSites: AiSiteRepository;
  articleStats: ArticleStats;
  /** AI articles (create-ai-article, GET /api/articles). */
  articles: ArticleRepository;
  rateLimiter: RateLimiter;
  /** The only way to fetch a user-supplied URL (D24). */
  fetchUrl: HttpFetcher;
  /** The same policy for a URL that is stored or proxied to rather than fetched now (D24). */
  checkUrl: UrlGuard;
  /** The store's public product and collection listings, through `fetchUrl`. */
  storefront: Storefront;
  siteStore: SiteStore;
  artifacts: ArtifactStore;
  onboarding: OnboardingRepository;
  prepaymentScans: PrepaymentScanRepository;
  distributions: DistributionIndex;
  /** Starts workflows: Step Functions on AWS; locally the runtime installs the in-process runner. */
  workflows: WorkflowStarter;
  /**
   * The table, for repositories only some entry points use (engines/repositories.ts): built on
   * first use there, so route bundles that never use them do not carry them (250 KB budget).
   */
  dynamo: { db: DynamoDBDocumentClient; table: string };
  /** Secret values: from the environment locally, from Secrets Manager on AWS (D104). */
  secrets: Secrets;
  /**
   * Puts the secret values into `config` (its typed fields: llm.apiKey, scrape.apiKey, ...)
   * before a provider is used. On AWS it reads the secrets this Lambda may read, once per
   * cold start; locally there is nothing to read. Every entry point awaits it once per
   * invocation (functions/http/endpoint.ts for routes, the task wrappers for tasks); an
   * engine built on AWS before it fails loudly instead of running unconfigured.
   */
  ready(): Promise<void>;
}

export interface Secrets {
  /**
   * One secret by its setting name (functions/core/provider-settings.ts): the environment's
   * value locally; on AWS the field of that name in its group's secret, read at first use
   * and cached per cold start. Undefined means not configured; a failed read rejects.
   */
  get(name: SecretName): Promise<string | undefined>;
  apiKey(): Promise<string | undefined>;
  idpWebhookSecret(): Promise<string | undefined>;
}

export const systemClock: Clock = { now: () => new Date() };

/** The container clock's current UTC date, YYYY-MM-DD. */
export const todayUtc = (container: Pick<Container, 'clock'>): string => container.clock.now().toISOString().slice(0, 10);

export function buildContainer(config: Config = loadConfig(), overrides: Partial<Container> = {}): Container {
  configureLogging({ level: config.logLevel, format: config.logFormat });
  const db = createDocumentClient({ region: config.region, endpoint: config.dynamodbEndpoint });
  const table = config.tableName;
  const clock = overrides.clock ?? systemClock;
  const fetchUrl = overrides.fetchUrl ?? createGuardedFetch({ allowPrivateNetwork: config.allowPrivateNetwork });
  const artifacts = createArtifactStore(config);
  return {
    config,
    clock,
    businesses: createBusinessRepository(db, table),
    businessListing: createBusinessListing(db, table),
    dailyRuns: createDailyRunRepository(db, table),
    products: createProductRepository(db, table),
    prompts: createPromptRepository(db, table),
    visibility: createVisibilityRepository(db, table),
    visibilityChecks: createVisibilityCheckRepository(db, table, clock),
    platformLimiter: createPlatformLimiter(db, table, { limits: config.platformLimits, clock }),
    aiSites: createAiSiteRepository(db, table, artifacts),
    articleStats: createArticleStats(db, table),
    articles: createArticleRepository(db, table, createArticleStats(db, table)),
    rateLimiter: createRateLimiter(db, table, clock),
    fetchUrl,
    checkUrl: overrides.checkUrl ?? createUrlGuard({ allowPrivateNetwork: config.allowPrivateNetwork }),
    storefront: createStorefront(fetchUrl),
    siteStore: createSiteStore(config, clock),
    artifacts,
    onboarding: createOnboardingRepository(db, table),
    prepaymentScans: createPrepaymentScanRepository(db, table),
    distributions: createDistributionIndex(db, table),
    workflows: createWorkflowStarter(config),
    dynamo: { db, table },
    ...secretsOf(config),
    ...overrides,
  };
}

function createSiteStore(config: Config, clock: Clock): SiteStore {
  if (config.sites.bucket) {
    // Loaded only on AWS, so local runs and the other bundles never pull the S3 client in.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { createAwsSiteStore } = require('./adapters/aws/site-store-factory') as typeof import('./adapters/aws/site-store-factory');
    return createAwsSiteStore(config, clock);
  }
  if (config.sites.dir) return createFsSiteStore(config.sites.dir, clock);
  const missing = async (): Promise<never> => {
    throw new ProviderNotConfiguredError('AI-site storage is not configured (SITES_BUCKET on AWS, SITES_DIR locally)');
  };
  return { publish: missing, openRelease: missing, readCurrent: missing, currentReleaseId: missing, readRelease: missing, listReleases: missing, rollback: missing };
}

/** Configs whose secrets have been read (container.ready()), or that have none to read. */
const resolvedConfigs = new WeakSet<Config>();

/** True while `config` names secrets on AWS that `container.ready()` has not read yet. */
export function secretsPending(config: Config): boolean {
  return Object.keys(config.secretArns).length > 0 && !resolvedConfigs.has(config);
}

function secretsOf(config: Config): Pick<Container, 'secrets' | 'ready'> {
  /** Parsed content per group, once per container; a failed read is forgotten so the next call retries. */
  const groups = new Map<SecretGroup, Promise<SecretValues>>();
  const readGroup = (group: SecretGroup, arn: string): Promise<SecretValues> => {
    let values = groups.get(group);
    if (!values) {
      values = readSecretGroup(config, group, arn);
      values.catch(() => groups.delete(group));
      groups.set(group, values);
    }
    return values;
  };
  const get = async (name: SecretName): Promise<string | undefined> => {
    const local = config.secretValues[name];
    if (local) return local;
    const group = secretGroupOf(name);
    const arn = config.secretArns[group];
    if (!arn) return undefined;
    return (await readGroup(group, arn))[name];
  };

  let readying: Promise<void> | undefined;
  const ready = (): Promise<void> => {
    if (!secretsPending(config)) return Promise.resolve();
    if (!readying) {
      readying = (async () => {
        const values = await Promise.all(SECRET_NAMES.map(async (name) => [name, await get(name)] as const));
        applySecretValues(config, Object.fromEntries(values.filter(([, v]) => v !== undefined)));
        resolvedConfigs.add(config);
      })();
      readying.catch(() => { readying = undefined; });
    }
    return readying;
  };

  return {
    secrets: { get, apiKey: () => get('API_KEY'), idpWebhookSecret: () => get('IDP_WEBHOOK_SECRET') },
    ready,
  };
}

/** The secret values one group's Secrets Manager secret holds; none when it has no value yet. */
async function readSecretGroup(config: Config, group: SecretGroup, arn: string): Promise<SecretValues> {
  // Loaded only on AWS (an ARN is set), so local runs and bundles' cold paths never load the client.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { readSecret } = require('./adapters/aws/secrets') as typeof import('./adapters/aws/secrets');
  const raw = await readSecret(arn, config.region);
  if (raw === undefined) return {};
  const names = secretsInGroup(group);
  if (SECRET_GROUPS[group].format === 'string') return { [names[0]]: raw.trim() || undefined };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    // JSON.parse's message quotes the text: never let it near a log.
    throw new Error(`secret ${arn} is not a JSON object of setting names to values (${group} group)`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new Error(`secret ${arn} is not a JSON object of setting names to values (${group} group)`);
  }
  const values: SecretValues = {};
  const unknown: string[] = [];
  for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) {
    if (!(names as string[]).includes(key)) {
      unknown.push(key);
    } else if (typeof value === 'string') {
      if (value.trim()) values[key as SecretName] = value.trim();
    } else if (value !== null) {
      throw new Error(`secret ${arn}: ${key} must be a string`);
    }
  }
  if (unknown.length > 0) {
    createLogger({ component: 'secrets' }).warn('secret holds fields that are no setting of its group; they are ignored', {
      group, ignored: unknown, expected: names,
    });
  }
  return values;
}

function createArtifactStore(config: Config): ArtifactStore {
  if (config.sites.bucket) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { createAwsArtifactStore } = require('./adapters/aws/site-store-factory') as typeof import('./adapters/aws/site-store-factory');
    return createAwsArtifactStore(config);
  }
  if (config.artifactsDir) return createFsArtifactStore(config.artifactsDir);
  const missing = async (): Promise<never> => {
    throw new ProviderNotConfiguredError('workflow artifact storage is not configured (SITES_BUCKET on AWS, ARTIFACTS_DIR locally)');
  };
  return { put: missing, get: missing, list: missing, versions: missing, delete: missing };
}

function createWorkflowStarter(config: Config): WorkflowStarter {
  if (Object.keys(config.stateMachines).length > 0) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { createStepFunctionsStarter } = require('./adapters/aws/sfn-workflows') as typeof import('./adapters/aws/sfn-workflows');
    return createStepFunctionsStarter(config);
  }
  return {
    start: async (workflow) => {
      throw new ProviderNotConfiguredError(`no state machine is configured for the ${workflow} workflow (${workflow.toUpperCase()}_STATE_MACHINE_ARN)`);
    },
  };
}

/** The AI-site host of an organization: `{slug}.{AI_SITE_DOMAIN}`. */
export function aiSiteOrigin(config: Config, orgSlug: string): string {
  return `${config.aiSiteScheme}://${orgSlug}.${config.aiSiteDomain}${config.aiSitePort}`;
}

let current: Container | undefined;

/**
 * The container of this process. On Lambda it is built from the environment at first use;
 * anywhere else the local runtime or a test installs one first (setContainer). Building one
 * from defaults off Lambda would point the AWS SDK at real AWS, so that is refused.
 */
export function getContainer(): Container {
  if (!current) {
    const config = loadConfig();
    if (!config.onLambda && !config.dynamodbEndpoint) {
      throw new Error('no container is installed: off Lambda the local runtime (or a test) must install one with setContainer before handlers run');
    }
    current = buildContainer(config);
  }
  return current;
}

/**
 * The container of this process with its secret values read (D104): what a Lambda entry
 * point that may use a provider starts with (`const container = await readyContainer();`).
 */
export async function readyContainer(): Promise<Container> {
  const container = getContainer();
  await container.ready();
  return container;
}

/** Tests and the local runtime install a container built from their own settings. */
export function setContainer(container: Container | undefined): void {
  current = container;
}
