/**
 * Capacity benchmark (issue 24 point 4): can one daily run serve 50,000 businesses in the
 * 24-hour window, and which limit stops it first? A deterministic discrete-event simulation
 * (simulated time on an event heap, seeded random numbers, no AWS, no sleeps) of ONE day's
 * fan-out as state-machines/daily-schedule.asl.json runs it:
 *
 *   PrepareDailyRun, RefreshCrawlerAddresses, WriteDailyBusinessList (the whole day's list to S3
 *   once; it takes longer the larger the fleet), then ONE Distributed Map run (ProcessBusinesses)
 *   over that list: its ItemBatcher groups MaxItemsPerBatch businesses into a batch, each batch
 *   is one child execution, at most MaxConcurrency children run at once and a new one starts as
 *   soon as one ends; inside a child the inline Map ProcessBatch starts all of the batch's
 *   businesses together and the child ends (freeing its slot) when its slowest business ends.
 *   FinishDailyRun at the end. Per business:
 *     StartBusinessRun
 *     batch 1  DetectChanges || (DiscoverNewProducts -> GenerateProductPrompts ->
 *              GenerateProductLlmsTxt -> CommitProductSnapshot)
 *     UpdateAiSite, then WaitForEdgePropagation (EDGE_PROPAGATION_WAIT_SECONDS) when it deployed
 *     batch 2  (PlanArticles -> CreateArticles Map (MaxConcurrency from the ASL) ->
 *              PublishArticlesAndTimestamps -> NotifySearchEngines)
 *              || AnalyzeVisibility: 10 sampled prompts on each of the 8 platforms (D117);
 *              each platform's prompts go through the business's local gate (as many at once
 *              as PLATFORM_CONCURRENCY, analyze.ts) and the fleet-wide limiter (D120,
 *              platform-limiter.ts): a concurrency slot, then the calendar-minute rate counter,
 *              then the daily budget, in that order; a call waits at most 120 s for a slot or
 *              the rate and is then refused; the slot is held for the vendor call only, the
 *              judge runs after it
 *     FinishBusinessRun once both branches of batch 2 are done.
 *   Every task holds one unit of the account's Lambda concurrency while it runs (AnalyzeVisibility
 *   for all of its calls and waits); a task that finds none waits in a FIFO queue.
 *
 * Reported per N (1,000 / 10,000 / 50,000 / 100,000 by default, BENCH_CAPACITY_SIZES): when the day
 * would finish (after the 14:00 UTC start), whether it fits in 24 h, the child executions (batches),
 * calls made / skipped by budget / refused after the limiter's wait per platform, peak Lambda
 * concurrency, and the limits by utilisation: the one with the highest utilisation is what the
 * finish time depends on; the first limit (other than the Map) to delay or refuse a call is named
 * with its time. The same sizes run again with the budget checked after the slot and the rate (as
 * the limiter did before issue 24: a call refused by a spent budget still waited for a slot and
 * took a rate unit). Then a sweep (`chooseDefaults`) picks the Map's MaxConcurrency (children) and
 * batch size with the fewest businesses at once, the smallest per-platform rate and concurrency
 * (under the vendor's RPM, ASSUMED_VENDOR_RPM) and the daily budget with which 50,000 businesses
 * finish within BENCH_CAPACITY_TARGET_HOURS (default 20) with no call skipped or refused, and runs
 * the sizes again with those.
 *
 * After batch pricing (issue 47, `vendorBatches: true`): the checks of the batch platforms
 * (`batchPlatforms`, default platform_1-3: OpenAI Batch API, Anthropic Message Batches, Gemini Batch
 * Mode) are only queued in 2b (no vendor call, no limiter slot: 2b lasts as long as the synchronous
 * platforms' calls); when a Map child's businesses are all done, its SubmitVisibilityBatches submits
 * one vendor batch per batch platform (batch size × 10 checks); a vendor accepts a job while its
 * queue has room (VENDOR_LIMITS: Anthropic's batch requests in the processing queue, OpenAI's
 * enqueued tokens per model, Gemini's concurrent batch jobs and enqueued tokens), else the job waits
 * until earlier ones end; an accepted job ends after a drawn turnaround (DEFAULT_BATCH_TURNAROUND_HOURS,
 * an assumption). After the Map the run loops ListPendingVisibilityBatches -> WaitForVisibilityBatches
 * (VISIBILITY_BATCH_POLL_SECONDS) -> CollectVisibilityBatches (children of 10 businesses, MaxConcurrency
 * from the ASL; each polls its businesses' jobs as its task starts and judges the answers of the
 * ended ones, COLLECT_JUDGE_CONCURRENCY at a time, then scores a business with no job left) until
 * nothing is pending; FinishDailyRun then. The report adds the sizes "after", a sweep of the Map and
 * the 5 synchronous platforms for 50,000 with batches (their settings checked against the vendors'
 * published figures), and the cost per business-day before and after batch pricing (cost-model.ts).
 *
 * Modelling choices (assumptions, all overridable through `SimulationOptions`):
 * - step durations: DEFAULT_STEP_SECONDS (plausible figures, to be replaced with measured ones),
 *   each drawn uniformly within ±durationJitter of its mean;
 * - vendor call latency 5-15 s uniform per call (DEFAULT_CALL_LATENCY_SECONDS), judge 1-3 s;
 * - the limiter's waiters are served first come, first served (the real one polls with jitter);
 *   a refused call gives up at exactly 120 s;
 * - Lambda throttling is a FIFO queue; on AWS a throttled task is retried by Step Functions
 *   (2 s, doubling, at most 60 s, 6 attempts: about 122 s in all), so a wait longer than that
 *   is counted as a task that would have failed (`beyondRetry`);
 * - AnalyzeVisibility longer than the 300 s Lambda timeout is counted (`overTimeout`), not cut
 *   short (on AWS it is retried and resumes the unsettled checks);
 * - the Distributed Map's children start in the list's order, a child's businesses all at once
 *   (ProcessBatch's MaxConcurrency is the batch size; `aslLimits` checks it);
 * - no cold starts, no failures, no retries; Step Functions overheads are fixed per task, per
 *   child execution and per Map run (DEFAULT_OVERHEAD_SECONDS).
 *
 *   npx tsx bench/capacity.ts
 *   BENCH_CAPACITY_SIZES=1000,10000 BENCH_CAPACITY_TARGET_HOURS=20 BENCH_CAPACITY_VENDOR_RPM=500 npx tsx bench/capacity.ts
 *   BENCH_CAPACITY_SEED=7 ...   (another draw of durations; the figures move by well under 1%)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EDGE_PROPAGATION_WAIT_SECONDS, PLATFORM_KEYS, PLATFORM_LIMIT_DEFAULTS, PROMPTS_SAMPLED_PER_DAY, VISIBILITY_BATCH_POLL_SECONDS } from '../functions/core/constants';
import { batchPricingComparison, printBatchPricing, usd as usdText, type BatchPricingComparison } from './cost-model';
import { heading, int, isMain, ms, percentile, printTable, ROOT } from './lib';
import { seededRandom } from '../functions/core/util/random';
import { BATCH_SHARD_BUSINESSES } from '../functions/core/workflows';
import { batchQueueLimitsFor, DEFAULT_BATCH_PLATFORMS, spendCapChecks, syncPlatformChecks, VENDOR_LIMITS, type BatchQueueLimit, type SpendCheck, type SyncCheck } from './vendor-limits';

// ---------------------------------------------------------------------------------------
// assumptions

/** The daily run starts at 14:00 UTC (lib/stacks/workflow-stack.ts DAILY_SCHEDULE_CRON). */
export const DAY_START_UTC_HOUR = 14;
/** The window a day's run must fit in. */
export const WINDOW_HOURS = 24;
/** AWS's default account-level Lambda concurrency per region (shared with the API functions). */
export const DEFAULT_LAMBDA_CONCURRENCY = 1000;
/** Task Lambdas' timeout (lib/stacks/workflow-stack.ts TASK_TIMEOUT_SECONDS). */
export const TASK_TIMEOUT_SECONDS = 300;
/** The platform limiter's longest wait for a slot or the rate (platform-limiter.ts maxWaitMs, D120). */
export const LIMITER_MAX_WAIT_SECONDS = 120;

/**
 * Mean duration in seconds of each Lambda task of the daily chain, per business (the run's own
 * tasks once per run). PLAUSIBLE GUESSES for a small-to-medium store on a steady day,
 * not measurements: the lead replaces them with measured per-step figures (`npm run bench`,
 * section daily, reports each step's duration) or passes them as `stepSeconds`.
 * AnalyzeVisibility is modelled as `visibilityBefore` (business, sample, identity reads), the
 * platform calls (simulated one by one) and `visibilityAfter` (report, tracker, score writes).
 */
export const DEFAULT_STEP_SECONDS = {
  prepareDailyRun: 0.5,
  /** Fetches the crawler vendors' address lists (a failure never stops the run). */
  refreshCrawlerAddresses: 1,
  /** The whole day's list written to S3 once: this fixed part plus `writeDailyBusinessListPer10k`. */
  writeDailyBusinessList: 0.5,
  /** What WriteDailyBusinessList takes on top per 10,000 businesses (listing pages from the database, a larger object). */
  writeDailyBusinessListPer10k: 1,
  startBusinessRun: 0.3,
  detectChanges: 20,
  discoverNewProducts: 3,
  generateProductPrompts: 1,
  generateProductLlmsTxt: 2,
  commitProductSnapshot: 0.5,
  updateAiSite: 8,
  planArticles: 0.5,
  /** One CreateArticles item (one entity's missing articles). */
  createArticleBatch: 60,
  publishArticlesAndTimestamps: 5,
  notifySearchEngines: 1,
  visibilityBefore: 1.5,
  visibilityAfter: 2.5,
  finishBusinessRun: 0.3,
  finishDailyRun: 0.5,
  /** Vendor batches (issue 47): a Map child's SubmitVisibilityBatches (one vendor batch per batch platform: an upload and a create call each). */
  submitVisibilityBatches: 3,
  /** ListPendingVisibilityBatches: the businesses with an open job written as the collecting Map's list. */
  listPendingVisibilityBatches: 1,
  /** A collecting child's CollectBatchResults before any judging: one progress call per job of its businesses, reads. */
  collectBatchResults: 2,
};
export type StepSeconds = typeof DEFAULT_STEP_SECONDS;

/**
 * Step Functions' own time (assumed): per task (state transition + Lambda invoke), per Map item
 * (a Distributed Map child execution, i.e. one batch, starting: held in the child's slot before its
 * businesses start) and per Map run (the one Distributed Map run reading the list, starting and closing).
 */
export const DEFAULT_OVERHEAD_SECONDS = { task: 0.1, mapItem: 0.5, mapRun: 2 };
export type OverheadSeconds = typeof DEFAULT_OVERHEAD_SECONDS;

export interface Range {
  min: number;
  max: number;
}

/** Vendor answer time per platform call (assumption: answers with web search take seconds). */
export const DEFAULT_CALL_LATENCY_SECONDS: Range = { min: 5, max: 15 };
/** The judge's evaluation of one answer (the service's own model API, not under the platform limits). */
export const DEFAULT_JUDGE_SECONDS: Range = { min: 1, max: 3 };

/**
 * Requests per minute a vendor's paid tier typically allows one account: 500 is OpenAI's first
 * paid tier for small models; Anthropic's and Perplexity's entry tiers allow only about 50 (their
 * next tiers several hundred to 1,000), and the SERP API of platform 8 is sold as searches per
 * month. An ASSUMPTION: check every platform against the account's real tier (and the monthly
 * cost of PLATFORM_DAILY_BUDGET × 30) before using the defaults chosen from it.
 */
export const ASSUMED_VENDOR_RPM = 500;

// ---------------------------------------------------------------------------------------
// vendor batches (issue 47): platforms 1-3 through the vendors' batch interfaces

/**
 * How long a vendor takes to end a batch once it accepted it: an ASSUMPTION (drawn uniformly per
 * job), not a measurement. The vendors promise only an upper bound: OpenAI "We will process these
 * requests within 24 hours" (https://help.openai.com/en/articles/9197833-batch-api-faq); Anthropic
 * "most batches finishing in less than 1 hour", results when all are done "or after 24 hours,
 * whichever comes first" (https://platform.claude.com/docs/en/build-with-claude/batch-processing);
 * Google "retrieve your results within 24 hours" (Gemini API Batch Mode announcement, copy at
 * https://gokawiil.com/article/37055; jobs expire after 48 h). 15 min to 4 h covers "minutes to a
 * few hours"; a slower vendor day moves the finish one for one (BENCH_CAPACITY_BATCH_HOURS=min,max).
 */
export const DEFAULT_BATCH_TURNAROUND_HOURS: Range = { min: 0.25, max: 4 };
/**
 * Requests per vendor job: MAX_JOB_CHECKS (1,000), the job item's cap, below every vendor's own
 * (OpenAI 50,000, Anthropic 100,000, Gemini 2,000 with its JSONL input and responses files, D223;
 * 500 inline). Applied to all three.
 */
export const JOB_REQUEST_CAP = 1000;
/** Answers a CollectBatchResults task judges at once (ASSUMPTION: the judge calls of one task run 10 at a time). */
export const COLLECT_JUDGE_CONCURRENCY = 10;

/** Candidates the sweep tries (ascending): ProcessBusinesses' MaxConcurrency, in child executions at once. */
export const MAX_CONCURRENCY_CANDIDATES = [5, 10, 20, 40, 60, 80, 100, 150, 200, 300, 400, 500];
/**
 * Businesses per child execution (ItemBatcher's MaxItemsPerBatch). A larger batch means fewer child
 * executions (fewer starts, fewer executions to look through) but a longer tail: a child holds its
 * slot until its slowest business ends, so its faster ones leave part of the slot idle. A child's
 * history (25,000 events at most) holds its whole batch, which keeps batches small.
 */
export const BATCH_SIZE_CANDIDATES = [1, 5, 10, 20];
export const RATE_CANDIDATES = [60, 90, 120, 150, 180, 240, 300, 400, 500, 600, 800, 1000];
export const CONCURRENCY_CANDIDATES = [4, 6, 8, 10, 12, 16, 20, 24, 32, 40, 48, 64, 96, 128];

/** The real limits the ASL sets: the Maps' MaxConcurrency, the batch size and the Lambda-throttle retry window. */
export interface AslLimits {
  /** Child executions (batches) of the Distributed Map at once. */
  processBusinessesMaxConcurrency: number;
  /** Businesses per child execution (ProcessBusinesses' ItemBatcher.MaxItemsPerBatch). */
  processBusinessesBatchSize: number;
  createArticlesMaxConcurrency: number;
  /** Sum of the delays of the Lambda.TooManyRequestsException retrier (IntervalSeconds, BackoffRate, MaxDelaySeconds, MaxAttempts). */
  lambdaRetryWindowSeconds: number;
}

