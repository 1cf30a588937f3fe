import { capacityLines, chooseDefaults, goalVerdict, measureCapacity, printCapacityReport } from '../../bench/capacity';
import { aslLimits, clockAfterStart, DEFAULT_STEP_SECONDS, hhmm, type SimulationOptions, type StepSeconds } from '../../bench/capacity-model';
import { simulateDay } from '../../bench/capacity-simulation';
import { listScheduleMakespan } from '../../bench/event-sim';
import { SPEND_CAPS, spendCapChecks, type BatchQueueLimit } from '../../bench/vendor-limits';

/** Every step `seconds` long, except the ones given; writing the day's list does not grow with the fleet unless given. */
const steps = (seconds: number, overrides: Partial<StepSeconds> = {}): StepSeconds =>
  ({ ...Object.fromEntries(Object.keys(DEFAULT_STEP_SECONDS).map((k) => [k, seconds])), writeDailyBusinessListPer10k: 0, ...overrides }) as StepSeconds;

/**
 * Fixed durations, no Step Functions overhead, no jitter: every step 1 s except DetectChanges 5 s
 * and UpdateAiSite 2 s; each call 10 s plus a 2 s judge; limits that never bind.
 *   business = StartBusinessRun 1 + batch 1 max(5, 1+1+1+1) + UpdateAiSite 2
 *            + batch 2 max(2a 1+1+1, 2b 1 + (10+2) + 1) + FinishBusinessRun 1 = 23 s
 */
const fixed: Omit<SimulationOptions, 'businesses'> = {
  stepSeconds: steps(1, { detectChanges: 5, updateAiSite: 2 }),
  durationJitter: 0,
  overheadSeconds: { task: 0, mapItem: 0, mapRun: 0 },
  changedShare: 0,
  articleShare: 0,
  callLatencySeconds: { min: 10, max: 10 },
  judgeSeconds: { min: 2, max: 2 },
  // fleet-wide: enough slots for every business's 10 prompts per platform at once
  platformLimits: { concurrency: 100, ratePerMinute: 1000, dailyBudget: 1_000_000 },
};
const CHAIN = 23;
/** PrepareDailyRun, RefreshCrawlerAddresses and WriteDailyBusinessList before the Map, FinishDailyRun after it. */
const RUN = 4;

