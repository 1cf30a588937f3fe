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
import { PLATFORM_KEYS, PROMPTS_SAMPLED_PER_DAY, VISIBILITY_BATCH_POLL_SECONDS } from '../functions/core/constants';
import { batchPricingComparison, DAYS_PER_MONTH, printBatchPricing, usd as usdText, type BatchPricingComparison } from './cost-model';
import { heading, int, isMain, ms, printTable } from './lib';
import { batchQueueLimitsFor, DEFAULT_BATCH_PLATFORMS, spendCapChecks, syncPlatformChecks, VENDOR_LIMITS, type SpendCheck, type SyncCheck } from './vendor-limits';
import {
  ASSUMED_VENDOR_RPM, BATCH_SIZE_CANDIDATES, clockAfterStart, COLLECT_JUDGE_CONCURRENCY, CONCURRENCY_CANDIDATES, DEFAULT_BATCH_TURNAROUND_HOURS, DEFAULT_CALL_LATENCY_SECONDS,
  hhmm, MAX_CONCURRENCY_CANDIDATES, RATE_CANDIDATES, resolveOptions,
  type DayResult, type LimitUse, type OverheadSeconds, type PlatformLimitSettings, type Range, type SimulationOptions, type StepSeconds,
} from './capacity-model';
import { batchCount, mapText, simulateDay } from './capacity-simulation';


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
  /** Each vendor account's month at `chooseFor` businesses against its published spend cap (D229), and through its channel (D236). */
  spend: SpendCheck[];
  /** An account's channel that changes the day (a lower batch-queue tier, D236; a platform synchronous, D239): the chosen day at `chooseFor` with it. */
  channelDays: ChannelDay[];
  /** The needed channels applied at once (null when at most one changes the day). */
  channelsTogether: ChannelDay | null;
  /** Reached: `chooseFor` businesses done by the target with every setting within a published figure. */
  goalReached: boolean;
  goal: string;
  /** Cost before/after with the batch machinery of the day the settings aim at (vendor queues not binding). */
  pricing: BatchPricingComparison;
  /** The same with the collecting loop of the queue-bound day (published batch limits). */
  pricingQueueBound: BatchPricingComparison | null;
  /** The cost with the needed channels in use, when one takes a platform synchronously (D239): null otherwise. */
  pricingThroughChannels: BatchPricingComparison | null;
  afterVendorRpm: number;
}

const rangeEnv = (name: string, fallback: Range): Range => {
  const raw = process.env[name];
  if (!raw) return fallback;
  const [min, max] = raw.split(',').map(Number);
  return Number.isFinite(min) && Number.isFinite(max) ? { min, max } : fallback;
};

/**
 * A channel's re-simulated day (D236): the account, the channel, the batch queue it starts at or the
 * platforms it takes synchronously (D239), and those platforms' rate and budget against their published figures.
 */
export interface ChannelDay { vendor: string; channel: string; from: string; day: DayResult; checks: SyncCheck[] }

/** A channel on another batch-queue tier or without a batch interface for a platform changes the day: it holds only with its own day shown in time. */
const channelChangesTheDay = (k: SpendCheck): boolean => !!(k.channel?.batchQueueTier || k.channel?.synchronous);

/**
 * The goal's verdict (D229, D236): the day in time, every synchronous setting within a published
 * figure, and every vendor account within its self-serve spend cap or through a channel that
 * holds it (within the channel's limit, and the day on the channel's rate tier in time too).
 */
