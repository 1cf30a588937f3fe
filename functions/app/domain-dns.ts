/**
 * `POST /api/domain/verify-dns/{org_id}` (D21): a live look at the records the user was asked
 * to add at the current step, each with what was expected, what DNS answers and whether it
 * matches: the certificate's TXT records while it validates (SSL_VALIDATING), the Part 2
 * records once the certificate is attached (SSL_VALIDATED, DEPLOYED).
 */
import { analyzeDomainOrThrow, part2Records } from '../core/domain/analysis';
import { txtRecordsOf, type CertificateTmp } from '../core/domain/certificate';
import type { DnsChecker, ExpectedDnsRecord } from '../core/domain/records';
import { ConflictError, ValidationError } from '../core/errors';
import type { Container } from '../container';
import { requireBusiness } from './business';

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
  } else if ((status === 'SSL_VALIDATED' || status === 'DEPLOYED') && typeof site?.cdnDomain === 'string') {
    const part2 = part2Records(analysis, { cdnDomain: site.cdnDomain, apexGatewayIps: container.config.cdn.apexGatewayIps });
    if (!part2.ok) throw new ValidationError(part2.reason);
    step = 'dns_switch';
    expected = part2.records.map((r) => ({ type: r.type, host: r.host, value: r.value }));
    zone = analysis.nakedDomain;
  } else {
    throw new ConflictError(`no DNS records to check while proxy_status is ${status ?? 'unset'}: start-certificate first`);
  }
  const records = await dns.verifyRecords(expected, zone ? { zone } : undefined);
  return { status: 'success' as const, proxy_status: status, step, all_found: records.every((r) => r.found), records };
}
