import { runSitePublish } from '../app/site/publish';
import { SITE_PUBLISH_WORKFLOW, type SitePublishInput } from '../app/site/publish-run';
import { saveWorkflowResult } from '../app/workflow-results';
import { readyContainer } from '../container';
import { lambdaTask } from '../invocation';

/**
 * The site-publish workflow's task (POST /api/cron/deploy-site, POST /api/cron/update-all-timestamps):
 * one publish of every part; stores the response for the route that waits on it (D20).
 */
export const handler = lambdaTask(async (event: SitePublishInput & { execution_id: string }): Promise<Record<string, unknown>> => {
  const container = await readyContainer();
  const { httpStatus, body } = await runSitePublish(container, event);
  await saveWorkflowResult(container, SITE_PUBLISH_WORKFLOW, event.execution_id, httpStatus, body);
  return { execution_id: event.execution_id, http_status: httpStatus, status: body.status };
});
