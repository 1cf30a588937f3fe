/**
 * One simulated day of the daily fan-out (simulateDay): the deterministic discrete-event model
 * capacity.ts describes, on simulated time with seeded draws, no AWS and no sleeps.
 */
import { PLATFORM_KEYS } from '../functions/core/constants';
import { int, percentile } from './lib';
import { seededRandom } from '../functions/core/util/random';
import { EventHeap, Fifo, listScheduleMakespan, streamSeed } from './event-sim';
import { hhmm, resolveOptions, type BatchDay, type DayResult, type LimitUse, type PlatformDay, type ResolvedOptions, type SimulationOptions, type StepSeconds } from './capacity-model';


// ---------------------------------------------------------------------------------------
// simulation machinery

/** States of a call queued at the fleet-wide limiter. */
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

