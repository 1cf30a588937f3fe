import type { DomainWorkflow } from '../app/domain-operation-run';
import { caughtStatus, saveWorkflowResult, workflowErrorText } from '../app/workflow-results';
import { readyContainer } from '../container';

/**
 * The Catch of the domain-connection tasks that answer a route (timed out, out of memory, or could not store the
 * response): stores an error response with the reason for the route and the read-back.
 */
export const handler = async (event: { workflow: DomainWorkflow; org_slug: string; execution_id: string; error?: { Error?: string; Cause?: string } }): Promise<Record<string, unknown>> => {
  const container = await readyContainer();
  const status = caughtStatus(event.error);
  await saveWorkflowResult(container, event.workflow, event.execution_id, status, { status: 'error', error: `the ${event.workflow} task failed: ${workflowErrorText(event.error)}`, org_slug: event.org_slug });
  return { execution_id: event.execution_id, http_status: status, status: 'error' };
};
