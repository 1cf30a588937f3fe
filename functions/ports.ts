/**
 * The interfaces handlers and workflow tasks depend on. Adapters implement them
 * (DynamoDB, AWS services, outside providers); functions/container.ts picks them.
 */
import type { Business, Product, TrackedPrompt, VisibilityHistory, AiSiteList, AiSiteRecord, PlatformResults } from './core/model';
import type { OnboardingRun, RunStatus, StepId, StepState } from './core/onboarding/steps';
import type { DistributionRoute } from './core/proxy/types';
import type { SiteFile } from './core/site/types';
import type { ReleaseFiles } from './core/site/release';
import type { HistoryEntry } from './core/visibility/score';
import type { VisibilityCheck, VisibilitySample } from './core/visibility/checks';
import type { VisibilityReport } from './core/visibility/report';
import type { PlatformKey } from './core/constants';
import type { ArticleRecord } from './core/articles/record';
import type { BusinessRun, DailyExecution, DailyStepId, DailyStepState, DayLease, DayLeaseClaim } from './core/daily/run';
import type { MappedUrl, ScrapedPage } from './core/site/types';
import type { StorefrontProduct } from './core/products/catalog';
import type { SearchResult } from './core/competitors/types';

// ---------------------------------------------------------------------------------------
// Outbound HTTP to user-supplied URLs (D24): one guarded client, one address policy.

export interface FetchRequest {
  method?: 'GET' | 'HEAD' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  timeoutMs?: number;
  maxBytes?: number;
}

export interface FetchResponse {
  status: number;
  /** Final URL after redirects. */
  url: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: Buffer;
  text(): string;
  /** Throws UpstreamError on invalid JSON. */
  json(): unknown;
}

export type HttpFetcher = (url: string, request?: FetchRequest) => Promise<FetchResponse>;

/**
 * The fetch policy applied before anything is stored or proxied: the URL's form (scheme,
 * credentials, port) and every address its host resolves to now. BlockedUrlError when refused.
 * A host that does not resolve (yet) passes: every later fetch is checked again at connect time.
 */
export type UrlGuard = (url: string) => Promise<URL>;

// ---------------------------------------------------------------------------------------
// The store: its storefront endpoints, its pages.

export interface ProductListing {
  products: StorefrontProduct[];
  /** The platform's page × limit ceiling was reached: the catalogue may hold more. */
  truncated: boolean;
  pagesFetched: number;
}

export interface StoreCollection {
  handle: string;
  title: string;
  /** As the platform sends it (HTML); turned into markdown by whoever keeps it, so route bundles need no HTML converter. */
  descriptionHtml: string;
}

/** The hosted platform's public storefront endpoints (`/products.json`, `/collections.json`). */
export interface Storefront {
  /** Every product, page by page, within the platform's ceiling (or `maxPages`). */
  listProducts(origin: string, maxPages?: number): Promise<ProductListing>;
  listCollections(origin: string): Promise<StoreCollection[]>;
  /**
   * The ISO 4217 currency the store states for its prices (`/cart.js`, the home page or
   * `productPath`'s page, `/meta.json`; core/products/currency.ts), null when it states none.
   */
  storeCurrency(origin: string, productPath?: string): Promise<string | null>;
}

export interface ScrapeResult {
  pages: ScrapedPage[];
  failures: Array<{ url: string; reason: string }>;
}

/**
 * Turns mapped store URLs into ScrapedPages (main content as markdown plus the core
 * fingerprint). Per-URL problems are `failures`; only a provider-level failure throws.
 */
export interface Scraper {
  readonly name: 'builtin' | 'firecrawl';
  scrape(urls: MappedUrl[], options?: { concurrency?: number }): Promise<ScrapeResult>;
}

