import { runSitePublish } from '../app/site/publish';
import { SITE_PUBLISH_WORKFLOW, type SitePublishInput } from '../app/site/publish-run';
import { oncePerExecution } from '../app/once-per-execution';
import { readyContainer } from '../container';
import { lambdaTask } from '../invocation';

/**
 * The site-publish workflow's task (POST /api/cron/deploy-site, POST /api/cron/update-all-timestamps):
 * one publish of every part; stores the response for the route that waits on it (D20). A
 * repeated delivery finds the response stored and publishes nothing again (D196).
 */
export const handler = lambdaTask(async (event: SitePublishInput & { execution_id: string }): Promise<Record<string, unknown>> => {
  const container = await readyContainer();
  const result = await oncePerExecution(container, SITE_PUBLISH_WORKFLOW, event.execution_id, () => runSitePublish(container, event));
  return { execution_id: event.execution_id, http_status: result.http_status, status: result.body.status };
});
