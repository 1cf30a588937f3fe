import {
  allPrices, BATCH_DISCOUNTS, batchPricingComparison, batchStateTransitions, batchVendorPrice, costOf, DATAFORSEO_PLATFORM_8, DAYS_PER_MONTH, exampleScenarios, fleet, modelledVendorUsage, perMonth, printCostReport, PRICES, PARALLEL_TASK_PLATFORM_5, alternateVendorComparison, usd,
  type DailyUsage, type PriceBook,
} from '../../bench/cost-model';
import { PLATFORM_KEYS } from '../../functions/core/constants';

/** A day that uses nothing; each test adds the part it checks. */
function emptyDay(): DailyUsage {
  return {
    lambda: [],
    stateTransitions: 0,
    mapChildExecutions: 0,
    dynamo: { readUnits: 0, writeUnits: 0 },
    s3: { puts: 0, gets: 0, lists: 0, storedBytes: 0 },
    cloudfront: { requests: 0, bytesOut: 0 },
    vendors: [],
    scrapes: { pages: 0 },
  };
}

const GIB = 1024 ** 3;

describe('cost model: costOf at list prices, hand-computed', () => {
  it('prices Lambda by GB-s at the configured memory plus requests (x86 and the arm64 default)', () => {
    // 1,000 invocations of 1 s at 1024 MB = 1,000 GB-s.
    const x86 = costOf({ ...emptyDay(), lambda: [{ fn: 'f', invocations: 1_000, durationMs: 1_000_000, memoryMb: 1024, arch: 'x86_64' }] });
    expect(x86.lambda).toBeCloseTo(1_000 * 0.0000166667 + 0.0002, 10); // $0.0166667 + $0.0002
    expect(x86.total).toBeCloseTo(0.0168667, 7);
    const arm = costOf({ ...emptyDay(), lambda: [{ fn: 'f', invocations: 1_000, durationMs: 1_000_000, memoryMb: 1024 }] });
    expect(arm.lambda).toBeCloseTo(1_000 * 0.0000133334 + 0.0002, 10);
    // 2048 MB for half the time costs the same GB-s; functions add up.
    const two = costOf({ ...emptyDay(), lambda: [
      { fn: 'a', invocations: 1_000, durationMs: 500_000, memoryMb: 2048, arch: 'x86_64' },
      { fn: 'b', invocations: 1_000, durationMs: 1_000_000, memoryMb: 1024, arch: 'x86_64' },
    ] });
    expect(two.lambda).toBeCloseTo(2 * x86.lambda, 10);
  });

  it('prices state transitions only; Distributed Map child executions add no separate fee', () => {
    const c = costOf({ ...emptyDay(), stateTransitions: 1_000, mapChildExecutions: 1_000 });
    expect(c.stepFunctions).toBeCloseTo(0.025, 12);
    expect(costOf({ ...emptyDay(), mapChildExecutions: 5_000 }).stepFunctions).toBe(0);
  });

  it('prices DynamoDB on-demand request units and storage', () => {
    expect(costOf({ ...emptyDay(), dynamo: { readUnits: 0, writeUnits: 1_000_000 } }).dynamodb).toBeCloseTo(0.625, 12);
    expect(costOf({ ...emptyDay(), dynamo: { readUnits: 1_000_000, writeUnits: 0 } }).dynamodb).toBeCloseTo(0.125, 12);
    // 1 GB held for a day = a 30th of a GB-month.
    expect(costOf({ ...emptyDay(), dynamo: { readUnits: 0, writeUnits: 0, storedBytes: GIB } }).dynamodb).toBeCloseTo(0.25 / DAYS_PER_MONTH, 12);
  });

  it('prices S3 requests (LIST at the PUT price) and storage per day', () => {
    const c = costOf({ ...emptyDay(), s3: { puts: 1_000, gets: 1_000, lists: 1_000, storedBytes: 30 * GIB } });
    // 2,000 PUT/LIST × $0.005/1K + 1,000 GET × $0.0004/1K + 30 GB × $0.023 / 30 days.
    expect(c.s3).toBeCloseTo(0.01 + 0.0004 + 0.023, 12);
  });

  it('prices CloudFront requests, bytes out and its edge functions', () => {
    expect(costOf({ ...emptyDay(), cloudfront: { requests: 10_000, bytesOut: 0 } }).cloudfront).toBeCloseTo(0.01, 12);
    expect(costOf({ ...emptyDay(), cloudfront: { requests: 0, bytesOut: GIB } }).cloudfront).toBeCloseTo(0.085, 12);
    const edge = costOf({ ...emptyDay(), cloudfront: {
      requests: 0, bytesOut: 0, functionInvocations: 1_000_000,
      edgeLambda: { invocations: 1_000_000, durationMs: 1_000_000 * 8, memoryMb: 128 }, // 1,000 GB-s
    } });
    expect(edge.cloudfront).toBeCloseTo(0.10 + 0.60 + 1_000 * 0.00005001, 10);
    expect(edge.aws).toBeCloseTo(edge.cloudfront, 12);
  });

  it('prices vendors by call, search and tokens, with the fixed search-token block where the vendor bills one', () => {
    const one = (platform: string, calls: number, inputTokens: number, outputTokens: number, searches: number) =>
      costOf({ ...emptyDay(), vendors: [{ platform, calls, inputTokens, outputTokens, searches }] });
    // Anthropic (Sonnet 5.5): 1M in × $2 + 1M out × $10 + 1,000 searches × $10/1K.
    expect(one('platform_2', 10, 1_000_000, 1_000_000, 1_000).vendors).toBeCloseTo(2 + 10 + 10, 10);
    // OpenAI mini: each search also bills 8,000 input tokens: 1,000 searches = 8M tokens × $0.40 + $10.
    expect(one('platform_1', 1_000, 0, 0, 1_000).vendors).toBeCloseTo(10 + 8 * 0.4, 10);
    // Perplexity's Agent API: no request fee, $5 per 1,000 web_search calls.
    expect(one('platform_4', 1_000, 0, 0, 1_000).vendors).toBeCloseTo(5, 10);
    // The judge: tokens only.
    expect(one('judge', 80, 1_000_000, 1_000_000, 0).vendors).toBeCloseTo(0.4 + 1.6, 10);
    expect(() => one('platform_9', 1, 0, 0, 0)).toThrow(/no price for vendor "platform_9"/);
  });

  it('adds the services into the AWS subtotal and the total; a scraping vendor is free unless priced', () => {
    const usage: DailyUsage = {
      ...emptyDay(),
      lambda: [{ fn: 'f', invocations: 1_000, durationMs: 1_000_000, memoryMb: 1024, arch: 'x86_64' }],
      stateTransitions: 1_000,
      dynamo: { readUnits: 1_000_000, writeUnits: 1_000_000 },
      vendors: [{ platform: 'judge', calls: 1, inputTokens: 1_000_000, outputTokens: 0, searches: 0 }],
      scrapes: { pages: 1_000 },
    };
    const c = costOf(usage);
    expect(c.scraping).toBe(0);
    expect(c.aws).toBeCloseTo(0.0168667 + 0.025 + 0.75, 7);
    expect(c.total).toBeCloseTo(c.aws + 0.4, 7);
    const priced: PriceBook = { ...PRICES, scraping: { pages: { ...PRICES.scraping.pages, usd: 1 } } }; // $1 per 1,000 pages
    expect(costOf(usage, priced).scraping).toBeCloseTo(1, 12);
    expect(costOf(usage, priced).total).toBeCloseTo(c.total + 1, 10);
  });
});