let aslCache: AslLimits | undefined;

/** Reads the limits from state-machines/daily-schedule.asl.json, so the simulation follows the file. */
export function aslLimits(): AslLimits {
  if (aslCache) return aslCache;
  const asl = JSON.parse(readFileSync(join(ROOT, 'state-machines', 'daily-schedule.asl.json'), 'utf8')) as AslNode;
  const states = new Map<string, AslNode>();
  const walk = (node: AslNode) => {
    for (const [name, state] of Object.entries(node.States ?? {})) {
      states.set(name, state);
      for (const branch of state.Branches ?? []) walk(branch);
      if (state.ItemProcessor) walk(state.ItemProcessor);
      if (state.Iterator) walk(state.Iterator);
    }
  };
  walk(asl);
  const concurrencyOf = (name: string) => {
    const value = states.get(name)?.MaxConcurrency;
    if (typeof value !== 'number') throw new Error(`daily-schedule.asl.json: no MaxConcurrency on ${name}`);
    return value;
  };
  const batchSize = states.get('ProcessBusinesses')?.ItemBatcher?.MaxItemsPerBatch;
  if (typeof batchSize !== 'number') throw new Error('daily-schedule.asl.json: no ItemBatcher.MaxItemsPerBatch on ProcessBusinesses');
  // the model starts a batch's businesses all at once; 0 (or no value) is unlimited in the ASL
  const inner = states.get('ProcessBatch')?.MaxConcurrency ?? 0;
  if (inner !== 0 && inner < batchSize) throw new Error(`daily-schedule.asl.json: ProcessBatch runs ${inner} of a batch of ${batchSize} at once; the model assumes all`);
  // StartBusinessRun sits inside ProcessBatch inside ProcessBusinesses: the walk above reaches it;
  // without its retrier every throttled task would count as failed, so a missing one is an error
  const retrier = states.get('StartBusinessRun')?.Retry?.find((r) => r.ErrorEquals.includes('Lambda.TooManyRequestsException'));
  if (!retrier) throw new Error('daily-schedule.asl.json: no Lambda.TooManyRequestsException retrier on StartBusinessRun');
  aslCache = {
    processBusinessesMaxConcurrency: concurrencyOf('ProcessBusinesses'),
    processBusinessesBatchSize: batchSize,
    createArticlesMaxConcurrency: concurrencyOf('CreateArticles'),
    lambdaRetryWindowSeconds: retryWindowSeconds(retrier),
  };
  return aslCache;
}

/** CollectVisibilityBatches' MaxConcurrency and ItemBatcher.MaxItemsPerBatch (the collecting Map of issue 47). */
export function collectAslLimits(): { maxConcurrency: number; batchSize: number } {
  const asl = JSON.parse(readFileSync(join(ROOT, 'state-machines', 'daily-schedule.asl.json'), 'utf8')) as AslNode;
  const state = asl.States?.CollectVisibilityBatches;
  const maxConcurrency = state?.MaxConcurrency;
  const batchSize = state?.ItemBatcher?.MaxItemsPerBatch;
  if (typeof maxConcurrency !== 'number' || typeof batchSize !== 'number') throw new Error('daily-schedule.asl.json: no MaxConcurrency / ItemBatcher on CollectVisibilityBatches');
  return { maxConcurrency, batchSize };
}

type AslRetrier = NonNullable<AslNode['Retry']>[number];

/** The sum of a retrier's delays: how long a task keeps being retried before it fails (ASL defaults where unset). */
function retryWindowSeconds(retrier: AslRetrier): number {
  let window = 0;
  let delay = retrier.IntervalSeconds ?? 1;
  for (let i = 0; i < (retrier.MaxAttempts ?? 3); i++) {
    window += Math.min(delay, retrier.MaxDelaySeconds ?? Infinity);
    delay *= retrier.BackoffRate ?? 2;
  }
  return window;
}

interface AslNode {
  States?: Record<string, AslNode>;
  Branches?: AslNode[];
  ItemProcessor?: AslNode;
  Iterator?: AslNode;
  MaxConcurrency?: number;
  ItemBatcher?: { MaxItemsPerBatch?: number };
  Retry?: Array<{ ErrorEquals: string[]; IntervalSeconds?: number; MaxAttempts?: number; BackoffRate?: number; MaxDelaySeconds?: number }>;
}

// ---------------------------------------------------------------------------------------
// options and results

export interface PlatformLimitSettings {
  concurrency: number;
  ratePerMinute: number;
  dailyBudget: number;
}

export interface SimulationOptions {
  businesses: number;
  /** Seed of every random draw (default 1); each business has its own stream, so the same business draws the same durations under any limits. */
  seed?: number;
  /** Businesses per child execution (ProcessBusinesses' ItemBatcher.MaxItemsPerBatch, from the ASL). */
  batchSize?: number;
  /** Child executions at once (ProcessBusinesses' MaxConcurrency, from the ASL). */
  maxConcurrency?: number;
  /** CreateArticles MaxConcurrency (from the ASL). */
  articleMapConcurrency?: number;
  /** Account-level Lambda concurrency (DEFAULT_LAMBDA_CONCURRENCY). */
  lambdaConcurrency?: number;
  /** WaitForEdgePropagation (EDGE_PROPAGATION_WAIT_SECONDS). */
  edgeWaitSeconds?: number;
  /** Share of businesses whose batch 1 deployed (they wait for the edge); default 0.2. */
  changedShare?: number;
  /** Share of businesses with articles planned today (new businesses' first burst); default 0.02. */
  articleShare?: number;
  /** CreateArticles items of such a business; default 10. */
  articleItems?: number;
  /** Prompts asked per platform per business (PROMPTS_SAMPLED_PER_DAY). */
  promptsPerBusiness?: number;
  /** AI platforms (PLATFORM_KEYS.length). */
  platforms?: number;
  /** Fleet-wide limits, the same for every platform (PLATFORM_LIMIT_DEFAULTS). */
  platformLimits?: Partial<PlatformLimitSettings>;
  /** Vendor latency per call: one range for all platforms or one per platform. */
  callLatencySeconds?: Range | Range[];
  judgeSeconds?: Range;
  limiterMaxWaitSeconds?: number;
  /** The limiter checks the budget before the slot and the rate (true, as platform-limiter.ts does since issue 24) or after them (false, as it did before). */
  budgetCheckedFirst?: boolean;
  taskTimeoutSeconds?: number;
  /** Longest Lambda throttle the Step Functions retrier rides out (from the ASL). */
  lambdaRetryWindowSeconds?: number;
  stepSeconds?: Partial<StepSeconds>;
  /** Each duration is drawn uniformly in mean × [1 − jitter, 1 + jitter]; default 0.3. */
  durationJitter?: number;
  overheadSeconds?: Partial<OverheadSeconds>;
  windowHours?: number;
  /**
   * Vendor batches (issue 47, "after"): the batch platforms' checks are only queued in 2b and go to
   * the vendor in shard-sized jobs (batchShardSize; D222), collected by the polling loop after the Map.
   * false (the default): every platform synchronous in 2b ("before").
   */
  vendorBatches?: boolean;
  /** The platforms (0-based) that go through vendor batches when `vendorBatches` is on (DEFAULT_BATCH_PLATFORMS: 1-3). */
  batchPlatforms?: number[];
  /** Vendor turnaround per batch job, drawn uniformly (DEFAULT_BATCH_TURNAROUND_HOURS). */
  batchTurnaroundHours?: Range;
  /** WaitForVisibilityBatches (VISIBILITY_BATCH_POLL_SECONDS). */
  batchPollSeconds?: number;
  /**
   * Businesses per shard of the list (BATCH_SHARD_BUSINESSES, D222): a shard's jobs go out when its
   * last business's child ends. 0: one job per platform per Map child (D218, before shards).
   */
  batchShardSize?: number;
  /** The most requests one job carries (JOB_REQUEST_CAP); a larger shard makes several jobs. */
  jobRequestCap?: number;
  /** Each batch platform's queue, in the order of `batchPlatforms` (batchQueueLimitsFor: Tier 1 of VENDOR_LIMITS). */
  batchQueueLimits?: BatchQueueLimit[];
  /** CollectVisibilityBatches' MaxConcurrency and batch size (from the ASL). */
  collectMaxConcurrency?: number;
  collectBatchSize?: number;
  /** Answers one CollectBatchResults task judges at once (COLLECT_JUDGE_CONCURRENCY). */
  collectJudgeConcurrency?: number;
}

export type ResolvedOptions = Required<Omit<SimulationOptions, 'platformLimits' | 'callLatencySeconds' | 'stepSeconds' | 'overheadSeconds'>> & {
  platformLimits: PlatformLimitSettings;
  callLatencySeconds: Range[];
  stepSeconds: StepSeconds;
  overheadSeconds: OverheadSeconds;
};

export function resolveOptions(options: SimulationOptions): ResolvedOptions {
  const asl = aslLimits();
  const platforms = options.platforms ?? PLATFORM_KEYS.length;
  const latency = options.callLatencySeconds ?? DEFAULT_CALL_LATENCY_SECONDS;
  const latencies = Array.isArray(latency) ? latency : Array.from({ length: platforms }, () => latency);
  if (latencies.length !== platforms) throw new Error(`callLatencySeconds: ${latencies.length} ranges for ${platforms} platforms`);
  const vendorBatches = options.vendorBatches ?? false;
  const batchPlatforms = vendorBatches ? [...new Set(options.batchPlatforms ?? DEFAULT_BATCH_PLATFORMS)].filter((p) => p >= 0 && p < platforms).sort((a, b) => a - b) : [];
  const collect = vendorBatches ? collectAslLimits() : { maxConcurrency: 1, batchSize: 1 };
  const resolved: ResolvedOptions = {
    businesses: options.businesses,
    seed: options.seed ?? 1,
    batchSize: options.batchSize ?? asl.processBusinessesBatchSize,
    maxConcurrency: options.maxConcurrency ?? asl.processBusinessesMaxConcurrency,
    articleMapConcurrency: options.articleMapConcurrency ?? asl.createArticlesMaxConcurrency,
    lambdaConcurrency: options.lambdaConcurrency ?? DEFAULT_LAMBDA_CONCURRENCY,
    edgeWaitSeconds: options.edgeWaitSeconds ?? EDGE_PROPAGATION_WAIT_SECONDS,
    changedShare: options.changedShare ?? 0.2,
    articleShare: options.articleShare ?? 0.02,
    articleItems: options.articleItems ?? 10,
    promptsPerBusiness: options.promptsPerBusiness ?? PROMPTS_SAMPLED_PER_DAY,
    platforms,
    platformLimits: { ...PLATFORM_LIMIT_DEFAULTS, ...options.platformLimits },
    callLatencySeconds: latencies,
    judgeSeconds: options.judgeSeconds ?? DEFAULT_JUDGE_SECONDS,
    limiterMaxWaitSeconds: options.limiterMaxWaitSeconds ?? LIMITER_MAX_WAIT_SECONDS,
    budgetCheckedFirst: options.budgetCheckedFirst ?? true,
    taskTimeoutSeconds: options.taskTimeoutSeconds ?? TASK_TIMEOUT_SECONDS,
    lambdaRetryWindowSeconds: options.lambdaRetryWindowSeconds ?? asl.lambdaRetryWindowSeconds,
    stepSeconds: { ...DEFAULT_STEP_SECONDS, ...options.stepSeconds },
    durationJitter: options.durationJitter ?? 0.3,
    overheadSeconds: { ...DEFAULT_OVERHEAD_SECONDS, ...options.overheadSeconds },
    windowHours: options.windowHours ?? WINDOW_HOURS,
    vendorBatches,
    batchPlatforms,
    batchTurnaroundHours: options.batchTurnaroundHours ?? DEFAULT_BATCH_TURNAROUND_HOURS,
    batchPollSeconds: options.batchPollSeconds ?? VISIBILITY_BATCH_POLL_SECONDS,
    batchShardSize: options.batchShardSize ?? BATCH_SHARD_BUSINESSES,
    jobRequestCap: options.jobRequestCap ?? JOB_REQUEST_CAP,
    batchQueueLimits: options.batchQueueLimits ?? batchQueueLimitsFor(batchPlatforms),
    collectMaxConcurrency: options.collectMaxConcurrency ?? collect.maxConcurrency,
    collectBatchSize: options.collectBatchSize ?? collect.batchSize,
    collectJudgeConcurrency: options.collectJudgeConcurrency ?? COLLECT_JUDGE_CONCURRENCY,
  };
  if (resolved.batchQueueLimits.length !== batchPlatforms.length) throw new Error(`batchQueueLimits: ${resolved.batchQueueLimits.length} for ${batchPlatforms.length} batch platforms`);
  const positive = ['batchSize', 'maxConcurrency', 'articleMapConcurrency', 'lambdaConcurrency'] as const;
  for (const key of positive) if (!(resolved[key] >= 1)) throw new Error(`${key} must be 1 or more, got ${resolved[key]}`);
  const { concurrency, ratePerMinute, dailyBudget } = resolved.platformLimits;
  if (!(concurrency >= 1 && ratePerMinute >= 1 && dailyBudget >= 0)) throw new Error(`platform limits must be positive: ${JSON.stringify(resolved.platformLimits)}`);
  if (!(resolved.businesses >= 0)) throw new Error(`businesses must be 0 or more, got ${resolved.businesses}`);
  return resolved;
}

export interface PlatformDay {
  platform: string;
  /** Calls the businesses wanted to make (prompts × businesses that reached 2b). */
  wanted: number;
  made: number;
  skippedByBudget: number;
  /** Gave up after the limiter's longest wait (120 s) for a slot or the rate. */
  refusedByWait: number;
  /** Time of the first call refused by the spent budget. */
  budgetSpentAt: number | null;
  peakInFlight: number;
  /** Limiter wait of the calls that got through it (made or refused by budget). */
  meanWaitSeconds: number;
  maxWaitSeconds: number;
  /** Minute-counter units taken (made calls and, when the budget is checked last, budget-refused ones) over rate × finish time. */
  rateUtilisation: number;
  /** Slot-seconds held over concurrency × finish time. */
  concurrencyUtilisation: number;
  firstRateWaitAt: number | null;
  firstSlotWaitAt: number | null;
}

export type LimitKind = 'map' | 'platform-rate' | 'platform-concurrency' | 'platform-budget' | 'lambda';

export interface LimitUse {
  limit: string;
  kind: LimitKind;
  /** The setting, as text. */
  setting: string;
  /**
   * Time-based limits: capacity used over capacity × finish time (the Map: the finish with no other
   * limit over the actual finish). The budget: calls wanted over the budget (above 1: calls skipped).
   */
  utilisation: number;
  /** First time the limit delayed or refused a request (the Map: null, it queues by design). */
  firstAt: number | null;
}

