/** Request contracts of the batch 2b cron routes, and the small responses (the spec shows no bodies for them). */
import * as z from 'zod/mini';
import { ValidationError } from '../../core/errors';
import { CHECK_RETENTION_DAYS } from '../../core/visibility/checks';
import { addDays } from '../../core/visibility/score';
import { todayUtc, type Container } from '../../container';
import { isoDate, nullableString, orgSlug } from '../../http/schemas';

/** `run_date`: the UTC day whose sample, checks and report are meant; default today. */
export const visibilityDayRequest = z.strictObject({ business_id: orgSlug, run_date: z.optional(isoDate) });
export const visibilityDayQuery = z.object({ business_id: orgSlug, run_date: z.optional(isoDate) });

/** A prompt of the day's sample (D31). */
const sampledPrompt = z.object({
  prompt_id: z.string(),
  prompt: z.string(),
  entity_id: z.string(),
  product_id: nullableString.check(z.describe('product slug; null for the business entity')),
  was_untested: z.boolean().check(z.describe('whether the prompt had never been tested when it was sampled')),
});

/** GET /api/cron/sample-prompts: the stored sample of the day (`stored`), else the one it will draw. */
export const sampleResponse = z.object({
  business_id: z.string(),
  run_date: z.string(),
  stored: z.boolean().check(z.describe('true once the day\'s analysis drew the sample; false: the sample it will draw')),
  prompts: z.array(sampledPrompt).check(z.describe('10 prompts of the business: untested first, then random (D31)')),
  total: z.number(),
});

/** POST /api/cron/analyze-visibility (202): the visibility-analysis execution started; read it at `status_url`. */
export const analysisStartedResponse = z.object({
  status: z.literal('running'),
  execution_id: z.string(),
  business_id: z.string(),
  run_date: z.string(),
  status_url: z.string(),
});

/**
 * The day a visibility route may be asked about (the schema already made it a real calendar
 * day): default today; never the future; never older than the checks' retention (D119: kept
 * CHECK_RETENTION_DAYS days, so today and the 90 days before it). Checked before any work,
 * so a refused day starts no workflow and asks no vendor. 400 naming `field` otherwise.
 */
export function visibilityRunDate(container: Container, runDate: string | undefined, field = 'run_date'): string {
  const today = todayUtc(container);
  const date = runDate ?? today;
  if (date > today) throw new ValidationError(`invalid ${field}: ${field} must not be in the future (today is ${today} UTC)`);
  const oldest = addDays(today, -CHECK_RETENTION_DAYS);
  if (date < oldest) {
    throw new ValidationError(`invalid ${field}: ${field} must not be older than ${CHECK_RETENTION_DAYS} days (the oldest day kept is ${oldest}; checks expire after ${CHECK_RETENTION_DAYS} days, D119)`);
  }
  return date;
}
