/**
 * The free certificate of the domain connection (issue 13 Part 1), as the start-certificate
 * and complete-certificate tasks run it. Each returns the operation's HTTP status and body
 * (stored for the route by the task, D20); a refusal or a failure of the work is such a
 * response, not a thrown error.
 *
 * With delegated DNS-01 configured (ACME_DNS_ZONE_ID/ACME_DNS_ZONE_NAME, D203; app/domain/
 * delegation.ts) the customer adds one CNAME per name instead of each order's TXT records: start
 * answers the CNAMEs (and writes the TXT values itself once they are in place), complete checks
 * the CNAMEs instead of the TXT records, writes the values and removes them after the order.
 *
 * start-certificate (PENDING_VALIDATION, SSL_VALIDATING, DISCONNECTED with an expired certificate):
 *   1. the domain is the business URL's host (analyzeDomain): platform hosts, IPs, an apex
 *      without APEX_GATEWAY_IPS... are refused with the reason (400);
 *   2. CAA pre-check of every certificate name for the free CA and the certificate manager of
 *      the later native certificate: a forbidding record is reported (400) before ordering;
 *   3. the names' original A/AAAA/CNAME/CAA records are captured (for disconnect);
 *   4. one ACME order for every name; `certTmp` keeps order/challenge URLs (certTmpOf: no key);
 *   5. the AI-site record gets the analysis fields, the capture, `certTmp`, and
 *      `proxy_status` → SSL_VALIDATING;
 *   6. a webmaster verification token for the domain's property (app/domain/verification.ts;
 *      skipped with the reason when the console is not configured, never blocking the
 *      certificate); the answer lists every TXT record, the certificate's and the token's.
 * complete-certificate (PENDING_VALIDATION, SSL_VALIDATING):
 *   1. every TXT record must be visible on the domain's authoritative servers (else 409 naming
 *      the missing records, nothing changed: completing a challenge too early loses the order);
 *   2. the order is completed and finalized (the certificate's key is created there);
 *   3. the CDN gateway attaches it (AWS: certificate manager import + distribution update;
 *      locally: aliases indexed for the local CDN proxy). The key lives only in this call.
 *   4. `certificate_type` FREE_CA, ARN, notAfter; `proxy_status` → SSL_VALIDATED;
 *   5. the native certificate is requested (app/domain/native-certificate.ts) and the answer
 *      lists the Part 2 records: the switch and the native certificate's validation CNAMEs.
 */
import { acmeChallengeRecord, analysisFields, analyzeDomain, namesToCapture, originalFields, part2Records } from '../../core/domain/analysis';
import { AMAZON, LETS_ENCRYPT } from '../../core/domain/caa';
import { CertificateOrderInvalidError, certTmpOf, txtRecordsOf, type CertificateTmp } from '../../core/domain/certificate';
import { delegationCnameRecords, type AcmeDelegation } from '../../core/domain/delegation';
import { relativeHost, type CapturedByName, type DnsRecord } from '../../core/domain/records';
import type { CdnGateway } from '../../core/proxy/types';
import type { Container } from '../../container';
import type { CertificateEngines } from '../../engines/certificates';
import { createLogger } from '../../logger';
import type { WebmasterClient } from '../../engines/search-notify';
import { domainError as error, guardedOperation, loadDomainContext, refusalResult, type DomainOperationResult } from './context';
import { delegatedChallengesRefusal, removeDelegatedChallenges, startDelegatedChallenges } from './delegation';
import { requestNativeCertificate, type NativeCertificateState } from './native-certificate';
import { COMPLETE_CERTIFICATE_WORKFLOW, domainRefusal, START_CERTIFICATE_WORKFLOW } from './operation-run';
import { requestVerificationToken, type TokenOutcome } from './verification';

export interface CertificateDeps extends CertificateEngines {
  gateway: CdnGateway;
  webmaster: Pick<WebmasterClient, 'requestVerificationToken'>;
}

export type CertificateOperationResult = DomainOperationResult;

const log = createLogger({ component: 'domain-certificate' });

