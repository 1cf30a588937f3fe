import { runStartCertificate } from '../app/domain/certificate';
import { START_CERTIFICATE_WORKFLOW, type DomainExecutionInput } from '../app/domain/operation-run';
import { oncePerExecution } from '../app/once-per-execution';
import { readyContainer } from '../container';
import { cdnOf } from '../engines/cdn';
import { certificatesOf } from '../engines/certificates';
import { searchNotifyEnginesOf } from '../engines/search-notify';
import { lambdaTask } from '../invocation';

/**
 * The start-certificate workflow's task (POST /api/domain/start-certificate/{org_id}): domain
 * analysis, CAA pre-check, original records captured, one ACME order; stores the response for
 * the route that waits on it (D20). The output names the outcome only.
 */
export const handler = lambdaTask(async (event: DomainExecutionInput & { execution_id: string }): Promise<Record<string, unknown>> => {
  const container = await readyContainer();
  // A repeated delivery finds the response stored and does the work no second time (D196).
  const { http_status: httpStatus, body } = await oncePerExecution(container, START_CERTIFICATE_WORKFLOW, event.execution_id, () => runStartCertificate(container, { ...certificatesOf(container), gateway: cdnOf(container).gateway, webmaster: searchNotifyEnginesOf(container).webmaster }, event.org_slug));
  return { execution_id: event.execution_id, http_status: httpStatus, status: body.status };
});