export interface DayResult {
  businesses: number;
  /** Child executions of the Distributed Map: the businesses in batches of `batchSize`. */
  batches: number;
  batchSize: number;
  /** Child executions at once. */
  maxConcurrency: number;
  lambdaConcurrency: number;
  platformLimits: PlatformLimitSettings;
  windowHours: number;
  /** Seconds after the 14:00 UTC start when FinishDailyRun ends. */
  finishSeconds: number;
  fits: boolean;
  /** The finish with only the Map (MaxConcurrency children, batches) and the chain: every other limit infinite. */
  mapOnlyFinishSeconds: number;
  business: { meanSeconds: number; p95Seconds: number; maxSeconds: number };
  visibility: { meanSeconds: number; p95Seconds: number; maxSeconds: number; overTimeout: number };
  lambda: { peak: number; throttled: number; meanWaitSeconds: number; maxWaitSeconds: number; beyondRetry: number; busySeconds: number };
  platforms: PlatformDay[];
  totals: { wanted: number; made: number; skippedByBudget: number; refusedByWait: number };
  /** Every limit, highest utilisation first. */
  limits: LimitUse[];
  /** The time-based limit with the highest utilisation: the one the finish time depends on. */
  binding: LimitUse;
  /** The first limit other than the Map to delay or refuse a request, and when. */
  firstLimit: { limit: string; at: number } | null;
  /** No call skipped or refused, no task beyond its timeout or the throttle retries: the day's work was all done. */
  complete: boolean;
  events: number;
  /** The vendor batches (null: `vendorBatches` off, every platform synchronous). */
  vendorBatches: BatchDay | null;
}

/** What the vendor batches did in a day (issue 47). */
export interface BatchDay {
  platforms: string[];
  queueLimits: BatchQueueLimit[];
  /** Vendor batch jobs submitted (per batch platform, one per shard of the list, D222) and the checks in them. */
  jobs: number;
  requests: number;
  /** Jobs that waited for room in the vendor's queue, the longest wait, and when the first had to. */
  submissionsWaited: number;
  maxSubmitWaitSeconds: number;
  firstQueueWaitAt: number | null;
  waitedByPlatform: number[];
  peakQueuedRequests: number[];
  peakOpenJobs: number[];
  /** When the Distributed Map (the fan-out and the submissions) ended. */
  fanOutEndSeconds: number;
  lastJobEndSeconds: number;
  /** When the last business got its score (the day's work done; FinishDailyRun follows the next list). */
  lastScoredSeconds: number;
  scored: number;
  /** Collecting rounds (list, wait, collecting Map) and their child executions; when each round's first child polled. */
  rounds: number;
  collectChildren: number;
  pollSeconds: number[];
  judgedAnswers: number;
  /** What the time after the fan-out depends on. */
  binding: string;
}

// ---------------------------------------------------------------------------------------
// simulation machinery

/** A per-business seed: seed and index mixed (murmur3's finaliser), so neighbouring businesses draw unrelated streams. */
function streamSeed(seed: number, index: number): number {
  let h = (Math.imul(seed >>> 0, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca77)) >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Binary min-heap of events by (time, insertion order): equal times run in the order they were scheduled. */
class EventHeap {
  private readonly times: number[] = [];
  private readonly seqs: number[] = [];
  private readonly fns: Array<() => void> = [];
  private seq = 0;

  get size(): number {
    return this.times.length;
  }

  push(time: number, fn: () => void): void {
    const { times, seqs, fns } = this;
    const s = this.seq++;
    let i = times.length;
    times.push(time);
    seqs.push(s);
    fns.push(fn);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (times[parent] < time || (times[parent] === time && seqs[parent] < s)) break;
      times[i] = times[parent];
      seqs[i] = seqs[parent];
      fns[i] = fns[parent];
      i = parent;
    }
    times[i] = time;
    seqs[i] = s;
    fns[i] = fn;
  }

  /** The earliest event's time (call only when size > 0). */
  peekTime(): number {
    return this.times[0];
  }

  pop(): () => void {
    const { times, seqs, fns } = this;
    const top = fns[0];
    const lastTime = times.pop()!;
    const lastSeq = seqs.pop()!;
    const lastFn = fns.pop()!;
    const n = times.length;
    if (n > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        let c = l;
        if (r < n && (times[r] < times[l] || (times[r] === times[l] && seqs[r] < seqs[l]))) c = r;
        if (lastTime < times[c] || (lastTime === times[c] && lastSeq < seqs[c])) break;
        times[i] = times[c];
        seqs[i] = seqs[c];
        fns[i] = fns[c];
        i = c;
      }
      times[i] = lastTime;
      seqs[i] = lastSeq;
      fns[i] = lastFn;
    }
    return top;
  }
}

/** FIFO with an advancing head (no O(n) shift). */
class Fifo<T> {
  private items: T[] = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    this.items.push(item);
  }

  peek(): T {
    return this.items[this.head];
  }

  shift(): T {
    const item = this.items[this.head++];
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }
}

/** Makespan of jobs started in order on `workers` workers, each job on the first free one. */
export function listScheduleMakespan(durations: ArrayLike<number>, workers: number, offset = 0, count = durations.length): number {
  if (count === 0) return 0;
  const w = Math.max(1, Math.min(workers, count));
  const free = new Float64Array(w);
  let end = 0;
  for (let j = 0; j < count; j++) {
    let best = 0;
    for (let i = 1; i < w; i++) if (free[i] < free[best]) best = i;
    free[best] += durations[offset + j];
    if (free[best] > end) end = free[best];
  }
  return end;
}

const WAITING = 0;
const DONE = 1;
const REFUSED = 2;

/** Outcome codes of a business's calls. */
const MADE = 1;
const SKIPPED = 2;
const GAVE_UP = 3;

/** Business-step order in `Business.step` (drawn in this order). */
const BUSINESS_STEPS = [
  'startBusinessRun', 'detectChanges', 'discoverNewProducts', 'generateProductPrompts', 'generateProductLlmsTxt', 'commitProductSnapshot',
  'updateAiSite', 'planArticles', 'publishArticlesAndTimestamps', 'notifySearchEngines', 'visibilityBefore', 'visibilityAfter', 'finishBusinessRun',
] as const satisfies ReadonlyArray<keyof StepSeconds>;
const S = Object.fromEntries(BUSINESS_STEPS.map((name, i) => [name, i])) as Record<(typeof BUSINESS_STEPS)[number], number>;

/** The run's own tasks, in the order they run around the Map (FinishDailyRun after it). */
const RUN_STEPS_BEFORE_MAP = ['prepareDailyRun', 'refreshCrawlerAddresses', 'writeDailyBusinessList'] as const;
type RunStep = (typeof RUN_STEPS_BEFORE_MAP)[number] | 'finishDailyRun';

/** The run-level tasks' durations: one draw per task from its own stream; writing the list grows with the fleet. */
function runStepSeconds(o: ResolvedOptions, name: RunStep): number {
  const stream = { prepareDailyRun: 1, refreshCrawlerAddresses: 2, writeDailyBusinessList: 4, finishDailyRun: 3 }[name];
  const mean = name === 'writeDailyBusinessList'
    ? o.stepSeconds.writeDailyBusinessList + o.stepSeconds.writeDailyBusinessListPer10k * (o.businesses / 10_000)
    : o.stepSeconds[name];
  return mean * (1 + o.durationJitter * (2 * seededRandom(streamSeed(o.seed, -stream))() - 1));
}

/** Child executions for `businesses` in batches of `batchSize` (the last one may be short). */
export function batchCount(businesses: number, batchSize: number): number {
  return Math.ceil(businesses / batchSize);
}

interface Call {
  enqueuedAt: number;
  state: number;
  /** Index in the business's per-call arrays (platform × prompts + prompt). */
  index: number;
  gate: Gate;
}

interface LambdaWaiter {
  enqueuedAt: number;
  seconds: number;
  done: (() => void) | null;
  body: ((startedAt: number) => void) | null;
}

interface PlatformState {
  key: string;
  queue: Fifo<Call>;
  inFlight: number;
  minute: number;
  minuteCount: number;
  wakeScheduled: boolean;
  used: number;
  tokens: number;
  slotSeconds: number;
  wanted: number;
  made: number;
  skipped: number;
  refused: number;
  waitSum: number;
  waitCount: number;
  waitMax: number;
  peak: number;
  budgetSpentAt: number | null;
  firstRateWaitAt: number | null;
  firstSlotWaitAt: number | null;
}

/**
 * The simulation. Continuations are methods and anonymous arrows (no named closure per event:
 * tsx keeps function names with a defineProperty per named closure, which would dominate).
 */
class DaySimulation {
  now = 0;
  events = 0;
  private readonly heap = new EventHeap();
  readonly K: number;
  readonly P: number;
  readonly concurrency: number;
  readonly rate: number;
  readonly budget: number;
  readonly gateWidth: number;
  readonly platforms: PlatformState[];
  /** The platforms asked synchronously in 2b (all of them unless vendor batches are on). */
  readonly syncPlatforms: number[];
  readonly vendor: VendorBatches | null;
  // Lambda concurrency
  lambdaRunning = 0;
  lambdaPeak = 0;
  lambdaThrottled = 0;
  lambdaWaitSum = 0;
  lambdaWaitMax = 0;
  lambdaBeyondRetry = 0;
  lambdaBusySeconds = 0;
  lambdaFirstWaitAt: number | null = null;
  private readonly lambdaQueue = new Fifo<LambdaWaiter>();
  // per business
  readonly businessSeconds: Float64Array;
  readonly visibilitySeconds: Float64Array;
  /** Each business's duration with no waits (its own steps and the calls it made): the Map-only figure. */
  readonly idealSeconds: Float64Array;
  visibilityOverTimeout = 0;
  finishSeconds = NaN;

  constructor(readonly o: ResolvedOptions) {
    this.K = o.promptsPerBusiness;
    this.P = o.platforms;
    this.concurrency = o.platformLimits.concurrency;
    this.rate = o.platformLimits.ratePerMinute;
    this.budget = o.platformLimits.dailyBudget;
    // analyze.ts: each platform's prompts go through pLimit(limits.concurrency) per business
    this.gateWidth = Math.max(1, Math.min(this.concurrency, this.K));
    this.platforms = Array.from({ length: this.P }, (_, p) => ({
      key: this.P === PLATFORM_KEYS.length ? PLATFORM_KEYS[p] : `platform_${p + 1}`,
      queue: new Fifo<Call>(),
      inFlight: 0, minute: -1, minuteCount: 0, wakeScheduled: false, used: 0, tokens: 0, slotSeconds: 0,
      wanted: 0, made: 0, skipped: 0, refused: 0, waitSum: 0, waitCount: 0, waitMax: 0, peak: 0,
      budgetSpentAt: null, firstRateWaitAt: null, firstSlotWaitAt: null,
    }));
    this.businessSeconds = new Float64Array(o.businesses);
    this.visibilitySeconds = new Float64Array(o.businesses);
    this.idealSeconds = new Float64Array(o.businesses);
    const batched = new Set(o.batchPlatforms);
    this.syncPlatforms = Array.from({ length: this.P }, (_, p) => p).filter((p) => !batched.has(p));
    this.vendor = o.vendorBatches ? new VendorBatches(this) : null;
  }

  at(time: number, fn: () => void): void {
    this.heap.push(time, fn);
  }

  after(seconds: number, fn: () => void): void {
    this.heap.push(this.now + seconds, fn);
  }

  run(): void {
    this.runStepsFrom(0);
    const heap = this.heap;
    while (heap.size > 0) {
      this.now = heap.peekTime();
      heap.pop()();
      this.events++;
    }
  }

  // the run: its own tasks, one Map run, FinishDailyRun -----------------------------------------

  /** The run's tasks before the Map one after another, then the Map. */
  private runStepsFrom(i: number): void {
    if (i === RUN_STEPS_BEFORE_MAP.length) new MapRun(this).start();
    else this.task(runStepSeconds(this.o, RUN_STEPS_BEFORE_MAP[i]), () => this.runStepsFrom(i + 1));
  }

  mapDone(): void {
    if (this.vendor) this.vendor.fanOutDone();
    else this.finishRun();
  }

  finishRun(): void {
    this.task(runStepSeconds(this.o, 'finishDailyRun'), () => { this.finishSeconds = this.now; });
  }

  // Lambda concurrency -------------------------------------------------------------------

  /** One Lambda task: Step Functions' overhead, then the function holds a Lambda for `seconds`. */
  task(seconds: number, done: () => void): void {
    const overhead = this.o.overheadSeconds.task;
    if (overhead > 0) this.after(overhead, () => this.lambdaTask(seconds, done, null));
    else this.lambdaTask(seconds, done, null);
  }

  /** A task whose body decides when it ends (AnalyzeVisibility); it calls `releaseLambda(startedAt)`. */
  bodyTask(body: (startedAt: number) => void): void {
    const overhead = this.o.overheadSeconds.task;
    if (overhead > 0) this.after(overhead, () => this.lambdaTask(0, null, body));
    else this.lambdaTask(0, null, body);
  }

  private lambdaTask(seconds: number, done: (() => void) | null, body: ((startedAt: number) => void) | null): void {
    if (this.lambdaRunning < this.o.lambdaConcurrency && this.lambdaQueue.length === 0) {
      this.startLambda(seconds, done, body);
      return;
    }
    this.lambdaThrottled++;
    this.lambdaFirstWaitAt ??= this.now;
    this.lambdaQueue.push({ enqueuedAt: this.now, seconds, done, body });
  }

  private startLambda(seconds: number, done: (() => void) | null, body: ((startedAt: number) => void) | null): void {
    this.lambdaRunning++;
    if (this.lambdaRunning > this.lambdaPeak) this.lambdaPeak = this.lambdaRunning;
    const startedAt = this.now;
    if (body) body(startedAt);
    else {
      this.after(seconds, () => {
        this.releaseLambda(startedAt);
        done!();
      });
    }
  }

  releaseLambda(startedAt: number): void {
    this.lambdaBusySeconds += this.now - startedAt;
    this.lambdaRunning--;
    while (this.lambdaRunning < this.o.lambdaConcurrency && this.lambdaQueue.length > 0) {
      const next = this.lambdaQueue.shift();
      const wait = this.now - next.enqueuedAt;
      this.lambdaWaitSum += wait;
      if (wait > this.lambdaWaitMax) this.lambdaWaitMax = wait;
      if (wait > this.o.lambdaRetryWindowSeconds) this.lambdaBeyondRetry++;
      this.startLambda(next.seconds, next.done, next.body);
    }
  }

  // platforms and the fleet-wide limiter -------------------------------------------------------

