/**
 * The daily schedule's per-business cron routes (KEY) `{business_id}`:
 *   POST /api/cron/detect-changes, /update-ai-site, /discover-products (and its deprecated
 *   alias /discover-products-from-changes, D26), /generate-product-prompts,
 *   /generate-product-llms-txt.
 * Each runs where the schedule runs it: a daily-schedule execution for that one business
 * (1a with 1b, its prompts, files and snapshot, then the merged deploy), answering 202 with
 * the execution id whose run record holds every step's result (D20, D110). Mapping 5,000
 * pages, model calls and the site build pass API Gateway's 29 s, and the generators would
 * push a route bundle past 250 KB: the work belongs in the task Lambdas.
 */
import { startDailySchedule } from '../../app/daily/execution';
import { endpoint, routeOfEvent } from '../../http/endpoint';
import { businessRequest, startedResponse } from './daily-schemas';
import { startedResponse as started } from './started';
import { keyAuth } from '../../http/auth/key';

const DEPRECATED = '/api/cron/discover-products-from-changes';

export const handler = endpoint(routeOfEvent, { authenticator: keyAuth, body: businessRequest, response: startedResponse }, async ({ body, container, route }) => {
  const { executionId } = await startDailySchedule(container, { orgSlugs: [body.business_id] });
  const result = started(executionId, [body.business_id]);
  return route.path === DEPRECATED
    ? { ...result, headers: { Deprecation: 'true', Link: '</api/cron/discover-products>; rel="successor-version"' } }
    : result;
});
