/**
 * The HTTP side of the free certificate (issue 13 Part 1; D20): `POST /api/domain/start-certificate/{org_id}`
 * and `POST /api/domain/complete-certificate/{org_id}`. The ACME work (acme-client is far
 * over the route bundle budget), the DNS checks and the certificate manager / CDN calls run
 * in a one-task workflow per operation (`start-certificate`, `complete-certificate`); the
 * route checks what it can at once (404 unknown business, 409 a transition outside the
 * `proxy_status` table, with the allowed next steps), starts the execution and waits up to
 * `CERTIFICATE_WAIT_MS` for it. Finished: the operation's response. Still running: 202 with
 * the execution id and `GET <same path>/{execution_id}` to read it back.
 *
 * Light on purpose: never imports the ACME engine (app/domain-certificate.ts does, for the tasks).
 */
import { randomUUID } from 'node:crypto';
import { needsNewCertificate, transition, type ProxyEvent } from '../core/domain/states';
import type { Container } from '../container';
import { requireBusiness } from './business';
import { awaitWorkflowOutcome, workflowAnswer, workflowOutcome, type WorkflowOutcome } from './workflow-results';

export const START_CERTIFICATE_WORKFLOW = 'start-certificate' as const;
export const COMPLETE_CERTIFICATE_WORKFLOW = 'complete-certificate' as const;
export type CertificateWorkflow = typeof START_CERTIFICATE_WORKFLOW | typeof COMPLETE_CERTIFICATE_WORKFLOW;

/** D20: how long a POST waits for its execution before answering 202 (API Gateway cuts at 29 s). */
export const CERTIFICATE_WAIT_MS = 20_000;

/** The execution input: the organization only. No certificate material ever goes through a state machine. */
export interface CertificateExecutionInput {
  org_slug: string;
}

/** Response bodies of the two operations (`status: 'success'` or `'error'`, plus the operation's fields). */
export type CertificateBody = { status: 'success' | 'error'; [field: string]: unknown };

export interface CertificateAnswer {
  statusCode: number;
  body: CertificateBody | { status: 'running'; execution_id: string; status_url: string };
}

const EVENTS: Record<CertificateWorkflow, ProxyEvent> = {
  [START_CERTIFICATE_WORKFLOW]: { type: 'start-certificate' },
  [COMPLETE_CERTIFICATE_WORKFLOW]: { type: 'complete-certificate' },
};

/**
 * The `proxy_status` refusal of an operation in the record's current state, or null when the
 * table allows it: 409 `{status:'error', error, proxy_status, allowed}`.
 */
export function certificateRefusal(workflow: CertificateWorkflow, site: Record<string, unknown> | null, now: Date): { statusCode: number; body: CertificateBody } | null {
  const current = typeof site?.proxyStatus === 'string' ? site.proxyStatus : null;
  const notAfter = typeof site?.certificateNotAfter === 'string' ? site.certificateNotAfter : null;
  const result = transition(current, EVENTS[workflow], { certificateExpired: needsNewCertificate(notAfter, now) });
  if (result.ok) return null;
  return {
    statusCode: result.status,
    body: { status: 'error', error: result.message, proxy_status: current, ...(result.status === 409 ? { allowed: result.allowed } : {}) },
  };
}

/** Checks the request (404, 409 before anything starts) and starts the workflow; a refusal is returned as the answer. */
export async function startCertificateOperation(container: Container, workflow: CertificateWorkflow, orgSlug: string): Promise<{ executionId: string } | { refused: CertificateAnswer }> {
  await requireBusiness(container, orgSlug);
  const refusal = certificateRefusal(workflow, await container.aiSites.get(orgSlug) as Record<string, unknown> | null, container.clock.now());
  if (refusal) return { refused: refusal };
  const executionId = randomUUID();
  const input: CertificateExecutionInput = { org_slug: orgSlug };
  await container.workflows.start(workflow, executionId, { ...input });
  return { executionId };
}

function answerOf(workflow: CertificateWorkflow, outcome: WorkflowOutcome<CertificateBody>, executionId: string, statusUrl: string, orgSlug?: string): CertificateAnswer {
  // The stored response names its organization: another organization's execution id reads as unknown.
  return workflowAnswer(outcome, { workflow, executionId, statusUrl }, (error) => ({ status: 'error', error }),
    (body) => orgSlug === undefined || body.org_slug === orgSlug) as CertificateAnswer;
}

/** POST: waits up to `budgetMs` for the execution just started. */
export async function awaitCertificateOperation(container: Container, workflow: CertificateWorkflow, executionId: string, statusUrl: string, budgetMs: number): Promise<CertificateAnswer> {
  return answerOf(workflow, await awaitWorkflowOutcome<CertificateBody>(container, workflow, executionId, { budgetMs, started: true }), executionId, statusUrl);
}

/** GET `<path>/{execution_id}`: the response once finished, 202 while running, 404 when unknown. */
export async function readCertificateOperation(container: Container, workflow: CertificateWorkflow, orgSlug: string, executionId: string, statusUrl: string): Promise<CertificateAnswer> {
  return answerOf(workflow, await workflowOutcome<CertificateBody>(container, workflow, executionId), executionId, statusUrl, orgSlug);
}