  request(gate: Gate, k: number): void {
    const pl = this.platforms[gate.platform];
    const call: Call = { enqueuedAt: this.now, state: WAITING, index: gate.platform * this.K + k, gate };
    pl.wanted++;
    if (this.o.budgetCheckedFirst && pl.used >= this.budget) {
      this.skipByBudget(pl, call);
      return;
    }
    pl.queue.push(call);
    this.dispatch(gate.platform);
    if (call.state !== WAITING) return;
    this.after(this.o.limiterMaxWaitSeconds, () => {
      if (call.state !== WAITING) return;
      call.state = REFUSED;
      pl.refused++;
      call.gate.business.outcome[call.index] = GAVE_UP;
      call.gate.end();
    });
  }

  private skipByBudget(pl: PlatformState, call: Call): void {
    pl.skipped++;
    pl.budgetSpentAt ??= this.now;
    call.state = DONE;
    call.gate.business.outcome[call.index] = SKIPPED;
    this.at(this.now, () => call.gate.end());
  }

  /** Serves the platform's waiters while a slot and the minute's rate allow (slot, rate, then budget: platform-limiter.ts). */
  private dispatch(p: number): void {
    const pl = this.platforms[p];
    while (pl.queue.length > 0 && pl.inFlight < this.concurrency) {
      const call = pl.queue.peek();
      if (call.state !== WAITING) {
        pl.queue.shift();
        continue;
      }
      const minute = Math.floor(this.now / 60);
      if (minute !== pl.minute) {
        pl.minute = minute;
        pl.minuteCount = 0;
      }
      if (pl.minuteCount >= this.rate) {
        pl.firstRateWaitAt ??= this.now;
        if (!pl.wakeScheduled) {
          pl.wakeScheduled = true;
          this.at((minute + 1) * 60, () => {
            pl.wakeScheduled = false;
            this.dispatch(p);
          });
        }
        return;
      }
      pl.queue.shift();
      pl.minuteCount++;
      pl.tokens++;
      const wait = this.now - call.enqueuedAt;
      pl.waitSum += wait;
      pl.waitCount++;
      if (wait > pl.waitMax) pl.waitMax = wait;
      if (pl.used >= this.budget) {
        this.skipByBudget(pl, call);
        continue;
      }
      pl.used++;
      pl.made++;
      call.state = DONE;
      const business = call.gate.business;
      business.outcome[call.index] = MADE;
      pl.inFlight++;
      if (pl.inFlight > pl.peak) pl.peak = pl.inFlight;
      const latency = business.latency[call.index];
      pl.slotSeconds += latency;
      this.after(latency, () => {
        pl.inFlight--;
        this.dispatch(p);
        this.after(business.judge[call.index], () => call.gate.end());
      });
    }
    if (pl.queue.length > 0 && pl.inFlight >= this.concurrency) pl.firstSlotWaitAt ??= this.now;
  }
}

/**
 * The one Distributed Map run (ProcessBusinesses) over the day's list: batches of `batchSize`
 * businesses in the list's order, at most MaxConcurrency child executions at once, the next child
 * as soon as one ends. Half the run's overhead before the first child, half after the last.
 */
class MapRun {
  private readonly batches: number;
  private nextBatch = 0;
  private active = 0;
  private finished = 0;

  constructor(private readonly day: DaySimulation) {
    this.batches = batchCount(day.o.businesses, day.o.batchSize);
  }

  start(): void {
    this.day.after(this.day.o.overheadSeconds.mapRun / 2, () => (this.batches === 0 ? this.close() : this.launch()));
  }

  private launch(): void {
    const { day } = this;
    const { batchSize, businesses, maxConcurrency } = day.o;
    while (this.active < maxConcurrency && this.nextBatch < this.batches) {
      const first = this.nextBatch++ * batchSize;
      this.active++;
      new Child(day, this, first, Math.min(businesses, first + batchSize)).start();
    }
  }

  /** A child ended: its slot goes to the next batch. */
  childDone(): void {
    this.active--;
    if (++this.finished === this.batches) this.close();
    else this.launch();
  }

  private close(): void {
    this.day.after(this.day.o.overheadSeconds.mapRun / 2, () => this.day.mapDone());
  }
}

/**
 * One child execution: after its start-up (the per-item overhead) the inline Map ProcessBatch
 * starts every business of the batch at once; the child holds its Map slot until the slowest ends.
 */
class Child {
  private left: number;

  constructor(private readonly day: DaySimulation, private readonly map: MapRun, private readonly first: number, private readonly last: number) {
    this.left = last - first;
  }

  start(): void {
    const { day } = this;
    day.after(day.o.overheadSeconds.mapItem, () => {
      for (let index = this.first; index < this.last; index++) new Business(day, index, this).start();
    });
  }

  businessDone(): void {
    if (--this.left > 0) return;
    const { day } = this;
    const vendor = day.vendor;
    if (!vendor) {
      this.map.childDone();
      return;
    }
    // SubmitVisibilityBatches: one vendor batch per batch platform with the batch's queued checks
    day.task(day.o.stepSeconds.submitVisibilityBatches, () => {
      vendor.submit(this.first, this.last);
      this.map.childDone();
    });
  }
}

interface BatchJob {
  /** Index in `batchPlatforms`. */
  slot: number;
  /** The businesses [first, last) whose checks it carries. */
  first: number;
  last: number;
  requests: number;
  submittedAt: number;
  acceptedAt: number;
  turnaround: number;
  endsAt: number;
  ended: boolean;
}

interface VendorQueue {
  waiting: Fifo<BatchJob>;
  queued: number;
  open: number;
  peakQueued: number;
  peakOpen: number;
  waited: number;
}

/**
 * The vendor batches of issue 47: the children's businesses arrive in their shards of the list
 * (D222); when a shard's last business arrives, its queued checks go out as jobs of at most
 * `jobRequestCap` requests per batch platform (with `batchShardSize` 0: one job per platform per
 * child, as D218 did); a vendor accepts a job while its queue has room (queued requests,
 * open jobs), else the job waits for earlier ones to end; an accepted job ends after its drawn
 * turnaround. After the Map: ListPendingVisibilityBatches -> WaitForVisibilityBatches (poll) ->
 * CollectVisibilityBatches (children of `collectBatchSize` businesses, `collectMaxConcurrency` at
 * once; each polls its businesses' jobs when its task starts and judges the answers of those that
 * ended, then scores a business with no job left) -> list again, until nothing is pending.
 */
class VendorBatches {
  readonly queues: VendorQueue[];
  /** Per shard (or per child when unsharded): its jobs. */
  private readonly shardJobs: BatchJob[][] = [];
  /** Per shard: its businesses arrived so far. */
  private readonly arrived: Uint32Array;
  /** Per business: bit j set once its answers of batch platform j are judged. */
  private readonly judgedMask: Uint8Array;
  private readonly scoredFlag: Uint8Array;
  private pending: number[] = [];
  private readonly allMask: number;
  fanOutEnd = NaN;
  jobs = 0;
  requests = 0;
  waited = 0;
  maxWait = 0;
  firstWaitAt: number | null = null;
  lastJobEnd = 0;
  lastScored = 0;
  scored = 0;
  rounds = 0;
  collectChildren = 0;
  judged = 0;
  readonly pollSeconds: number[] = [];

  constructor(private readonly day: DaySimulation) {
    const n = day.o.batchPlatforms.length;
    this.queues = Array.from({ length: n }, () => ({ waiting: new Fifo<BatchJob>(), queued: 0, open: 0, peakQueued: 0, peakOpen: 0, waited: 0 }));
    this.judgedMask = new Uint8Array(day.o.businesses);
    this.scoredFlag = new Uint8Array(day.o.businesses);
    this.allMask = (1 << n) - 1;
    this.arrived = new Uint32Array(day.o.batchShardSize > 0 ? Math.ceil(day.o.businesses / day.o.batchShardSize) : 0);
  }

  /** The shard (or, unsharded, the child) business b belongs to. */
  private groupOf(b: number): number {
    const o = this.day.o;
    return Math.floor(b / (o.batchShardSize > 0 ? o.batchShardSize : o.batchSize));
  }

  /** SubmitVisibilityBatches of the child with businesses [first, last): they arrive; a completed shard sends its jobs. */
  submit(first: number, last: number): void {
    const o = this.day.o;
    for (let b = first; b < last; b++) this.pending.push(b);
    if (o.batchShardSize <= 0) {
      this.send(this.groupOf(first), first, last);
      return;
    }
    for (let b = first; b < last;) {
      const shard = this.groupOf(b);
      const shardFirst = shard * o.batchShardSize;
      const shardLast = Math.min(o.businesses, shardFirst + o.batchShardSize);
      const upTo = Math.min(last, shardLast);
      this.arrived[shard] += upTo - b;
      if (this.arrived[shard] === shardLast - shardFirst) this.send(shard, shardFirst, shardLast);
      b = upTo;
    }
  }

  /** One group's jobs: per batch platform, its businesses' checks in jobs of at most `jobRequestCap`. */
  private send(group: number, first: number, last: number): void {
    const { day } = this;
    const o = day.o;
    const n = o.batchPlatforms.length;
    const range = o.batchTurnaroundHours;
    const perJob = Math.max(1, Math.floor(o.jobRequestCap / day.K));
    const jobs: BatchJob[] = [];
    for (let slot = 0; slot < n; slot++) {
      for (let from = first, piece = 0; from < last; from += perJob, piece++) {
        const to = Math.min(last, from + perJob);
        const u = seededRandom(streamSeed(o.seed, -(1000 + (group * n + slot) * 64 + piece)))();
        const job: BatchJob = {
          slot, first: from, last: to, requests: (to - from) * day.K, submittedAt: day.now, acceptedAt: NaN,
          turnaround: 3600 * (range.min + (range.max - range.min) * u), endsAt: NaN, ended: false,
        };
        jobs.push(job);
        this.jobs++;
        this.requests += job.requests;
        this.queues[slot].waiting.push(job);
        this.accept(slot);
      }
    }
    this.shardJobs[group] = jobs;
  }

  /** Accepts the platform's waiting jobs in order while the queue has room (a job larger than the whole queue goes alone). */
  private accept(slot: number): void {
    const { day } = this;
    const q = this.queues[slot];
    const limit = day.o.batchQueueLimits[slot];
    while (q.waiting.length > 0) {
      const job = q.waiting.peek();
      const room = q.queued + job.requests <= limit.maxQueuedRequests && q.open < limit.maxOpenJobs;
      if (!room && q.open > 0) {
        this.firstWaitAt ??= day.now;
        return;
      }
      q.waiting.shift();
      const wait = day.now - job.submittedAt;
      if (wait > 0) {
        this.waited++;
        q.waited++;
        if (wait > this.maxWait) this.maxWait = wait;
      }
      job.acceptedAt = day.now;
      job.endsAt = day.now + job.turnaround;
      if (job.endsAt > this.lastJobEnd) this.lastJobEnd = job.endsAt;
      q.queued += job.requests;
      q.open++;
      if (q.queued > q.peakQueued) q.peakQueued = q.queued;
      if (q.open > q.peakOpen) q.peakOpen = q.open;
      day.at(job.endsAt, () => {
        job.ended = true;
        q.queued -= job.requests;
        q.open--;
        this.accept(slot);
      });
    }
  }

  fanOutDone(): void {
    this.fanOutEnd = this.day.now;
    this.list();
  }

  /** ListPendingVisibilityBatches, then VisibilityBatchesPending: wait and collect, or FinishDailyRun. */
  private list(): void {
    const { day } = this;
    const seconds = day.o.stepSeconds.listPendingVisibilityBatches + day.o.stepSeconds.writeDailyBusinessListPer10k * (this.pending.length / 10_000);
    day.task(seconds, () => {
      this.pending = this.pending.filter((b) => this.scoredFlag[b] === 0);
      if (this.pending.length === 0) day.finishRun();
      else day.after(day.o.batchPollSeconds, () => this.collect(this.pending.slice()));
    });
  }

  /** One collecting Map run over the listed businesses. */
  private collect(items: number[]): void {
    const { day } = this;
    const o = day.o;
    this.rounds++;
    const size = o.collectBatchSize;
    const children = Math.ceil(items.length / size);
    let next = 0;
    let active = 0;
    let finished = 0;
    let polled = false;
    const launch = () => {
      while (active < o.collectMaxConcurrency && next < children) {
        const from = next++ * size;
        active++;
        this.collectChildren++;
        day.after(o.overheadSeconds.mapItem, () => day.bodyTask((startedAt) => {
          if (!polled) {
            polled = true;
            this.pollSeconds.push(day.now);
          }
          const seconds = this.collectChild(items, from, Math.min(items.length, from + size));
          day.after(seconds.duration, () => {
            day.releaseLambda(startedAt);
            for (const b of seconds.scored) {
              this.scoredFlag[b] = 1;
              this.scored++;
              this.lastScored = day.now;
            }
            active--;
            if (++finished === children) day.after(o.overheadSeconds.mapRun / 2, () => this.list());
            else launch();
          });
        }));
      }
    };
    day.after(o.overheadSeconds.mapRun / 2, launch);
  }

  /** CollectBatchResults for businesses items[from, to): the jobs that ended by now are judged; a business with none left is scored. */
  private collectChild(items: number[], from: number, to: number): { duration: number; scored: number[] } {
    const { day } = this;
    const o = day.o;
    let answers = 0;
    const scored: number[] = [];
    for (let i = from; i < to; i++) {
      const b = items[i];
      const jobs = this.shardJobs[this.groupOf(b)] ?? [];
      for (const job of jobs) {
        const bit = 1 << job.slot;
        if (b < job.first || b >= job.last || !job.ended || (this.judgedMask[b] & bit) !== 0) continue;
        this.judgedMask[b] |= bit;
        answers += day.K;
      }
      if (this.judgedMask[b] === this.allMask) scored.push(b);
    }
    this.judged += answers;
    const judgeMean = (o.judgeSeconds.min + o.judgeSeconds.max) / 2;
    const duration = o.stepSeconds.collectBatchResults + (answers * judgeMean) / o.collectJudgeConcurrency + scored.length * o.stepSeconds.visibilityAfter;
    return { duration, scored };
  }
}

/** One platform's prompts for one business, at most PLATFORM_CONCURRENCY at once (analyze.ts's local gate). */
class Gate {
  private next = 0;
  private active = 0;
  private finished = 0;

  constructor(private readonly day: DaySimulation, readonly business: Business, readonly platform: number) {}

  launch(): void {
    const { day } = this;
    if (day.K === 0) {
      day.at(day.now, () => this.business.platformDone());
      return;
    }
    while (this.active < day.gateWidth && this.next < day.K) {
      this.active++;
      day.request(this, this.next++);
    }
  }

