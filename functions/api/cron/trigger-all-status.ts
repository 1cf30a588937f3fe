/**
 * GET /api/cron/trigger-all/{execution_id} (KEY): a daily-schedule execution (recorded by its
 * own tasks; the engine's record fills in when it ended without them) and one page of its
 * businesses' run records: status, reason, each step's timings and counts.
 */
import * as z from 'zod/mini';
import { readDailyExecution } from '../../app/daily/execution';
import { endpoint } from '../../http/endpoint';
import { executionIdPath } from '../../http/workflow-http';
import { executionResponse } from './daily-schemas';
import { keyAuth } from '../../http/auth/key';

const query = z.object({
  cursor: z.optional(z.string().check(z.maxLength(2048))),
  limit: z.optional(z.string().check(z.regex(/^\d{1,3}$/, 'must be a whole number from 1 to 500'))),
});

export const handler = endpoint('GET /api/cron/trigger-all/{execution_id}', { authenticator: keyAuth, path: executionIdPath, query, response: executionResponse }, async ({ path, query, container }) => {
  const limit = Math.min(500, Math.max(1, query.limit === undefined ? 100 : Number(query.limit)));
  return { body: await readDailyExecution(container, path.execution_id, { cursor: query.cursor ?? null, limit }) };
});
