/**
 * The free certificate of the domain connection (issue 13 Part 1), as the start-certificate
 * and complete-certificate tasks run it. Each returns the operation's HTTP status and body
 * (stored for the route by the task, D20); a refusal or a failure of the work is such a
 * response, not a thrown error.
 *
 * start-certificate (PENDING_VALIDATION, SSL_VALIDATING, DISCONNECTED with an expired certificate):
 *   1. the domain is the business URL's host (analyzeDomain): platform hosts, IPs, an apex
 *      without APEX_GATEWAY_IPS... are refused with the reason (400);
 *   2. CAA pre-check of every certificate name for the free CA and the certificate manager of
 *      the later native certificate: a forbidding record is reported (400) before ordering;
 *   3. the names' original A/AAAA/CNAME/CAA records are captured (for disconnect);
 *   4. one ACME order for every name; `certTmp` keeps order/challenge URLs (certTmpOf: no key);
 *   5. the AI-site record gets the analysis fields, the capture, `certTmp`, and
 *      `proxy_status` → SSL_VALIDATING; the answer lists the TXT records.
 * complete-certificate (PENDING_VALIDATION, SSL_VALIDATING):
 *   1. every TXT record must be visible on the domain's authoritative servers (else 409 naming
 *      the missing records, nothing changed: completing a challenge too early loses the order);
 *   2. the order is completed and finalized (the certificate's key is created there);
 *   3. the CDN gateway attaches it (AWS: certificate manager import + distribution update;
 *      locally: aliases indexed for the local CDN proxy). The key lives only in this call.
 *   4. `certificate_type` FREE_CA, ARN, notAfter; `proxy_status` → SSL_VALIDATED.
 */
import { acmeChallengeRecord, analysisFields, analyzeDomain, namesToCapture, originalFields } from '../core/domain/analysis';
import { AMAZON, LETS_ENCRYPT } from '../core/domain/caa';
import { CertificateOrderInvalidError, certTmpOf, txtRecordsOf, type CertificateTmp } from '../core/domain/certificate';
import { relativeHost, type CapturedByName, type DnsRecord } from '../core/domain/records';
import { AppError } from '../core/errors';
import type { CdnGateway } from '../core/proxy/types';
import type { Container } from '../container';
import type { CertificateEngines } from '../engines/certificates';
import { createLogger } from '../logger';
import { requireBusiness } from './business';
import { certificateRefusal, COMPLETE_CERTIFICATE_WORKFLOW, START_CERTIFICATE_WORKFLOW, type CertificateBody } from './domain-certificate-run';

export interface CertificateDeps extends CertificateEngines {
  gateway: CdnGateway;
}

export interface CertificateOperationResult {
  httpStatus: number;
  body: CertificateBody;
}

/** Not wired yet: the webmaster verification token of Part 1 (start-google-verification is later work). */
export const WEBMASTER_NOTE = 'webmaster verification is not wired yet: only the certificate TXT records are returned';

const log = createLogger({ component: 'domain-certificate' });

export async function runStartCertificate(container: Container, deps: CertificateDeps, orgSlug: string): Promise<CertificateOperationResult> {
  return guarded(orgSlug, 'start-certificate', async () => {
    const business = await requireBusiness(container, orgSlug);
    const site = await container.aiSites.get(orgSlug);
    const refusal = certificateRefusal(START_CERTIFICATE_WORKFLOW, site, container.clock.now());
    if (refusal) return { httpStatus: refusal.statusCode, body: { ...refusal.body, org_slug: orgSlug } };

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
    const records: DnsRecord[] = tmp.challenges.map((c) => acmeChallengeRecord(analysis, c.name, c.keyAuthorization));
    const next = 'SSL_VALIDATING';
    await container.aiSites.patch(orgSlug, business.id, {
      ...analysisFields(analysis),
      ...originalFields(analysis, captured),
      domainConnectionType: analysis.type,
      certificateNames: analysis.certificateNames,
      capturedRecords: captured,
      certTmp: tmp,
      proxyStatus: next,
    });
    log.info('certificate order started', { org_slug: orgSlug, names: analysis.certificateNames, records: records.length });
    return {
      httpStatus: 200,
      body: {
        status: 'success', org_slug: orgSlug, proxy_status: next,
        custom_domain: analysis.customDomain, naked_domain: analysis.nakedDomain, domain_type: analysis.type,
        records: records.map(({ type, host, value, ttl }) => ({ type, host, value, ttl })),
        note: WEBMASTER_NOTE,
      },
    };
  });
}

