/**
 * Domain analysis of the domain connection (spec "Domain connection flow"; issue 13 item 1).
 * Pure, no I/O.
 *
 * The domain is the business URL's host. It is classified with the public suffix rules of
 * core/domain/names.ts (shared with competitor discovery):
 *
 * | type               | host                      | `subdomain_label` | Part 2 record                         |
 * |--------------------|---------------------------|-------------------|---------------------------------------|
 * | `apex`             | `example.co.uk`           | `@`               | A `@` → each gateway address          |
 * | `www`              | `www.example.co.uk`       | `www`             | CNAME `www` → CDN domain              |
 * | `custom_subdomain` | `shop.example.co.uk`      | `shop`            | CNAME `shop` → CDN domain             |
 * | `multi_level`      | `a.b.example.co.uk`       | `a.b`             | CNAME `a.b` → CDN domain              |
 *
 * `www` and the naked domain are configured together when the business URL is either of them:
 * the certificate covers both names and Part 2 points both at the proxy (the naked domain by
 * A records to the gateway addresses, `APEX_GATEWAY_IPS`). A custom or multi-level subdomain
 * is configured alone. Refused, each with its reason: hosts that are not a domain the business
 * owns (hosting-platform hosts such as `*.myshopify.com`, IP addresses, single-label names,
 * public suffixes) and an apex business URL when no gateway address is configured (an apex
 * cannot hold a CNAME, so without the addresses there is nothing honest to point it at).
 *
 * Disconnect restores what the configured names held before Part 2 (captured at the start of
 * the connection, adapters/external/dns.ts `captureRecords`): `restoreRecords` lists the records
 * to remove and the ones to put back.
 */
import { isIP } from 'node:net';
import { isIpHost, normalizeHost, platformSuffixOf, publicSuffix, registrableDomain } from './names';
import { absoluteName, DEFAULT_RECORD_TTL, formatCaa, relativeHost, type CapturedByName, type CapturedRecords, type DnsRecord } from './records';

export type DomainType = 'apex' | 'www' | 'custom_subdomain' | 'multi_level';

export interface DomainAnalysis {
  /** The business URL's host (lower-case, punycode for international names). */
  customDomain: string;
  type: DomainType;
  /** The spec's get-proxy `domain_type`. */
  proxyDomainType: 'apex' | 'subdomain';
  /** The registrable domain, the zone the records go into. */
  nakedDomain: string;
  publicSuffix: string;
  /** `@`, `www`, `<label>` or `<a>.<b>`. */
  subdomainLabel: string;
  /** Names the certificate covers and the proxy serves, the business host first. */
  certificateNames: string[];
}

export type DomainRefusalCode = 'invalid_url' | 'ip_address' | 'single_label' | 'public_suffix' | 'platform_host' | 'apex_without_gateway';

export type DomainAnalysisResult =
  | { ok: true; analysis: DomainAnalysis }
  | { ok: false; code: DomainRefusalCode; reason: string };

export interface AnalyzeOptions {
  /** `APEX_GATEWAY_IPS`: needed when the business URL is the apex. */
  apexGatewayIps?: readonly string[];
}

/**
 * Classifies the business URL (`https://www.example.com/shop`, `example.com`, a URL object)
 * or refuses it with the reason.
 */
export function analyzeDomain(businessUrl: string | URL, options: AnalyzeOptions = {}): DomainAnalysisResult {
  const host = hostOf(businessUrl);
  if (host === null) return refuse('invalid_url', `the business URL is not a valid http(s) URL: ${String(businessUrl).slice(0, 200)}`);
  if (isIpHost(host)) {
    return refuse('ip_address', `the business URL's host ${host} is an IP address; a domain name the business owns is needed`);
  }
  if (!host.includes('.')) return refuse('single_label', `the business URL's host ${host} is not a public domain name`);
  const platform = platformSuffixOf(host);
  if (platform) {
    return refuse('platform_host', `${host} is an address of a hosting platform (${platform}), not a domain the business owns; `
      + 'connect the store\'s own domain instead (set it as the business URL)');
  }
  const suffix = publicSuffix(host)!;
  if (suffix === host) return refuse('public_suffix', `${host} is a public suffix, not a registrable domain`);
  const naked = registrableDomain(host);
  const label = relativeHost(host, naked);
  const type: DomainType = label === '@' ? 'apex' : label === 'www' ? 'www' : label.includes('.') ? 'multi_level' : 'custom_subdomain';
  if (type === 'apex' && gatewayAddresses(options.apexGatewayIps).length === 0) {
    return refuse('apex_without_gateway', `${host} is an apex domain, which cannot hold a CNAME: it needs A records to the proxy's `
      + 'static gateway addresses, and none are configured (APEX_GATEWAY_IPS). Use the www address as the business URL, '
      + 'or configure the gateway addresses');
  }
  const certificateNames = type === 'apex' ? [host, `www.${naked}`] : type === 'www' ? [host, naked] : [host];
  return {
    ok: true,
    analysis: {
      customDomain: host,
      type,
      proxyDomainType: type === 'apex' ? 'apex' : 'subdomain',
      nakedDomain: naked,
      publicSuffix: suffix,
      subdomainLabel: label,
      certificateNames,
    },
  };
}

