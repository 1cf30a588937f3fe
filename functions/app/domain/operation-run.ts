/**
 * The HTTP side of the domain connection's long operations (issue 13; D20): the free
 * certificate (`start-certificate`, `complete-certificate`), the DNS switch
 * (`mark-step-complete` → the `domain-connect` workflow) and the disconnect
 * (`mark-disconnect-complete` → `domain-disconnect`). The ACME work (acme-client is far over
 * the route bundle budget), the DNS checks, the certificate manager / CDN calls and the
 * redeploys run in a workflow per operation; the route checks what it can at once (404
 * unknown business, 409 a transition outside the `proxy_status` table, with the allowed next
 * steps), starts the execution and waits up to `WORKFLOW_WAIT_MS` for the operation's response,
 * which the workflow's first task stores (the domain-connect execution goes on afterwards:
 * native certificate, webmaster verification polling, search-engine submissions). Stored:
 * that response. Not yet: 202 with the execution id and `GET <same path>/{execution_id}`.
 *
 * Light on purpose: never imports the ACME engine, the CDN SDKs or the site builder.
 */
import { randomUUID } from 'node:crypto';
import { DNS_SWITCH_STEP, needsNewCertificate, transition, type ProxyEvent } from '../../core/domain/states';
import type { Container } from '../../container';
import { requireBusiness } from '../business';
import { awaitWorkflowOutcome, workflowAnswer, workflowOutcome, type WorkflowOutcome } from '../workflow-results';

export const START_CERTIFICATE_WORKFLOW = 'start-certificate' as const;
export const COMPLETE_CERTIFICATE_WORKFLOW = 'complete-certificate' as const;
export const DOMAIN_CONNECT_WORKFLOW = 'domain-connect' as const;
export const DOMAIN_DISCONNECT_WORKFLOW = 'domain-disconnect' as const;
export type DomainWorkflow =
  | typeof START_CERTIFICATE_WORKFLOW | typeof COMPLETE_CERTIFICATE_WORKFLOW
  | typeof DOMAIN_CONNECT_WORKFLOW | typeof DOMAIN_DISCONNECT_WORKFLOW;


/** The execution input: the organization only. No certificate material ever goes through a state machine. */
export interface DomainExecutionInput {
  org_slug: string;
}

/** Response bodies of the operations (`status: 'success'` or `'error'`, plus the operation's fields). */
export type DomainBody = { status: 'success' | 'error'; [field: string]: unknown };

export interface DomainAnswer {
  statusCode: number;
  body: DomainBody | { status: 'running'; execution_id: string; status_url: string };
}

/** The `proxy_status` event each workflow carries out. */
const EVENTS: Record<DomainWorkflow, ProxyEvent> = {
  [START_CERTIFICATE_WORKFLOW]: { type: 'start-certificate' },
  [COMPLETE_CERTIFICATE_WORKFLOW]: { type: 'complete-certificate' },
  [DOMAIN_CONNECT_WORKFLOW]: { type: 'mark-step-complete', step: DNS_SWITCH_STEP },
  [DOMAIN_DISCONNECT_WORKFLOW]: { type: 'mark-disconnect-complete' },
};

/**
 * Whether the certificate kept on the distribution has expired (reconnect). The certificate
 * manager renews a NATIVE certificate by itself while its validation records stay in DNS
 * (disconnect leaves them), so only an imported free certificate expires on us.
 */
export function certificateExpired(site: Record<string, unknown> | null, now: Date): boolean {
  if (site?.certificateType === 'NATIVE') return false;
  return needsNewCertificate(typeof site?.certificateNotAfter === 'string' ? site.certificateNotAfter : null, now);
}

/**
 * The `proxy_status` refusal of an event in the record's current state, or null when the
 * table allows it: 409 `{status:'error', error, proxy_status, allowed}` (400 for a bad step).
 */
export function proxyRefusal(event: ProxyEvent, site: Record<string, unknown> | null, now: Date): { statusCode: number; body: DomainBody } | null {
  const current = typeof site?.proxyStatus === 'string' ? site.proxyStatus : null;
  const result = transition(current, event, { certificateExpired: certificateExpired(site, now) });
  if (result.ok) return null;
  return {
    statusCode: result.status,
    body: { status: 'error', error: result.message, proxy_status: current, ...(result.status === 409 ? { allowed: result.allowed } : {}) },
  };
}

/** The refusal of a workflow's operation in the record's current state, or null. */
export function domainRefusal(workflow: DomainWorkflow, site: Record<string, unknown> | null, now: Date): { statusCode: number; body: DomainBody } | null {
  return proxyRefusal(EVENTS[workflow], site, now);
}

/** Checks the request (404, 409 before anything starts) and starts the workflow; a refusal is returned as the answer. */
export async function startDomainOperation(container: Container, workflow: DomainWorkflow, orgSlug: string): Promise<{ executionId: string } | { refused: DomainAnswer }> {
  await requireBusiness(container, orgSlug);
  const refusal = domainRefusal(workflow, await container.aiSites.get(orgSlug) as Record<string, unknown> | null, container.clock.now());
  if (refusal) return { refused: refusal };
  const executionId = randomUUID();
  const input: DomainExecutionInput = { org_slug: orgSlug };
  await container.workflows.start(workflow, executionId, { ...input });
  return { executionId };
}

function answerOf(workflow: DomainWorkflow, outcome: WorkflowOutcome<DomainBody>, executionId: string, statusUrl: string, orgSlug?: string): DomainAnswer {
  // The stored response names its organization: another organization's execution id reads as unknown.
  return workflowAnswer(outcome, { workflow, executionId, statusUrl }, (error) => ({ status: 'error', error }),
    (body) => orgSlug === undefined || body.org_slug === orgSlug) as DomainAnswer;
}

/** POST: waits up to `budgetMs` for the execution just started. */
export async function awaitDomainOperation(container: Container, workflow: DomainWorkflow, executionId: string, statusUrl: string, budgetMs: number): Promise<DomainAnswer> {
  return answerOf(workflow, await awaitWorkflowOutcome<DomainBody>(container, workflow, executionId, { budgetMs, started: true }), executionId, statusUrl);
}

/** GET `<path>/{execution_id}`: the response once stored, 202 while running, 404 when unknown. */
export async function readDomainOperation(container: Container, workflow: DomainWorkflow, orgSlug: string, executionId: string, statusUrl: string): Promise<DomainAnswer> {
  return answerOf(workflow, await workflowOutcome<DomainBody>(container, workflow, executionId), executionId, statusUrl, orgSlug);
}