describe('capacity simulation', () => {
  it('reads the real limits from the daily-schedule ASL, the throttle retrier from StartBusinessRun inside the batch\'s Map', () => {
    expect(aslLimits()).toEqual({
      processBusinessesMaxConcurrency: 40, processBusinessesBatchSize: 10, createArticlesMaxConcurrency: 10, lambdaRetryWindowSeconds: 2 + 4 + 8 + 16 + 32 + 60,
    });
  });

  it('runs businesses one after another with one child at a time and batches of 1: finish = 3 × the chain', () => {
    const day = simulateDay({ ...fixed, businesses: 3, maxConcurrency: 1, batchSize: 1 });
    expect(day.batches).toBe(3);
    expect(day.finishSeconds).toBeCloseTo(RUN + 3 * CHAIN, 9);
    expect(day.mapOnlyFinishSeconds).toBeCloseTo(day.finishSeconds, 9);
    expect(day.binding.kind).toBe('map');
    expect(day.binding.utilisation).toBeCloseTo(1, 9);
    expect(day.business.maxSeconds).toBeCloseTo(CHAIN, 9);
    expect(day.visibility.maxSeconds).toBeCloseTo(1 + 12 + 1, 9);
    expect(day.totals).toEqual({ wanted: 240, made: 240, skippedByBudget: 0, refusedByWait: 0 });
    expect(day.complete).toBe(true);
    expect(day.fits).toBe(true);
  });

  it('adds the edge wait only for businesses that deployed', () => {
    const one = { ...fixed, businesses: 3, maxConcurrency: 1, batchSize: 1 };
    expect(simulateDay({ ...one, changedShare: 1 }).finishSeconds).toBeCloseTo(RUN + 3 * (CHAIN + 10), 9);
    expect(simulateDay({ ...one, changedShare: 1, edgeWaitSeconds: 0 }).finishSeconds).toBeCloseTo(RUN + 3 * CHAIN, 9);
  });

  it('runs a batch\'s businesses together in one child, at most MaxConcurrency children at once', () => {
    // one child of 3, or 3 children of 1 at once: all three businesses together
    const oneChild = simulateDay({ ...fixed, businesses: 3, maxConcurrency: 1, batchSize: 3 });
    expect(oneChild.batches).toBe(1);
    expect(oneChild.finishSeconds).toBeCloseTo(RUN + CHAIN, 9);
    expect(simulateDay({ ...fixed, businesses: 3, maxConcurrency: 3, batchSize: 1 }).finishSeconds).toBeCloseTo(RUN + CHAIN, 9);
    // batches of 2 with MaxConcurrency 1: the second child starts only after the first child's slowest business
    const serial = simulateDay({ ...fixed, businesses: 3, maxConcurrency: 1, batchSize: 2 });
    expect(serial.batches).toBe(2);
    expect(serial.finishSeconds).toBeCloseTo(RUN + CHAIN + CHAIN, 9);
    // 5 businesses in batches of 2 (3 children, the last of 1), 2 children at once: [b0 b1] || [b2 b3], then [b4]
    const two = simulateDay({ ...fixed, businesses: 5, maxConcurrency: 2, batchSize: 2 });
    expect(two.batches).toBe(3);
    expect(two.finishSeconds).toBeCloseTo(RUN + 2 * CHAIN, 9);
    expect(two.mapOnlyFinishSeconds).toBeCloseTo(two.finishSeconds, 9);
  });

  it('holds a child\'s slot until its slowest business ends: a fast business in a batch with a slow one frees nothing', () => {
    // one platform's 10 fleet-wide slots: b0 asks first and takes them all, b1's 10 calls wait 10 s for them,
    // so b0 ends at 23 s and b1 at 33 s; b2's child (MaxConcurrency 1) starts at 33 s, not at 23 s
    const day = simulateDay({ ...fixed, businesses: 3, maxConcurrency: 1, batchSize: 2, platforms: 1, platformLimits: { concurrency: 10, ratePerMinute: 1000, dailyBudget: 1_000_000 } });
    expect(day.business.maxSeconds).toBeCloseTo(CHAIN + 10, 9);
    expect(day.finishSeconds).toBeCloseTo(RUN + (CHAIN + 10) + CHAIN, 9);
    // were the slot freed by b0, b2 would have started at 23 s and the day ended 10 s sooner
    expect(day.finishSeconds).toBeGreaterThan(RUN + 2 * CHAIN + 9);
  });

  it('counts the per-item overhead once per child execution and the Map run\'s once', () => {
    // 4 businesses in 2 children, one at a time: each child's 5 s start-up, then its businesses together
    const day = simulateDay({ ...fixed, businesses: 4, maxConcurrency: 1, batchSize: 2, overheadSeconds: { task: 0, mapItem: 5, mapRun: 2 } });
    expect(day.finishSeconds).toBeCloseTo(RUN + 2 + 2 * (5 + CHAIN), 9);
    expect(day.mapOnlyFinishSeconds).toBeCloseTo(day.finishSeconds, 9);
  });

  it('writes the day\'s list once, taking longer the larger the fleet', () => {
    // 1 s per business here (10,000 per 10,000): 2 businesses add 2 s, in one child
    const day = simulateDay({ ...fixed, businesses: 2, stepSeconds: { ...fixed.stepSeconds, writeDailyBusinessListPer10k: 10_000 } });
    expect(day.batches).toBe(1);
    expect(day.finishSeconds).toBeCloseTo(RUN + 2 + CHAIN, 9);
  });

  it('shares each platform\'s slots across the fleet: 3 businesses × 10 prompts through 10 slots take 3 rounds', () => {
    const day = simulateDay({ ...fixed, businesses: 3, maxConcurrency: 3, batchSize: 1, platformLimits: { concurrency: 10, ratePerMinute: 1000, dailyBudget: 1_000_000 } });
    // calls start at 0, 10 and 20 s into 2b (a slot is held for the 10 s call, not the judge): the last
    // business's 2b is 1 + 20 + 10 + 2 + 1 = 34 s instead of 14
    expect(day.finishSeconds).toBeCloseTo(RUN + CHAIN - 14 + 34, 9);
    expect(day.binding.kind).toBe('platform-concurrency');
    expect(day.firstLimit?.limit).toMatch(/^platform concurrency/);
    for (const p of day.platforms) expect(p).toMatchObject({ made: 30, peakInFlight: 10, maxWaitSeconds: 20 });
  });

  it('finishes a business when both branches of batch 2 are done (2a longer than 2b here)', () => {
    // 2a: PlanArticles 1 + 3 items of 50 s two at a time (100) + publish 1 + notify 1 = 103 > 2b 14
    const day = simulateDay({ ...fixed, businesses: 1, articleShare: 1, articleItems: 3, articleMapConcurrency: 2, stepSeconds: { ...fixed.stepSeconds, createArticleBatch: 50 } });
    expect(day.finishSeconds).toBeCloseTo(RUN + 1 + 5 + 2 + 103 + 1, 9);
  });

  it('counts Lambdas across businesses and queues tasks beyond the account concurrency', () => {
    const free = simulateDay({ ...fixed, businesses: 3, maxConcurrency: 1, batchSize: 3 });
    // batch 1: DetectChanges and the product chain in each of the 3 businesses at once
    expect(free.lambda.peak).toBe(6);
    expect(free.lambda.throttled).toBe(0);
    const capped = simulateDay({ ...fixed, businesses: 3, maxConcurrency: 1, batchSize: 3, lambdaConcurrency: 2 });
    expect(capped.lambda.peak).toBe(2);
    expect(capped.lambda.throttled).toBeGreaterThan(0);
    expect(capped.finishSeconds).toBeGreaterThan(free.finishSeconds);
    expect(capped.limits.find((l) => l.kind === 'lambda')!.firstAt).not.toBeNull();
  });

  it('lets a platform rate bind: 600 calls per platform at 60 per calendar minute take 10 minutes', () => {
    const day = simulateDay({
      ...fixed,
      businesses: 60, maxConcurrency: 6, batchSize: 10,
      stepSeconds: steps(1),
      callLatencySeconds: { min: 1, max: 1 },
      judgeSeconds: { min: 0, max: 0 },
      platformLimits: { concurrency: 100, ratePerMinute: 60, dailyBudget: 1_000_000 },
      limiterMaxWaitSeconds: 600,
    });
    // every business asks at 10 s (prepare, refresh, write, start, batch 1 = 4, update, visibilityBefore);
    // minute 0 takes 60 of each platform's 600 calls, minute 9 (540 s) the last 60, each 1 s long;
    // then visibilityAfter 1, FinishBusinessRun 1, FinishDailyRun 1
    expect(day.finishSeconds).toBeCloseTo(540 + 1 + 1 + 1 + 1, 9);
    for (const p of day.platforms) expect(p).toMatchObject({ wanted: 600, made: 600, skippedByBudget: 0, refusedByWait: 0, peakInFlight: 60 });
    expect(day.binding.kind).toBe('platform-rate');
    expect(day.mapOnlyFinishSeconds).toBeLessThan(day.finishSeconds / 10);
    expect(day.firstLimit?.limit).toMatch(/^platform rate/);
    expect(day.firstLimit?.at).toBeCloseTo(10, 9);
  });

  it('counts calls beyond the daily budget as skipped, wherever the limiter checks it', () => {
    for (const budgetCheckedFirst of [false, true]) {
      const day = simulateDay({ ...fixed, businesses: 5, maxConcurrency: 5, batchSize: 1, budgetCheckedFirst, platformLimits: { concurrency: 10, ratePerMinute: 1000, dailyBudget: 30 } });
      for (const p of day.platforms) {
        expect(p).toMatchObject({ wanted: 50, made: 30, skippedByBudget: 20, refusedByWait: 0 });
        expect(p.budgetSpentAt).not.toBeNull();
      }
      expect(day.totals.skippedByBudget).toBe(160);
      expect(day.complete).toBe(false);
      const budget = day.limits.find((l) => l.kind === 'platform-budget')!;
      expect(budget.utilisation).toBeCloseTo(50 / 30, 9);
    }
  });

  it('a call refused by a spent budget takes no rate unit (the limiter checks the budget first), unlike before issue 24', () => {
    const options = { ...fixed, businesses: 20, maxConcurrency: 2, batchSize: 10, platformLimits: { concurrency: 10, ratePerMinute: 20, dailyBudget: 10 }, limiterMaxWaitSeconds: 10_000 };
    const first = simulateDay(options);
    const last = simulateDay({ ...options, budgetCheckedFirst: false });
    expect(last.totals.skippedByBudget).toBe(first.totals.skippedByBudget);
    // 200 calls per platform at 20 a minute: about 10 minutes when the skipped ones queue for the rate
    expect(last.finishSeconds).toBeGreaterThan(9 * 60);
    expect(first.finishSeconds).toBeLessThan(last.finishSeconds / 5);
  });

  it('refuses a call that waited longer than the limiter allows', () => {
    const day = simulateDay({
      ...fixed, businesses: 2, maxConcurrency: 1, batchSize: 2, platforms: 1,
      callLatencySeconds: { min: 130, max: 130 }, judgeSeconds: { min: 0, max: 0 },
      platformLimits: { concurrency: 1, ratePerMinute: 1000, dailyBudget: 1_000_000 },
    });
    const [p] = day.platforms;
    expect(p.refusedByWait).toBeGreaterThan(0);
    expect(p.made + p.refusedByWait).toBe(p.wanted);
    expect(p.maxWaitSeconds).toBeLessThanOrEqual(120);
    expect(day.complete).toBe(false);
    expect(day.visibility.overTimeout).toBe(2);
  });

  it('runs an empty day: the run\'s own tasks only, no child execution', () => {
    const day = simulateDay({ ...fixed, businesses: 0 });
    expect(day.batches).toBe(0);
    expect(day.finishSeconds).toBeCloseTo(RUN, 9);
    expect(day.totals.wanted).toBe(0);
    expect(day.business.meanSeconds).toBe(0);
  });

  it('is deterministic for a seed and moves with it', () => {
    const a = simulateDay({ businesses: 300, seed: 7 });
    const b = simulateDay({ businesses: 300, seed: 7 });
    expect(b).toEqual(a);
    expect(a.batches).toBe(30);
    const c = simulateDay({ businesses: 300, seed: 8 });
    expect(c.finishSeconds).not.toBe(a.finishSeconds);
  });

  it('schedules jobs on the first free worker', () => {
    expect(listScheduleMakespan([5, 1, 1, 1, 1], 2)).toBe(5);
    expect(listScheduleMakespan([3, 3, 3], 2)).toBe(6);
    expect(listScheduleMakespan([], 4)).toBe(0);
    expect(listScheduleMakespan([9, 2, 2, 7], 1, 1, 2)).toBe(4);
  });

  it('formats times after the 14:00 UTC start', () => {
    expect(hhmm(19 * 3600 + 42 * 60)).toBe('19:42');
    expect(hhmm(30 * 3600)).toBe('30:00');
    expect(clockAfterStart(0)).toBe('14:00 UTC');
    expect(clockAfterStart(11 * 3600 + 30 * 60)).toBe('01:30 UTC next day');
    expect(clockAfterStart(60 * 3600)).toBe('02:00 UTC day +3');
  });
});

