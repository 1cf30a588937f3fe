/**
 * The day's visibility report as the routes answer it (core/visibility/report.ts
 * VisibilityReport, D117-D119), and the measurement pieces it shares with the score history:
 * one schema for the dashboard's reads and the 2b cron routes. Fields added after launch are
 * optional: reports are kept 90 days (D119), and an older one must never become a 500.
 */
import * as z from 'zod/mini';
import { PLATFORM_KEYS } from '../../core/constants';
import { count, nullableString } from '../../http/schemas';

export const platformKey = z.enum(PLATFORM_KEYS);
export const counts = z.record(z.string(), count);

// ---------------------------------------------------------------------------------------
// Measurement (statistics.ts, D118)
// ---------------------------------------------------------------------------------------

/** 95% Wilson interval, percent, one decimal. */
export const intervalSchema = z.object({ low: z.number(), high: z.number() }).check(z.describe('95% Wilson interval, percent 0-100, one decimal'), z.meta({ id: 'Interval' }));

/** Trues over checks pooled over a calendar window. */
export const rollingValueSchema = z.object({
  score: z.number().check(z.describe('pooled percent, one decimal')),
  n: count,
  days: count,
  interval: intervalSchema,
}).check(z.meta({ id: 'RollingValue' }));

export const changeSignal = z.object({
  delta: z.number().check(z.describe('today\'s raw percent minus the baseline\'s, one decimal')),
  baseline: z.nullable(z.object({ score: z.number(), n: count })),
  significant: z.boolean().check(z.describe('true only when the difference is beyond sampling noise (two-proportion z-test, 95%)')),
}).check(z.meta({ id: 'ChangeSignal' }));

// ---------------------------------------------------------------------------------------
// The daily report (report.ts VisibilityReport)
// ---------------------------------------------------------------------------------------

const platformReport = z.object({
  status: z.enum(['checked', 'partial', 'unconfigured', 'failed', 'budget', 'no_answer', 'not_run']),
  planned: count,
  checks: count,
  trues: count,
  score: z.nullable(z.number()),
  reasons: z.array(z.string()),
  model: nullableString,
  cost_units: z.number(),
  cost_unit: nullableString,
  mean_latency_ms: z.nullable(z.number()),
}).check(z.meta({ id: 'PlatformReport' }));

export const shareOfVoiceRow = z.object({
  name: z.string(),
  is_entity: z.boolean(),
  mentions: count,
  share: z.nullable(z.number()),
  first_position_count: count,
}).check(z.meta({ id: 'ShareOfVoiceRow' }));

export const funnelCounts = z.object({ cited: count, mentioned: count, recommended: count });

const productReport = z.object({
  product_id: z.string(),
  entity_id: nullableString,
  prompts: count,
  checks: count,
  trues: count,
  score: z.nullable(z.number()),
  citation_count: count,
  // Absent on reports stored before they were kept (kept 90 days, D119).
  retrieved_count: z.optional(count),
  funnel: z.optional(z.extend(funnelCounts, {
    by_platform: z.partialRecord(platformKey, funnelCounts),
    competitors_instead: counts,
  })),
}).check(z.meta({ id: 'ProductReport' }));

const citationKindCounts = z.object({ store: count, ai_site: count, competitor: count, other: count });
const citationTally = z.object({
  total: count,
  by_kind: citationKindCounts,
  top_hosts: z.array(z.object({ host: z.string(), count })),
});

/** Cited URLs (counted), with the retrieved ones beside them (never counted; absent on older reports). */
export const reportCitations = z.extend(citationTally, { retrieved: z.optional(citationTally) }).check(z.meta({ id: 'ReportCitations' }));

export const factMismatch = z.object({
  platform: platformKey,
  prompt_id: z.string(),
  prompt: z.string(),
  product_id: nullableString,
  kind: z.enum(['price', 'stock', 'shipping']),
  stated: z.string(),
  catalogue: nullableString,
  excerpt: z.string(),
}).check(z.meta({ id: 'FactMismatch' }));

export const visibilityReportSchema = z.object({
  org_slug: z.string(),
  run_date: z.string(),
  prompts: count,
  platforms: z.object(Object.fromEntries(PLATFORM_KEYS.map((k) => [k, platformReport]))),
  totals: z.object({
    checks_planned: count,
    checks_done: count,
    trues: count,
    raw_score: z.nullable(z.number()),
    interval: z.nullable(intervalSchema),
    platforms_answered: count,
    judge: z.object({ evaluated: count, disagreements: count, errors: count }),
  }),
  share_of_voice: z.array(shareOfVoiceRow),
  other_brands: z.array(z.object({ name: z.string(), mentions: count })),
  products: z.array(productReport),
  citations: reportCitations,
  fact_mismatches: z.array(factMismatch),
  mentioned_prompts: count,
}).check(z.meta({ id: 'VisibilityReport' }));