export async function runCompleteCertificate(container: Container, deps: CertificateDeps, orgSlug: string): Promise<CertificateOperationResult> {
  return guarded(orgSlug, 'complete-certificate', async () => {
    const business = await requireBusiness(container, orgSlug);
    const site = await container.aiSites.get(orgSlug);
    const refusal = certificateRefusal(COMPLETE_CERTIFICATE_WORKFLOW, site, container.clock.now());
    if (refusal) return { httpStatus: refusal.statusCode, body: { ...refusal.body, org_slug: orgSlug } };
    const status = site?.proxyStatus ?? null;
    const tmp = site?.certTmp as CertificateTmp | null | undefined;
    if (!tmp?.orderUrl) return error(orgSlug, 409, 'no certificate order to complete: call start-certificate first', { proxy_status: status, allowed: ['start-certificate'] });
    const distributionId = typeof site?.cdnDistributionId === 'string' ? site.cdnDistributionId : null;
    if (!distributionId) return error(orgSlug, 409, 'the business has no CDN distribution yet', { proxy_status: status });

    const zone = typeof site?.nakedDomain === 'string' ? site.nakedDomain : null;
    const expected = txtRecordsOf(tmp);
    const checks = await Promise.all(expected.map(async (r) => ({ record: r, check: await deps.dns.txtOnAuthoritative(r.host, r.value) })));
    const missing = checks.filter((c) => !c.check.found);
    if (missing.length > 0) {
      return error(orgSlug, 409, `TXT record not found on the domain's authoritative servers yet: ${missing.map((m) => `${m.record.host} = "${m.record.value}"`).join(', ')}; `
        + 'add it (or wait for DNS to update) and complete again', {
        code: 'txt_not_found', proxy_status: status,
        missing: missing.map(({ record, check }) => ({
          type: 'TXT', host: zone ? relativeHost(record.host, zone) : record.host, name: record.host, value: record.value, ttl: record.ttl,
          source: check.source, ...(check.source === 'resolver' ? { actual: check.resolverValues ?? [] } : {}),
        })),
      });
    }

    const issued = await deps.acme.completeOrder(tmp);
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
    await container.aiSites.patch(orgSlug, business.id, {
      certificateArn: attached.certificateArn,
      certificateType: 'FREE_CA',
      certificateNotAfter: attached.notAfter,
      certificateAliases: attached.aliases,
      certTmp: null,
      proxyStatus: next,
    });
    log.info('certificate issued and attached', { org_slug: orgSlug, names: attached.aliases, not_after: attached.notAfter });
    return {
      httpStatus: 200,
      body: {
        status: 'success', org_slug: orgSlug, proxy_status: next,
        certificate_type: 'FREE_CA', certificate_arn: attached.certificateArn, not_after: attached.notAfter, aliases: attached.aliases,
      },
    };
  });
}

/** Known failures become the response (status and reason); anything else too, as 500, logged. */
async function guarded(orgSlug: string, operation: string, work: () => Promise<CertificateOperationResult>): Promise<CertificateOperationResult> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof CertificateOrderInvalidError) return error(orgSlug, 409, err.message, { code: 'order_invalid', names: err.names, allowed: ['start-certificate'] });
    if (err instanceof AppError) return error(orgSlug, err.status, err.message);
    log.error(`${operation} failed`, { org_slug: orgSlug, error: err instanceof Error ? err.message : String(err) });
    return error(orgSlug, 500, `${operation} failed: ${err instanceof Error ? err.message : String(err)}`);
  }
}

function error(orgSlug: string, httpStatus: number, message: string, extra: Record<string, unknown> = {}): CertificateOperationResult {
  return { httpStatus, body: { status: 'error', error: message, org_slug: orgSlug, ...extra } };
}