describe('vendor batches (issue 47)', () => {
  const unbounded: BatchQueueLimit[] = [0, 1, 2].map(() => ({ maxQueuedRequests: Infinity, maxOpenJobs: Infinity, from: 'test' }));
  const hours = (h: number) => ({ min: h, max: h });
  const batched = (extra: Partial<SimulationOptions> = {}): SimulationOptions => ({
    ...fixed, businesses: 3, vendorBatches: true, batchTurnaroundHours: hours(0.5), batchQueueLimits: unbounded, ...extra,
  });

  it('makes no call of the batch platforms in 2b: only the 5 synchronous ones go through the limiter, the rest become one job per platform per child', () => {
    const day = simulateDay(batched());
    expect(day.platforms.map((p) => p.platform)).toEqual(['platform_4', 'platform_5', 'platform_6', 'platform_7', 'platform_8']);
    expect(day.totals.made).toBe(3 * 10 * 5);
    expect(day.vendorBatches).toMatchObject({ platforms: ['platform_1', 'platform_2', 'platform_3'], jobs: 3, requests: 3 * 3 * 10, scored: 3 });
    // 2b's length depends only on the synchronous platforms: a slow batch platform changes nothing
    const slow = [{ min: 500, max: 500 }, ...Array.from({ length: 7 }, () => ({ min: 10, max: 10 }))];
    const withSlow = simulateDay(batched({ callLatencySeconds: slow }));
    expect(withSlow.visibility.maxSeconds).toBeCloseTo(day.visibility.maxSeconds, 9);
    expect(withSlow.vendorBatches!.fanOutEndSeconds).toBeCloseTo(day.vendorBatches!.fanOutEndSeconds, 9);
    // synchronously (before) the slow platform sets 2b's length; and off by default
    expect(simulateDay({ ...fixed, businesses: 3, callLatencySeconds: slow }).visibility.maxSeconds).toBeGreaterThan(500);
    expect(simulateDay({ ...fixed, businesses: 3 }).vendorBatches).toBeNull();
  });

  it('collects a job\'s results at the first poll after it ended, not before', () => {
    // the fan-out ends at 4 + 23 + 1 (SubmitVisibilityBatches); list 1 s, wait 600 s, poll; a poll round lasts 1 s; list 1 s again
    for (const turnaround of [0.5, 1190 / 3600, 1210 / 3600]) {
      const day = simulateDay(batched({ batchTurnaroundHours: hours(turnaround) }));
      const b = day.vendorBatches!;
      const ended = b.lastJobEndSeconds;
      expect(ended).toBeCloseTo(b.fanOutEndSeconds + turnaround * 3600, 6);
      const collectedAt = b.pollSeconds.find((t) => t >= ended)!;
      expect(b.pollSeconds.filter((t) => t < ended)).toHaveLength(b.rounds - 1);
      expect(b.pollSeconds[b.rounds - 1]).toBe(collectedAt);
      // 1 s + 3 businesses × 3 platforms × 10 answers × 2 s judged 10 at a time + 3 score writes of 1 s
      expect(b.lastScoredSeconds).toBeCloseTo(collectedAt + 1 + (90 * 2) / 10 + 3, 6);
      expect(day.finishSeconds).toBeCloseTo(b.lastScoredSeconds + 1 + 1, 6);
      expect(b.judgedAnswers).toBe(90);
      expect(day.complete).toBe(true);
    }
    // polls are 600 s apart plus the list and the round: ends at +1190 s is collected at the 2nd poll, at +1210 s at the 3rd
    expect(simulateDay(batched({ batchTurnaroundHours: hours(1190 / 3600) })).vendorBatches!.rounds).toBe(2);
    expect(simulateDay(batched({ batchTurnaroundHours: hours(1210 / 3600) })).vendorBatches!.rounds).toBe(3);
  });

  it('holds a submission back while the vendor\'s queue is full, until earlier jobs end', () => {
    // 3 children of 10 businesses end together, each sending its own jobs (no shards, as D218);
    // each platform's queue holds one job's 100 checks (or one job at once)
    const base = batched({
      businesses: 30, batchSize: 10, maxConcurrency: 3, batchTurnaroundHours: hours(1), platformLimits: { concurrency: 1000, ratePerMinute: 10_000, dailyBudget: 1_000_000 },
      batchShardSize: 0,
    });
    const free = simulateDay(base).vendorBatches!;
    expect(free.submissionsWaited).toBe(0);
    expect(free.lastJobEndSeconds - free.fanOutEndSeconds).toBeCloseTo(3600, 6);
    for (const limit of [{ maxQueuedRequests: 100, maxOpenJobs: Infinity }, { maxQueuedRequests: Infinity, maxOpenJobs: 1 }]) {
      const full = simulateDay({ ...base, batchQueueLimits: [0, 1, 2].map(() => ({ ...limit, from: 'test' })) });
      const b = full.vendorBatches!;
      expect(b.jobs).toBe(9);
      expect(b.submissionsWaited).toBe(6);
      expect(b.waitedByPlatform).toEqual([2, 2, 2]);
      expect(b.maxSubmitWaitSeconds).toBeCloseTo(7200, 6);
      expect(b.lastJobEndSeconds - b.fanOutEndSeconds).toBeCloseTo(3 * 3600, 6);
      expect(b.peakOpenJobs).toEqual([1, 1, 1]);
      expect(b.firstQueueWaitAt).not.toBeNull();
      expect(b.binding).toContain('vendor batch queue');
      expect(full.finishSeconds).toBeGreaterThan(3 * 3600);
    }
  });

  it('sends a shard\'s checks as one job per platform when its last business arrives, whichever children ran it (D222)', () => {
    const base = batched({
      businesses: 30, batchSize: 10, maxConcurrency: 3, batchTurnaroundHours: hours(1), platformLimits: { concurrency: 1000, ratePerMinute: 10_000, dailyBudget: 1_000_000 },
    });
    // one shard of 30 over three children: 3 jobs (one per platform) of 300 checks, not 9 of 100
    const one = simulateDay({ ...base, batchShardSize: 30 }).vendorBatches!;
    expect([one.jobs, one.requests, one.scored]).toEqual([3, 900, 30]);
    // shards of 15 straddle the children of 10: 2 shards, 6 jobs, every business scored
    const two = simulateDay({ ...base, batchShardSize: 15 }).vendorBatches!;
    expect([two.jobs, two.requests, two.scored]).toEqual([6, 900, 30]);
    // a shard larger than a job's cap makes several jobs: 300 checks in jobs of 100
    const capped = simulateDay({ ...base, batchShardSize: 30, jobRequestCap: 100 }).vendorBatches!;
    expect([capped.jobs, capped.scored]).toEqual([9, 30]);
    // against a one-job-at-once queue, fewer jobs wait less
    const oneAtOnce = [0, 1, 2].map(() => ({ maxQueuedRequests: Infinity, maxOpenJobs: 1, from: 'test' }));
    expect(simulateDay({ ...base, batchShardSize: 30, batchQueueLimits: oneAtOnce }).vendorBatches!.submissionsWaited).toBe(0);
    expect(simulateDay({ ...base, batchShardSize: 0, batchQueueLimits: oneAtOnce }).vendorBatches!.submissionsWaited).toBe(6);
  });

});

