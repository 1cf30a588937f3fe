/**
 * Request and response contracts of the daily schedule's cron routes (the spec shows no
 * bodies for them: these are ours, documented in the README's API table).
 */
import * as z from 'zod/mini';
import { nullableString, orgSlug } from '../../http/schemas';

export const businessRequest = z.strictObject({ business_id: orgSlug }).check(z.meta({ id: 'BusinessRequest' }));

const stringList = z.array(z.string());

/** 202: the work runs in a daily-schedule execution; read it at `status_url`. */
export const startedResponse = z.object({
  status: z.literal('running'),
  execution_id: z.string(),
  status_url: z.string(),
  business_ids: z.nullable(stringList),
}).check(z.meta({ id: 'DailyRunStarted' }));

export const entitiesQuery = z.object({
  cursor: z.optional(z.string().check(z.maxLength(2048))),
  limit: z.optional(z.string().check(z.regex(/^\d{1,4}$/, 'must be a whole number from 1 to 1000'))),
});

export const entitiesResponse = z.object({
  businesses: z.array(z.object({ business_id: z.string(), entity_id: z.string(), name: z.string(), url: z.string(), has_ai_site: z.boolean(), products: z.number() })),
  total: z.number(),
  next_cursor: nullableString,
});

export const triggerAllRequest = z.optional(z.strictObject({
  business_ids: z.optional(z.array(orgSlug).check(z.minLength(1), z.maxLength(100, 'business_ids: at most 100 per run'))),
}));

/** One batch step of a business's day (core/daily/run.ts `DailyStepState`). */
const stepState = z.object({
  status: z.enum(['pending', 'running', 'succeeded', 'skipped', 'failed']), started_at: nullableString, finished_at: nullableString, attempts: z.number(), reason: nullableString,
  result: z.nullable(z.record(z.string(), z.unknown())).check(z.describe('counts and ids for the dashboard (pages mapped, changed, scraped; products added; ...)')),
  execution_id: nullableString.check(z.describe('the execution that last ran it')),
  resumed_from: z.optional(z.string()).check(z.describe('settled by an execution that stopped, and kept by the one that resumed its day')),
}).check(z.meta({ id: 'DailyStep' }));

/** One business's day in an execution (core/daily/run.ts `BusinessRun`). */
const dailyRun = z.object({
  org_slug: z.string(), run_date: z.string(), execution_id: z.string(), status: z.enum(['running', 'succeeded', 'partial', 'failed', 'skipped']), reason: nullableString,
  started_at: z.string(), finished_at: nullableString, steps: z.record(z.string(), stepState), changed_urls: stringList,
  resumed_from: z.optional(nullableString).check(z.describe('the stopped execution whose day this one resumed (D162)')),
}).check(z.meta({ id: 'DailyRun' }));

/**
 * GET /api/cron/trigger-all/{execution_id}: the execution (recorded by its tasks, else the
 * engine's record: then only the id, status, times and, once ended, `engine_status`) and one
 * page of its businesses' run records.
 */
export const executionResponse = z.object({
  execution_id: z.string(),
  status: z.enum(['running', 'succeeded', 'failed']),
  engine_status: z.optional(z.enum(['SUCCEEDED', 'FAILED', 'TIMED_OUT', 'ABORTED'])).check(z.describe('the engine\'s status when the execution ended without recording its end (aborted, timed out)')),
  reason: z.optional(nullableString),
  trigger: z.optional(z.enum(['schedule', 'manual'])),
  run_date: z.optional(z.string()),
  started_at: nullableString,
  finished_at: nullableString,
  counts: z.optional(z.record(z.string(), z.number())).check(z.describe('businesses finished by this execution, by outcome (succeeded, partial, failed, skipped)')),
  businesses: z.object({
    runs: z.array(dailyRun),
    next_cursor: nullableString,
  }),
}).check(z.meta({ id: 'DailyExecution' }));
