/**
 * `POST /api/domain/verify-dns/{org_id}` (D21): a live look at the records the user was asked
 * to add at the current step, each with what was expected, what DNS answers and whether it
 * matches: the certificate's TXT records while it validates (SSL_VALIDATING), the Part 2
 * records (the switch and the native certificate's validation CNAMEs) once the certificate is
 * attached (SSL_VALIDATED, DEPLOYED, and DISCONNECTED for a reconnect); with them, the
 * webmaster verification TXT record while the domain is not verified.
 */
import { analyzeDomainOrThrow, part2Records } from '../core/domain/analysis';
import { txtRecordsOf, type CertificateTmp } from '../core/domain/certificate';
import type { DnsChecker, ExpectedDnsRecord } from '../core/domain/records';
import { ConflictError, ValidationError } from '../core/errors';
import type { Container } from '../container';
import { requireBusiness } from './business';
import { nativeValidationRecords } from './domain-native-certificate';

export async function verifyDns(container: Container, orgSlug: string, dns: DnsChecker) {
  const business = await requireBusiness(container, orgSlug);
  const site = await container.aiSites.get(orgSlug);
  const status = typeof site?.proxyStatus === 'string' ? site.proxyStatus : null;
  const analysis = analyzeDomainOrThrow(business.url, { apexGatewayIps: container.config.cdn.apexGatewayIps }, (reason) => new ValidationError(reason));

  let step: 'certificate' | 'dns_switch';
  let expected: ExpectedDnsRecord[];
  let zone: string | undefined;
  const certTmp = site?.certTmp as CertificateTmp | null | undefined;
  if (status === 'SSL_VALIDATING' && certTmp) {
    step = 'certificate';
    expected = txtRecordsOf(certTmp).map((r) => ({ type: 'TXT', host: r.host, value: r.value }));
  } else if ((status === 'SSL_VALIDATED' || status === 'DEPLOYED' || status === 'DISCONNECTED') && typeof site?.cdnDomain === 'string') {
    const part2 = part2Records(analysis, {
      cdnDomain: site.cdnDomain, apexGatewayIps: container.config.cdn.apexGatewayIps,
      validationRecords: nativeValidationRecords(site as Record<string, unknown>),
    });
    if (!part2.ok) throw new ValidationError(part2.reason);
    step = 'dns_switch';
    expected = part2.records.map((r) => ({ type: r.type, host: r.host, value: r.value }));
    zone = analysis.nakedDomain;
  } else {
    throw new ConflictError(`no DNS records to check while proxy_status is ${status ?? 'unset'}: start-certificate first`);
  }
  const token = site?.googleVerificationToken;
  if (typeof token === 'string' && site?.googleVerificationStatus !== 'VERIFIED') {
    expected.push({ type: 'TXT', host: zone ? '@' : analysis.nakedDomain, value: token });
  }
  const records = await dns.verifyRecords(expected, zone ? { zone } : undefined);
  return { status: 'success' as const, proxy_status: status, step, all_found: records.every((r) => r.found), records };
}