  end(): void {
    this.active--;
    this.finished++;
    if (this.finished === this.day.K) this.business.platformDone();
    else this.launch();
  }
}

/** One business's chain (per item of a child's ProcessBatch Map). */
class Business {
  readonly step: Float64Array;
  readonly changed: boolean;
  readonly latency: Float64Array;
  readonly judge: Float64Array;
  readonly outcome: Uint8Array;
  readonly articles: Float64Array;
  private readonly startedAt: number;
  private batch1Left = 2;
  private batch2Left = 2;
  private platformsLeft = 0;
  private visibilityStartedAt = 0;
  private articlesNext = 0;
  private articlesActive = 0;
  private articlesFinished = 0;

  constructor(private readonly day: DaySimulation, private readonly index: number, private readonly child: Child) {
    const o = day.o;
    const rnd = seededRandom(streamSeed(o.seed, index));
    const jitter = o.durationJitter;
    const draw = (mean: number) => mean * (1 + jitter * (2 * rnd() - 1));
    this.step = new Float64Array(BUSINESS_STEPS.length);
    for (let i = 0; i < BUSINESS_STEPS.length; i++) this.step[i] = draw(o.stepSeconds[BUSINESS_STEPS[i]]);
    this.changed = rnd() < o.changedShare;
    const withArticles = rnd() < o.articleShare;
    const { K, P } = day;
    this.latency = new Float64Array(P * K);
    this.judge = new Float64Array(P * K);
    const judge = o.judgeSeconds;
    for (let p = 0; p < P; p++) {
      const latency = o.callLatencySeconds[p];
      for (let k = 0; k < K; k++) {
        this.latency[p * K + k] = latency.min + (latency.max - latency.min) * rnd();
        this.judge[p * K + k] = judge.min + (judge.max - judge.min) * rnd();
      }
    }
    this.outcome = new Uint8Array(P * K);
    this.articles = new Float64Array(withArticles ? o.articleItems : 0);
    for (let i = 0; i < this.articles.length; i++) this.articles[i] = draw(o.stepSeconds.createArticleBatch);
    this.startedAt = day.now;
  }

  start(): void {
    this.day.task(this.step[S.startBusinessRun], () => this.batch1());
  }

  private batch1(): void {
    const { day, step } = this;
    day.task(step[S.detectChanges], () => this.batch1Done());
    day.task(step[S.discoverNewProducts], () =>
      day.task(step[S.generateProductPrompts], () =>
        day.task(step[S.generateProductLlmsTxt], () =>
          day.task(step[S.commitProductSnapshot], () => this.batch1Done()))));
  }

  private batch1Done(): void {
    if (--this.batch1Left > 0) return;
    this.day.task(this.step[S.updateAiSite], () => {
      const wait = this.day.o.edgeWaitSeconds;
      if (this.changed && wait > 0) this.day.after(wait, () => this.batch2());
      else this.batch2();
    });
  }

  private batch2(): void {
    this.day.task(this.step[S.planArticles], () => this.launchArticles());
    this.day.bodyTask((startedAt) => {
      this.visibilityStartedAt = startedAt;
      this.day.after(this.step[S.visibilityBefore], () => this.askPlatforms());
    });
  }

  // 2a: the CreateArticles Map, then the publish and batch 3
  private launchArticles(): void {
    const { day } = this;
    if (this.articles.length === 0) {
      this.publish();
      return;
    }
    while (this.articlesActive < day.o.articleMapConcurrency && this.articlesNext < this.articles.length) {
      this.articlesActive++;
      day.task(this.articles[this.articlesNext++], () => {
        this.articlesActive--;
        if (++this.articlesFinished === this.articles.length) this.publish();
        else this.launchArticles();
      });
    }
  }

  private publish(): void {
    const { day, step } = this;
    day.task(step[S.publishArticlesAndTimestamps], () => day.task(step[S.notifySearchEngines], () => this.batch2Done()));
  }

  // 2b: AnalyzeVisibility holds one Lambda for the reads, every platform's calls and the writes
  private askPlatforms(): void {
    // with vendor batches the batch platforms' checks are only queued (no call, no limiter slot)
    const sync = this.day.syncPlatforms;
    this.platformsLeft = sync.length;
    if (sync.length === 0) {
      this.platformsLeft = 1;
      this.platformDone();
      return;
    }
    for (const p of sync) new Gate(this.day, this, p).launch();
  }

  platformDone(): void {
    if (--this.platformsLeft > 0) return;
    this.day.after(this.step[S.visibilityAfter], () => {
      const { day } = this;
      day.releaseLambda(this.visibilityStartedAt);
      const seconds = day.now - this.visibilityStartedAt;
      day.visibilitySeconds[this.index] = seconds;
      if (seconds > day.o.taskTimeoutSeconds) day.visibilityOverTimeout++;
      this.batch2Done();
    });
  }

  private batch2Done(): void {
    if (--this.batch2Left > 0) return;
    this.day.task(this.step[S.finishBusinessRun], () => {
      const { day } = this;
      day.businessSeconds[this.index] = day.now - this.startedAt;
      day.idealSeconds[this.index] = this.ideal();
      this.child.businessDone();
    });
  }

  /** The business's duration with no waits for the Lambda or the platforms (from its child's start-up on); calls not made take no time. */
  private ideal(): number {
    const { day, step } = this;
    const { o, K, P } = day;
    const t = (i: number) => step[i] + o.overheadSeconds.task;
    const batch1 = Math.max(t(S.detectChanges), t(S.discoverNewProducts) + t(S.generateProductPrompts) + t(S.generateProductLlmsTxt) + t(S.commitProductSnapshot));
    const articles = Array.from(this.articles, (d) => d + o.overheadSeconds.task);
    const branchA = t(S.planArticles) + listScheduleMakespan(articles, o.articleMapConcurrency) + t(S.publishArticlesAndTimestamps) + t(S.notifySearchEngines);
    let calls = 0;
    const durations = new Float64Array(K);
    for (let p = 0; p < P; p++) {
      for (let k = 0; k < K; k++) {
        const i = p * K + k;
        durations[k] = this.outcome[i] === MADE ? this.latency[i] + this.judge[i] : 0;
      }
      calls = Math.max(calls, listScheduleMakespan(durations, day.gateWidth));
    }
    const branchB = t(S.visibilityBefore) + calls + step[S.visibilityAfter];
    return t(S.startBusinessRun) + batch1 + t(S.updateAiSite) + (this.changed ? o.edgeWaitSeconds : 0) +
      Math.max(branchA, branchB) + t(S.finishBusinessRun);
  }
}

/** Simulates one daily run for `options.businesses` businesses; deterministic for the same options. */
export function simulateDay(options: SimulationOptions): DayResult {
  const o = resolveOptions(options);
  const day = new DaySimulation(o);
  day.run();

  const T = day.finishSeconds;
  // with vendor batches the time-based limits are measured over the fan-out (the Map), the batch tail apart
  const vendor = day.vendor;
  const U = vendor ? vendor.fanOutEnd : T;
  const { concurrency, ratePerMinute, dailyBudget } = o.platformLimits;
  const platformDays: PlatformDay[] = day.platforms.filter((_, p) => !o.batchPlatforms.includes(p)).map((pl) => ({
    platform: pl.key,
    wanted: pl.wanted,
    made: pl.made,
    skippedByBudget: pl.skipped,
    refusedByWait: pl.refused,
    budgetSpentAt: pl.budgetSpentAt,
    peakInFlight: pl.peak,
    meanWaitSeconds: pl.waitCount ? pl.waitSum / pl.waitCount : 0,
    maxWaitSeconds: pl.waitMax,
    rateUtilisation: U > 0 ? pl.tokens / ((ratePerMinute / 60) * U) : 0,
    concurrencyUtilisation: U > 0 ? pl.slotSeconds / (concurrency * U) : 0,
    firstRateWaitAt: pl.firstRateWaitAt,
    firstSlotWaitAt: pl.firstSlotWaitAt,
  }));
  const sum = (f: (p: PlatformDay) => number) => platformDays.reduce((a, p) => a + f(p), 0);
  const totals = { wanted: sum((p) => p.wanted), made: sum((p) => p.made), skippedByBudget: sum((p) => p.skippedByBudget), refusedByWait: sum((p) => p.refusedByWait) };

  const mapOnlyFinishSeconds = mapOnlyFinish(o, day.idealSeconds);
  const limits: LimitUse[] = [
    { limit: 'Map concurrency', kind: 'map', setting: mapText(o.maxConcurrency, o.batchSize), utilisation: U > 0 ? mapOnlyFinishSeconds / (vendor ? U + runStepSeconds(o, 'finishDailyRun') + o.overheadSeconds.task : U) : 0, firstAt: null },
    { limit: 'Lambda concurrency', kind: 'lambda', setting: `${int(o.lambdaConcurrency)} (peak ${int(day.lambdaPeak)})`, utilisation: U > 0 ? day.lambdaBusySeconds / (o.lambdaConcurrency * T) : 0, firstAt: day.lambdaFirstWaitAt },
  ];
  const worst = (f: (p: PlatformDay) => number) => platformDays.reduce((best, p) => (f(p) > f(best) ? p : best));
  const earliest = (values: Array<number | null>) => values.reduce<number | null>((a, v) => (v === null ? a : a === null ? v : Math.min(a, v)), null);
  if (platformDays.length > 0) {
    const rate = worst((p) => p.rateUtilisation);
    const slots = worst((p) => p.concurrencyUtilisation);
    const budget = worst((p) => p.wanted);
    limits.push(
      { limit: `platform rate (${rate.platform})`, kind: 'platform-rate', setting: `${int(ratePerMinute)}/min`, utilisation: rate.rateUtilisation, firstAt: earliest(platformDays.map((p) => p.firstRateWaitAt)) },
      { limit: `platform concurrency (${slots.platform})`, kind: 'platform-concurrency', setting: `${int(concurrency)} at once`, utilisation: slots.concurrencyUtilisation, firstAt: earliest(platformDays.map((p) => p.firstSlotWaitAt)) },
      { limit: `platform daily budget (${budget.platform})`, kind: 'platform-budget', setting: `${int(dailyBudget)}/day`, utilisation: dailyBudget > 0 ? budget.wanted / dailyBudget : Infinity, firstAt: earliest(platformDays.map((p) => p.budgetSpentAt)) },
    );
  }
  limits.sort((a, b) => b.utilisation - a.utilisation);
  const binding = limits.find((l) => l.kind !== 'platform-budget')!;
  const timed = limits.filter((l) => l.firstAt !== null).sort((a, b) => a.firstAt! - b.firstAt!);

  const stats = (values: Float64Array) => {
    const list = Array.from(values);
    let total = 0;
    let max = 0;
    for (const v of list) {
      total += v;
      if (v > max) max = v;
    }
    return { meanSeconds: list.length ? total / list.length : 0, p95Seconds: list.length ? percentile(list, 95) : 0, maxSeconds: max };
  };
  return {
    businesses: o.businesses,
    batches: batchCount(o.businesses, o.batchSize),
    batchSize: o.batchSize,
    maxConcurrency: o.maxConcurrency,
    lambdaConcurrency: o.lambdaConcurrency,
    platformLimits: { ...o.platformLimits },
    windowHours: o.windowHours,
    finishSeconds: T,
    fits: T <= o.windowHours * 3600,
    mapOnlyFinishSeconds,
    business: stats(day.businessSeconds),
    visibility: { ...stats(day.visibilitySeconds), overTimeout: day.visibilityOverTimeout },
    lambda: {
      peak: day.lambdaPeak,
      throttled: day.lambdaThrottled,
      meanWaitSeconds: day.lambdaThrottled ? day.lambdaWaitSum / day.lambdaThrottled : 0,
      maxWaitSeconds: day.lambdaWaitMax,
      beyondRetry: day.lambdaBeyondRetry,
      busySeconds: day.lambdaBusySeconds,
    },
    platforms: platformDays,
    totals,
    limits,
    binding,
    firstLimit: timed.length ? { limit: timed[0].limit, at: timed[0].firstAt! } : null,
    complete: totals.skippedByBudget === 0 && totals.refusedByWait === 0 && day.visibilityOverTimeout === 0 && day.lambdaBeyondRetry === 0
      && (!vendor || vendor.scored === o.businesses),
    events: day.events,
    vendorBatches: vendor ? batchDay(o, vendor, T) : null,
  };
}

function batchDay(o: ResolvedOptions, v: VendorBatches, T: number): BatchDay {
  const platforms = o.batchPlatforms.map((p) => (o.platforms === PLATFORM_KEYS.length ? PLATFORM_KEYS[p] : `platform_${p + 1}`));
  const waitedByPlatform = v.queues.map((q) => q.waited);
  const mostWaited = waitedByPlatform.reduce((best, w, i) => (w > waitedByPlatform[best] ? i : best), 0);
  const tail = T - v.fanOutEnd;
  const binding = v.waited > 0
    ? `vendor batch queue (${platforms[mostWaited]}: ${int(waitedByPlatform[mostWaited])} jobs waited, up to ${hhmm(v.maxWait)})`
    : `vendor batch turnaround (last job ends +${hhmm(v.lastJobEnd)}) + polls every ${o.batchPollSeconds} s: ${hhmm(tail)} after the fan-out`;
  return {
    platforms, queueLimits: o.batchQueueLimits, jobs: v.jobs, requests: v.requests, submissionsWaited: v.waited, maxSubmitWaitSeconds: v.maxWait,
    firstQueueWaitAt: v.firstWaitAt, waitedByPlatform, peakQueuedRequests: v.queues.map((q) => q.peakQueued), peakOpenJobs: v.queues.map((q) => q.peakOpen),
    fanOutEndSeconds: v.fanOutEnd, lastJobEndSeconds: v.lastJobEnd, lastScoredSeconds: v.lastScored, scored: v.scored, rounds: v.rounds,
    collectChildren: v.collectChildren, pollSeconds: [...v.pollSeconds], judgedAnswers: v.judged, binding,
  };
}

/**
 * The run's finish with only the Map's slots: each business takes its ideal duration, each child
 * its start-up plus its slowest business, and the children are list-scheduled on MaxConcurrency slots.
 */
function mapOnlyFinish(o: ResolvedOptions, ideal: Float64Array): number {
  const task = (name: RunStep) => runStepSeconds(o, name) + o.overheadSeconds.task;
  const before = RUN_STEPS_BEFORE_MAP.reduce((t, name) => t + task(name), 0);
  const children = childDurations(o, ideal);
  return before + o.overheadSeconds.mapRun + listScheduleMakespan(children, o.maxConcurrency) + task('finishDailyRun');
}