export function goalVerdict(v: {
  inTime: boolean; beyond: number; unknown: number; spend: readonly SpendCheck[]; channelDays: readonly ChannelDay[];
  /** The day with every needed channel applied at once (when more than one changes the day). */
  channelsTogether?: ChannelDay | null;
  targetSeconds: number;
}): {
  reached: boolean; stillOverspent: SpendCheck[]; viaChannels: SpendCheck[];
} {
  const dayHolds = (d: ChannelDay) => d.day.complete && d.day.finishSeconds <= v.targetSeconds && d.checks.every((c) => c.allowed === true);
  const channelHolds = (k: SpendCheck) => {
    const days = v.channelDays.filter((d) => d.vendor === k.vendor);
    return !!k.channel?.allowed && (!channelChangesTheDay(k) || days.length > 0) && days.every(dayHolds);
  };
  const overspent = v.spend.filter((k) => !k.allowed);
  const stillOverspent = overspent.filter((k) => !channelHolds(k));
  const together = !v.channelsTogether || dayHolds(v.channelsTogether);
  return { reached: v.inTime && v.beyond === 0 && v.unknown === 0 && stillOverspent.length === 0 && together, stillOverspent, viaChannels: overspent.filter(channelHolds) };
}

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
  const spend = spendCapChecks(pricing.after.byVendor, chooseFor, undefined, pricing.before.byVendor);
  const overspent = spend.filter((c) => !c.allowed);
  const fleetUnderCaps = Math.min(...spend.map((c) => c.maxBusinesses));
  // A channel that starts at a lower batch-queue tier (Claude Platform on AWS: Tier 1), or has no batch interface for a platform
  // (Gemini on Vertex AI: synchronous), holds only if the day still ends in time with it, its synchronous platforms within their published rates.
  const channelDayOf = (accounts: readonly SpendCheck[]): Omit<ChannelDay, 'vendor' | 'channel'> => {
    const synchronous = batchPlatforms.filter((p) => accounts.some((k) => k.channel?.synchronous?.includes(PLATFORM_KEYS[p]!)));
    const kept = batchPlatforms.filter((p) => !synchronous.includes(p));
    const lowered = kept.map((p) => {
      const lowering = accounts.find((k) => k.channel?.batchQueueTier && k.platforms.includes(PLATFORM_KEYS[p]!));
      return lowering ? batchQueueLimitsFor([p], lowering.channel!.batchQueueTier)[0]! : publishedOnlyLimits[batchPlatforms.indexOf(p)]!;
    });
    const day = simulateDay({ ...afterBase, ...chosenSettings, businesses: chooseFor, batchPlatforms: kept, batchQueueLimits: lowered });
    const from = [
      ...lowered.filter((l, i) => l !== publishedOnlyLimits[batchPlatforms.indexOf(kept[i]!)]).map((l) => l.from),
      ...synchronous.map((p) => `${PLATFORM_KEYS[p]} synchronous`),
    ].join('; ');
    return { from, day, checks: syncPlatformChecks(chosenAfter.platformLimits, synchronous) };
  };
  const channelDays = spend.filter(channelChangesTheDay).map((k): ChannelDay => ({ vendor: k.vendor, channel: k.channel!.name, ...channelDayOf([k]) }));
  // the channels the fleet needs (accounts past their caps) all at once: one day with every one of them applied
  const needed = spend.filter((k) => !k.allowed && k.channel?.allowed && channelChangesTheDay(k));
  const channelsTogether: ChannelDay | null = needed.length > 1
    ? { vendor: needed.map((k) => k.vendor).join(' + '), channel: needed.map((k) => k.channel!.name).join(' + '), ...channelDayOf(needed) }
    : null;
  const { reached: goalReached, stillOverspent, viaChannels } = goalVerdict({
    inTime, beyond: beyond.length, unknown: unknown.length, spend, channelDays, channelsTogether, targetSeconds: target,
  });
  const goal = `GOAL: ${int(chooseFor)} businesses finished within ${targetHours} h of the 14:00 UTC start under the vendors' published limits: ` +
    (goalReached ? 'REACHED' : 'NOT REACHED') + ` by this model. With vendor batches and the chosen settings the day ends +${hhmm(decisive.finishSeconds)} ` +
    `(${clockAfterStart(decisive.finishSeconds)}; ${decisive.vendorBatches?.binding ?? '-'})` +
    (publishedOnly ? ` with the published batch figures alone, +${hhmm(atChosen.finishSeconds)} with the assumed ones too` : '') +
    (inTime ? '' : `, past +${targetHours} h`) +
    (inTime && beyond.length === 0 && unknown.length === 0 ? '; every published rate and batch-queue figure fits' : '') +
    (beyond.length ? `; beyond a published figure: ${beyond.map((c) => `${c.platform} needs ${c.needed}, published ${c.published}`).join('; ')}` : '') +
    (unknown.length ? `; no published figure found for ${unknown.map((c) => c.platform).join(', ')} (assumed up to ${afterVendorRpm}/min)` : '') +
    (overspent.length ? `; beyond a published monthly spend cap: ${overspent.map((c) => `${c.vendor} ${usdText(c.perMonth)} a month, ${c.tier} allows ${usdText(c.capUsd)}`).join('; ')} ` +
      `(every cap holds up to ${int(fleetUnderCaps)} businesses)` : '') +
    (viaChannels.length ? `; within reach through a published channel the service supports (D236): ${viaChannels.map((k) => `${k.vendor} through ${k.channel!.name} `
      + `(${k.channel!.capUsd === null ? 'no spend limit' : `${usdText(k.channel!.perMonth)} a month within ${usdText(k.channel!.capUsd)}`}`
      + `${channelDays.filter((d) => d.vendor === k.vendor).map((d) => `, the day with ${d.from} ends +${hhmm(d.day.finishSeconds)}`).join('')})`).join('; ')}` : '') +
    (channelsTogether ? `; with ${channelsTogether.channel} together (${channelsTogether.from}) the day ends +${hhmm(channelsTogether.day.finishSeconds)}` : '') +
    (stillOverspent.length ? `; past ${stillOverspent.map((k) => `${k.vendor}'s cap: ${k.beyond}`).join('; ')}` : '') +
    `. With the vendor queues out of the way the same settings finish +${hhmm(chosenAfter.result.finishSeconds)}.`;
  const queueBound = countsOf(atChosen);
  // the cost with the needed channels in use: their synchronous platforms at the full price, counted on their day
  const neededSynchronous = needed.flatMap((k) => k.channel!.synchronous ?? []);
  const throughChannels = channelsTogether ?? (needed.length === 1 ? channelDays.find((d) => d.vendor === needed[0]!.vendor)! : null);
  const pricingThroughChannels = neededSynchronous.length && throughChannels
    ? batchPricingComparison(batchPlatforms.map((p) => PLATFORM_KEYS[p]!).filter((k) => !neededSynchronous.includes(k)), countsOf(throughChannels.day))
    : null;
  const after: AfterReport = {
    turnaroundHours, pollSeconds: atChosen.vendorBatches ? (afterBase.batchPollSeconds ?? VISIBILITY_BATCH_POLL_SECONDS) : VISIBILITY_BATCH_POLL_SECONDS,
    current: afterCurrent, chosen: chosenAfter, withChosen: afterChosen, publishedOnly, levers, checks, spend, channelDays, channelsTogether, goalReached, goal,
    pricing,
    pricingQueueBound: queueBound ? batchPricingComparison(batchPlatforms.map((p) => PLATFORM_KEYS[p]), queueBound) : null,
    pricingThroughChannels,
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
  console.log('each account through a published channel the service supports (D236):');
  printTable(['vendor', 'channel', 'settings', 'per month', 'spend limit', 'within it', 'largest fleet within it', 'the day on its rate tier', 'source'],
    a.spend.filter((k) => k.channel).map((k) => {
      const ch = k.channel!;
      const days = a.channelDays.filter((d) => d.vendor === k.vendor);
      return [k.vendor, ch.name, ch.settings, usdText(ch.perMonth), ch.capUsd === null ? 'none' : usdText(ch.capUsd), ch.allowed ? 'yes' : 'NO',
        Number.isFinite(ch.maxBusinesses) ? int(ch.maxBusinesses) : 'no limit',
        days.length ? days.map((d) => `+${hhmm(d.day.finishSeconds)} (${d.from})`).join('; ') : 'unchanged', ch.source];
    }));
  const channelChecks = a.channelDays.flatMap((d) => d.checks.map((k) => ({ channel: d.channel, k })));
  if (channelChecks.length) {
    console.log('the platforms a channel takes synchronously, their chosen setting against the channel\'s published figure (D239):');
    printTable(['channel', 'platform', 'vendor / model', 'needs', 'published figure (tier)', 'allows it', 'source'],
      channelChecks.map(({ channel, k }) => [channel, k.platform, k.vendor, k.needed, k.published, k.allowed === null ? 'unknown' : k.allowed ? 'yes' : 'NO', k.source]));
  }
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
  const t = a.pricingThroughChannels;
  if (t) {
    console.log(`through the channels the fleet needs (${t.batchPlatforms.join(', ')} batched, the rest synchronous, D239): vendors ${usdText(t.after.vendor)}, `
      + `AWS ${usdText(t.after.aws)}, total ${usdText(t.after.total)} per business-day (${usdText(t.after.total * c.businesses * DAYS_PER_MONTH)} a month for ${int(c.businesses)})`);
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

