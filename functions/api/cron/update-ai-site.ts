/**
 * POST /api/cron/update-ai-site (KEY) `{business_id}`: regenerating the site (3 model calls,
 * up to ~15,000 files) and publishing can pass API Gateway's 29 s, so it runs in a
 * daily-schedule execution for this business, whose merged deploy regenerates only what
 * changed and publishes once. 202 with the execution id (D20).
 */
import { startDailySchedule } from '../../app/daily/execution';
import { endpoint } from '../../http/endpoint';
import { businessRequest, startedResponse } from './daily-schemas';
import { startedResponse as started } from './started';

export const handler = endpoint('POST /api/cron/update-ai-site', { body: businessRequest, response: startedResponse }, async ({ body, container }) => {
  const { executionId } = await startDailySchedule(container, { orgSlugs: [body.business_id] });
  return started(executionId, [body.business_id]);
});
