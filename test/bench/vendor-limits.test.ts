/** The vendors' published figures the capacity model holds its settings against (bench/vendor-limits.ts). */
import { batchPricingComparison, DAYS_PER_MONTH } from '../../bench/cost-model';
import { batchQueueLimitsFor, SPEND_CAPS, spendCapChecks, syncPlatformChecks, VENDOR_LIMITS } from '../../bench/vendor-limits';

describe('vendor figures', () => {
  it('takes the vendor queues from one table of published figures, each with a source, assumptions labelled', () => {
    for (const l of VENDOR_LIMITS) {
      expect(l.source).toBeTruthy();
      expect(l.asOf).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      if (l.limit === null) expect(l.assumption).toContain('NOT FOUND');
    }
    // Anthropic counts checks; OpenAI counts enqueued input tokens (divided by a check's input tokens); Gemini caps jobs at once
    const [openai, anthropic, gemini] = batchQueueLimitsFor([0, 1, 2], 'lowest');
    expect(anthropic.maxQueuedRequests).toBe(100_000);
    expect(openai.maxQueuedRequests).toBe(Math.floor(2_000_000 / 1_500));
    expect(gemini.maxOpenJobs).toBe(100);
    expect(batchQueueLimitsFor([1], 'highest')[0].maxQueuedRequests).toBe(500_000);
    // gemini-3.5-flash-lite's own row is not published: the Flash-Lite rows of the page's tier tables stand in, labelled
    expect(gemini.maxQueuedRequests).toBe(Math.floor(10_000_000 / 1_500));
    expect(batchQueueLimitsFor([2], 'highest')[0].maxQueuedRequests).toBe(Math.floor(1_000_000_000 / 1_500));
    expect(batchQueueLimitsFor([2], 'highest')[0].from).toContain('(assumption)');
    // a synchronous platform's setting is checked against its published figure, unknown where none was found
    // (Perplexity's Agent API 2,000/min; Parallel's Task API 2,000 runs/min, its Responses API unpublished; SerpApi 6,000/h and 30,000/month)
    const checks = syncPlatformChecks({ ratePerMinute: 60, dailyBudget: 1000 }, [3, 4, 7]);
    expect(checks.map((c) => c.allowed)).toEqual([true, true, true]);
    // platform_5 fits through the Task API (D228), and the Responses API is named as unpublished
    const parallel = syncPlatformChecks({ ratePerMinute: 600, dailyBudget: 600_000 }, [4])[0];
    expect(parallel.allowed).toBe(true);
    expect(parallel.vendor).toContain('Parallel Task API (PLATFORM_5_MODEL=base-fast, D228)');
    expect(parallel.published).toBe('Parallel Responses API: NOT FOUND | Parallel Task API: 2,000 task runs created per minute (POST /v1/tasks/runs) (default quota)');
    expect(parallel.source).toBe('https://docs.parallel.ai/getting-started/rate-limits');
    expect(syncPlatformChecks({ ratePerMinute: 2_001, dailyBudget: 1000 }, [4])[0].allowed).toBe(false);
    expect(syncPlatformChecks({ ratePerMinute: 2_001, dailyBudget: 1000 }, [3])[0].allowed).toBe(false);
    // platform_8 has two SERP vendors (D225): past SerpApi's 30,000 a month it fits through DataForSEO's 2,000 calls a minute, and is named so
    const serp = syncPlatformChecks({ ratePerMinute: 60, dailyBudget: 1001 }, [7])[0];
    expect(serp.allowed).toBe(true);
    expect(serp.vendor).toContain('DataForSEO');
    expect(serp.published).toContain('SerpApi: 6,000 searches per hour');
    expect(serp.published).toContain('DataForSEO: 2,000 API calls per minute');
    const fleet = syncPlatformChecks({ ratePerMinute: 600, dailyBudget: 600_000 }, [7])[0];
    expect(fleet.allowed).toBe(true);
    expect(syncPlatformChecks({ ratePerMinute: 2_001, dailyBudget: 1001 }, [7])[0].allowed).toBe(false);
  });


  it('holds each vendor account\'s month against its published spend cap, and names the largest fleet within it (D229)', () => {
    for (const cap of SPEND_CAPS) {
      expect(cap.source).toMatch(/^https:\/\//);
      expect(cap.usdPerMonth).toBeGreaterThan(0);
      expect(cap.beyond).toBeTruthy();
    }
    // $1 a business-day for platform_1 and 50 cents for the judge: OpenAI's account pays both
    const perDay = { platform_1: 1, judge: 0.5, platform_2: 0.2, platform_3: 0.1, platform_4: 9 };
    const [openai, anthropic, google] = spendCapChecks(perDay, 1_000);
    expect(openai!.vendor).toBe('OpenAI');
    expect(openai!.perBusinessDay).toBe(1.5);
    expect(openai!.perMonth).toBe(1.5 * 1_000 * DAYS_PER_MONTH);
    expect(openai!.allowed).toBe(true);
    expect(openai!.maxBusinesses).toBe(Math.floor(200_000 / (1.5 * DAYS_PER_MONTH)));
    expect(anthropic!.maxBusinesses).toBe(Math.floor(200_000 / (0.2 * DAYS_PER_MONTH)));
    expect(google!.capUsd).toBe(20_000);
    expect(google!.maxBusinesses).toBe(Math.floor(20_000 / (0.1 * DAYS_PER_MONTH)));
    // one business past the largest fleet is beyond the cap
    expect(spendCapChecks(perDay, google!.maxBusinesses)[2]!.allowed).toBe(true);
    expect(spendCapChecks(perDay, google!.maxBusinesses + 1)[2]!.allowed).toBe(false);
    // a platform no cap covers (platform_4 here) never counts
    expect(spendCapChecks({ platform_4: 1_000 }, 50_000).every((c) => c.allowed && c.perMonth === 0)).toBe(true);
    // at 50,000 businesses the modelled list prices pass all three published caps
    const atFleet = spendCapChecks(batchPricingComparison(['platform_1', 'platform_2', 'platform_3'], null).after.byVendor, 50_000);
    expect(atFleet.map((c) => c.allowed)).toEqual([false, false, false]);
  });

  it('holds each account through its published channel (D236): the judge moved off OpenAI\'s month, Claude Platform on AWS and Gemini on Vertex AI without a spend limit', () => {
    const perDay = { platform_1: 1, judge: 0.5, platform_2: 0.2, platform_3: 0.1 };
    const [openai, anthropic, google] = spendCapChecks(perDay, 1_000);
    // the judge billed elsewhere leaves platform_1 alone on the OpenAI account, against the same Tier-5 cap
    expect(openai!.channel).toMatchObject({ name: 'the judge on its own account', perMonth: 1 * 1_000 * DAYS_PER_MONTH, capUsd: 200_000, allowed: true });
    expect(openai!.channel!.maxBusinesses).toBe(Math.floor(200_000 / (1 * DAYS_PER_MONTH)));
    // no spend limit through AWS Marketplace, but the rate tier it starts at is simulated again
    expect(anthropic!.channel).toMatchObject({ name: 'Claude Platform on AWS (D235)', capUsd: null, allowed: true, maxBusinesses: Infinity, batchQueueTier: 'lowest' });
    // Vertex AI (D239): no spend limit, but no batch client either: platform_3 is priced at the synchronous rate when one is given
    expect(google!.channel).toMatchObject({ name: 'Gemini on Vertex AI (D239)', capUsd: null, allowed: true, maxBusinesses: Infinity, synchronous: ['platform_3'] });
    expect(google!.channel!.perMonth).toBe(0.1 * 1_000 * DAYS_PER_MONTH);
    const [, , synchronous] = spendCapChecks(perDay, 1_000, undefined, { ...perDay, platform_3: 0.25 });
    expect(synchronous!.perMonth).toBe(0.1 * 1_000 * DAYS_PER_MONTH); // the account itself keeps the batch price
    expect(synchronous!.channel!.perMonth).toBe(0.25 * 1_000 * DAYS_PER_MONTH);
    // at 50,000 the channels hold all three accounts
    const pricing = batchPricingComparison(['platform_1', 'platform_2', 'platform_3'], null);
    const atFleet = spendCapChecks(pricing.after.byVendor, 50_000, undefined, pricing.before.byVendor);
    expect(atFleet.map((c) => c.channel?.allowed ?? null)).toEqual([true, true, true]);
    expect(atFleet[2]!.channel!.perMonth).toBeGreaterThan(atFleet[2]!.perMonth);
  });

  it('holds a synchronous platform\'s daily budget against a per-day figure (Vertex AI grounding: one million queries a day, D239)', () => {
    const vertex = VENDOR_LIMITS.find((l) => l.platform === 'platform_3' && l.kind === 'searches-per-day');
    expect(vertex).toMatchObject({ limit: 1_000_000, vendor: 'Google (Gemini on Vertex AI, D239)' });
    expect(syncPlatformChecks({ ratePerMinute: 5_000, dailyBudget: 1_000_000 }, [2])[0]).toMatchObject({ platform: 'platform_3', allowed: true });
    expect(syncPlatformChecks({ ratePerMinute: 5_000, dailyBudget: 1_000_001 }, [2])[0]).toMatchObject({ platform: 'platform_3', allowed: false });
  });
});
