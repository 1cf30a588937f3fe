import { runCompleteCertificate } from '../app/domain/certificate';
import { COMPLETE_CERTIFICATE_WORKFLOW, type DomainExecutionInput } from '../app/domain/operation-run';
import { oncePerExecution } from '../app/once-per-execution';
import { readyContainer } from '../container';
import { cdnOf } from '../engines/cdn';
import { certificatesOf } from '../engines/certificates';
import { searchNotifyEnginesOf } from '../engines/search-notify';
import { lambdaTask } from '../invocation';

/**
 * The complete-certificate workflow's task (POST /api/domain/complete-certificate/{org_id}):
 * TXT records checked on the authoritative servers, ACME order completed and finalized, the
 * certificate imported and attached in this same task (its private key never leaves it: not
 * in the execution's input/output, not in the database). Stores the response (D20); the
 * output names the outcome only.
 */
export const handler = lambdaTask(async (event: DomainExecutionInput & { execution_id: string }): Promise<Record<string, unknown>> => {
  const container = await readyContainer();
  // A repeated delivery finds the response stored and does the work no second time (D196).
  const { http_status: httpStatus, body } = await oncePerExecution(container, COMPLETE_CERTIFICATE_WORKFLOW, event.execution_id, () => runCompleteCertificate(container, { ...certificatesOf(container), gateway: cdnOf(container).gateway, webmaster: searchNotifyEnginesOf(container).webmaster }, event.org_slug));
  return { execution_id: event.execution_id, http_status: httpStatus, status: body.status };
});