describe('choosing the defaults', () => {
  it('picks the fewest businesses at once (children × batch), then the smallest rate and slots that meet the target with every call made', () => {
    // finer candidates than the defaults, whose smallest (5) already serves 300 businesses in an hour
    const chosen = chooseDefaults({ businesses: 300, targetHours: 1, vendorRpm: 500, maxConcurrencyCandidates: [1, 2, 3, 4, 5, 10, 20, 40] });
    expect(chosen.feasible).toBe(true);
    expect(chosen.budgetNeeded).toBe(3000);
    expect(chosen.platformLimits.dailyBudget).toBe(4000);
    expect(chosen.result.complete).toBe(true);
    expect(chosen.result.finishSeconds).toBeLessThanOrEqual(3600);
    expect(chosen.mapFinishSeconds).toBeLessThanOrEqual(3600 / 1.05);
    expect(chosen.platformLimits.ratePerMinute).toBeLessThanOrEqual(500);
    // minimal: every smaller MaxConcurrency tried at the chosen batch size missed the Map's bar
    const mapTrials = chosen.trials.filter((t) => t.stage === 'map');
    const smaller = mapTrials.filter((t) => t.batchSize === chosen.batchSize && t.maxConcurrency < chosen.maxConcurrency);
    expect(smaller.length).toBeGreaterThan(0);
    expect(smaller.every((t) => !t.ok)).toBe(true);
    // and no Map that passed puts fewer businesses at once (at as many, only smaller batches, i.e. more children)
    const atOnce = chosen.maxConcurrency * chosen.batchSize;
    for (const t of mapTrials.filter((m) => m.ok)) {
      expect(t.maxConcurrency * t.batchSize).toBeGreaterThanOrEqual(atOnce);
      if (t.maxConcurrency * t.batchSize === atOnce) expect(t.batchSize).toBeLessThanOrEqual(chosen.batchSize);
    }
    // the chosen rate is the first that passed, and any smaller slot count tried and kept passed too
    const rates = chosen.trials.filter((t) => t.stage === 'rate');
    expect(rates[rates.length - 1]).toMatchObject({ ratePerMinute: chosen.platformLimits.ratePerMinute, ok: true });
    expect(rates.slice(0, -1).every((t) => !t.ok)).toBe(true);
    expect(chosen.reasons.length).toBeGreaterThan(3);
  });

  it('reports the fastest Map tried when none meets the target', () => {
    // 18 s for a 60 s chain: nothing fits
    const chosen = chooseDefaults({ businesses: 50, targetHours: 0.005, maxConcurrencyCandidates: [5, 50], batchSizeCandidates: [1, 10] });
    expect(chosen.feasible).toBe(false);
    const fastest = Math.min(...chosen.trials.filter((t) => t.stage === 'map').map((t) => t.finishSeconds));
    expect(chosen.mapFinishSeconds).toBeCloseTo(fastest, 9);
    expect(chosen.reasons.join('\n')).toContain('no MaxConcurrency and batch size tried');
  });

  it('measures and prints a report', async () => {
    const report = await measureCapacity({ sizes: [50, 300], chooseFor: 300, targetHours: 1, seed: 3 });
    expect(report.current.map((d) => d.businesses)).toEqual([50, 300]);
    expect(report.withChosen.map((d) => d.platformLimits)).toEqual([report.chosen.platformLimits, report.chosen.platformLimits]);
    expect(report.withChosen.map((d) => [d.maxConcurrency, d.batchSize])).toEqual([0, 1].map(() => [report.chosen.maxConcurrency, report.chosen.batchSize]));
    expect(report.budgetLast.every((d, i) => d.totals.skippedByBudget === report.current[i].totals.skippedByBudget)).toBe(true);
    const lines: string[] = [];
    const log = jest.spyOn(console, 'log').mockImplementation((...args: unknown[]) => { lines.push(args.join(' ')); });
    try {
      printCapacityReport(report);
    } finally {
      log.mockRestore();
    }
    const text = lines.join('\n');
    expect(text).toContain('capacity with today\'s defaults: MaxConcurrency 40 children × batches of 10');
    expect(text).toContain('child executions');
    expect(text).toContain('PLATFORM_DAILY_BUDGET');
    expect(text).toContain('binding limit');
    expect(capacityLines(report)).toHaveLength(2 + 1 + 2);
    // after batch pricing: the tables, the chosen settings against the published figures, the goal, the cost before and after
    expect(report.after.current.every((d) => d.vendorBatches !== null)).toBe(true);
    expect(report.after.withChosen.map((d) => d.platformLimits)).toEqual([report.after.chosen.platformLimits, report.after.chosen.platformLimits]);
    expect(report.after.checks.map((c) => c.platform)).toEqual(['platform_4', 'platform_5', 'platform_6', 'platform_7', 'platform_8']);
    expect(report.after.pricing.after.vendor).toBeLessThan(report.after.pricing.before.vendor);
    expect(text).toContain('capacity with vendor batches (after)');
    expect(text).toContain('batch jobs submitted');
    // the batch levers, each against the published figures: jobs per child make the most jobs, half-sized shards more than the built ones
    expect(report.after.levers.map((l) => l.lever)).toEqual([expect.stringContaining('per Map child'), expect.stringContaining('shards of 50, jobs of 500'), expect.stringContaining('platform_3 synchronous (VISIBILITY_BATCHES=1,2)')]);
    const [perChild, halfShards, p3sync] = report.after.levers.map((l) => l.day.vendorBatches!.jobs);
    expect(perChild).toBeGreaterThan(halfShards);
    expect(halfShards).toBeGreaterThan(report.after.publishedOnly!.vendorBatches!.jobs);
    expect(p3sync).toBe((2 / 3) * report.after.publishedOnly!.vendorBatches!.jobs);
    expect(text).toContain('the batch levers at 300');
    expect(text).toMatch(/GOAL: 300 businesses finished within 1 h .*: (REACHED|NOT REACHED)/);
    expect(text).toContain('VENDOR_LIMITS');
    expect(text).toContain('cost per business-day before and after batch pricing');
    // each vendor account's month against its published spend cap (D229)
    expect(report.after.spend.map((k) => k.vendor)).toEqual(['OpenAI', 'Anthropic', 'Google (Gemini API)']);
    expect(text).toContain('against its published monthly spend cap');
    // each account through its channel (D236): Claude Platform on AWS starts at Tier 1, so its day is simulated with Tier 1's batch queue
    // and Gemini on Vertex AI (D239) takes platform_3 synchronously: the day again without its batches, its rate held against Vertex's figures
    expect(report.after.channelDays).toEqual([
      expect.objectContaining({ vendor: 'Anthropic', channel: 'Claude Platform on AWS (D235)', from: expect.stringContaining('Anthropic Tier 1: 100,000'), checks: [] }),
      expect.objectContaining({ vendor: 'Google (Gemini API)', channel: 'Gemini on Vertex AI (D239)', from: 'platform_3 synchronous' }),
    ]);
    expect(report.after.channelDays.map((d) => d.day.businesses)).toEqual([300, 300]);
    expect(report.after.channelsTogether).toBeNull(); // 300 businesses stay within every cap: no channel is needed
    const vertexDay = report.after.channelDays[1]!;
    expect(vertexDay.day.vendorBatches!.platforms).toEqual(['platform_1', 'platform_2']);
    expect(vertexDay.checks).toEqual([expect.objectContaining({ platform: 'platform_3', vendor: expect.stringContaining('Vertex AI'), allowed: true })]);
    expect(text).toContain('the platforms a channel takes synchronously');
    expect(text).toContain('each account through a published channel the service supports (D236)');
  });
});

