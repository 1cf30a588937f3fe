/**
 * Success contracts of the batch 2b cron routes that answer the day's report
 * (core/visibility/report.ts): the analysis read back and the report rebuilt. The sample and
 * the analysis started: visibility-schemas.ts (their bundles need no report).
 */
import * as z from 'zod/mini';
import { count, nullableString } from '../../http/schemas';
import { visibilityReportSchema as visibilityReport } from '../visibility/report-schema';


/**
 * GET /api/cron/analyze-visibility/{execution_id}: the execution (the engine's status in lower
 * case, `skipped` with the reason when it checked nothing) and the day's report, null until stored.
 */
export const analysisResponse = z.object({
  execution_id: z.string(),
  status: z.enum(['running', 'succeeded', 'failed', 'timed_out', 'aborted', 'skipped']).check(z.describe('the engine\'s status in lower case; skipped when the execution checked nothing')),
  started_at: z.string(),
  finished_at: nullableString,
  business_id: z.string(),
  run_date: z.string(),
  prompts_sampled: count,
  report: z.nullable(visibilityReport).check(z.describe('the day\'s report; null until stored')),
  reason: nullableString.check(z.describe('why nothing was checked (skipped); null otherwise')),
});

/** POST /api/cron/store-visibility-report: the day's report rebuilt from its stored checks. */
export const reportResponse = z.object({
  status: z.literal('success'),
  business_id: z.string(),
  run_date: z.string(),
  report: visibilityReport,
});