export interface MapSiteOptions {
  /** At most this many URLs are mapped (and fetched); more sets `truncated`. */
  maxPages?: number;
  /** Requests in flight at once. */
  concurrency?: number;
  /**
   * Product token whose robots.txt group we obey. The User-Agent header itself is set where
   * the fetcher is created (createGuardedFetch's `userAgent`); keep the two consistent.
   */
  userAgent?: string;
  /** Fetch pages: fingerprints, statuses and links found in HTML. Off: robots + sitemaps only. */
  discoverLinks?: boolean;
  /** Sitemap levels followed: 1 = only the top-level sitemaps, 3 = index → child → grandchild. */
  maxSitemapDepth?: number;
  /** Sitemap files fetched at most. */
  maxSitemaps?: number;
  /** Per-request deadline for page fetches (the fetcher's default otherwise). */
  timeoutMs?: number;
  /**
   * Also make a ScrapedPage of every page fetched (exactly what the built-in scraper makes of
   * the same response), returned as `captured`. Needs `discoverLinks` to fetch anything.
   */
  capturePages?: boolean;
}

export interface MapSiteResult {
  /** Root first, then sitemap order, then discovery order. */
  urls: MappedUrl[];
  /** Sitemap files fetched and parsed (indexes and children). */
  sitemaps: string[];
  /** robots.txt status (null: unreachable) and its `Sitemap:` records. */
  robots: { status: number | null; sitemaps: string[] };
  /** More URLs existed than `maxPages` allowed (or a sitemap exceeded the protocol's limit). */
  truncated: boolean;
  /** HTTP requests made: robots.txt, sitemaps and pages. */
  fetched: number;
  errors: Array<{ url: string; reason: string }>;
  /** Distinct same-site URLs skipped because robots.txt disallows them. */
  disallowed: number;
  /** The robots.txt body when it answered 200, else null. */
  robotsTxt: string | null;
  /**
   * With `capturePages`: the mapped URLs whose page fetch settled them, in `urls` order. `pages`
   * are the pages the built-in scraper would have made; `failures` are URLs whose response is
   * no page (blocked, non-200, redirected off-site), with the scraper's reason. A mapped URL in
   * neither was not fetched (discoverLinks off) or its fetch itself failed (network, timeout).
   */
  captured?: ScrapeResult;
}

/** Every page URL of a store (robots.txt, sitemaps, links), with fingerprints. */
export interface SiteMapper {
  map(origin: string, options?: MapSiteOptions): Promise<MapSiteResult>;
}

// ---------------------------------------------------------------------------------------
// Web search (business prompts and competitors). Absent configuration means no SearchApi.

export type { SearchResult };

export interface SearchOptions {
  /** Results wanted (the provider may return fewer). */
  limit: number;
}

export interface SearchApi {
  readonly name: string;
  /** UpstreamError on provider failures (401/403 credentials, 429 rate limit, 5xx, timeout). */
  search(query: string, options: SearchOptions): Promise<SearchResult[]>;
}

// ---------------------------------------------------------------------------------------
// Data

export interface BusinessRepository {
  /** Creates the business; ConflictError when the organization already has one. */
  create(business: Business): Promise<void>;
  get(orgSlug: string): Promise<Business | null>;
  /** The business whose store is on this normalized domain (lowercase, no `www.`). */
  findByDomain(domain: string): Promise<Business | null>;
  setFavicon(orgSlug: string, faviconUrl: string): Promise<void>;
}

/** Scores of the public (pre-payment) scan, kept per normalized store domain (D19). */
export interface PrepaymentScanRepository {
  get(domain: string): Promise<{ domain: string; score: number; scannedAt: string; platforms: Record<string, number> } | null>;
  put(scan: { domain: string; score: number; scannedAt: string; platforms: Record<string, number> }): Promise<void>;
}

export interface ProductRepository {
  list(orgSlug: string): Promise<Product[]>;
  /** How many product entities the business has, without reading them. */
  count(orgSlug: string): Promise<number>;
  /** By slug (`product_id`) or entity UUID. */
  find(orgSlug: string, productIdOrEntityId: string): Promise<Product | null>;
  /** Inserts products that do not exist yet (by slug); returns how many were new. */
  addMissing(products: Product[]): Promise<number>;
  /** Sets each product's cited-URL count of the day; `citationCount` becomes the sum over the last 365 days. */
  recordCitations(orgSlug: string, runDate: string, counts: Record<string, number>): Promise<void>;
}

