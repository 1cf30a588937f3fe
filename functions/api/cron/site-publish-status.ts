/**
 * GET /api/cron/deploy-site/{execution_id} and GET /api/cron/update-all-timestamps/{execution_id}
 * (KEY): a site-publish execution read back (D20): its response once finished, 202 while it
 * runs, 404 for an id the workflow does not know (or another operation's).
 */
import { readSitePublish, type SitePublishOperation } from '../../app/site/publish-run';
import { endpoint, routeOfEvent } from '../../http/endpoint';
import { executionIdPath, toApiResult } from '../../http/workflow-http';
import { sitePublishStatusResponse } from './publish-schemas';
import { keyAuth } from '../../http/auth/key';

export const handler = endpoint(routeOfEvent, { authenticator: keyAuth, path: executionIdPath, response: sitePublishStatusResponse }, async ({ path, container, route }) => {
  const operation = route.path.split('/')[3] as SitePublishOperation;
  const statusUrl = route.path.replace('{execution_id}', path.execution_id);
  return toApiResult(await readSitePublish(container, operation, path.execution_id, statusUrl));
});