export async function runStartCertificate(container: Container, deps: CertificateDeps, orgSlug: string): Promise<CertificateOperationResult> {
  return guarded(orgSlug, 'start-certificate', async () => {
    const { business, site, fields } = await loadDomainContext(container, orgSlug);
    const refused = refusalResult(domainRefusal(START_CERTIFICATE_WORKFLOW, fields, container.clock.now()), orgSlug);
    if (refused) return refused;

    const analyzed = analyzeDomain(business.url, { apexGatewayIps: container.config.cdn.apexGatewayIps });
    if (!analyzed.ok) return error(orgSlug, 400, analyzed.reason, { code: analyzed.code, proxy_status: site?.proxyStatus ?? null });
    const analysis = analyzed.analysis;

    const caa = await Promise.all(analysis.certificateNames.map((name) => deps.dns.caaAllows(name, [LETS_ENCRYPT, AMAZON])));
    const forbidden = caa.filter((c) => !c.allowed);
    if (forbidden.length > 0) {
      const reasons = forbidden.flatMap((c) => c.issuers.filter((i) => !i.allowed).map((i) => `${c.name}: ${i.reason}`));
      return error(orgSlug, 400, `CAA records forbid the certificate: ${reasons.join('; ')}`, {
        code: 'caa_forbidden', proxy_status: site?.proxyStatus ?? null,
        caa: forbidden.map((c) => ({ name: c.name, relevant_name: c.relevantName, issuers: c.issuers })),
      });
    }

    const captured: CapturedByName = {};
    for (const name of namesToCapture(analysis)) captured[name] = await deps.dns.captureRecords(name);

    const order = await deps.acme.startOrder(analysis.certificateNames);
    const tmp = certTmpOf(order);
    const { delegation, summary: delegated } = await startDelegatedChallenges(orgSlug, deps, analysis.certificateNames, tmp.challenges);
    const records: DnsRecord[] = delegation
      ? delegationCnameRecords(delegation, analysis.nakedDomain)
      : tmp.challenges.map((c) => acmeChallengeRecord(analysis, c.name, c.keyAuthorization));
    const token = await requestVerificationToken(container, deps.webmaster, { orgSlug, entityId: business.id, site: site as Record<string, unknown> | null, analysis });
    if (token.status === 'token') records.push(token.record);
    const started = await advance(container, orgSlug, business.id, 'SSL_VALIDATING', {
      ...analysisFields(analysis),
      ...originalFields(analysis, captured),
      domainConnectionType: analysis.type,
      certificateNames: analysis.certificateNames,
      capturedRecords: captured,
      certTmp: tmp,
      // Kept for complete-certificate and verify-dns: the names this order's challenges are delegated to.
      acmeDelegation: delegation,
    }, {
      custom_domain: analysis.customDomain, naked_domain: analysis.nakedDomain, domain_type: analysis.type,
      records: records.map(({ type, host, value, ttl }) => ({ type, host, value, ttl })),
      webmaster_verification: webmasterSummary(token),
      acme_delegation: delegated,
    });
    log.info('certificate order started', { org_slug: orgSlug, names: analysis.certificateNames, records: records.length, delegated: delegated.status });
    return started;
  });
}

export async function runCompleteCertificate(container: Container, deps: CertificateDeps, orgSlug: string): Promise<CertificateOperationResult> {
  return guarded(orgSlug, 'complete-certificate', async () => {
    const { business, site, fields, proxyStatus: status } = await loadDomainContext(container, orgSlug);
    const refused = refusalResult(domainRefusal(COMPLETE_CERTIFICATE_WORKFLOW, fields, container.clock.now()), orgSlug);
    if (refused) return refused;
    const tmp = site?.certTmp as CertificateTmp | null | undefined;
    if (!tmp?.orderUrl) return error(orgSlug, 409, 'no certificate order to complete: call start-certificate first', { proxy_status: status, allowed: ['start-certificate'] });
    const distributionId = typeof site?.cdnDistributionId === 'string' ? site.cdnDistributionId : null;
    if (!distributionId) return error(orgSlug, 409, 'the business has no CDN distribution yet', { proxy_status: status });

    const zone = typeof site?.nakedDomain === 'string' ? site.nakedDomain : null;
    const delegation = site?.acmeDelegation as AcmeDelegation | null | undefined;
    const notReady = delegation
      ? await delegatedChallengesRefusal(orgSlug, status, zone, deps, delegation, tmp.challenges)
      : await txtRefusal(orgSlug, status, zone, deps.dns, tmp);
    if (notReady) return notReady;

    const issued = await deps.acme.completeOrder(tmp);
    if (delegation) await removeDelegatedChallenges(deps.delegation, delegation, tmp.challenges);
    const existingArn = typeof site?.certificateArn === 'string' && site.certificateArn.startsWith('arn:') ? site.certificateArn : null;
    const attached = await deps.gateway.attachCertificate(distributionId, {
      aliases: tmp.names,
      certificate: {
        certificatePem: issued.certificatePem,
        chainPem: issued.chainPem,
        privateKeyPem: issued.privateKeyPem,
        notAfter: issued.notAfter,
        existingArn,
        tags: { service: 'ai-visibility', org: orgSlug },
      },
    });
    const next = 'SSL_VALIDATED';
    const native = await requestNativeCertificate(container, deps.gateway, {
      orgSlug, entityId: business.id, distributionId, names: tmp.names, idempotencyKey: `${orgSlug}|${tmp.orderUrl}`, site: site as Record<string, unknown> | null,
    });
    const attachedResult = await advance(container, orgSlug, business.id, next, {
      certificateArn: attached.certificateArn,
      certificateType: 'FREE_CA',
      certificateNotAfter: attached.notAfter,
      certificateAliases: attached.aliases,
      certTmp: null,
    }, {
      certificate_type: 'FREE_CA', certificate_arn: attached.certificateArn, not_after: attached.notAfter, aliases: attached.aliases,
      ...switchRecords(container, business.url, site as Record<string, unknown> | null, native),
    });
    log.info('certificate issued and attached', { org_slug: orgSlug, names: attached.aliases, not_after: attached.notAfter });
    return attachedResult;
  });
}

