/**
 * POST /api/cron/detect-changes (KEY) `{business_id}`: change detection maps up to 5,000
 * pages, more than API Gateway's 29 s allow, so it runs where the schedule runs it: a
 * daily-schedule execution for this business (1a with 1b, then the merged deploy). 202 with
 * the execution id (D20).
 */
import { startDailySchedule } from '../../app/daily/execution';
import { endpoint } from '../../http/endpoint';
import { businessRequest, startedResponse } from './daily-schemas';
import { startedResponse as started } from './started';

export const handler = endpoint('POST /api/cron/detect-changes', { body: businessRequest, response: startedResponse }, async ({ body, container }) => {
  const { executionId } = await startDailySchedule(container, { orgSlugs: [body.business_id] });
  return started(executionId, [body.business_id]);
});