/** analyzeDomain, or throws the given error type with the reason (a route's 400). */
export function analyzeDomainOrThrow(businessUrl: string | URL, options: AnalyzeOptions, toError: (reason: string, code: DomainRefusalCode) => Error): DomainAnalysis {
  const result = analyzeDomain(businessUrl, options);
  if (!result.ok) throw toError(result.reason, result.code);
  return result.analysis;
}

/** The fields of the AI-site record (camelCase) and get-proxy that the analysis fills in. */
export function analysisFields(analysis: DomainAnalysis): { customDomain: string; domainType: 'apex' | 'subdomain'; nakedDomain: string; subdomainLabel: string } {
  return {
    customDomain: analysis.customDomain,
    domainType: analysis.proxyDomainType,
    nakedDomain: analysis.nakedDomain,
    subdomainLabel: analysis.subdomainLabel,
  };
}

/** `_acme-challenge.<name>` TXT record of a DNS-01 challenge, host relative to the zone. */
export function acmeChallengeRecord(analysis: DomainAnalysis, identifier: string, value: string): DnsRecord {
  return { type: 'TXT', host: relativeHost(`_acme-challenge.${normalizeHost(identifier.replace(/^\*\./, ''))}`, analysis.nakedDomain), value, ttl: DEFAULT_RECORD_TTL };
}

/** The webmaster-console verification TXT record (a Domain property is verified at the zone apex). */
export function webmasterVerificationRecord(analysis: DomainAnalysis, token: string): DnsRecord {
  return { type: 'TXT', host: '@', value: token, ttl: DEFAULT_RECORD_TTL };
}

export interface Part2Input {
  /** The distribution's domain (`d111.cloudfront.net`). */
  cdnDomain: string;
  apexGatewayIps?: readonly string[];
  /**
   * DNS-validation records of the native certificate (fully-qualified CNAME name and target),
   * added with the switch so the upgrade to the native certificate can finish.
   */
  validationRecords?: readonly { name: string; value: string }[];
  /** What the names held at the start: the records that would conflict are listed in `remove`. */
  captured?: CapturedByName;
}

export type Part2Result =
  | {
    ok: true;
    /** The records to add (one per value: two gateway addresses are two A records). */
    records: DnsRecord[];
    /**
     * Original records to delete first: everything at a name that becomes a CNAME (a CNAME
     * cannot share its name), and the addresses at the apex that are not the gateway's (an
     * AAAA left in place would send IPv6 visitors around the proxy). Empty without `captured`.
     */
    remove: DnsRecord[];
    /** Configured names that get no record, with the reason (a www business URL without gateway addresses). */
    skipped: { name: string; reason: string }[];
  }
  | { ok: false; code: 'apex_without_gateway'; reason: string };

/**
 * The Part 2 records (the DNS switch): the business host, and with www/apex the other name
 * of the pair, pointed at the proxy; then the certificate's validation records.
 */
export function part2Records(analysis: DomainAnalysis, input: Part2Input): Part2Result {
  const gateway = gatewayAddresses(input.apexGatewayIps);
  const cdn = normalizeHost(input.cdnDomain);
  const records: DnsRecord[] = [];
  const remove: DnsRecord[] = [];
  const skipped: { name: string; reason: string }[] = [];
  for (const name of analysis.certificateNames) {
    const host = relativeHost(name, analysis.nakedDomain);
    const before = input.captured?.[name];
    if (host !== '@') {
      records.push({ type: 'CNAME', host, value: cdn, ttl: DEFAULT_RECORD_TTL });
      if (before) remove.push(...capturedAsRecords(host, before).filter((r) => !(r.type === 'CNAME' && r.value === cdn)));
    } else if (gateway.length > 0) {
      const added = gateway.map((address): DnsRecord => ({ type: isIP(address) === 6 ? 'AAAA' : 'A', host: '@', value: address, ttl: DEFAULT_RECORD_TTL }));
      records.push(...added);
      if (before) {
        remove.push(...capturedAsRecords(host, before)
          .filter((r) => (r.type === 'A' || r.type === 'AAAA' || r.type === 'CNAME') && !added.some((a) => a.type === r.type && a.value === r.value)));
      }
    } else if (analysis.type === 'apex') {
      return {
        ok: false,
        code: 'apex_without_gateway',
        reason: `${name} is an apex domain and no gateway addresses are configured (APEX_GATEWAY_IPS)`,
      };
    } else {
      skipped.push({ name, reason: 'no gateway addresses are configured (APEX_GATEWAY_IPS), so the naked domain keeps pointing where it does' });
    }
  }
  for (const v of input.validationRecords ?? []) {
    records.push({ type: 'CNAME', host: relativeHost(v.name, analysis.nakedDomain), value: normalizeHost(v.value), ttl: DEFAULT_RECORD_TTL });
  }
  return { ok: true, records, remove, skipped };
}