/** Each child execution's ideal duration: its start-up, then the longest of its batch's businesses. */
function childDurations(o: ResolvedOptions, ideal: Float64Array): Float64Array {
  const children = new Float64Array(batchCount(o.businesses, o.batchSize));
  for (let c = 0; c < children.length; c++) {
    let slowest = 0;
    for (let i = c * o.batchSize; i < Math.min(o.businesses, (c + 1) * o.batchSize); i++) slowest = Math.max(slowest, ideal[i]);
    children[c] = o.overheadSeconds.mapItem + slowest + (o.vendorBatches ? o.stepSeconds.submitVisibilityBatches + o.overheadSeconds.task : 0);
  }
  return children;
}

/** The Map's setting as text: "MaxConcurrency 40 children × batches of 10". */
export function mapText(maxConcurrency: number, batchSize: number): string {
  return `MaxConcurrency ${maxConcurrency} children × batches of ${batchSize}`;
}

// ---------------------------------------------------------------------------------------
// choosing the defaults

export interface ChooseDefaultsOptions {
  /** Businesses the defaults must serve (50,000). */
  businesses?: number;
  /** The finish the defaults must reach, in hours after the start (20: 4 h of the window left for retries and re-runs). */
  targetHours?: number;
  /**
   * How much the platform limits may slow the day beyond the Map alone (0.05): the Map must finish
   * by target / (1 + slack), and the rate and slots are chosen so the day stays within the slack and
   * the target. The margin to the target then stays the Map's, which MaxConcurrency alone can buy back.
   */
  platformSlack?: number;
  /** The vendor's requests per minute the fleet rate must stay within (ASSUMED_VENDOR_RPM). */
  vendorRpm?: number;
  /** Daily budget over the calls needed (1.2: re-runs and a day's growth). */
  budgetHeadroom?: number;
  /** Everything else (durations, shares, seed, ...). */
  base?: Omit<SimulationOptions, 'businesses'>;
  maxConcurrencyCandidates?: readonly number[];
  batchSizeCandidates?: readonly number[];
  rateCandidates?: readonly number[];
  concurrencyCandidates?: readonly number[];
}

export interface Trial {
  stage: 'map' | 'rate' | 'concurrency';
  /** Child executions at once. */
  maxConcurrency: number;
  batchSize: number;
  concurrency: number;
  ratePerMinute: number;
  finishSeconds: number;
  /** Every call made, no task past its timeout or the throttle retries. */
  complete: boolean;
  /** Met the stage's bar (finish, completeness, slack). */
  ok: boolean;
  binding: string;
}

export interface ChosenDefaults {
  businesses: number;
  targetHours: number;
  platformSlack: number;
  vendorRpm: number;
  /** Every value was found (false: even the best candidates miss the bar; the best tried are reported). */
  feasible: boolean;
  /** ProcessBusinesses' MaxConcurrency: child executions at once. */
  maxConcurrency: number;
  /** ProcessBusinesses' ItemBatcher.MaxItemsPerBatch (and ProcessBatch's MaxConcurrency). */
  batchSize: number;
  platformLimits: PlatformLimitSettings;
  /** Calls per platform the day needs: prompts × businesses. */
  budgetNeeded: number;
  /** The finish of the Map stage's winner (platforms not binding). */
  mapFinishSeconds: number;
  /** The smallest rate that met the target at all (the chosen one also keeps within the slack). */
  smallestFittingRate: number | null;
  trials: Trial[];
  /** The day with the chosen defaults. */
  result: DayResult;
  reasons: string[];
}

/** Concurrency at which the rate, not the slots, binds: rate × the longest call (Little's law at the worst latency). */
export function concurrencyForRate(ratePerMinute: number, latency: Range | Range[] = DEFAULT_CALL_LATENCY_SECONDS): number {
  const longest = Math.max(...(Array.isArray(latency) ? latency : [latency]).map((r) => r.max));
  return Math.max(1, Math.ceil((ratePerMinute / 60) * longest));
}

type RunTrial = (stage: Trial['stage'], maxConcurrency: number, batchSize: number, concurrency: number, ratePerMinute: number, bar: number) => DayResult;

interface MapChoice {
  maxConcurrency: number;
  batchSize: number;
  finishSeconds: number;
  binding: LimitUse;
  /** Met the Map's bar (false: the fastest tried, reported as the best there is). */
  fits: boolean;
}

/**
 * The Map: for each batch size (ascending), the smallest MaxConcurrency that finishes by `bar` with
 * every call made; of those, the one with the fewest businesses at once (children × batch: what
 * loads the account's Lambda concurrency and queues at the platform limiter), a tie going to the
 * larger batch (fewer child executions). The search per batch size is binary on the finish (more
 * children at once never make the day slower) and tries only what could beat the best so far.
 */
function chooseMap(run: RunTrial, trials: Trial[], candidates: readonly number[], batchSizes: readonly number[], bar: number, concurrency: number, rate: number): MapChoice {
  let best: MapChoice | undefined;
  for (const batchSize of batchSizes) {
    const usable = candidates.filter((m) => !best || m * batchSize <= best.maxConcurrency * best.batchSize);
    let fastest: { maxConcurrency: number; result: DayResult } | undefined;
    let lo = 0;
    let hi = usable.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const result = run('map', usable[mid], batchSize, concurrency, rate, bar);
      if (result.finishSeconds <= bar) {
        fastest = { maxConcurrency: usable[mid], result };
        hi = mid - 1;
      } else lo = mid + 1;
    }
    // the smallest fast enough; were calls refused there, more children at once would only refuse more
    if (fastest?.result.complete) {
      best = { maxConcurrency: fastest.maxConcurrency, batchSize, finishSeconds: fastest.result.finishSeconds, binding: fastest.result.binding, fits: true };
    }
  }
  if (best) return best;
  const quickest = trials.filter((t) => t.stage === 'map').reduce((a, t) => (t.finishSeconds < a.finishSeconds ? t : a));
  const result = run('map', quickest.maxConcurrency, quickest.batchSize, concurrency, rate, bar);
  return { maxConcurrency: quickest.maxConcurrency, batchSize: quickest.batchSize, finishSeconds: result.finishSeconds, binding: result.binding, fits: false };
}

/**
 * The sweep: (1) the daily budget: prompts × businesses per platform, with headroom, rounded up
 * to 1,000; (2) with platform limits that do not bind (the vendor's RPM and slots to match), the
 * Map's MaxConcurrency and batch size (`chooseMap`) with which the day finishes by
 * target / (1 + slack) with every call made; (3) with that Map, the smallest rate (at most the
 * vendor's RPM; slots set so that the rate binds before them) that keeps every call made and the
 * finish within the slack and the target; (4) the fewest slots that still do.
 */
export function chooseDefaults(options: ChooseDefaultsOptions = {}): ChosenDefaults {
  const businesses = options.businesses ?? 50_000;
  const targetHours = options.targetHours ?? 20;
  const slack = options.platformSlack ?? 0.05;
  const vendorRpm = options.vendorRpm ?? ASSUMED_VENDOR_RPM;
  const headroom = options.budgetHeadroom ?? 1.2;
  const base = options.base ?? {};
  const target = targetHours * 3600;
  const mapTarget = target / (1 + slack);
  const prompts = base.promptsPerBusiness ?? PROMPTS_SAMPLED_PER_DAY;
  const latency = base.callLatencySeconds ?? DEFAULT_CALL_LATENCY_SECONDS;
  const longestCall = Math.max(...(Array.isArray(latency) ? latency : [latency]).map((r) => r.max));
  const budgetNeeded = prompts * businesses;
  const dailyBudget = Math.max(1000, Math.ceil((budgetNeeded * headroom) / 1000) * 1000);
  const trials: Trial[] = [];

  const run: RunTrial = (stage, maxConcurrency, batchSize, concurrency, ratePerMinute, bar) => {
    const result = simulateDay({ ...base, businesses, maxConcurrency, batchSize, platformLimits: { concurrency, ratePerMinute, dailyBudget } });
    const ok = result.complete && result.finishSeconds <= bar;
    trials.push({ stage, maxConcurrency, batchSize, concurrency, ratePerMinute, finishSeconds: result.finishSeconds, complete: result.complete, ok, binding: result.binding.limit });
    return result;
  };

  // (2) the Map, with the platforms at the vendor's RPM and slots to match
  const ampleConcurrency = concurrencyForRate(vendorRpm, latency);
  const mapCandidates = [...(options.maxConcurrencyCandidates ?? MAX_CONCURRENCY_CANDIDATES)].sort((a, b) => a - b);
  const batchCandidates = [...(options.batchSizeCandidates ?? BATCH_SIZE_CANDIDATES)].sort((a, b) => a - b);
  const map = chooseMap(run, trials, mapCandidates, batchCandidates, mapTarget, ampleConcurrency, vendorRpm);

  // (3) the smallest rate under the vendor's RPM that stays within the slack; a rate that cannot make
  // the day's calls by the target even if they came evenly from the first second is not simulated
  const bar = Math.min(target, map.finishSeconds * (1 + slack));
  const rates = [...(options.rateCandidates ?? RATE_CANDIDATES)].filter((r) => r <= vendorRpm).sort((a, b) => a - b);
  if (!rates.includes(vendorRpm)) rates.push(vendorRpm);
  const tooSlow = rates.filter((r) => r < vendorRpm && r * (target / 60) < budgetNeeded);
  let rate: number | undefined;
  let smallestFittingRate: number | null = null;
  for (const r of rates.slice(tooSlow.length)) {
    const result = run('rate', map.maxConcurrency, map.batchSize, concurrencyForRate(r, latency), r, bar);
    if (smallestFittingRate === null && result.complete && result.finishSeconds <= target) smallestFittingRate = r;
    if (trials[trials.length - 1].ok) {
      rate = r;
      break;
    }
  }
  const chosenRate = rate ?? vendorRpm;

  // (4) the fewest slots at that rate
  let concurrency = concurrencyForRate(chosenRate, latency);
  if (rate !== undefined) {
    const smaller = [...(options.concurrencyCandidates ?? CONCURRENCY_CANDIDATES)].filter((c) => c < concurrency).sort((a, b) => b - a);
    for (const c of smaller) {
      run('concurrency', map.maxConcurrency, map.batchSize, c, chosenRate, bar);
      if (!trials[trials.length - 1].ok) break;
      concurrency = c;
    }
  }

  const platformLimits = { concurrency, ratePerMinute: chosenRate, dailyBudget };
  const result = simulateDay({ ...base, businesses, maxConcurrency: map.maxConcurrency, batchSize: map.batchSize, platformLimits });
  const feasible = map.fits && rate !== undefined && result.complete && result.finishSeconds <= target;
  const rateUse = result.limits.find((l) => l.kind === 'platform-rate');
  const atOnce = map.maxConcurrency * map.batchSize;
  const reasons = [
    `daily budget: ${int(businesses)} businesses × ${prompts} prompts = ${int(budgetNeeded)} calls per platform per day (${prompts * PLATFORM_KEYS.length} per business ` +
      `over ${PLATFORM_KEYS.length} platforms); × ${headroom} headroom (a re-run, a day's growth) → ${int(dailyBudget)} per platform`,
    map.fits
      ? `${mapText(map.maxConcurrency, map.batchSize)} (${int(batchCount(businesses, map.batchSize))} child executions, ${int(atOnce)} businesses at once): ` +
        `the fewest businesses at once that finish ${int(businesses)} by +${hhmm(mapTarget)} (+${hhmm(map.finishSeconds)}) with the platforms at the vendor's ` +
        `${vendorRpm}/min and ${ampleConcurrency} slots, the ${pct(slack)} slack left for them` +
        (map.binding.kind === 'map' ? '; ' : ` (even so ${map.binding.limit} binds at ${pct(map.binding.utilisation)}: the vendor tier is the limit at this size); `) +
        `a child holds its slot until its slowest business ends, so larger batches need more businesses at once for the same finish and buy fewer child executions`
      : `no MaxConcurrency and batch size tried finishes ${int(businesses)} businesses by +${hhmm(mapTarget)} with every call made; the fastest, ` +
        `${mapText(map.maxConcurrency, map.batchSize)}, finishes at +${hhmm(map.finishSeconds)}`,
    rate !== undefined
      ? `rate ${chosenRate}/min per platform: the smallest under the vendor's ${vendorRpm}/min with every call made and the day at most ${pct(slack)} ` +
        `slower than the Map alone (${int(budgetNeeded)} calls over +${hhmm(result.finishSeconds)} average ${(budgetNeeded / (result.finishSeconds / 60)).toFixed(0)}/min, ` +
        `in bursts as a batch's businesses reach 2b together)` +
        (tooSlow.length ? `; ${tooSlow.join(', ')}/min not tried: under ${int(budgetNeeded)} calls in ${targetHours} h even at a steady rate` : '') +
        (smallestFittingRate !== null && smallestFittingRate < chosenRate ? `; ${smallestFittingRate}/min would still finish by +${targetHours} h, with the rate binding and no margin left` : '')
      : `no rate up to the vendor's ${vendorRpm}/min keeps the day within +${hhmm(bar)} with every call made: a higher vendor tier is needed`,
    `concurrency ${concurrency} per platform: the fewest slots that keep it so (slots ≥ rate × call time: ${chosenRate}/min × ${longestCall} s ` +
      `would be ${concurrencyForRate(chosenRate, latency)}); it is also each business's own gate per platform (analyze.ts)`,
    `with these: finish +${hhmm(result.finishSeconds)} (${clockAfterStart(result.finishSeconds)}), binding ${result.binding.limit} ${pct(result.binding.utilisation)}` +
      (rateUse ? `, platform rate used ${pct(rateUse.utilisation)}` : '') + `, peak Lambda ${int(result.lambda.peak)} of ${int(result.lambdaConcurrency)}`,
  ];
  return {
    businesses, targetHours, platformSlack: slack, vendorRpm, feasible, maxConcurrency: map.maxConcurrency, batchSize: map.batchSize, platformLimits,
    budgetNeeded, mapFinishSeconds: map.finishSeconds, smallestFittingRate, trials, result, reasons,
  };
}

// ---------------------------------------------------------------------------------------
// the report

export interface CapacityReport {
  sizes: number[];
  seed: number;
  assumptions: {
    stepSeconds: StepSeconds;
    overheadSeconds: OverheadSeconds;
    callLatencySeconds: Range;
    judgeSeconds: Range;
    changedShare: number;
    articleShare: number;
    lambdaConcurrency: number;
    vendorRpm: number;
  };
  /** The code's defaults (the ASL's MaxConcurrency and MaxItemsPerBatch, PLATFORM_LIMIT_DEFAULTS). */
  current: DayResult[];
  /** The same days with the limiter as it was before issue 24 (budget checked last). */
  budgetLast: DayResult[];
  chosen: ChosenDefaults;
  /** The same sizes with the chosen defaults. */
  withChosen: DayResult[];
  /** Vendor batches (issue 47): platforms 1-3 through the vendors' batch interfaces. */
  after: AfterReport;
  /** Wall time of the whole measurement (informational). */
  wallMs: number;
}

