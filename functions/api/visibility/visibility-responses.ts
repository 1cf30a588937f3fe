/**
 * Response contracts of the dashboard's visibility reads: GET /api/visibility/{business_id},
 * .../checks and .../products (D25, D117-D119, D170). They describe the stored records as the
 * routes answer them (core/visibility: score.ts, statistics.ts, checks.ts, report.ts,
 * product-funnel.ts). Plain objects: fields a later version adds stay allowed.
 */
import * as z from 'zod/mini';
import { BOT_PLATFORM_IDS, PLATFORM_KEYS } from '../../core/constants';
import type { FunnelSort } from '../../app/visibility/product-funnel';
import { count, nullableString } from '../../http/schemas';
import { changeSignal, counts, factMismatch, funnelCounts, intervalSchema, platformKey, reportCitations, rollingValueSchema, shareOfVoiceRow, visibilityReportSchema } from './report-schema';

const botPlatformId = z.enum(BOT_PLATFORM_IDS);
/** app/visibility/product-funnel.ts FUNNEL_SORTS, by type only (that module is not for every bundle); the checks below keep them equal. */
const FUNNEL_SORTS = ['crawled', 'cited', 'mentioned', 'recommended'] as const satisfies readonly FunnelSort[];
const sameSorts: Exclude<FunnelSort, (typeof FUNNEL_SORTS)[number]> extends never ? true : false = true;
void sameSorts;

// ---------------------------------------------------------------------------------------
// Score history (score.ts HistoryEntry)
// ---------------------------------------------------------------------------------------

const platformScores = z.object(Object.fromEntries(PLATFORM_KEYS.map((k) => [`${k}_score`, z.optional(z.nullable(z.number()))])))
  .check(z.describe('per-platform scores of the day (0-100; null: the platform produced no boolean, D30); {} on seeded entries'));

const historyEntrySchema = z.object({
  date: z.string().check(z.describe('YYYY-MM-DD (UTC)')),
  score: z.number().check(z.describe('the spec\'s score, 0-100, floor rule applied')),
  platforms: platformScores,
  // D118: absent on seeded entries and on entries written before they existed.
  n: z.optional(count),
  true_count: z.optional(count),
  raw_score: z.optional(z.number()),
  interval: z.optional(intervalSchema),
  rolling_7: z.optional(z.nullable(rollingValueSchema)),
  rolling_28: z.optional(z.nullable(rollingValueSchema)),
  change: z.optional(changeSignal),
  seeded: z.optional(z.literal(true).check(z.describe('one of the two days the first score seeds (spec: day -2 scored 0, day -1 scored 35), kept before the earliest measured day (D216)'))),
}).check(z.meta({ id: 'ScoreHistoryEntry' }));

// ---------------------------------------------------------------------------------------
// The per-product funnel (product-funnel.ts ProductFunnel, D170)
// ---------------------------------------------------------------------------------------

const funnelSchema = z.object({
  product_id: z.string(),
  from: z.string(),
  to: z.string(),
  crawled: z.object({
    visits: count,
    by_platform: z.partialRecord(botPlatformId, count),
    by_purpose: counts,
    last_visit_at: nullableString,
  }),
  answered: count.check(z.describe('answered checks of the window: the n of every rate')),
  cited: z.object({ checks: count }),
  mentioned: z.object({ checks: count, interval: z.nullable(intervalSchema) }),
  recommended: z.object({ checks: count, interval: z.nullable(intervalSchema) }),
  drop_out: z.nullable(z.enum(['crawl', 'surface', 'recommendation'])).check(z.describe('where the product leaves the funnel (see drop_out_rule); null when recommended')),
  recommended_instead: z.nullable(z.object({ name: z.string(), checks: count })),
  platforms: z.array(z.extend(funnelCounts, {
    platform: platformKey,
    answered: count,
    crawled: count,
    crawled_not_surfaced: z.boolean(),
  })),
});

// ---------------------------------------------------------------------------------------
// The routes
// ---------------------------------------------------------------------------------------

