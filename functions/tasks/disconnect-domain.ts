import { runDisconnectComplete } from '../app/domain/disconnect';
import { DOMAIN_DISCONNECT_WORKFLOW, type DomainExecutionInput } from '../app/domain/operation-run';
import { oncePerExecution } from '../app/once-per-execution';
import { readyContainer } from '../container';
import { dnsCheckerOf } from '../engines/dns';
import { lambdaTask } from '../invocation';

/**
 * The domain-disconnect workflow's task (POST /api/domain/mark-disconnect-complete/{org_id}):
 * the restored records reported, the public origin back to the AI-site host and the site
 * redeployed, DISCONNECTED. Stores the route's response (D20).
 */
export const handler = lambdaTask(async (event: DomainExecutionInput & { execution_id: string }): Promise<Record<string, unknown>> => {
  const container = await readyContainer();
  // A repeated delivery finds the response stored and does the work no second time (D196).
  const { http_status: httpStatus, body } = await oncePerExecution(container, DOMAIN_DISCONNECT_WORKFLOW, event.execution_id, () => runDisconnectComplete(container, dnsCheckerOf(container), event.org_slug, event.execution_id));
  return { org_slug: event.org_slug, execution_id: event.execution_id, http_status: httpStatus, status: body.status };
});