const listEnv = (name: string, fallback: string) => (process.env[name] ?? fallback).split(',').map((s) => s.trim()).filter(Boolean);

/** The "after batch pricing" part of the report. */
export interface AfterReport {
  turnaroundHours: Range;
  pollSeconds: number;
  /** The sizes with today's defaults and the batch queues at the highest published tier found. */
  current: DayResult[];
  /** The synchronous platforms and the Map chosen for `chooseFor` with batches (queues unbounded while choosing). */
  chosen: ChosenDefaults;
  /** The sizes with those settings and the batch queues at the highest published tier found. */
  withChosen: DayResult[];
  /** The chosen settings at `chooseFor` with only the published batch figures (the assumed ones dropped), or null when none is assumed. */
  publishedOnly: DayResult | null;
  /** The same day (published batch figures) with one batch lever moved: what each would give. */
  levers: Array<{ lever: string; day: DayResult }>;
  /** Each synchronous platform's chosen setting against the vendor's published figure. */
  checks: SyncCheck[];
  /** Each vendor account's month at `chooseFor` businesses against its published spend cap (D229). */
  spend: SpendCheck[];
  /** Reached: `chooseFor` businesses done by the target with every setting within a published figure. */
  goalReached: boolean;
  goal: string;
  /** Cost before/after with the batch machinery of the day the settings aim at (vendor queues not binding). */
  pricing: BatchPricingComparison;
  /** The same with the collecting loop of the queue-bound day (published batch limits). */
  pricingQueueBound: BatchPricingComparison | null;
  afterVendorRpm: number;
}

const rangeEnv = (name: string, fallback: Range): Range => {
  const raw = process.env[name];
  if (!raw) return fallback;
  const [min, max] = raw.split(',').map(Number);
  return Number.isFinite(min) && Number.isFinite(max) ? { min, max } : fallback;
};

export async function measureCapacity(options: {
  sizes?: number[];
  seed?: number;
  targetHours?: number;
  vendorRpm?: number;
  /** Overrides for every run (measured step durations, shares, ...). */
  base?: Omit<SimulationOptions, 'businesses'>;
  /** Businesses the sweep chooses for (50,000). */
  chooseFor?: number;
  /** The synchronous platforms' RPM the sweep with vendor batches may go up to (an assumption; default max(vendorRpm, 1,000)). */
  afterVendorRpm?: number;
} = {}): Promise<CapacityReport> {
  const started = performance.now();
  const sizes = options.sizes ?? listEnv('BENCH_CAPACITY_SIZES', '1000,10000,50000,100000').map(Number);
  const seed = options.seed ?? Number(process.env.BENCH_CAPACITY_SEED ?? 1);
  const targetHours = options.targetHours ?? Number(process.env.BENCH_CAPACITY_TARGET_HOURS ?? 20);
  const vendorRpm = options.vendorRpm ?? Number(process.env.BENCH_CAPACITY_VENDOR_RPM ?? ASSUMED_VENDOR_RPM);
  const base = { ...options.base, seed };
  const current = sizes.map((businesses) => simulateDay({ ...base, businesses }));
  const budgetLast = sizes.map((businesses) => simulateDay({ ...base, businesses, budgetCheckedFirst: false }));
  const chosen = chooseDefaults({ businesses: options.chooseFor ?? 50_000, targetHours, vendorRpm, base });
  const withChosen = sizes.map((businesses) => simulateDay({
    ...base, businesses, maxConcurrency: chosen.maxConcurrency, batchSize: chosen.batchSize, platformLimits: chosen.platformLimits,
  }));

  // after: platforms 1-3 through vendor batches
  const chooseFor = options.chooseFor ?? 50_000;
  const batchPlatforms = [...(base.batchPlatforms ?? DEFAULT_BATCH_PLATFORMS)];
  const turnaroundHours = base.batchTurnaroundHours ?? rangeEnv('BENCH_CAPACITY_BATCH_HOURS', DEFAULT_BATCH_TURNAROUND_HOURS);
  const afterBase = { ...base, vendorBatches: true, batchPlatforms, batchTurnaroundHours: turnaroundHours };
  const published = batchQueueLimitsFor(batchPlatforms, 'highest');
  const afterCurrent = sizes.map((businesses) => simulateDay({ ...afterBase, businesses, batchQueueLimits: published }));
  // the synchronous platforms and the Map are sized with the vendor queues out of the way; the queues are then put back
  // the synchronous platforms must carry the day's calls in the fan-out AND leave the batch tail room: the sweep may go up to
  // afterVendorRpm (an ASSUMPTION, 1,000/min by default); the checks below hold each setting against the published figures
  const afterVendorRpm = options.afterVendorRpm ?? Number(process.env.BENCH_CAPACITY_AFTER_VENDOR_RPM ?? Math.max(vendorRpm, 1000));
  const chosenAfter = chooseDefaults({
    businesses: chooseFor, targetHours, vendorRpm: afterVendorRpm, base: { ...afterBase, batchQueueLimits: batchQueueLimitsFor(batchPlatforms, 'unbounded') },
  });
  const chosenSettings = { maxConcurrency: chosenAfter.maxConcurrency, batchSize: chosenAfter.batchSize, platformLimits: chosenAfter.platformLimits };
  const afterChosen = sizes.map((businesses) => simulateDay({ ...afterBase, ...chosenSettings, businesses, batchQueueLimits: published }));
  const assumed = batchPlatforms.some((p) => VENDOR_LIMITS.some((l) => l.platform === PLATFORM_KEYS[p] && l.kind !== 'batch-requests-per-job' && l.kind !== 'rpm' && l.assumption));
  const publishedOnlyLimits = batchPlatforms.map((p, i) => {
    const rows = VENDOR_LIMITS.filter((l) => l.platform === PLATFORM_KEYS[p] && !l.assumption);
    const jobs = rows.find((l) => l.kind === 'batch-open-jobs');
    const queue = rows.filter((l) => (l.kind === 'batch-queue-requests' || l.kind === 'batch-queue-tokens') && l.limit !== null).sort((a, b) => b.limit! - a.limit!)[0];
    return queue ? published[i] : { maxQueuedRequests: Infinity, maxOpenJobs: jobs?.limit ?? Infinity, from: `published only: ${jobs ? `${int(jobs.limit!)} ${jobs.unit}` : 'none'}` };
  });
  const publishedOnly = assumed ? simulateDay({ ...afterBase, ...chosenSettings, businesses: chooseFor, batchQueueLimits: publishedOnlyLimits }) : null;
  // Each batch lever against the published figures: what it is worth, built or not.
  const leverDay = (o: Partial<SimulationOptions>, platforms = batchPlatforms) => simulateDay({
    ...afterBase, ...chosenSettings, businesses: chooseFor, ...o, batchPlatforms: platforms,
    batchQueueLimits: platforms.map((p) => publishedOnlyLimits[batchPlatforms.indexOf(p)]),
  });
  const levers = [
    { lever: 'one job per platform per Map child (D218, before shards)', day: leverDay({ batchShardSize: 0 }) },
    { lever: 'shards of 50, jobs of 500 (D222, before Gemini\'s file input and output)', day: leverDay({ batchShardSize: 50, jobRequestCap: 500 }) },
    ...(batchPlatforms.length > 1 ? [{ lever: `${PLATFORM_KEYS[batchPlatforms[batchPlatforms.length - 1]]} synchronous (VISIBILITY_BATCHES=${batchPlatforms.slice(0, -1).map((p) => p + 1).join(',')})`, day: leverDay({}, batchPlatforms.slice(0, -1)) }] : []),
  ];
  const syncIndices = Array.from({ length: PLATFORM_KEYS.length }, (_, p) => p).filter((p) => !batchPlatforms.includes(p));
  const checks = syncPlatformChecks(chosenAfter.platformLimits, syncIndices);
  const atChosen = afterChosen.find((d) => d.businesses === chooseFor) ?? simulateDay({ ...afterBase, ...chosenSettings, businesses: chooseFor, batchQueueLimits: published });
  const target = targetHours * 3600;
  // the batch machinery's transitions of a day whose vendor queues do not bind (the day the settings aim at); the queue-bound day apart
  const countsOf = (d: DayResult) => (d.vendorBatches
    ? { businesses: d.businesses, mapChildren: d.batches, collectRounds: d.vendorBatches.rounds, collectChildren: d.vendorBatches.collectChildren }
    : null);
  // The goal is "under the published limits": where a batch figure is only assumed, the day with the published ones decides.
  const decisive = publishedOnly ?? atChosen;
  const inTime = decisive.complete && decisive.finishSeconds <= target;
  const beyond = checks.filter((c) => c.allowed === false);
  const unknown = checks.filter((c) => c.allowed === null);
  const pricing = batchPricingComparison(batchPlatforms.map((p) => PLATFORM_KEYS[p]), countsOf(chosenAfter.result));
  const spend = spendCapChecks(pricing.after.byVendor, chooseFor);
  const overspent = spend.filter((c) => !c.allowed);
  const fleetUnderCaps = Math.min(...spend.map((c) => c.maxBusinesses));
  const goalReached = inTime && beyond.length === 0 && unknown.length === 0 && overspent.length === 0;
  const goal = `GOAL: ${int(chooseFor)} businesses finished within ${targetHours} h of the 14:00 UTC start under the vendors' published limits: ` +
    (goalReached ? 'REACHED' : 'NOT REACHED') + ` by this model. With vendor batches and the chosen settings the day ends +${hhmm(decisive.finishSeconds)} ` +
    `(${clockAfterStart(decisive.finishSeconds)}; ${decisive.vendorBatches?.binding ?? '-'})` +
    (publishedOnly ? ` with the published batch figures alone, +${hhmm(atChosen.finishSeconds)} with the assumed ones too` : '') +
    (inTime ? '' : `, past +${targetHours} h`) +
    (inTime && beyond.length === 0 && unknown.length === 0 ? '; every published rate and batch-queue figure fits' : '') +
    (beyond.length ? `; beyond a published figure: ${beyond.map((c) => `${c.platform} needs ${c.needed}, published ${c.published}`).join('; ')}` : '') +
    (unknown.length ? `; no published figure found for ${unknown.map((c) => c.platform).join(', ')} (assumed up to ${afterVendorRpm}/min)` : '') +
    (overspent.length ? `; beyond a published monthly spend cap: ${overspent.map((c) => `${c.vendor} ${usdText(c.perMonth)} a month, ${c.tier} allows ${usdText(c.capUsd)}`).join('; ')} ` +
      `(every cap holds up to ${int(fleetUnderCaps)} businesses; past them: each vendor's negotiated tier)` : '') +
    `. With the vendor queues out of the way the same settings finish +${hhmm(chosenAfter.result.finishSeconds)}.`;
  const queueBound = countsOf(atChosen);
  const after: AfterReport = {
    turnaroundHours, pollSeconds: atChosen.vendorBatches ? (afterBase.batchPollSeconds ?? VISIBILITY_BATCH_POLL_SECONDS) : VISIBILITY_BATCH_POLL_SECONDS,
    current: afterCurrent, chosen: chosenAfter, withChosen: afterChosen, publishedOnly, levers, checks, spend, goalReached, goal,
    pricing,
    pricingQueueBound: queueBound ? batchPricingComparison(batchPlatforms.map((p) => PLATFORM_KEYS[p]), queueBound) : null,
    afterVendorRpm,
  };
  const resolved = resolveOptions({ ...base, businesses: 0 });
  return {
    sizes,
    seed,
    assumptions: {
      stepSeconds: resolved.stepSeconds,
      overheadSeconds: resolved.overheadSeconds,
      callLatencySeconds: resolved.callLatencySeconds[0],
      judgeSeconds: resolved.judgeSeconds,
      changedShare: resolved.changedShare,
      articleShare: resolved.articleShare,
      lambdaConcurrency: resolved.lambdaConcurrency,
      vendorRpm,
    },
    current,
    budgetLast,
    chosen,
    withChosen,
    after,
    wallMs: performance.now() - started,
  };
}

