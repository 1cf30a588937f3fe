/**
 * What the domain-connection operations share: loading the business, its AI-site record and
 * the analysis of its domain, and answering as `{httpStatus, body}` (the operations' response,
 * stored for a route by a task, D20) instead of throwing: a refusal or a failure is such a
 * response, never an exception the workflow engine would retry.
 */
import { analyzeDomain, type DomainAnalysis } from '../../core/domain/analysis';
import { statesBefore, type ProxyEventName } from '../../core/domain/states';
import { AppError } from '../../core/errors';
import type { AiSiteRecord, Business } from '../../core/model';
import type { Container } from '../../container';
import { createLogger } from '../../logger';
import { requireBusiness } from '../business';
import { deploySite } from '../site';
import { domainRefusal, type DomainBody, type DomainWorkflow } from './operation-run';

export interface DomainOperationResult {
  httpStatus: number;
  body: DomainBody;
}

export interface DomainContext {
  business: Business;
  site: AiSiteRecord | null;
  /** The record as plain fields, for the state checks. */
  fields: Record<string, unknown> | null;
  proxyStatus: string | null;
}

const log = createLogger({ component: 'domain-connection' });

export async function loadDomainContext(container: Container, orgSlug: string): Promise<DomainContext> {
  const business = await requireBusiness(container, orgSlug);
  const site = await container.aiSites.get(orgSlug);
  const fields = site as Record<string, unknown> | null;
  return { business, site, fields, proxyStatus: typeof fields?.proxyStatus === 'string' ? fields.proxyStatus : null };
}

/**
 * The analysis of the business's domain, which must still be the one the certificate was
 * issued for (the business URL can change after Part 1): else a refusal.
 */
export function connectedAnalysis(container: Container, context: DomainContext, orgSlug: string): { analysis: DomainAnalysis } | { refused: DomainOperationResult } {
  const analyzed = analyzeDomain(context.business.url, { apexGatewayIps: container.config.cdn.apexGatewayIps });
  if (!analyzed.ok) return { refused: domainError(orgSlug, 400, analyzed.reason, { code: analyzed.code, proxy_status: context.proxyStatus }) };
  const certified = context.fields?.customDomain;
  if (typeof certified === 'string' && certified !== analyzed.analysis.customDomain) {
    return {
      refused: domainError(orgSlug, 409, `the business URL's domain is now ${analyzed.analysis.customDomain}, but the certificate and records are for ${certified}: `
        + 'disconnect and start the connection again for the new domain', { code: 'domain_changed', proxy_status: context.proxyStatus }),
    };
  }
  return { analysis: analyzed.analysis };
}

/**
 * The state-table refusal of a workflow's operation, or null when it may go on. A retry of
 * the execution that already moved the record (`executionField` names it, `reached` is the
 * state it moved to) goes on instead of being refused: each step is idempotent.
 */
export function operationRefusal(
  container: Container, context: DomainContext, orgSlug: string,
  operation: { workflow: DomainWorkflow; executionId: string; executionField: string; reached: string },
): DomainOperationResult | null {
  if (context.proxyStatus === operation.reached && context.fields?.[operation.executionField] === operation.executionId) return null;
  return refusalResult(domainRefusal(operation.workflow, context.fields, container.clock.now()), orgSlug);
}

/** A state-table refusal (or none) as the operation's response, naming the organization. */
export function refusalResult(refusal: { statusCode: number; body: DomainBody } | null, orgSlug: string): DomainOperationResult | null {
  return refusal ? { httpStatus: refusal.statusCode, body: { ...refusal.body, org_slug: orgSlug } } : null;
}

/**
 * Serves the site under another public origin (the custom domain, or null for the AI-site
 * host) and redeploys it; when the redeploy fails, the previous origin is put back and, if
 * the new release went live before the failure, the recorded release is made current again,
 * so the record never names an origin the published files do not. No release yet: nothing
 * to redeploy.
 */
export async function republishUnder(
  container: Container, context: DomainContext, orgSlug: string, publicOrigin: string | null, fields: Record<string, unknown> = {},
): Promise<{ release_id: string; file_count: number } | null> {
  const previous = typeof context.fields?.publicOrigin === 'string' ? context.fields.publicOrigin : null;
  await container.aiSites.patch(orgSlug, context.business.id, { publicOrigin, ...fields });
  if (typeof context.fields?.releaseId !== 'string') return null;
  try {
    const release = await deploySite(container, { orgSlug, files: [] });
    return { release_id: release.releaseId, file_count: release.fileCount };
  } catch (err) {
    const recorded = context.fields.releaseId;
    if ((await container.siteStore.currentReleaseId(orgSlug)) !== recorded) await container.siteStore.rollback(orgSlug, recorded);
    await container.aiSites.patch(orgSlug, context.business.id, { publicOrigin: previous });
    throw err;
  }
}

/**
 * The state change that ends an operation, written only while the record is still in a state
 * the event moves from (or already names this execution, a retry): false when a concurrent
 * operation (a double-click) moved it first, which the caller answers with a 409.
 */
export async function finishTransition(
  container: Container, context: DomainContext, orgSlug: string,
  operation: { event: ProxyEventName; executionId: string; executionField: string }, fields: Record<string, unknown>,
): Promise<boolean> {
  return container.aiSites.patchWhenStatus(orgSlug, context.business.id, { ...fields, [operation.executionField]: operation.executionId }, {
    proxyStatusIn: statesBefore(operation.event), orExecution: { field: operation.executionField, id: operation.executionId },
  });
}

/** The 409 of an operation another one overtook. */
export function overtaken(orgSlug: string, operation: string): DomainOperationResult {
  return domainError(orgSlug, 409, `another ${operation} changed the domain connection while this one ran; read get-proxy for the current state`, { code: 'concurrent_operation' });
}

export function domainError(orgSlug: string, httpStatus: number, message: string, extra: Record<string, unknown> = {}): DomainOperationResult {
  return { httpStatus, body: { status: 'error', error: message, org_slug: orgSlug, ...extra } };
}

/**
 * Runs an operation: known failures (AppError) become the response with their status,
 * anything else a logged 500 naming the operation; `mapError` may claim an error first.
 */
export async function guardedOperation(
  orgSlug: string,
  operation: string,
  work: () => Promise<DomainOperationResult>,
  mapError: (err: unknown) => DomainOperationResult | null = () => null,
): Promise<DomainOperationResult> {
  try {
    return await work();
  } catch (err) {
    const mapped = mapError(err);
    if (mapped) return mapped;
    if (err instanceof AppError) return domainError(orgSlug, err.status, err.message);
    const message = err instanceof Error ? err.message : String(err);
    log.error(`${operation} failed`, { org_slug: orgSlug, error: message });
    return domainError(orgSlug, 500, `${operation} failed: ${message}`);
  }
}