describe('cost model: month and fleet', () => {
  it('scales linearly with the number of businesses and by 30 days a month', () => {
    const day = costOf(exampleScenarios()[1].usage).total;
    expect(perMonth(day)).toBeCloseTo(30 * day, 10);
    expect(fleet(day, 1_000)).toBeCloseTo(1_000 * day, 8);
    expect(fleet(day, 10_000)).toBeCloseTo(10 * fleet(day, 1_000), 8);
    // Ten businesses' counts summed cost ten times one business.
    const u = exampleScenarios()[0].usage;
    const times10: DailyUsage = {
      lambda: u.lambda.map((f) => ({ ...f, invocations: f.invocations * 10, durationMs: f.durationMs * 10 })),
      stateTransitions: u.stateTransitions * 10,
      mapChildExecutions: u.mapChildExecutions * 10,
      dynamo: { readUnits: u.dynamo.readUnits * 10, writeUnits: u.dynamo.writeUnits * 10, storedBytes: (u.dynamo.storedBytes ?? 0) * 10 },
      s3: { puts: u.s3.puts * 10, gets: u.s3.gets * 10, lists: u.s3.lists * 10, storedBytes: u.s3.storedBytes * 10 },
      cloudfront: { requests: u.cloudfront.requests * 10, bytesOut: u.cloudfront.bytesOut * 10 },
      vendors: u.vendors.map((v) => ({ ...v, calls: v.calls * 10, inputTokens: v.inputTokens * 10, outputTokens: v.outputTokens * 10, searches: v.searches * 10 })),
      scrapes: { pages: u.scrapes.pages * 10 },
    };
    expect(costOf(times10).total).toBeCloseTo(fleet(costOf(u).total, 10), 8);
  });
});

