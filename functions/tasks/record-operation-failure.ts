import { caughtStatus, saveWorkflowResult, workflowErrorText } from '../app/workflow-results';
import { readyContainer } from '../container';
import type { WorkflowName } from '../core/workflows';
import { lambdaTask } from '../invocation';

/**
 * The Catch of a task that answers a route (D20: the domain operations, the site publishes):
 * it timed out, ran out of memory or could not store its response. Stores an error response
 * with the reason for the route and the read-back.
 */
export const handler = lambdaTask(async (event: { workflow: WorkflowName; org_slug: string; execution_id: string; error?: { Error?: string; Cause?: string } }): Promise<Record<string, unknown>> => {
  const container = await readyContainer();
  const status = caughtStatus(event.error);
  await saveWorkflowResult(container, event.workflow, event.execution_id, status, { status: 'error', error: `the ${event.workflow} task failed: ${workflowErrorText(event.error)}`, org_slug: event.org_slug });
  return { execution_id: event.execution_id, http_status: status, status: 'error' };
});
