/**
 * `POST /api/domain/verify-dns/{org_id}` (D21): a live look at the records the user was asked
 * to add at the current step, each with what was expected, what DNS answers and whether it
 * matches: the certificate's TXT records while it validates (SSL_VALIDATING; its CNAMEs when its
 * challenges are delegated, D203), the Part 2
 * records (the switch and the native certificate's validation CNAMEs) once the certificate is
 * attached (SSL_VALIDATED, DEPLOYED, and DISCONNECTED for a reconnect); with them, the
 * webmaster verification TXT record while the domain is not verified.
 */
import { part2Records } from '../../core/domain/analysis';
import { txtRecordsOf, type CertificateTmp } from '../../core/domain/certificate';
import type { AcmeDelegation } from '../../core/domain/delegation';
import type { DnsChecker, ExpectedDnsRecord } from '../../core/domain/records';
import type { Container } from '../../container';
import { connectedAnalysis, domainError, loadDomainContext, type DomainOperationResult } from './context';
import { nativeValidationRecords } from './native-certificate';

export async function verifyDns(container: Container, orgSlug: string, dns: DnsChecker): Promise<DomainOperationResult> {
  const context = await loadDomainContext(container, orgSlug);
  const site = context.fields;
  const status = context.proxyStatus;
  // The domain the certificate and records are for (a changed business URL is a 409, as for every step).
  const analyzed = connectedAnalysis(container, context, orgSlug);
  if ('refused' in analyzed) return analyzed.refused;
  const { analysis } = analyzed;

  let step: 'certificate' | 'dns_switch';
  let expected: ExpectedDnsRecord[];
  let zone: string | undefined;
  const certTmp = site?.certTmp as CertificateTmp | null | undefined;
  if (status === 'SSL_VALIDATING' && certTmp) {
    step = 'certificate';
    const delegation = site?.acmeDelegation as AcmeDelegation | null | undefined;
    expected = delegation
      ? Object.entries(delegation.names).map(([host, value]) => ({ type: 'CNAME', host, value }))
      : txtRecordsOf(certTmp).map((r) => ({ type: 'TXT', host: r.host, value: r.value }));
  } else if ((status === 'SSL_VALIDATED' || status === 'DEPLOYED' || status === 'DISCONNECTED') && typeof site?.cdnDomain === 'string') {
    const part2 = part2Records(analysis, {
      cdnDomain: site.cdnDomain, apexGatewayIps: container.config.cdn.apexGatewayIps,
      validationRecords: nativeValidationRecords(site),
    });
    if (!part2.ok) return domainError(orgSlug, 400, part2.reason, { code: part2.code, proxy_status: status });
    step = 'dns_switch';
    expected = part2.records.map((r) => ({ type: r.type, host: r.host, value: r.value }));
    zone = analysis.nakedDomain;
  } else {
    return domainError(orgSlug, 409, `no DNS records to check while proxy_status is ${status ?? 'unset'}: start-certificate first`, { proxy_status: status });
  }
  const token = site?.googleVerificationToken;
  if (typeof token === 'string' && site?.googleVerificationStatus !== 'VERIFIED') {
    expected.push({ type: 'TXT', host: zone ? '@' : analysis.nakedDomain, value: token });
  }
  const records = await dns.verifyRecords(expected, zone ? { zone } : undefined);
  return { httpStatus: 200, body: { status: 'success', proxy_status: status, step, all_found: records.every((r) => r.found), records } };
}