/** `HH:MM` of a duration (hours may pass 24). */
export function hhmm(seconds: number): string {
  if (!Number.isFinite(seconds)) return '-';
  const minutes = Math.round(seconds / 60);
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/** The UTC clock time `seconds` after the 14:00 UTC start, with the day it falls on. */
export function clockAfterStart(seconds: number): string {
  if (!Number.isFinite(seconds)) return '-';
  const total = Math.round(DAY_START_UTC_HOUR * 60 + seconds / 60);
  const day = Math.floor(total / (24 * 60));
  const time = hhmm((total % (24 * 60)) * 60);
  return `${time} UTC${day === 0 ? '' : day === 1 ? ' next day' : ` day +${day}`}`;
}

const pct = (v: number) => (Number.isFinite(v) ? `${(100 * v).toFixed(v < 0.1 ? 1 : 0)}%` : '-');
const sec = (v: number) => (Number.isFinite(v) ? `${v.toFixed(v < 10 ? 1 : 0)} s` : '-');
const limitsText = (l: PlatformLimitSettings) => `${l.concurrency} at once, ${int(l.ratePerMinute)}/min, ${int(l.dailyBudget)}/day`;

function dayRows(days: readonly DayResult[]): string[][] {
  return days.map((d) => [
    int(d.businesses),
    int(d.batches),
    `+${hhmm(d.finishSeconds)}`,
    clockAfterStart(d.finishSeconds),
    d.fits ? 'yes' : 'NO',
    `+${hhmm(d.mapOnlyFinishSeconds)}`,
    int(d.totals.made),
    int(d.totals.skippedByBudget),
    int(d.totals.refusedByWait),
    `${sec(d.visibility.p95Seconds)} / ${int(d.visibility.overTimeout)}`,
    int(d.lambda.peak),
    `${d.binding.limit} ${pct(d.binding.utilisation)}`,
    d.firstLimit ? `${d.firstLimit.limit} at +${hhmm(d.firstLimit.at)}` : '-',
  ]);
}

const DAY_HEADER = ['businesses', 'child executions', 'finish', 'clock', 'fits 24 h', 'Map only', 'calls made', 'skipped (budget)', 'refused (120 s wait)',
  '2b p95 / >300 s', 'peak Lambda', 'binding limit (utilisation)', 'first limit to bite'];

function printDays(title: string, days: readonly DayResult[]): void {
  heading(title);
  printTable(DAY_HEADER, dayRows(days));
  for (const d of days) {
    const budget = d.limits.find((l) => l.kind === 'platform-budget');
    console.log(`  ${int(d.businesses)}: ${int(d.batches)} child executions (${mapText(d.maxConcurrency, d.batchSize)}); limits by utilisation: ` +
      d.limits.map((l) => `${l.limit} ${pct(l.utilisation)}`).join(', ') +
      (budget && budget.firstAt !== null ? `; budget spent at +${hhmm(budget.firstAt)} (${clockAfterStart(budget.firstAt)})` : '') +
      `; needs a budget of ${int(d.platforms[0]?.wanted ?? 0)} per platform` +
      `; mean business ${sec(d.business.meanSeconds)}, Lambda throttled ${int(d.lambda.throttled)} (${int(d.lambda.beyondRetry)} beyond the retries)`);
  }
}

function printPlatforms(d: DayResult): void {
  console.log(`per platform, ${int(d.businesses)} businesses (${limitsText(d.platformLimits)}):`);
  printTable(
    ['platform', 'wanted', 'made', 'skipped (budget)', 'refused (wait)', 'budget spent at', 'peak in flight', 'mean wait', 'max wait', 'rate used', 'slots used'],
    d.platforms.map((p) => [
      p.platform, int(p.wanted), int(p.made), int(p.skippedByBudget), int(p.refusedByWait),
      p.budgetSpentAt === null ? '-' : `+${hhmm(p.budgetSpentAt)}`, int(p.peakInFlight), sec(p.meanWaitSeconds), sec(p.maxWaitSeconds),
      pct(p.rateUtilisation), pct(p.concurrencyUtilisation),
    ]),
  );
}

const AFTER_HEADER = ['businesses', 'child executions', 'batch jobs submitted', 'jobs that waited (longest)', 'fan-out ends', 'finish (last scored + FinishDailyRun)', 'clock',
  'fits 20 h', 'fits 24 h', 'sync calls made / skipped / refused', 'binding (fan-out)', 'binding after the fan-out', 'synchronous platforms\' limits'];

function afterRows(days: readonly DayResult[]): string[][] {
  return days.map((d) => {
    const b = d.vendorBatches;
    return [
      int(d.businesses), int(d.batches), b ? int(b.jobs) : '-', b ? `${int(b.submissionsWaited)} (${hhmm(b.maxSubmitWaitSeconds)})` : '-',
      b ? `+${hhmm(b.fanOutEndSeconds)}` : '-', `+${hhmm(d.finishSeconds)}`, clockAfterStart(d.finishSeconds),
      d.finishSeconds <= 20 * 3600 && d.complete ? 'yes' : 'NO', d.finishSeconds <= 24 * 3600 && d.complete ? 'yes' : 'NO',
      `${int(d.totals.made)} / ${int(d.totals.skippedByBudget)} / ${int(d.totals.refusedByWait)}`,
      `${d.binding.limit} ${pct(d.binding.utilisation)}`, b?.binding ?? '-', limitsText(d.platformLimits),
    ];
  });
}

function printAfter(r: CapacityReport): void {
  const a = r.after;
  const first = a.current[0]?.vendorBatches;
  heading(`capacity with vendor batches (after): ${first?.platforms.join(', ') ?? 'platforms 1-3'} through the vendors' batch interfaces`);
  console.log(`assumed: vendor turnaround ${a.turnaroundHours.min}-${a.turnaroundHours.max} h per job (DEFAULT_BATCH_TURNAROUND_HOURS, an assumption: the vendors promise "within 24 hours"), ` +
    `polled every ${a.pollSeconds} s after the Map, the collecting Map judging ${COLLECT_JUDGE_CONCURRENCY} answers at once per child (assumed); ` +
    `vendor batch queues at the highest tier figure found: ${(first?.queueLimits ?? []).map((q, i) => `${first?.platforms[i]}: ${q.from} = ${Number.isFinite(q.maxQueuedRequests) ? int(q.maxQueuedRequests) : '∞'} checks` +
      (Number.isFinite(q.maxOpenJobs) ? `, ${int(q.maxOpenJobs)} jobs` : '')).join('; ')}`);
  console.log(`with today's defaults (${a.current[0] ? `${mapText(a.current[0].maxConcurrency, a.current[0].batchSize)}, per platform ${limitsText(a.current[0].platformLimits)}` : '-'}):`);
  printTable(AFTER_HEADER, afterRows(a.current));
  const c = a.chosen;
  console.log(`with the settings chosen for ${int(c.businesses)} with batches (${mapText(c.maxConcurrency, c.batchSize)}, per synchronous platform ${limitsText(c.platformLimits)}):`);
  printTable(AFTER_HEADER, afterRows(a.withChosen));
  if (a.publishedOnly) {
    console.log(`the same at ${int(a.publishedOnly.businesses)} with only PUBLISHED batch figures (the assumed ones dropped):`);
    printTable(AFTER_HEADER, afterRows([a.publishedOnly]));
  }
  console.log(`with the vendor queues out of the way (what the synchronous sizing alone gives):`);
  printTable(AFTER_HEADER, afterRows([c.result]));
  console.log(`the batch levers at ${int(c.businesses)}, each alone, with the published batch figures (the synchronous platforms' published figures are checked below):`);
  printTable(['lever', 'batch jobs', 'jobs that waited (longest)', 'finish', `fits ${c.targetHours} h`, 'binding after the fan-out'],
    a.levers.map(({ lever, day }) => [lever, int(day.vendorBatches?.jobs ?? 0), `${int(day.vendorBatches?.submissionsWaited ?? 0)} (${hhmm(day.vendorBatches?.maxSubmitWaitSeconds ?? 0)})`,
      `+${hhmm(day.finishSeconds)}`, day.complete && day.finishSeconds <= c.targetHours * 3600 ? 'yes' : 'NO', day.vendorBatches?.binding ?? '-']));

  heading(`capacity with vendor batches: defaults chosen for ${int(c.businesses)} businesses by +${c.targetHours} h, ${PLATFORM_KEYS.length - (first?.platforms.length ?? 0)} synchronous platforms, ` +
    `their rate up to ${int(a.afterVendorRpm)}/min (assumed; checked against the published figures below)` +
    (c.feasible ? '' : ' (target NOT reached)'));
  printTable(
    ['stage', 'MaxConcurrency (children)', 'batch', 'businesses at once', 'slots', 'rate/min', 'finish', 'all done', 'ok', 'binding'],
    c.trials.map((t) => [t.stage, String(t.maxConcurrency), String(t.batchSize), int(t.maxConcurrency * t.batchSize), String(t.concurrency), String(t.ratePerMinute),
      `+${hhmm(t.finishSeconds)}`, t.complete ? 'yes' : 'no', t.ok ? 'yes' : 'no', t.binding]),
  );
  console.log(`chosen with batches: ProcessBusinesses MaxConcurrency ${c.maxConcurrency}, ItemBatcher.MaxItemsPerBatch ${c.batchSize}, ` +
    `PLATFORM_CONCURRENCY ${c.platformLimits.concurrency}, PLATFORM_RATE_PER_MINUTE ${c.platformLimits.ratePerMinute}, PLATFORM_DAILY_BUDGET ${int(c.platformLimits.dailyBudget)} ` +
    `(needed: ${int(c.budgetNeeded)} per synchronous platform)`);
  for (const reason of c.reasons) console.log(`  - ${reason}`);
  console.log('each synchronous platform\'s chosen setting against the vendor\'s published figure:');
  printTable(['platform', 'vendor / model', 'needs', 'published figure (tier)', 'allows it', 'source'],
    a.checks.map((k) => [k.platform, k.vendor, k.needed, k.published, k.allowed === null ? 'unknown' : k.allowed ? 'yes' : 'NO', k.source]));
  console.log(`each vendor account's month at ${int(c.businesses)} businesses (list prices, batch discounts applied) against its published monthly spend cap (D229):`);
  printTable(['vendor', 'billed for', 'per business-day', 'per month', 'published cap (tier)', 'within it', 'largest fleet within it', 'past the cap', 'source'],
    a.spend.map((k) => [k.vendor, k.platforms.join(', '), usdText(k.perBusinessDay), usdText(k.perMonth), `${usdText(k.capUsd)} (${k.tier})`, k.allowed ? 'yes' : 'NO',
      int(k.maxBusinesses), k.beyond, k.source]));
  const batchJobs = r.after.withChosen.find((d) => d.businesses === c.businesses)?.vendorBatches;
  if (batchJobs) {
    console.log(`batch platforms at ${int(c.businesses)}: ${int(batchJobs.jobs)} jobs of about ${int(batchJobs.requests / Math.max(1, batchJobs.jobs))} checks; peak in the vendor queue ` +
      batchJobs.platforms.map((p, i) => `${p} ${int(batchJobs.peakQueuedRequests[i])} checks / ${int(batchJobs.peakOpenJobs[i])} jobs (waited: ${int(batchJobs.waitedByPlatform[i])})`).join(', ') +
      `; ${int(batchJobs.rounds)} collecting rounds, ${int(batchJobs.collectChildren)} collecting child executions`);
  }
  console.log(a.goal);

  heading('vendor figures used by the capacity model (VENDOR_LIMITS: one table, read 2026-11-29 through search, not live)');
  printTable(['platform', 'vendor', 'model', 'tier', 'limit', 'unit', 'source', 'as of', 'assumption / note'],
    VENDOR_LIMITS.map((l) => [l.platform, l.vendor, l.model, l.tier, l.limit === null ? 'not found' : int(l.limit), l.unit, l.source, l.asOf,
      l.assumption ? `ASSUMPTION: ${l.assumption}` : l.note ?? '']));

  heading(`cost per business-day before and after batch pricing (list prices; ${int(c.businesses)} businesses)`);
  console.log(`AWS counted on the day the chosen settings aim at (vendor queues not binding: ${a.pricing.counts ? `${int(a.pricing.counts.collectRounds)} collecting rounds` : '-'})`);
  printBatchPricing(a.pricing, c.businesses);
  const q = a.pricingQueueBound;
  if (q?.counts) {
    console.log(`with the published batch limits binding (${int(q.counts.collectRounds)} collecting rounds, ${int(q.counts.collectChildren)} collecting children while jobs wait): ` +
      `AWS ${usdText(q.after.aws)} per business-day, total after ${usdText(q.after.total)}`);
  }
}

/** Summary lines for bench/run.ts. */
export function capacityLines(r: CapacityReport): string[] {
  const line = (label: string, d: DayResult) => `${label} ${int(d.businesses)}: finish +${hhmm(d.finishSeconds)} (${clockAfterStart(d.finishSeconds)}, ` +
    `${d.fits ? 'fits' : 'does NOT fit'} 24 h), ${int(d.totals.made)} calls made, ${int(d.totals.skippedByBudget)} skipped by budget, ` +
    `${int(d.totals.refusedByWait)} refused; binds: ${d.binding.limit} ${pct(d.binding.utilisation)}`;
  const c = r.chosen;
  return [
    ...r.current.map((d) => line('now', d)),
    `chosen for ${int(c.businesses)} by +${c.targetHours} h${c.feasible ? '' : ' (NOT reached)'}: ${mapText(c.maxConcurrency, c.batchSize)}, ` +
      `per platform ${limitsText(c.platformLimits)} (vendor RPM assumed ${c.vendorRpm})`,
    ...r.withChosen.map((d) => line('chosen', d)),
  ];
}

export function printCapacityReport(r: CapacityReport): void {
  const a = r.assumptions;
  heading('capacity: one simulated day (no AWS) of the daily fan-out, finish after the 14:00 UTC start');
  console.log(`assumed: vendor call ${a.callLatencySeconds.min}-${a.callLatencySeconds.max} s, judge ${a.judgeSeconds.min}-${a.judgeSeconds.max} s, ` +
    `${pct(a.changedShare)} of businesses deploy (edge wait), ${pct(a.articleShare)} write articles, Lambda concurrency ${int(a.lambdaConcurrency)}, ` +
    `vendor RPM ${a.vendorRpm} (check each platform's real tier); seed ${r.seed}`);
  console.log(`step seconds (plausible, to be replaced with measured ones): ` +
    Object.entries(a.stepSeconds).map(([k, v]) => `${k} ${v}`).join(', '));

  const cur = r.current[0];
  printDays(`capacity with today's defaults: ${cur ? mapText(cur.maxConcurrency, cur.batchSize) : '-'}, ` +
    `per platform ${cur ? limitsText(cur.platformLimits) : '-'}`, r.current);
  const atTarget = r.current.find((d) => d.businesses === r.chosen.businesses) ?? r.current[r.current.length - 1];
  if (atTarget) printPlatforms(atTarget);
  console.log('the same with the limiter as it was before issue 24 (the budget checked after the slot and the rate, so a skipped call still waited for and took a rate unit):');
  printTable(DAY_HEADER, dayRows(r.budgetLast));

  const c = r.chosen;
  heading(`capacity: defaults chosen for ${int(c.businesses)} businesses by +${c.targetHours} h${c.feasible ? '' : ' (target NOT reached)'}`);
  printTable(
    ['stage', 'MaxConcurrency (children)', 'batch', 'businesses at once', 'slots', 'rate/min', 'finish', 'all calls made', 'ok', 'binding'],
    c.trials.map((t) => [t.stage, String(t.maxConcurrency), String(t.batchSize), int(t.maxConcurrency * t.batchSize), String(t.concurrency), String(t.ratePerMinute),
      `+${hhmm(t.finishSeconds)}`, t.complete ? 'yes' : 'no', t.ok ? 'yes' : 'no', t.binding]),
  );
  console.log(`chosen: ProcessBusinesses MaxConcurrency ${c.maxConcurrency}, ItemBatcher.MaxItemsPerBatch ${c.batchSize} (ProcessBatch's MaxConcurrency the same), ` +
    `${int(batchCount(c.businesses, c.batchSize))} child executions for ${int(c.businesses)}, PLATFORM_CONCURRENCY ${c.platformLimits.concurrency}, ` +
    `PLATFORM_RATE_PER_MINUTE ${c.platformLimits.ratePerMinute}, PLATFORM_DAILY_BUDGET ${int(c.platformLimits.dailyBudget)} (needed: ${int(c.budgetNeeded)})`);
  for (const reason of c.reasons) console.log(`  - ${reason}`);

  printDays('capacity with the chosen defaults', r.withChosen);
  const atTargetChosen = r.withChosen.find((d) => d.businesses === c.businesses);
  if (atTargetChosen) printPlatforms(atTargetChosen);
  printAfter(r);
  console.log(`Binding limit: the time-based limit with the highest utilisation (the Map's is its no-other-limit finish over the actual one). ` +
    `First limit to bite: the first (other than the Map, which queues by design) to delay or refuse a call or a task. ` +
    `Platform limits are fleet-wide and the same for all 8 platforms; the budget is checked before the slot and the rate ` +
    `(platform-limiter.ts since issue 24), so a call skipped by a spent budget takes neither. Simulated in ${ms(r.wallMs)}.`);
}

if (isMain(module)) {
  measureCapacity().then(printCapacityReport, (err) => { console.error(err); process.exitCode = 1; });
}
