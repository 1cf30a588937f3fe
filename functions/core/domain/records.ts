/**
 * DNS records of the domain connection, as the user (or the one-click DNS widget) is asked to
 * add or restore them, and as the live lookups report them. Pure types and small helpers.
 *
 * A record names its host relative to the zone (the naked domain), the way DNS providers and
 * the widget take it: `@` for the zone apex, `www`, `shop`, `a.b`, `_acme-challenge.www`.
 */

export type DnsRecordType = 'A' | 'AAAA' | 'CNAME' | 'TXT' | 'CAA';

/** One record to add, remove or restore: `{type, host, value, ttl}` (what start-certificate returns for TXT). */
export interface DnsRecord {
  type: DnsRecordType;
  /** Relative to the zone (`@`, `www`, `a.b`, `_acme-challenge.www`). */
  host: string;
  /** Address, target name (no trailing dot), TXT text or CAA `flags tag "value"`. */
  value: string;
  ttl: number;
}

/** TTL of the records this service asks for (seconds). */
export const DEFAULT_RECORD_TTL = 300;

/** One CAA resource record (RFC 8659): `0 issue "letsencrypt.org"`. */
export interface CaaRecord {
  flags: number;
  tag: string;
  value: string;
}

/**
 * What a name held before the proxy, captured at the start of the connection so disconnect
 * can restore it exactly. `CNAME` is the name's own alias target (then A/AAAA/CAA are empty:
 * they would be the target's).
 */
export interface CapturedRecords {
  A: string[];
  AAAA: string[];
  CNAME: string | null;
  CAA: CaaRecord[];
}

/** Captured records by fully-qualified name (`www.example.com`, `example.com`). */
export type CapturedByName = Record<string, CapturedRecords>;

/** A record the user was asked to add, for a live check (D21). */
export interface ExpectedDnsRecord {
  type: DnsRecordType;
  /** Relative to `zone` when one is given to the check; otherwise a fully-qualified name. */
  host: string;
  value: string;
}

/** D21: each record with what was expected, what the lookup found, and whether it matches. */
export interface RecordCheck {
  type: DnsRecordType;
  host: string;
  /** The fully-qualified name that was looked up. */
  name: string;
  expected: string;
  actual: string[];
  found: boolean;
  /** Lookup failure other than "no such record" (timeout, SERVFAIL, refused), if any. */
  error?: string;
}

/** TXT records of one name as each authoritative server of its zone answers them. */
export interface AuthoritativeTxt {
  name: string;
  /** The name that was finally queried, after following CNAMEs (delegated challenges). */
  queriedName: string;
  /** The zone whose NS set answered; null when none was found (then `servers` is empty). */
  zone: string | null;
  servers: { nameserver: string; address: string; values: string[] | null; error?: string }[];
}

export interface AuthoritativeTxtCheck {
  found: boolean;
  source: 'authoritative' | 'resolver';
  /** What the resolvers answered, when they decided. */
  resolverValues?: string[];
  detail: AuthoritativeTxt;
}

/** A CNAME asked of every authoritative server of its zone (a delegated challenge, D203). */
export interface AuthoritativeCnameCheck {
  found: boolean;
  source: 'authoritative' | 'resolver';
  /** Every target answered (by the authoritative servers, or by the resolvers). */
  actual: string[];
}

/** The CAA set that applies to a name (RFC 8659 §3: the closest one walking up the tree). */
export interface CaaCheck {
  name: string;
  /** The name whose CAA record set applies; null when no name up the tree has any. */
  relevantName: string | null;
  records: CaaRecord[];
  /** True when every issuer asked about may issue. */
  allowed: boolean;
  issuers: { label: string; allowed: boolean; reason: string }[];
  /** A lookup that failed (SERVFAIL, timeout): CAs refuse to issue then, so `allowed` is false. */
  error?: string;
}

/** A certificate authority as CAA `issue` values name it. */
export interface CaaIssuer {
  label: string;
  /** Issuer domain names any of which authorizes it (`letsencrypt.org`). */
  domains: readonly string[];
}

/** Live DNS lookups of the domain connection (adapters/external/dns.ts). */
export interface DnsChecker {
  /** The A, AAAA, CNAME and CAA records of a name (empty lists when it has none). */
  captureRecords(name: string): Promise<CapturedRecords>;
  /** TXT values of a name through the resolvers (each record's strings joined). */
  lookupTxt(name: string): Promise<string[]>;
  /** D21 check of the records the user was asked to add. */
  verifyRecords(expected: readonly ExpectedDnsRecord[], options?: { zone?: string }): Promise<RecordCheck[]>;
  /** RFC 8659 pre-check: may every one of these CAs issue for `name`? */
  caaAllows(name: string, issuers: readonly CaaIssuer[]): Promise<CaaCheck>;
  /** TXT values of `name` asked of every authoritative server of its zone. */
  lookupTxtAuthoritative(name: string): Promise<AuthoritativeTxt>;
  /**
   * True when every authoritative server of the zone answers `value` for `name`; when no
   * authoritative server can be found, the resolvers' answer decides (`source: 'resolver'`).
   */
  txtOnAuthoritative(name: string, value: string): Promise<AuthoritativeTxtCheck>;
  /** True when every authoritative server of the zone answers `name` CNAME `target` (else, with none found, the resolvers). */
  cnameOnAuthoritative(name: string, target: string): Promise<AuthoritativeCnameCheck>;
}

/** `www` + `example.com` → `www.example.com`; `@` → the zone itself. */
export function absoluteName(host: string, zone: string): string {
  const h = host.replace(/\.+$/, '').toLowerCase();
  const z = zone.replace(/\.+$/, '').toLowerCase();
  return h === '@' || h === '' ? z : `${h}.${z}`;
}

/**
 * `_abc.www.example.com.` in zone `example.com` → `_abc.www`; the zone itself → `@`.
 * Throws when the name is outside the zone.
 */
export function relativeHost(name: string, zone: string): string {
  const n = name.replace(/\.+$/, '').toLowerCase();
  const z = zone.replace(/\.+$/, '').toLowerCase();
  if (n === z) return '@';
  if (!n.endsWith(`.${z}`)) throw new Error(`${name} is not inside the zone ${zone}`);
  return n.slice(0, -(z.length + 1));
}

/** `0 issue "letsencrypt.org"` (the presentation form DNS providers take). */
export function formatCaa(record: CaaRecord): string {
  return `${record.flags} ${record.tag} "${record.value}"`;
}
