/**
 * Request and response contracts of the daily schedule's cron routes (the spec shows no
 * bodies for them: these are ours, documented in the README's API table).
 */
import * as z from 'zod/mini';
import { orgSlug } from '../../http/schemas';

export const businessRequest = z.strictObject({ business_id: orgSlug });

const nullableString = z.nullable(z.string());
const stringList = z.array(z.string());

/** 202: the work runs in a daily-schedule execution; read it at `status_url`. */
export const startedResponse = z.object({
  status: z.literal('running'),
  execution_id: z.string(),
  status_url: z.string(),
  business_ids: z.nullable(stringList),
});

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

const stepState = z.object({
  status: z.string(), started_at: nullableString, finished_at: nullableString, attempts: z.number(), reason: nullableString,
  result: z.nullable(z.record(z.string(), z.unknown())), execution_id: nullableString,
});

export const executionResponse = z.object({
  execution_id: z.string(),
  status: z.enum(['running', 'succeeded', 'failed']),
  engine_status: z.optional(z.string()),
  reason: z.optional(nullableString),
  trigger: z.optional(z.string()),
  run_date: z.optional(z.string()),
  started_at: z.nullable(z.string()),
  finished_at: nullableString,
  counts: z.optional(z.record(z.string(), z.number())),
  businesses: z.object({
    runs: z.array(z.object({
      org_slug: z.string(), run_date: z.string(), execution_id: z.string(), status: z.string(), reason: nullableString,
      started_at: z.string(), finished_at: nullableString, steps: z.record(z.string(), stepState), changed_urls: stringList,
      // The stopped execution whose day this one resumed (D162).
      resumed_from: z.optional(nullableString),
    })),
    next_cursor: nullableString,
  }),
});
