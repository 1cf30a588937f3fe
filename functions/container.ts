/**
 * Composition root: picks every adapter once per cold start (per process locally).
 * Handlers and tasks ask for `getContainer()` and never build clients themselves.
 * Heavy engines (scraper, generator) are picked in functions/engines/*, imported only by
 * the code that needs them, so every other Lambda bundle stays small.
 */
import { createRemoteJWKSet, type JWTVerifyGetKey } from 'jose';
import { loadConfig, type Config } from './config';
import { setLogLevel } from './logger';
import { createFsArtifactStore } from './adapters/local/fs-artifact-store';
import { createOnboardingRepository } from './adapters/dynamodb/onboarding-repo';
import { createPrepaymentScanRepository } from './adapters/dynamodb/prepayment-scan-repo';
import { createCompetitorRepository } from './adapters/dynamodb/competitor-repo';
import { createDistributionIndex } from './adapters/dynamodb/distribution-index';
import { createDocumentClient } from './adapters/dynamodb/client';
import { createBusinessRepository } from './adapters/dynamodb/business-repo';
import { createProductRepository } from './adapters/dynamodb/product-repo';
import { createPromptRepository } from './adapters/dynamodb/prompt-repo';
import { createVisibilityRepository } from './adapters/dynamodb/visibility-repo';
import { createAiSiteRepository } from './adapters/dynamodb/ai-site-repo';
import { createArticleStats } from './adapters/dynamodb/article-stats';
import { createRateLimiter } from './adapters/dynamodb/rate-limiter';
import { createGuardedFetch, createUrlGuard } from './adapters/external/guarded-fetch';
import { createStorefront } from './adapters/external/storefront';
import { createFsSiteStore } from './adapters/local/fs-site-store';
import { ProviderNotConfiguredError } from './core/errors';
import type {
  AiSiteRepository, ArticleStats, ArtifactStore, CompetitorRepository, DistributionIndex, OnboardingRepository, PrepaymentScanRepository, WorkflowStarter, BusinessRepository, Clock, HttpFetcher, ProductRepository,
  PromptRepository, RateLimiter, SiteStore, Storefront, UrlGuard, VisibilityRepository,
} from './ports';

export interface Container {
  config: Config;
  clock: Clock;
  businesses: BusinessRepository;
  products: ProductRepository;
  prompts: PromptRepository;
  visibility: VisibilityRepository;
  aiSites: AiSiteRepository;
  articleStats: ArticleStats;
  rateLimiter: RateLimiter;
  /** The only way to fetch a user-supplied URL (D24). */
  fetchUrl: HttpFetcher;
  /** The same policy for a URL that is stored or proxied to rather than fetched now (D24). */
  checkUrl: UrlGuard;
  /** The store's public product and collection listings, through `fetchUrl`. */
  storefront: Storefront;
  /** Null when no JWKS is configured: JWT routes then answer 503 with the reason. */
  jwks: JWTVerifyGetKey | null;
  siteStore: SiteStore;
  artifacts: ArtifactStore;
  onboarding: OnboardingRepository;
  prepaymentScans: PrepaymentScanRepository;
  competitors: CompetitorRepository;
  distributions: DistributionIndex;
  /** Starts workflows: Step Functions on AWS; locally the runtime installs the in-process runner. */
  workflows: WorkflowStarter;
  /** Secret values: from the environment locally, from Secrets Manager on AWS. */
  secrets: { apiKey(): Promise<string | undefined>; idpWebhookSecret(): Promise<string | undefined> };
}

export const systemClock: Clock = { now: () => new Date() };

export function buildContainer(config: Config = loadConfig(), overrides: Partial<Container> = {}): Container {
  setLogLevel(config.logLevel);
  const db = createDocumentClient({ region: config.region, endpoint: config.dynamodbEndpoint });
  const table = config.tableName;
  const clock = overrides.clock ?? systemClock;
  const fetchUrl = overrides.fetchUrl ?? createGuardedFetch({ allowPrivateNetwork: config.allowPrivateNetwork });
  return {
    config,
    clock,
    businesses: createBusinessRepository(db, table),
    products: createProductRepository(db, table),
    prompts: createPromptRepository(db, table),
    visibility: createVisibilityRepository(db, table),
    aiSites: createAiSiteRepository(db, table),
    articleStats: createArticleStats(db, table),
    rateLimiter: createRateLimiter(db, table, clock),
    fetchUrl,
    checkUrl: overrides.checkUrl ?? createUrlGuard({ allowPrivateNetwork: config.allowPrivateNetwork }),
    storefront: createStorefront(fetchUrl),
    jwks: config.jwt.jwksUrl ? createRemoteJWKSet(new URL(config.jwt.jwksUrl)) : null,
    siteStore: createSiteStore(config, clock),
    artifacts: createArtifactStore(config),
    onboarding: createOnboardingRepository(db, table),
    prepaymentScans: createPrepaymentScanRepository(db, table),
    competitors: createCompetitorRepository(db, table),
    distributions: createDistributionIndex(db, table),
    workflows: createWorkflowStarter(config),
    secrets: {
      apiKey: () => secretValue(config, config.apiKey, config.apiKeySecretArn),
      idpWebhookSecret: () => secretValue(config, config.idpWebhookSecret, config.idpWebhookSecretArn),
    },
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
  return { publish: missing, readCurrent: missing, listReleases: missing, rollback: missing };
}

async function secretValue(config: Config, value: string | undefined, arn: string | undefined): Promise<string | undefined> {
  if (value || !arn) return value;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { readSecret } = require('./adapters/aws/secrets') as typeof import('./adapters/aws/secrets');
  return readSecret(arn, config.region);
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
  return { put: missing, get: missing, list: missing, versions: missing };
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

/** Tests and the local runtime install a container built from their own settings. */
export function setContainer(container: Container | undefined): void {
  current = container;
}