describe('cost model: prices', () => {
  it('gives every price a source URL and an asOf date no later than today', () => {
    const all = allPrices();
    expect(all.length).toBeGreaterThan(40);
    const today = new Date().toISOString().slice(0, 10);
    for (const { path, price } of all) {
      expect({ path, source: price.source }).toEqual({ path, source: expect.stringMatching(/^https:\/\/[a-z0-9.-]+\.[a-z]{2,}\//) });
      expect({ path, asOf: price.asOf }).toEqual({ path, asOf: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
      expect(Number.isNaN(Date.parse(price.asOf))).toBe(false);
      expect(price.asOf <= today).toBe(true);
      expect(price.usd).toBeGreaterThanOrEqual(0);
      expect(price.per).toBeGreaterThan(0);
    }
  });

  it('has the AWS list prices of the brief', () => {
    expect(PRICES.lambda.gbSecondX86.usd).toBe(0.0000166667);
    expect(PRICES.lambda.requests.usd / PRICES.lambda.requests.per).toBeCloseTo(0.20 / 1e6, 15);
    expect(PRICES.stepFunctions.stateTransitions.usd / PRICES.stepFunctions.stateTransitions.per).toBeCloseTo(0.025 / 1e3, 15);
    expect(PRICES.dynamodb.writeUnits.usd).toBe(0.625);
    expect(PRICES.dynamodb.readUnits.usd).toBe(0.125);
    expect(PRICES.s3.putCopyPostList.usd / PRICES.s3.putCopyPostList.per).toBeCloseTo(0.005 / 1e3, 15);
    expect(PRICES.s3.get.usd / PRICES.s3.get.per).toBeCloseTo(0.0004 / 1e3, 15);
    expect(PRICES.s3.storage.usd).toBe(0.023);
    expect(PRICES.cloudfront.httpsRequests.usd / PRICES.cloudfront.httpsRequests.per).toBeCloseTo(0.01 / 1e4, 15);
    expect(PRICES.cloudfront.dataOut.usd).toBe(0.085);
  });

  it('prices every platform key and the judge', () => {
    expect(Object.keys(PRICES.vendors).sort()).toEqual([...PLATFORM_KEYS, 'judge'].sort());
  });
});

describe('cost model: modelled vendor usage', () => {
  it('asks 10 prompts on each of the 8 platforms and judges every answer', () => {
    const vendors = modelledVendorUsage();
    const platforms = vendors.filter((v) => v.platform !== 'judge');
    expect(platforms.map((v) => v.platform)).toEqual([...PLATFORM_KEYS]);
    for (const v of platforms) {
      expect(v.calls).toBe(10);
      expect(v.searches).toBe(10);
    }
    const judge = vendors.find((v) => v.platform === 'judge')!;
    expect(judge.calls).toBe(80);
    expect(judge.searches).toBe(0);
    expect(modelledVendorUsage(5).find((v) => v.platform === 'judge')!.calls).toBe(40);
    // Every entry is priced, and the vendor part is the same on every scenario.
    const c = costOf({ ...emptyDay(), vendors });
    expect(Object.keys(c.byVendor)).toHaveLength(9);
    expect(c.vendors).toBeGreaterThan(0);
  });
});

describe('cost model: report', () => {
  it('formats tiny per-business amounts with enough digits', () => {
    expect(usd(0)).toBe('$0');
    expect(usd(0.000123)).toBe('$0.000123');
    expect(usd(0.0168667)).toBe('$0.0169');
    expect(usd(0.00000012)).toBe('$0.000000120'); // three significant digits
    expect(usd(12.345)).toBe('$12.35');
    expect(usd(1234567.891)).toBe('$1,234,567.89');
  });

  it('prints one column per scenario, the month, the fleet totals and the sources', () => {
    const lines: string[] = [];
    const spy = jest.spyOn(console, 'log').mockImplementation((...args: unknown[]) => { lines.push(args.join(' ')); });
    try {
      printCostReport(exampleScenarios());
    } finally {
      spy.mockRestore();
    }
    const text = lines.join('\n');
    expect(text).toMatch(/per business per day\s+unchanged\s+changed\s+first day/);
    expect(text).toMatch(/total per month \(x30\)/);
    expect(text).toMatch(/1,000\/day\s+1,000\/month\s+10,000\/day\s+10,000\/month/);
    expect(text).toMatch(/first day: total/);
    expect(text).toContain('aws.amazon.com/lambda/pricing/');
    expect(text).toContain('aws.amazon.com/dynamodb/pricing/on-demand/ (2024-11-01)');
  });
});

describe('cost model: vendor batches (issue 47)', () => {
  const batched = ['platform_1', 'platform_2', 'platform_3'];

  it('lowers the vendor cost by the batch platforms\' token share times the documented discount, nothing else', () => {
    const c = batchPricingComparison(batched, null);
    // the expectation from the model's own inputs: each batch platform's token dollars × its discount
    let expected = 0;
    for (const v of modelledVendorUsage()) {
      if (!batched.includes(v.platform)) continue;
      const price = PRICES.vendors[v.platform];
      const tokenUsd = ((v.inputTokens + v.searches * (price.inputTokensPerSearch ?? 0)) * price.inputTokens.usd) / price.inputTokens.per
        + (v.outputTokens * price.outputTokens.usd) / price.outputTokens.per;
      expected += tokenUsd * BATCH_DISCOUNTS[v.platform].discount;
    }
    expect(expected).toBeGreaterThan(0);
    expect(c.before.vendor - c.after.vendor).toBeCloseTo(expected, 12);
    expect(c.after.vendor).toBeLessThan(c.before.vendor);
    for (const k of Object.keys(c.before.byVendor)) if (!batched.includes(k)) expect(c.after.byVendor[k]).toBe(c.before.byVendor[k]);
    // the before side is the plain synchronous cost model
    const sync = costOf({ ...emptyDay(), vendors: modelledVendorUsage() });
    expect(c.before.vendor).toBeCloseTo(sync.vendors, 12);
    expect(c.before.aws).toBe(0);
    expect(c.after.aws).toBe(0);
  });

  it('prices the batch machinery\'s extra state transitions per business at the Standard price, and the stored answers\' S3 requests', () => {
    const counts = { businesses: 50_000, mapChildren: 5_000, collectRounds: 20, collectChildren: 100_000 };
    expect(batchStateTransitions(counts)).toBe(5_000 + 4 * 20 + 2 * 100_000 + 2);
    const c = batchPricingComparison(batched, counts);
    // a PUT ($0.005 / 1,000) and a GET ($0.0004 / 1,000) per batch platform per business
    const slices = batched.length * (0.005 + 0.0004) / 1_000;
    expect(c.after.aws).toBeCloseTo((batchStateTransitions(counts) * 0.025) / 1_000 / 50_000 + slices, 15);
    expect(c.after.total).toBeCloseTo(c.after.vendor + c.after.aws, 15);
  });

  it('prices each alternate vendor beside the priced one: platform_8 at DataForSEO ($0.002 a task), platform_5 at Parallel\'s Task API ($10 per 1,000 runs)', () => {
    const [p5, p8] = alternateVendorComparison();
    expect(p8!.platform).toBe('platform_8');
    expect(p8!.alternate).toBeCloseTo(10 * 0.002, 12);
    expect(p8!.priced).toBeCloseTo(10 * PRICES.vendors.platform_8.perSearch.usd / PRICES.vendors.platform_8.perSearch.per, 12);
    expect(DATAFORSEO_PLATFORM_8.perSearch.source).toMatch(/^https:\/\/dataforseo\.com\//);
    expect(p5!.platform).toBe('platform_5');
    expect(p5!.alternate).toBeCloseTo(10 * 10 / 1_000, 12);
    expect(p5!.priced).toBeCloseTo(10 * 50 / 1_000, 12);
    expect(p5!.setting).toBe('PLATFORM_5_MODEL=base-fast');
    expect(PARALLEL_TASK_PLATFORM_5.perCall.source).toMatch(/^https:\/\/docs\.parallel\.ai\//);
  });

  it('keeps every batch discount sourced and applies it to the token prices only', () => {
    for (const d of Object.values(BATCH_DISCOUNTS)) {
      expect(d.source).toMatch(/^https:\/\//);
      expect(d.discount).toBeGreaterThan(0);
      expect(d.discount).toBeLessThan(1);
    }
    const p = batchVendorPrice(PRICES.vendors.platform_2, 0.5);
    expect(p.inputTokens.usd).toBeCloseTo(PRICES.vendors.platform_2.inputTokens.usd / 2, 12);
    expect(p.outputTokens.usd).toBeCloseTo(PRICES.vendors.platform_2.outputTokens.usd / 2, 12);
    expect(p.perSearch).toEqual(PRICES.vendors.platform_2.perSearch);
  });
});
