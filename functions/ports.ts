/**
 * The interfaces handlers and workflow tasks depend on. Adapters implement them
 * (DynamoDB, AWS services, outside providers); functions/container.ts picks them.
 */
import type { Business, Product, TrackedPrompt, VisibilityHistory, AiSiteRecord, PlatformResults } from './core/model';
import type { OnboardingRun, RunStatus, StepId, StepState } from './core/onboarding/steps';
import type { DistributionRoute } from './core/proxy/types';
import type { SiteFile } from './core/site/types';
import type { HistoryEntry } from './core/visibility/score';
export type { HttpFetcher, FetchRequest, FetchResponse } from './adapters/external/guarded-fetch';

export interface BusinessRepository {
  /** Creates the business; ConflictError when the organization already has one. */
  create(business: Business): Promise<void>;
  get(orgSlug: string): Promise<Business | null>;
  setFavicon(orgSlug: string, faviconUrl: string): Promise<void>;
}

/** Scores of the public (pre-payment) scan, kept per normalized store domain (D19). */
export interface PrepaymentScanRepository {
  get(domain: string): Promise<{ domain: string; score: number; scannedAt: string; platforms: Record<string, number> } | null>;
  put(scan: { domain: string; score: number; scannedAt: string; platforms: Record<string, number> }): Promise<void>;
}

export interface ProductRepository {
  list(orgSlug: string): Promise<Product[]>;
  /** By slug (`product_id`) or entity UUID. */
  find(orgSlug: string, productIdOrEntityId: string): Promise<Product | null>;
  /** Inserts products that do not exist yet (by slug); returns how many were new. */
  addMissing(products: Product[]): Promise<number>;
}

export interface PromptResultUpdate extends Omit<PlatformResults, never> {
  prompt: string;
}

export interface PromptRepository {
  list(orgSlug: string, filter?: { entityId?: string }): Promise<TrackedPrompt[]>;
  /** Adds prompts that are not tracked yet (same entity, same normalized text); returns how many were new. */
  addMissing(prompts: TrackedPrompt[]): Promise<number>;
  /** Records check results; a prompt not yet tracked is added so no result is lost (D16). */
  recordResults(
    target: { orgSlug: string; entityId: string; productId: string | null },
    results: PromptResultUpdate[],
    testedAt: string,
  ): Promise<void>;
}

export interface VisibilityRepository {
  get(orgSlug: string, entityId: string): Promise<VisibilityHistory | null>;
  /**
   * Read-modify-write with a version check, retried on conflict, so two concurrent
   * score updates both land. `apply` must be pure: it may run more than once.
   */
  update<T>(
    orgSlug: string,
    entityId: string,
    apply: (current: HistoryEntry[] | null) => { history: HistoryEntry[]; recentScore: number; result: T },
  ): Promise<T>;
}

export interface AiSiteRepository {
  get(orgSlug: string): Promise<AiSiteRecord | null>;
  /** Creates the record when missing and sets the given fields (one single-item update). */
  patch(orgSlug: string, entityId: string, fields: Partial<Omit<AiSiteRecord, 'orgSlug' | 'entityId'>>): Promise<void>;
}

export interface PublishedRelease {
  releaseId: string;
  fileCount: number;
  bytes: number;
}

/**
 * Where AI-site files live (S3 on AWS, DATA_DIR locally). A publish is atomic: readers
 * see the previous release or the new one, never a mix; recent releases stay for rollback.
 */
export interface SiteStore {
  publish(orgSlug: string, files: SiteFile[]): Promise<PublishedRelease>;
  /** The current release's files (paths and contents). */
  readCurrent(orgSlug: string): Promise<{ releaseId: string; files: SiteFile[] } | null>;
  listReleases(orgSlug: string): Promise<string[]>;
  rollback(orgSlug: string, releaseId: string): Promise<void>;
}

export interface ArticleStats {
  /** Articles created for the organization in the week starting `weekStart`. */
  countInWeek(orgSlug: string, weekStart: string): Promise<number>;
  /** Counts one created article in its week and, for a product article, on the product. */
  recordArticle(orgSlug: string, weekStart: string, productId: string | null): Promise<void>;
}

export interface RateLimitDecision {
  allowed: boolean;
  remaining: number;
  retryAfterSeconds: number;
}

export interface RateLimiter {
  /** Counts one request of `clientIp` against `name`; shared across all instances. */
  hit(name: string, clientIp: string, limit: number, windowSeconds: number): Promise<RateLimitDecision>;
}

export interface Clock {
  now(): Date;
}

/**
 * Intermediate results of workflow steps (scraped pages, catalogues, generated files),
 * too large for a state machine's 256 KB payload: gzip JSON in S3 on AWS, files locally.
 */
export interface ArtifactStore {
  put(key: string, value: unknown): Promise<void>;
  get<T>(key: string): Promise<T | null>;
  /** Keys under a prefix (e.g. every generated part of one site). */
  list(prefix: string): Promise<string[]>;
  /** A cheap version token per key under a prefix: it changes whenever the artifact is rewritten. */
  versions(prefix: string): Promise<Record<string, string>>;
}

export interface OnboardingRepository {
  latest(orgSlug: string): Promise<OnboardingRun | null>;
  getRun(orgSlug: string, executionId: string): Promise<OnboardingRun | null>;
  /**
   * Records a new run as the latest; ConflictError when another run is still running
   * (`replacing` is the latest run's id as read; runs started before `staleBefore` are dead).
   */
  start(run: OnboardingRun, replacing: string | null, staleBefore: string): Promise<void>;
  updateStep(orgSlug: string, executionId: string, step: StepId, state: StepState): Promise<void>;
  finish(orgSlug: string, executionId: string, status: RunStatus, finishedAt: string): Promise<void>;
}

export type WorkflowName = 'onboarding';

/** Starts state-machine executions: Step Functions on AWS, the same ASL in-process locally. */
export interface WorkflowStarter {
  start(workflow: WorkflowName, executionId: string, input: Record<string, unknown>): Promise<void>;
}

/** Which organization a CDN distribution domain belongs to (the local proxy's host lookup). */
export interface DistributionIndex {
  /** Marks `domain` as served by the distribution of `orgSlug` (its AI-site record must exist). */
  index(orgSlug: string, domain: string): Promise<void>;
  findOrg(domain: string): Promise<DistributionRoute | null>;
}

export type { CompetitorRepository } from './core/competitors/types';