export interface OriginalFields {
  /** Where the business host pointed: its CNAME target, or its first address. */
  originCname: string | null;
  /** The business host's original CNAME (subdomains); null for an apex. */
  originalWwwCname: string | null;
  /** The apex's original A records (apex business URL only). */
  originalApexARecords: string[];
}

/** The AI-site record's `origin_cname`, `original_www_cname`, `original_apex_a_records` from the capture. */
export function originalFields(analysis: DomainAnalysis, captured: CapturedByName): OriginalFields {
  const own = captured[analysis.customDomain] ?? emptyCapture();
  const apex = analysis.type === 'apex';
  return {
    originCname: own.CNAME ?? own.A[0] ?? own.AAAA[0] ?? null,
    originalWwwCname: apex ? null : own.CNAME,
    originalApexARecords: apex ? [...own.A] : [],
  };
}

/**
 * The host the distribution's store origin points at once the customer's domain points at
 * the CDN (else the proxy would send store requests back to itself): where the business host
 * pointed before (its CNAME target), else, for the www/apex pair, the other name's CNAME
 * target (an apex holds addresses, its www usually the platform's host). Null when neither
 * had one: addresses cannot be a CDN origin, and the CDN's own domain is no target.
 */
export function storeOriginHost(analysis: DomainAnalysis, captured: CapturedByName, cdnDomain?: string | null): string | null {
  const cdn = cdnDomain ? normalizeHost(cdnDomain) : null;
  for (const name of analysis.certificateNames) {
    const target = captured[name]?.CNAME;
    if (target && normalizeHost(target) !== cdn) return normalizeHost(target);
  }
  return null;
}

export interface RestorePlan {
  /** The Part 2 records to delete first (a name cannot hold a CNAME next to other records). */
  remove: DnsRecord[];
  /** Then the records each configured name held before, exactly (A, AAAA, CNAME, CAA). */
  restore: DnsRecord[];
}

/**
 * What disconnect asks the user (or the widget) to do: remove the proxy's records of the
 * configured names and put back what those names held when the connection started. The
 * certificate's validation records stay (the certificate stays for a reconnect).
 * A configured name with no capture keeps no record of its own (it had none).
 */
export function restoreRecords(analysis: DomainAnalysis, captured: CapturedByName, part2: readonly DnsRecord[], ttl = DEFAULT_RECORD_TTL): RestorePlan {
  const hosts = new Set(analysis.certificateNames.map((n) => relativeHost(n, analysis.nakedDomain)));
  const remove = part2.filter((r) => hosts.has(r.host) && r.type !== 'TXT').map((r) => ({ ...r }));
  const restore = analysis.certificateNames.flatMap((name) => {
    const before = captured[name];
    return before ? capturedAsRecords(relativeHost(name, analysis.nakedDomain), before, ttl) : [];
  });
  return { remove, restore };
}

/** A name's captured records as records of `host` (a CNAME alone: nothing else can share its name). */
export function capturedAsRecords(host: string, captured: CapturedRecords, ttl = DEFAULT_RECORD_TTL): DnsRecord[] {
  if (captured.CNAME) return [{ type: 'CNAME', host, value: normalizeHost(captured.CNAME), ttl }];
  return [
    ...captured.A.map((value): DnsRecord => ({ type: 'A', host, value, ttl })),
    ...captured.AAAA.map((value): DnsRecord => ({ type: 'AAAA', host, value, ttl })),
    ...captured.CAA.map((c): DnsRecord => ({ type: 'CAA', host, value: formatCaa(c), ttl })),
  ];
}

/** The names whose records are captured at the start (the ones Part 2 changes). */
export function namesToCapture(analysis: DomainAnalysis): string[] {
  return [...analysis.certificateNames];
}

/** The fully-qualified name of a record of this analysis. */
export function recordName(analysis: DomainAnalysis, record: Pick<DnsRecord, 'host'>): string {
  return absoluteName(record.host, analysis.nakedDomain);
}

/** A DNS host name: labels of letters, digits and inner hyphens (punycode for international names). */
const HOSTNAME = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

function hostOf(input: string | URL): string | null {
  let url: URL;
  try {
    if (input instanceof URL) url = input;
    else {
      const text = input.trim();
      if (!text) return null;
      url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`);
    }
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const host = normalizeHost(url.hostname);
  return host !== '' && (HOSTNAME.test(host) || isIP(host) !== 0) ? host : null;
}

function gatewayAddresses(list: readonly string[] | undefined): string[] {
  return (list ?? []).map((a) => a.trim()).filter((a) => isIP(a) !== 0);
}

function emptyCapture(): CapturedRecords {
  return { A: [], AAAA: [], CNAME: null, CAA: [] };
}

function refuse(code: DomainRefusalCode, reason: string): DomainAnalysisResult {
  return { ok: false, code, reason };
}
