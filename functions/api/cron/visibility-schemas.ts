/** Request contracts of the batch 2b cron routes (the spec shows no bodies for them). */
import * as z from 'zod/mini';
import { isoDate, orgSlug } from '../../http/schemas';

/** `run_date`: the UTC day whose sample, checks and report are meant; default today. */
export const visibilityDayRequest = z.strictObject({ business_id: orgSlug, run_date: z.optional(isoDate) });
export const visibilityDayQuery = z.object({ business_id: orgSlug, run_date: z.optional(isoDate) });
export const executionIdPath = z.object({ execution_id: z.string().check(z.regex(/^[A-Za-z0-9_-]{1,80}$/, 'must be an execution id')) });