/** The 409 naming the order's TXT records not yet on the domain's authoritative servers (completing early loses the order), or null. */
async function txtRefusal(orgSlug: string, status: string | null, zone: string | null, dns: CertificateDeps['dns'], tmp: CertificateTmp): Promise<CertificateOperationResult | null> {
  const checks = await Promise.all(txtRecordsOf(tmp).map(async (r) => ({ record: r, check: await dns.txtOnAuthoritative(r.host, r.value) })));
  const missing = checks.filter((c) => !c.check.found);
  if (missing.length === 0) return null;
  return error(orgSlug, 409, `TXT record not found on the domain's authoritative servers yet: ${missing.map((m) => `${m.record.host} = "${m.record.value}"`).join(', ')}; `
    + 'add it (or wait for DNS to update) and complete again', {
    code: 'txt_not_found', proxy_status: status,
    missing: missing.map(({ record, check }) => ({
      type: 'TXT', host: zone ? relativeHost(record.host, zone) : record.host, name: record.host, value: record.value, ttl: record.ttl,
      source: check.source, ...(check.source === 'resolver' ? { actual: check.resolverValues ?? [] } : {}),
    })),
  });
}

/** Moves the record to `next` with the step's fields, and answers the step's success body. */
async function advance(
  container: Container, orgSlug: string, entityId: string, next: string, fields: Record<string, unknown>, body: Record<string, unknown>,
): Promise<CertificateOperationResult> {
  await container.aiSites.patch(orgSlug, entityId, { ...fields, proxyStatus: next });
  return { httpStatus: 200, body: { status: 'success', org_slug: orgSlug, proxy_status: next, ...body } };
}

/** The Part 2 records (switch + native certificate validation), as the next step's instructions. */
function switchRecords(container: Container, businessUrl: string, site: Record<string, unknown> | null, native: NativeCertificateState): Record<string, unknown> {
  const native_certificate = { status: native.status, certificate_arn: native.arn || null, ...(native.reason ? { reason: native.reason } : {}) };
  const analyzed = analyzeDomain(businessUrl, { apexGatewayIps: container.config.cdn.apexGatewayIps });
  const cdnDomain = typeof site?.cdnDomain === 'string' ? site.cdnDomain : null;
  if (!analyzed.ok || !cdnDomain) return { native_certificate };
  const part2 = part2Records(analyzed.analysis, {
    cdnDomain, apexGatewayIps: container.config.cdn.apexGatewayIps,
    captured: site?.capturedRecords as CapturedByName | undefined,
    validationRecords: native.validationRecords,
  });
  if (!part2.ok) return { native_certificate, next_step_error: part2.reason };
  return { native_certificate, next_records: part2.records, next_remove: part2.remove, next_skipped: part2.skipped };
}

function webmasterSummary(token: TokenOutcome): Record<string, unknown> {
  switch (token.status) {
    case 'token': return { status: 'token', google_verification_status: token.verification };
    case 'verified': return { status: 'verified', google_verification_status: 'VERIFIED' };
    default: return { status: token.status, reason: token.reason };
  }
}

/** Known failures become the response (status and reason); an invalid order says to start again. */
function guarded(orgSlug: string, operation: string, work: () => Promise<CertificateOperationResult>): Promise<CertificateOperationResult> {
  return guardedOperation(orgSlug, operation, work, (err) => (err instanceof CertificateOrderInvalidError
    ? error(orgSlug, 409, err.message, { code: 'order_invalid', names: err.names, allowed: ['start-certificate'] })
    : null));
}