describe('the goal\'s verdict (D229, D236)', () => {
  // OpenAI and Anthropic over their self-serve caps at 50,000, Gemini under it: only the channels decide
  const spend = spendCapChecks({ platform_1: 0.12, judge: 0.1, platform_2: 0.225, platform_3: 0.01 }, 50_000);
  const day = (finishSeconds: number, complete = true) => ({ finishSeconds, complete }) as Parameters<typeof goalVerdict>[0]['channelDays'][number]['day'];
  const base = { inTime: true, beyond: 0, unknown: 0, spend, targetSeconds: 20 * 3600 };

  it('reaches the goal when every overspent account has a channel that holds, its day on the channel\'s tier in time', () => {
    expect(spend.map((k) => k.allowed)).toEqual([false, false, true]);
    const v = goalVerdict({ ...base, channelDays: [{ vendor: 'Anthropic', channel: 'Claude Platform on AWS (D235)', from: 'Tier 1', day: day(18 * 3600), checks: [] }] });
    expect(v.reached).toBe(true);
    expect(v.viaChannels.map((k) => k.vendor)).toEqual(['OpenAI', 'Anthropic']);
    expect(v.stillOverspent).toEqual([]);
  });

  it('does not when the channel\'s day runs late or does not finish, or a rate figure fails', () => {
    const late = goalVerdict({ ...base, channelDays: [{ vendor: 'Anthropic', channel: 'c', from: 'Tier 1', day: day(21 * 3600), checks: [] }] });
    expect(late.reached).toBe(false);
    expect(late.stillOverspent.map((k) => k.vendor)).toEqual(['Anthropic']);
    expect(goalVerdict({ ...base, channelDays: [{ vendor: 'Anthropic', channel: 'c', from: 'Tier 1', day: day(3600, false), checks: [] }] }).reached).toBe(false);
    // a channel's synchronous platform beyond its published figure, or without one, does not hold either (D239)
    const check = (allowed: boolean | null) => ({ platform: 'platform_3', vendor: 'v', needed: 'n', published: 'p', allowed, source: 's' });
    expect(goalVerdict({ ...base, channelDays: [{ vendor: 'Anthropic', channel: 'c', from: 'x', day: day(3600), checks: [check(false)] }] }).reached).toBe(false);
    expect(goalVerdict({ ...base, channelDays: [{ vendor: 'Anthropic', channel: 'c', from: 'x', day: day(3600), checks: [check(null)] }] }).reached).toBe(false);
    expect(goalVerdict({ ...base, channelDays: [{ vendor: 'Anthropic', channel: 'c', from: 'x', day: day(3600), checks: [check(true)] }] }).reached).toBe(true);
    expect(goalVerdict({ ...base, unknown: 1, channelDays: [] }).reached).toBe(false);
    expect(goalVerdict({ ...base, inTime: false, channelDays: [] }).reached).toBe(false);
  });

  it('does not when an overspent account has no channel, or its channel\'s own day is not shown (Gemini on Vertex AI, D239)', () => {
    const noChannel = spendCapChecks({ platform_3: 0.2 }, 50_000, SPEND_CAPS.map((c) => ({ ...c, channel: undefined })));
    const v = goalVerdict({ ...base, spend: noChannel, channelDays: [] });
    expect(v.reached).toBe(false);
    expect(v.stillOverspent.map((k) => k.vendor)).toEqual(['Google (Gemini API)']);
    const vertex = spendCapChecks({ platform_3: 0.2 }, 50_000);
    expect(vertex[2]!.channel!.synchronous).toEqual(['platform_3']);
    expect(goalVerdict({ ...base, spend: vertex, channelDays: [] }).reached).toBe(false);
    const shown = goalVerdict({ ...base, spend: vertex, channelDays: [{ vendor: 'Google (Gemini API)', channel: 'Gemini on Vertex AI (D239)', from: 'platform_3 synchronous', day: day(19 * 3600), checks: [] }] });
    expect(shown.reached).toBe(true);
    expect(shown.viaChannels.map((k) => k.vendor)).toEqual(['Google (Gemini API)']);
  });

  it('does not when the needed channels together end the day late, though each alone is in time', () => {
    const over = spendCapChecks({ platform_2: 0.225, platform_3: 0.2 }, 50_000);
    const alone = [
      { vendor: 'Anthropic', channel: 'Claude Platform on AWS (D235)', from: 'Tier 1', day: day(18 * 3600), checks: [] },
      { vendor: 'Google (Gemini API)', channel: 'Gemini on Vertex AI (D239)', from: 'platform_3 synchronous', day: day(18 * 3600), checks: [] },
    ];
    const together = (finishSeconds: number) => ({ vendor: 'Anthropic + Google (Gemini API)', channel: 'both', from: 'Tier 1; platform_3 synchronous', day: day(finishSeconds), checks: [] });
    expect(goalVerdict({ ...base, spend: over, channelDays: alone, channelsTogether: together(19 * 3600) }).reached).toBe(true);
    const late = goalVerdict({ ...base, spend: over, channelDays: alone, channelsTogether: together(21 * 3600) });
    expect(late.reached).toBe(false);
    expect(late.viaChannels.map((k) => k.vendor)).toEqual(['Anthropic', 'Google (Gemini API)']);
  });
});
