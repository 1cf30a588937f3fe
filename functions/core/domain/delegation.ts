/**
 * Delegated DNS-01 (issue 37; D203), the pure side. The customer adds, once per certificate
 * name, `_acme-challenge.<name> CNAME <id>.<acme zone>`; the CA follows it, and the service
 * writes every later challenge TXT at `<id>.<acme zone>` in its own Route 53 zone.
 *
 * The id is a hash of the organization and the challenge host, so it is:
 * - stable: the CNAME added for the first certificate serves every later one (renewal,
 *   reconnect after expiry), and the service can work it out again at any time;
 * - the organization's own: another organization that claims the same domain gets another
 *   name, which the domain's CNAME does not point at, so the service never answers a
 *   challenge for a domain on behalf of someone who does not control its DNS.
 */
import { createHash } from 'node:crypto';
import { acmeChallengeHost, type CertificateChallenge } from './certificate';
import { relativeHost, type DnsRecord } from './records';

/** TTL of the CNAME the customer adds once: it stays, so the usual record TTL. */
export const DELEGATION_CNAME_TTL = 300;
/** Hex characters of the id: 80 bits, no two organizations' names meet. */
const ID_LENGTH = 20;

/** What the AI-site record keeps once a domain's challenges are delegated (`acmeDelegation`). */
export interface AcmeDelegation {
  /** The service's zone the CNAMEs point into. */
  zone: string;
  /** Challenge host (`_acme-challenge.www.shop.example`) → its delegated name (`<id>.<zone>`). */
  names: Record<string, string>;
}

/** `<id>.<zone>`, the same for an organization and a certificate name every time. */
export function delegatedChallengeName(orgSlug: string, certificateName: string, zone: string): string {
  const id = createHash('sha256').update(`${orgSlug}\n${acmeChallengeHost(certificateName)}`).digest('hex').slice(0, ID_LENGTH);
  return `${id}.${zone}`;
}

/** The delegation of every certificate name (a name and its wildcard share one challenge host). */
export function acmeDelegationOf(orgSlug: string, certificateNames: readonly string[], zone: string): AcmeDelegation {
  const names: Record<string, string> = {};
  for (const name of certificateNames) names[acmeChallengeHost(name)] = delegatedChallengeName(orgSlug, name, zone);
  return { zone, names };
}

/** The CNAME records the customer adds once, hosts relative to their zone. */
export function delegationCnameRecords(delegation: AcmeDelegation, nakedDomain: string): DnsRecord[] {
  return Object.entries(delegation.names).map(([host, target]) => ({ type: 'CNAME', host: relativeHost(host, nakedDomain), value: target, ttl: DELEGATION_CNAME_TTL }));
}

/**
 * The TXT values to write per delegated name for an order's challenges: one name may hold
 * several (a name and its wildcard). A challenge whose host is not delegated is an error: the
 * order and the delegation were made for other names.
 */
export function delegatedTxtValues(delegation: AcmeDelegation, challenges: readonly Pick<CertificateChallenge, 'name' | 'keyAuthorization'>[]): Map<string, string[]> {
  const values = new Map<string, string[]>();
  for (const challenge of challenges) {
    const target = delegation.names[acmeChallengeHost(challenge.name)];
    if (!target) throw new Error(`the challenge of ${challenge.name} has no delegated name (delegated: ${Object.keys(delegation.names).join(', ')})`);
    values.set(target, [...(values.get(target) ?? []), challenge.keyAuthorization]);
  }
  return values;
}
