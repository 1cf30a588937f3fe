/**
 * CAA (RFC 8659): may a certificate authority issue for a name? Pure evaluation of the record
 * set that applies; the lookup (walking up the tree to the closest name that has CAA records)
 * is the DNS adapter's (adapters/external/dns.ts).
 *
 * The domain connection needs two CAs to be allowed (../shared/reference/domain-security-anchors.md
 * §0.6): the free CA of Part 1 (Let's Encrypt: `letsencrypt.org`) and the certificate manager
 * of the native upgrade (Amazon: any of `amazon.com`, `amazontrust.com`, `awstrust.com`,
 * `amazonaws.com`).
 */
import type { CaaCheck, CaaIssuer, CaaRecord } from './records';

export const LETS_ENCRYPT: CaaIssuer = { label: "Let's Encrypt", domains: ['letsencrypt.org'] };
export const AMAZON: CaaIssuer = { label: 'Amazon certificate manager', domains: ['amazon.com', 'amazontrust.com', 'awstrust.com', 'amazonaws.com'] };

/** Property tags a CA understands (RFC 8659 §4, RFC 8657 account binding, RFC 9495 issuemail, BIMI issuevmc). */
const KNOWN_TAGS = new Set(['issue', 'issuewild', 'iodef', 'contactemail', 'contactphone', 'issuemail', 'issuevmc']);
/** Bit 7 of the flags octet (RFC 8659 §4.1: the "Issuer Critical" flag, value 128). */
const CRITICAL = 128;

/** The issuer domain of an `issue` value: `letsencrypt.org; accounturi=...` → `letsencrypt.org`; `;` → ''. */
export function issuerDomain(value: string): string {
  return value.split(';')[0].trim().toLowerCase().replace(/\.$/, '');
}

/**
 * Whether `issuer` may issue, given the relevant CAA record set of the name (`[]`: no CAA
 * anywhere up the tree, so any CA may). For a wildcard certificate `issuewild` takes
 * precedence when present (RFC 8659 §4.3).
 */
export function evaluateCaa(records: readonly CaaRecord[], issuer: CaaIssuer, options: { wildcard?: boolean } = {}): { allowed: boolean; reason: string } {
  if (records.length === 0) return { allowed: true, reason: 'no CAA records: any certificate authority may issue' };
  const unknownCritical = records.find((r) => (r.flags & CRITICAL) !== 0 && !KNOWN_TAGS.has(r.tag.toLowerCase()));
  if (unknownCritical) {
    return { allowed: false, reason: `the CAA record "${unknownCritical.tag}" is marked critical and unknown, which forbids every certificate authority` };
  }
  const byTag = (tag: string) => records.filter((r) => r.tag.toLowerCase() === tag);
  const wild = options.wildcard ? byTag('issuewild') : [];
  const relevant = wild.length > 0 ? wild : byTag('issue');
  const tag = wild.length > 0 ? 'issuewild' : 'issue';
  if (relevant.length === 0) return { allowed: true, reason: `the CAA records have no "${tag}" entry, so they do not restrict issuance` };
  const domains = new Set(issuer.domains.map((d) => d.toLowerCase()));
  const names = relevant.map((r) => issuerDomain(r.value));
  if (names.some((n) => domains.has(n))) return { allowed: true, reason: `CAA "${tag}" allows ${issuer.label}` };
  const listed = names.filter((n) => n !== '');
  return {
    allowed: false,
    reason: listed.length === 0
      ? `CAA "${tag}" ";" forbids every certificate authority; add ${tag} "${issuer.domains[0]}"`
      : `CAA "${tag}" allows only ${listed.join(', ')}; add ${tag} "${issuer.domains[0]}" for ${issuer.label}`,
  };
}

/** The whole pre-check result for several CAs, given the relevant set and where it was found. */
export function caaCheck(name: string, relevantName: string | null, records: readonly CaaRecord[], issuers: readonly CaaIssuer[]): CaaCheck {
  const results = issuers.map((issuer) => ({ label: issuer.label, ...evaluateCaa(records, issuer) }));
  return { name, relevantName, records: [...records], allowed: results.every((r) => r.allowed), issuers: results };
}

/** `example.com` → `['example.com', 'com']`: the names whose CAA sets are looked at, closest first (no root). */
export function caaSearchNames(name: string): string[] {
  const labels = name.replace(/\.+$/, '').toLowerCase().split('.').filter(Boolean);
  return labels.map((_, i) => labels.slice(i).join('.'));
}
