/**
 * Disconnect (spec "Disconnect"; issue 13 item 4):
 * - `POST /api/domain/disconnect-proxy/{org_id}` (DEPLOYED): the records that restore what the
 *   configured names held when the connection started (captured by start-certificate): the
 *   proxy's records to remove, then the original ones. Nothing changes yet.
 * - `POST /api/domain/mark-disconnect-complete/{org_id}` (DEPLOYED, the domain-disconnect
 *   workflow): the records are checked live and reported (the proxy keeps serving whatever
 *   still points at it, so nothing depends on them), the public origin goes back to the
 *   AI-site host and the site is redeployed (undone when that fails), `proxy_status` →
 *   DISCONNECTED. The distribution, its aliases and the certificate stay for a reconnect.
 */
import { part2Records, restoreRecords } from '../../core/domain/analysis';
import type { CapturedByName, DnsChecker } from '../../core/domain/records';
import type { Container } from '../../container';
import { createLogger } from '../../logger';
import { connectedAnalysis, domainError, finishTransition, guardedOperation, loadDomainContext, operationRefusal, overtaken, refusalResult, republishUnder, type DomainContext, type DomainOperationResult } from './context';
import { DOMAIN_DISCONNECT_WORKFLOW, proxyRefusal } from './operation-run';

const log = createLogger({ component: 'domain-disconnect' });

/** The restore plan of a connected business, or the refusal. */
function restorePlanOf(container: Container, context: DomainContext, orgSlug: string) {
  const analyzed = connectedAnalysis(container, context, orgSlug);
  if ('refused' in analyzed) return analyzed;
  const site = context.fields;
  const cdnDomain = typeof site?.cdnDomain === 'string' ? site.cdnDomain : '';
  const captured = (site?.capturedRecords ?? {}) as CapturedByName;
  const part2 = part2Records(analyzed.analysis, { cdnDomain, apexGatewayIps: container.config.cdn.apexGatewayIps, captured });
  if (!part2.ok) return { refused: domainError(orgSlug, 400, part2.reason, { code: part2.code, proxy_status: context.proxyStatus }) };
  return { analysis: analyzed.analysis, plan: restoreRecords(analyzed.analysis, captured, part2.records) };
}

export async function disconnectRecords(container: Container, orgSlug: string): Promise<DomainOperationResult> {
  const context = await loadDomainContext(container, orgSlug);
  const refused = refusalResult(proxyRefusal({ type: 'disconnect-proxy' }, context.fields, container.clock.now()), orgSlug);
  if (refused) return refused;
  const planned = restorePlanOf(container, context, orgSlug);
  if ('refused' in planned) return planned.refused;
  return {
    httpStatus: 200,
    body: {
      status: 'success', org_slug: orgSlug, proxy_status: context.proxyStatus,
      custom_domain: planned.analysis.customDomain, naked_domain: planned.analysis.nakedDomain,
      remove: planned.plan.remove, records: planned.plan.restore,
      note: 'remove the proxy records, add the original ones back, then call mark-disconnect-complete; the certificate\'s validation records can stay (a reconnect reuses the certificate)',
    },
  };
}

export async function runDisconnectComplete(container: Container, dns: Pick<DnsChecker, 'verifyRecords'>, orgSlug: string, executionId: string): Promise<DomainOperationResult> {
  return guardedOperation(orgSlug, 'mark-disconnect-complete', async () => {
    const context = await loadDomainContext(container, orgSlug);
    const site = context.fields;
    const refused = operationRefusal(container, context, orgSlug, { workflow: DOMAIN_DISCONNECT_WORKFLOW, executionId, executionField: 'domainDisconnectExecution', reached: 'DISCONNECTED' });
    if (refused) return refused;
    const planned = restorePlanOf(container, context, orgSlug);
    if ('refused' in planned) return planned.refused;
    const records = await dns.verifyRecords(planned.plan.restore.map((r) => ({ type: r.type, host: r.host, value: r.value })), { zone: planned.analysis.nakedDomain });

    const redeployed = await republishUnder(container, context, orgSlug, null);
    const moved = await finishTransition(container, context, orgSlug, { event: 'mark-disconnect-complete', executionId, executionField: 'domainDisconnectExecution' }, {
      proxyStatus: 'DISCONNECTED', disconnectedAt: container.clock.now().toISOString(),
    });
    if (!moved) return overtaken(orgSlug, 'mark-disconnect-complete');
    log.info('domain disconnected', { org_slug: orgSlug, domain: planned.analysis.customDomain, restored_found: records.filter((r) => r.found).length, restored: records.length });
    return {
      httpStatus: 200,
      body: {
        status: 'success', org_slug: orgSlug, proxy_status: 'DISCONNECTED', custom_domain: planned.analysis.customDomain,
        records, all_restored: records.every((r) => r.found), redeployed,
        certificate_type: site?.certificateType ?? null, certificate_not_after: site?.certificateNotAfter ?? null,
      },
    };
  });
}
