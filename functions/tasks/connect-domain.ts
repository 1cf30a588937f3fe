import { runConnectDomain } from '../app/domain/connect';
import { DOMAIN_CONNECT_WORKFLOW, type DomainExecutionInput } from '../app/domain/operation-run';
import { oncePerExecution } from '../app/once-per-execution';
import { readyContainer } from '../container';
import { cdnOf } from '../engines/cdn';
import { dnsCheckerOf } from '../engines/dns';
import { lambdaTask } from '../invocation';

/**
 * The domain-connect workflow's first task (POST /api/domain/mark-step-complete/{org_id}):
 * the DNS switch checked, the store origin re-pointed, the site served and redeployed on the
 * customer's domain, DEPLOYED. Stores the route's response (D20); the output tells the rest
 * of the execution what to follow up (native certificate, verification polling).
 */
export const handler = lambdaTask(async (event: DomainExecutionInput & { execution_id: string }): Promise<Record<string, unknown>> => {
  const container = await readyContainer();
  // A repeated delivery finds the response (and what follows it) stored: no second redeploy, and a stored 409 stays (D196).
  const stored = await oncePerExecution(container, DOMAIN_CONNECT_WORKFLOW, event.execution_id, async () => {
    const { httpStatus, body, followUp } = await runConnectDomain(container, { gateway: cdnOf(container).gateway, dns: dnsCheckerOf(container) }, event.org_slug, event.execution_id);
    return { httpStatus, body, next: followUp ? { ...followUp } : null };
  });
  const followUp = stored.next ?? null;
  return { org_slug: event.org_slug, execution_id: event.execution_id, http_status: stored.http_status, connected: followUp !== null, ...(followUp ?? {}) };
});