export interface PromptResultUpdate extends Omit<PlatformResults, never> {
  prompt: string;
}

export interface PromptRepository {
  list(orgSlug: string, filter?: { entityId?: string }): Promise<TrackedPrompt[]>;
  /** Adds prompts that are not tracked yet: none whose `promptIdentity` any entity of the business already has (D33); returns how many were new. */
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

/** Batch 2b's records of one business and day (adapters/dynamodb/visibility-check-repo.ts). */
export interface VisibilityCheckRepository {
  /** Stores the day's sample unless one exists; returns the stored one (a re-run checks the same prompts). */
  claimSample(sample: VisibilitySample): Promise<VisibilitySample>;
  getSample(orgSlug: string, runDate: string): Promise<VisibilitySample | null>;
  /** One item per (day, platform, prompt): a retry replaces its own check. */
  putCheck(check: VisibilityCheck): Promise<void>;
  listChecks(orgSlug: string, runDate: string): Promise<VisibilityCheck[]>;
  putReport(orgSlug: string, runDate: string, report: VisibilityReport): Promise<void>;
  getReport(orgSlug: string, runDate: string): Promise<VisibilityReport | null>;
  /** The stored reports of the given days (missing days are left out), oldest first. */
  getReports(orgSlug: string, runDates: string[]): Promise<Array<{ runDate: string; report: VisibilityReport }>>;
}

/** Per platform, fleet-wide (every Lambda instance together). */
export interface PlatformLimits {
  concurrency: number;
  ratePerMinute: number;
  /** Checks per platform per UTC day, all businesses together. */
  dailyBudget: number;
}

/** What the fleet-wide limits hold: the 8 AI platforms, the model that writes articles (issue 20) and the judge (issue 21). */
export type LimitedProvider = PlatformKey | 'article_model' | 'judge';

export interface PlatformLimiter {
  readonly limits: PlatformLimits;
  /** Waits for a concurrency slot and the rate; refuses when the day's budget is spent or the wait is too long. */
  acquire(platform: LimitedProvider): Promise<{ ok: true; release(): Promise<void> } | { ok: false; reason: string }>;
}

export interface AiSiteRepository {
  /**
   * The record. Its lists that grow with the store (`AiSiteList`: up to 5,000 URLs, 20,000
   * products, possibly kept in the artifact store) are read only when named in `lists`; the
   * others read null, so the many callers that need a status or an origin fetch no list.
   */
  get(orgSlug: string, options?: { lists?: readonly AiSiteList[] }): Promise<AiSiteRecord | null>;
  /** Creates the record when missing and sets the given fields (one single-item update). */
  patch(orgSlug: string, entityId: string, fields: Partial<Omit<AiSiteRecord, 'orgSlug' | 'entityId'>>): Promise<void>;
  /**
   * The same, only while `proxyStatus` is one of `proxyStatusIn` (or the record names this
   * execution in `orExecution.field`): false when another operation moved it first.
   */
  patchWhenStatus(orgSlug: string, entityId: string, fields: Partial<Omit<AiSiteRecord, 'orgSlug' | 'entityId'>>,
    expected: { proxyStatusIn: string[]; orExecution?: { field: string; id: string } }): Promise<boolean>;
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
/** One release's files read one at a time (a publish compares its pages with the live ones, D204). */
export interface ReleaseReader {
  /** Every path the release serves (on a static host, D28's `/ai/` copies too). */
  paths(): Promise<string[]>;
  /** The file's text at `path` in this release, or null when the release has none. */
  read(path: string): Promise<string | null>;
}

export interface SiteStore {
  /**
   * Writes the files as a new release and makes it current. A stream is written as it is read
   * (D204): nothing is current until every file is written, and a failure leaves the previous
   * release current.
   */
  publish(orgSlug: string, files: ReleaseFiles): Promise<PublishedRelease>;
  /** One release, to read file by file; null for an unknown (or pruned) release. */
  openRelease(orgSlug: string, releaseId: string): Promise<ReleaseReader | null>;
  /**
   * The current release's files (paths and contents), all from one release: the current id is
   * pinned once and that release read (`readRelease`). Null when the site has no release.
   */
  readCurrent(orgSlug: string): Promise<{ releaseId: string; files: SiteFile[] } | null>;
  /** The id the `current` pointer names now, or null when the site has no release. */
  currentReleaseId(orgSlug: string): Promise<string | null>;
  /**
   * One release's files. Null for an unknown (or pruned) release, like `readCurrent` for an
   * unknown site. A release stays readable for a grace period after it was superseded.
   */
  readRelease(orgSlug: string, releaseId: string): Promise<{ releaseId: string; files: SiteFile[] } | null>;
  listReleases(orgSlug: string): Promise<string[]>;
  rollback(orgSlug: string, releaseId: string): Promise<void>;
}

export interface ArticleRepository {
  /** Saves the article unless its slug is taken, then counts it; false when the slug was taken (nothing written). */
  add(orgSlug: string, article: ArticleRecord): Promise<boolean>;
  /** Every article of the organization, oldest first. */
  list(orgSlug: string): Promise<ArticleRecord[]>;
  /** One article by its slug, or null. */
  get(orgSlug: string, slug: string): Promise<ArticleRecord | null>;
  /** The articles a daily run wrote on `runDate`, oldest first (one Query, whatever the business's total). */
  listOfRunDate(orgSlug: string, runDate: string): Promise<ArticleRecord[]>;
  /** Takes back an article whose files could not be saved (its record and its counts). */
  remove(orgSlug: string, article: ArticleRecord): Promise<void>;
  /**
   * Retires a published article (its product left the catalogue): the record goes and its
   * entity's count with it; the week's count keeps it (it was created that week, and the
   * quota counts creations). False when the record was already gone (nothing counted twice).
   */
  retire(orgSlug: string, article: ArticleRecord): Promise<boolean>;
}

export interface ArticleStats {
  /** Articles created for the organization in the week starting `weekStart`. */
  countInWeek(orgSlug: string, weekStart: string): Promise<number>;
  /** Counts one created article in its week and on its entity (the product, or the business). */
  recordArticle(orgSlug: string, weekStart: string, productId: string | null): Promise<void>;
  /** Takes one article back out of those counts. */
  unrecordArticle(orgSlug: string, weekStart: string, productId: string | null): Promise<void>;
  /** Takes one article off its entity's count only (a retired article: its week still counts it). */
  unrecordEntityArticle(orgSlug: string, productId: string | null): Promise<void>;
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

/** The day's vendor batch jobs of the daily checks (issue 47, app/visibility/batches.ts). */
export interface VisibilityBatchJob {
  run_date: string;
  platform: PlatformKey;
  job_id: string;
  execution_id: string;
  /** `submitting`: recorded, not yet accepted by the vendor; `in_progress`: the vendor has it; `ended`: its results are in; `expired`: not ended within its window. */
  status: 'submitting' | 'in_progress' | 'ended' | 'expired';
  vendor_batch_id: string | null;
  vendor_status: string | null;
  created_at: string;
  submitted_at: string | null;
  ended_at: string | null;
  /**
   * When the first collector of the ended job stored its answers split per business in the
   * workflow objects (batchResultSliceKey); the other collectors read their share from there
   * instead of downloading the vendor's whole results again. Absent on jobs recorded before.
   */
  results_stored_at?: string | null;
  /** Until when a collector's claim to store the answers holds (claimResults). */
  results_claimed_until?: string;
  /** Until when a submit's claim to send the job to its vendor holds (claimSend, D230). */
  send_claimed_until?: string;
  /**
   * How many businesses the job's members belong to, and those whose checks under the job a
   * collector has settled (D227): an ended job stays listed until every one is collected, so
   * a business whose collector saw the job still running is not dropped when another ends it.
   * Absent on jobs recorded before.
   */
  member_orgs?: number;
  /** Those businesses (D231): the listing reads them instead of the ~100 KB `members`. Absent on jobs recorded before. */
  member_org_slugs?: string[];
  collected_orgs?: string[];
  members: Array<{ org_slug: string; prompt_id: string; custom_id: string }>;
}

/** A job as the listing reads it (D231): its state and its businesses, not its members. */
export type OpenBatchJob = Pick<VisibilityBatchJob, 'run_date' | 'platform' | 'job_id' | 'execution_id' | 'status' | 'ended_at' | 'member_orgs' | 'collected_orgs'> & {
  /** The businesses whose checks the job carries. */
  org_slugs: string[];
};

export interface VisibilityBatchRepository {
  /** False when the job exists (a retried submit). */
  create(job: VisibilityBatchJob): Promise<boolean>;
  get(runDate: string, platform: PlatformKey, jobId: string): Promise<VisibilityBatchJob | null>;
  update(job: Pick<VisibilityBatchJob, 'run_date' | 'platform' | 'job_id'>, fields: Partial<Omit<VisibilityBatchJob, 'run_date' | 'platform' | 'job_id'>>): Promise<void>;
  /**
   * The day's jobs still to collect: submitting or in progress, or ended (or expired) at or
   * after `endedSince` with a member business not collected yet (D227).
   */
  listOpen(runDate: string, endedSince: string): Promise<OpenBatchJob[]>;
  /**
   * Claims storing the ended job's answers until `until` (D224): true unless they are stored
   * or another collector's claim has not expired at `now`.
   */
  claimResults(job: Pick<VisibilityBatchJob, 'run_date' | 'platform' | 'job_id'>, until: string, now: string): Promise<boolean>;
  /**
   * Claims sending a `submitting` job to its vendor until `until` (a conditional write: the job
   * is still submitting and no other claim holds at `now`); false when another holds it.
   */
  claimSend(job: Pick<VisibilityBatchJob, 'run_date' | 'platform' | 'job_id'>, until: string, now: string): Promise<boolean>;
  /** Records these businesses as collected from the job (a string set: a repeat adds nothing). */
  markCollected(job: Pick<VisibilityBatchJob, 'run_date' | 'platform' | 'job_id'>, orgSlugs: string[]): Promise<void>;
  /**
   * Records that these businesses of a shard are done with their day (a set: a repeat adds
   * nothing); the shard as it now stands.
   */
  arrive(runDate: string, executionId: string, shard: number, expected: number, orgSlugs: string[]): Promise<VisibilityBatchShard>;
  /** Marks the shard's checks as sent to the vendors. */
  markShardSubmitted(runDate: string, executionId: string, shard: number): Promise<void>;
  /** The execution's shards whose checks have not been sent (their last business never arrived). */
  listUnsubmittedShards(runDate: string, executionId: string): Promise<VisibilityBatchShard[]>;
}

/**
 * A shard of the day's business list (D222): its businesses' batch checks go to each vendor
 * together, once all of them are done with their day, whichever Map children ran them.
 */
export interface VisibilityBatchShard {
  shard: number;
  /** How many businesses the shard has in the list. */
  expected: number;
  /** The businesses done with their day so far. */
  arrived: string[];
  submitted: boolean;
}

/**
 * Plain JSON objects a Distributed Map reads and writes by bucket and key: the item list its
 * ItemReader reads and the results its ResultWriter writes (the sites bucket on AWS, where
 * Step Functions reads and writes them itself; a directory locally, where the local runtime
 * does). Plain, not gzip like `ArtifactStore`: the ItemReader reads the object as it is.
 */
export interface WorkflowObjectStore {
  /** The bucket the state machine is told to read from (its name in the state). */
  readonly bucket: string;
  putJson(key: string, value: unknown): Promise<void>;
  getJson<T>(key: string): Promise<T | null>;
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
  /** A cheap version token per key under a prefix: it changes whenever the artifact is rewritten (a deleted key leaves the map). */
  versions(prefix: string): Promise<Record<string, string>>;
  /** Deletes the artifact; nothing happens when there is none (a retry deletes nothing twice). */
  delete(key: string): Promise<void>;
}

export interface OnboardingRepository {
  latest(orgSlug: string): Promise<OnboardingRun | null>;
  getRun(orgSlug: string, executionId: string): Promise<OnboardingRun | null>;
  /**
   * Records a new run as the latest, in one conditional write; ConflictError when another
   * run is still running. `replacing` is the latest run's id as read; a running one may be
   * replaced only when it is abandoned: its last heartbeat is before `dead.heartbeatBefore`,
   * or it was started by a workflow runner other than `dead.runnerOtherThan` (set only by
   * runners whose executions cannot outlive them).
   */
  start(run: OnboardingRun, replacing: string | null, dead: { heartbeatBefore: string; runnerOtherThan: string | null }): Promise<void>;
  /**
   * Refreshes the lease of a running run. False when the run is no longer the
   * organization's running run (it finished, or was replaced after being abandoned).
   */
  heartbeat(orgSlug: string, executionId: string, at: string): Promise<boolean>;
  updateStep(orgSlug: string, executionId: string, step: StepId, state: StepState): Promise<void>;
  finish(orgSlug: string, executionId: string, status: RunStatus, finishedAt: string): Promise<void>;
}

/**
 * Which invocation runs a workflow step (D233, D234, D237): one at a time per execution, a
 * claim left by an ended one expiring. `scope` is what the execution belongs to: the
 * organization (the claim sits on the run's item) or the workflow (a claim item of its own).
 */
export interface StepClaims {
  /** Claims `step` of the execution until `until` for the invocation `token` (a conditional write): false while another's claim is live at `now`. */
  claim(scope: string, executionId: string, step: string, token: string, until: string, now: string): Promise<boolean>;
  /** Ends the invocation `token`'s claim on `step` (another's is left alone). */
  release(scope: string, executionId: string, step: string, token: string): Promise<void>;
}

export type { WorkflowName } from './core/workflows';
import type { WorkflowName } from './core/workflows';

export interface ExecutionDescription {
  status: 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'TIMED_OUT' | 'ABORTED';
  startedAt: string;
  stoppedAt: string | null;
}

/** Starts state-machine executions: Step Functions on AWS, the same ASL in-process locally. */
export interface WorkflowStarter {
  start(workflow: WorkflowName, executionId: string, input: Record<string, unknown>): Promise<void>;
  /**
   * The engine's own record of an execution (DescribeExecution on AWS; the local runner's
   * durable record locally); null when it has none.
   */
  describe?(workflow: WorkflowName, executionId: string): Promise<ExecutionDescription | null>;
  /**
   * Set by a runner whose executions cannot outlive it (the local in-process runner, one id
   * per process): an execution recorded with another id is gone. Step Functions has none.
   */
  readonly instanceId?: string;
}

/** The local workflow runner's durable record of its executions (Step Functions keeps its own on AWS). */
export interface WorkflowExecutionRecords {
  put(record: { workflow: WorkflowName; executionId: string; runner: string } & ExecutionDescription): Promise<void>;
  get(workflow: WorkflowName, executionId: string): Promise<({ runner: string } & ExecutionDescription) | null>;
  /** The executions recorded as running, by any runner. */
  listRunning(): Promise<Array<{ workflow: WorkflowName; executionId: string; startedAt: string; runner: string }>>;
}

/** Which organization a CDN distribution domain belongs to (the local proxy's host lookup). */
export interface DistributionIndex {
  /** Marks `domain` as served by the distribution of `orgSlug` (its AI-site record must exist). */
  index(orgSlug: string, domain: string): Promise<void>;
  findOrg(domain: string): Promise<DistributionRoute | null>;
  /**
   * Marks a further host (a connected custom domain) as served by the same distribution:
   * an item of its own (the AI-site item holds the distribution domain's entry).
   */
  indexAlias(route: DistributionRoute, domain: string): Promise<void>;
  /**
   * Re-points the store origin recorded for the distribution of `orgSlug` (its AI-site item)
   * and for each of its aliases; `changed` when any of them held another value. Idempotent.
   */
  setStoreOrigin(orgSlug: string, storeOrigin: string): Promise<{ changed: boolean }>;
}

export type { CompetitorRepository } from './core/competitors/types';

/** Run records of the daily schedule (core/daily/run.ts): per execution (its businesses' runs) and each business's day lease. */
export interface DailyRunRepository {
  getBusinessRun(executionId: string, orgSlug: string): Promise<BusinessRun | null>;
  /** Creates the execution's record of the business, or returns the one a retry finds. */
  claimBusinessRun(run: BusinessRun): Promise<{ run: BusinessRun; created: boolean }>;
  /** Hands an abandoned run's settled steps and changed URLs to the execution resuming its day. */
  resumeBusinessRun(executionId: string, orgSlug: string, fields: Pick<BusinessRun, 'steps' | 'changed_urls' | 'resumed_from'> & { resumed_from: string }): Promise<void>;
  /** Takes the business's day for `executionId` when it is free, its own, or expired (ISO times). */
  acquireDayLease(runDate: string, orgSlug: string, executionId: string, now: string, expiresAt: string): Promise<DayLeaseClaim>;
  /** Extends the lease; false when `executionId` no longer holds it. */
  renewDayLease(runDate: string, orgSlug: string, executionId: string, expiresAt: string): Promise<boolean>;
  /** Frees the day, if `executionId` still holds it. */
  releaseDayLease(runDate: string, orgSlug: string, executionId: string): Promise<void>;
  getDayLease(runDate: string, orgSlug: string): Promise<{ lease: DayLease | null; latestExecutionId: string | null }>;
  updateStep(executionId: string, orgSlug: string, step: DailyStepId, state: DailyStepState): Promise<void>;
  /** Adds store URLs to the run's changed set (a set: adding twice keeps one). */
  addChangedUrls(executionId: string, orgSlug: string, urls: string[]): Promise<void>;
  /** Closes a running record; false when it was already closed (so it is counted once). */
  finishBusinessRun(executionId: string, orgSlug: string, fields: Pick<BusinessRun, 'status' | 'reason' | 'finished_at' | 'steps'>): Promise<boolean>;
  /**
   * One page of the execution's business runs, by organization slug; with `runDate`, an
   * execution recorded before runs were kept per execution is read from its day (D162).
   */
  listBusinessRuns(executionId: string, options: { cursor?: string | null; limit: number; runDate?: string }): Promise<{ runs: BusinessRun[]; nextCursor: string | null }>;
  createExecution(execution: DailyExecution): Promise<void>;
  getExecution(executionId: string): Promise<DailyExecution | null>;
  /** Counts one business finished by the execution (an atomic counter per outcome). */
  countBusiness(executionId: string, outcome: keyof DailyExecution['counts']): Promise<void>;
  finishExecution(executionId: string, fields: Pick<DailyExecution, 'status' | 'finished_at' | 'reason'>): Promise<void>;
}

/** One page of businesses, by organization slug (the daily fan-out and GET /api/cron/entities). */
export interface BusinessListing {
  list(options: { cursor?: string | null; limit: number }): Promise<{ businesses: Business[]; nextCursor: string | null }>;
}

// ---------------------------------------------------------------------------------------
// Organizations, their member cache and the identity provider (D8, D11, D29)
import type { MemberList, OrganizationRecord } from './core/organizations/members';

/** The organization record (adapters/dynamodb/organization-repo.ts); every write creates the record when missing. */
export interface OrganizationRepository {
  get(orgSlug: string): Promise<OrganizationRecord | null>;
  /** The record linked to the identity provider's organization id (GSI1; eventually consistent on AWS). */
  findByProviderId(providerOrgId: string): Promise<OrganizationRecord | null>;
  /**
   * Links the record to the provider's organization id (the latest event wins) and sets the
   * name. With `nameUpdatedAt` (the provider's ms timestamp) a name older than the stored one
   * is not applied. `revive` clears a deletion (organization.created); `stripeCustomerId` links
   * the payment customer in the same write. Returns the record.
   */
  linkProvider(orgSlug: string, link: { providerOrgId: string; name?: string; nameUpdatedAt?: number; revive?: boolean; stripeCustomerId?: string; at: string }): Promise<OrganizationRecord>;
  /** D11: business creation merges in the business id, and the name when none is known yet. */
  mergeBusiness(orgSlug: string, business: { businessId: string; name: string; at: string }): Promise<void>;
  /**
   * Stores a fetched member list unless the record is deleted or holds a list fetched later
   * than `syncedAt`; false when refused (the stored list is kept).
   */
  saveMembers(orgSlug: string, list: MemberList, syncedAt: string): Promise<boolean>;
  /** organization.deleted: members become empty, the record is kept. */
  markDeleted(orgSlug: string, at: string): Promise<void>;
  /** The payment provider's customer id of the organization. */
  setStripeCustomerId(orgSlug: string, stripeCustomerId: string, at: string): Promise<void>;
}

/** The identity provider's membership API (adapters/external/idp/memberships.ts). */
export interface IdentityProviderDirectory {
  /**
   * Every member of the provider's organization, all pages. Null when the provider says the
   * organization does not exist (404). ProviderNotConfiguredError when IDP_API_URL or
   * IDP_SECRET_KEY is missing; UpstreamError when the provider fails after retries.
   */
  listMembers(providerOrgId: string): Promise<MemberList | null>;
}

/** Inbound webhook messages already processed (Standard Webhooks ids; D27: duplicates are no-ops). */
export interface WebhookReceipts {
  /** True when `messageId` of `source` was processed (and its receipt has not expired). */
  seen(source: string, messageId: string): Promise<boolean>;
  /** Records a processed message with a conditional put; false when another delivery recorded it first. */
  record(source: string, messageId: string, details: { eventType: string; processedAt: string }): Promise<boolean>;
}

// ---------------------------------------------------------------------------------------
// AI-bot visits (AI recommendations; adapters/dynamodb/visit-repo.ts)
import type { VisitCounts, VisitRecord, VisitSource } from './core/visits/visit';

export interface VisitDedupe {
  /** The visit's dedupe key (core/visits/dedupe.ts). */
  key: string;
  /** Its 5-minute bucket and the neighbouring bucket on the nearer side. */
  bucket: string;
  neighbour: string;
}

/** A crawler vendor's published addresses as last fetched (D193). */
export interface StoredAddressList {
  vendor: string;
  /** Canonical CIDR ranges of the last good download; empty when none ever succeeded. */
  ranges: string[];
  /** When the ranges were fetched; null when no download ever succeeded. */
  fetchedAt: string | null;
  attemptedAt: string;
  /** Why the last attempt failed (the ranges are then the previous good ones); null after a success. */
  error: string | null;
}

export interface CrawlerAddressRepository {
  all(): Promise<StoredAddressList[]>;
  /** Replaces the vendor's ranges (and clears its error). */
  save(vendor: string, ranges: string[], at: string): Promise<void>;
  /** Records a failed refresh; the ranges stay as they were. */
  recordFailure(vendor: string, error: string, at: string): Promise<void>;
}

export interface VisitRepository {
  /**
   * Stores the visit unless the same visit is stored already (its key in its bucket or in the
   * neighbouring one): a conditional put, so concurrent paths converge on one item. A
   * duplicate adds its `source` to the stored visit's `sources`. Day counters count `recorded` only.
   */
  record(orgSlug: string, visit: VisitRecord, dedupe: VisitDedupe): Promise<{ outcome: 'recorded' | 'duplicate'; source: VisitSource }>;
  /** One page of the visits of UTC days `from`..`to` (inclusive), newest first (by 5-minute bucket). */
  /** `unverified`: list only the claims from outside their vendor's published addresses (otherwise they are left out). */
  /** `unidentified`: list only the crawlers no table or list names (issue 46). */
  list(orgSlug: string, range: { from: string; to: string }, page: { limit: number; cursor?: string | null; unverified?: boolean; unidentified?: boolean }): Promise<{ visits: VisitRecord[]; nextCursor: string | null }>;
  /** Visits of UTC days `from`..`to` per platform (all 8 and `unknown`). */
  counts(orgSlug: string, range: { from: string; to: string }): Promise<VisitCounts>;
}