/** GET /api/visibility/{business_id}?product_id=&from=&to= */
export const visibilityResponse = z.object({
  business_id: z.string(),
  product_id: nullableString.check(z.describe('the product slug asked for; null for the business')),
  recent_score: z.nullable(z.number()).check(z.describe('latest score 0-100; null before the first score')),
  history_scores: z.array(historyEntrySchema).check(z.describe('oldest first, the last 365 days')),
  latest_report: z.nullable(z.object({
    date: z.string(),
    share_of_voice: z.array(shareOfVoiceRow),
    fact_mismatches: z.array(factMismatch),
    citations: reportCitations,
  }).check(z.meta({ id: 'LatestReport' }))).check(z.describe('the newest daily report of the last 28 days; null when there is none')),
  product_visibility: z.optional(z.object({
    rolling_7: z.nullable(rollingValueSchema),
    rolling_28: z.nullable(rollingValueSchema),
    days: z.array(z.object({ date: z.string(), n: count, trues: count, citations: count })),
  })).check(z.describe('with product_id only: the product\'s visibility pooled from the daily reports (D117)')),
  funnel: z.optional(z.extend(funnelSchema, { drop_out_rule: z.string() }).check(z.meta({ id: 'ProductFunnel' })))
    .check(z.describe('with product_id only: the product\'s AI funnel over from..to (default the last 28 days, D170)')),
}).check(z.meta({ id: 'VisibilityOverview' }));

const visibilityCheck = z.object({
  org_slug: z.string(),
  run_date: z.string(),
  prompt_id: z.string(),
  prompt: z.string(),
  entity_id: z.string(),
  product_id: nullableString,
  platform: platformKey,
  result: z.nullable(z.boolean()).check(z.describe('mentioned or recommended; null when the platform gave no answer (D30)')),
  status: z.enum(['checked', 'unconfigured', 'failed', 'budget', 'no_answer', 'queued', 'submitted']).check(z.describe('queued / submitted: waiting for the platform\'s vendor batch of the day (no result yet)')),
  reason: nullableString,
  answer: z.nullable(z.object({
    text: z.string(),
    citations: z.array(z.string()),
    // Absent on records written before they were kept.
    retrieved: z.optional(z.array(z.string())),
    source_hosts: z.optional(z.record(z.string(), z.string())),
    model: nullableString,
    latency_ms: z.number(),
    cost_units: z.number(),
    cost_unit: z.string(),
    obtained_via: z.string(),
  })),
  verdict: z.nullable(z.object({
    mentioned: z.boolean(),
    recommended: z.boolean(),
    competitors_mentioned: z.array(z.string()),
    citations: z.array(z.object({ url: z.string(), kind: z.enum(['store', 'ai_site', 'competitor', 'other']) })),
    by: z.enum(['judge', 'matcher']),
  })),
  matcher_agrees: z.nullable(z.boolean()),
  judge_error: nullableString,
  checked_at: z.string(),
  batch: z.optional(z.object({ job_id: z.string(), custom_id: z.string() })).check(z.describe('asked through the platform\'s vendor batch: its job and the id the vendor answered it under')),
}).check(z.meta({ id: 'VisibilityCheck' }));

/** GET /api/visibility/{business_id}/checks?date=&platform= */
export const visibilityChecksResponse = z.object({
  business_id: z.string(),
  date: z.string(),
  checks: z.array(visibilityCheck),
  total: count,
  report: z.nullable(visibilityReportSchema).check(z.describe('the day\'s report; null when none was stored')),
});

/** GET /api/visibility/{business_id}/products?from=&to=&sort=&limit=&cursor= */
export const visibilityProductsResponse = z.object({
  business_id: z.string(),
  from: z.string(),
  to: z.string(),
  sort: z.enum(FUNNEL_SORTS),
  drop_out_rule: z.string(),
  total: count.check(z.describe('products of the business')),
  products: z.array(z.extend(funnelSchema, { name: z.string() }).check(z.meta({ id: 'ProductFunnelRow' }))),
  next_cursor: nullableString,
});
