/**
 * POST /api/cron/trigger-all (KEY): runs the daily schedule now, for every business or for
 * `business_ids` (recovery, testing). It can take minutes, so it answers 202 with the
 * execution id at once (D20); GET /api/cron/trigger-all/{execution_id} reads its progress.
 */
import { startDailySchedule } from '../../app/daily/execution';
import { endpoint } from '../../http/endpoint';
import { startedResponse as started } from './started';
import { startedResponse, triggerAllRequest } from './daily-schemas';
import { keyAuth } from '../../http/auth/key';

export const handler = endpoint('POST /api/cron/trigger-all', { authenticator: keyAuth, body: triggerAllRequest, response: startedResponse }, async ({ body, container }) => {
  const ids = body?.business_ids ?? null;
  const { executionId } = await startDailySchedule(container, { orgSlugs: ids ?? undefined });
  return started(executionId, ids);
});
