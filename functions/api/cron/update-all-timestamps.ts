/**
 * POST /api/cron/update-all-timestamps (KEY) `{business_id}`: batch 2a's timestamp refresh on
 * its own: every stored part published again, each page's `Last checked` line and title year
 * moved to now; modified dates, data.json and the sitemap's lastmod stay (D112). Runs as a
 * site-publish execution (D20, D149): its response within 20 s, else 202 and the read-back URL.
 */
import { awaitSitePublish, startSitePublish } from '../../app/site/publish-run';
import { endpoint } from '../../http/endpoint';
import { toApiResult, waitBudget } from '../../http/workflow-http';
import { businessRequest } from './daily-schemas';
import { updateTimestampsResponse } from './publish-schemas';
import { keyAuth } from '../../http/auth/key';

export const handler = endpoint('POST /api/cron/update-all-timestamps', { authenticator: keyAuth, body: businessRequest, response: updateTimestampsResponse }, async ({ body, headers, container, route }) => {
  const executionId = await startSitePublish(container, 'update-all-timestamps', body.business_id);
  const { budgetMs, applied } = waitBudget(headers);
  return toApiResult(await awaitSitePublish(container, executionId, `${route.path}/${executionId}`, budgetMs), applied);
});
