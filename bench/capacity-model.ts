/**
 * What the capacity simulation (capacity-simulation.ts) assumes and returns: the day's timing
 * assumptions, the vendor-batch parameters, the limits read from the daily state machine's
 * ASL, the simulation's options (resolveOptions) and its results (DayResult).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EDGE_PROPAGATION_WAIT_SECONDS, PLATFORM_KEYS, PLATFORM_LIMIT_DEFAULTS, PROMPTS_SAMPLED_PER_DAY, VISIBILITY_BATCH_POLL_SECONDS } from '../functions/core/constants';
import { ROOT } from './lib';
import { BATCH_SHARD_BUSINESSES } from '../functions/core/workflows';
import { batchQueueLimitsFor, DEFAULT_BATCH_PLATFORMS, type BatchQueueLimit } from './vendor-limits';


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
