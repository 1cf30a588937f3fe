/**
 * Live DNS lookups of the domain connection (issue 13 item 5; D21), with `node:dns/promises`
 * `Resolver`s pointed at `DNS_RESOLVERS` (`host:port` entries; default the public resolvers
 * 8.8.8.8, 8.8.4.4, 1.1.1.1, 1.0.0.1, as certmagic uses), never the system resolver (whose
 * cache would hide a record the user has just added).
 *
 * - `captureRecords(name)`: A, AAAA, CNAME and CAA of a name before the switch, so disconnect
 *   restores them exactly (a name with a CNAME holds nothing else: the rest is the target's).
 *   A failed lookup (timeout, SERVFAIL) throws: a partial capture would restore the wrong thing.
 * - `lookupTxt(name)`, `verifyRecords(expected)`: what the resolvers see, record by record with
 *   `found`, `expected`, `actual` (D21).
 * - `caaAllows(name, issuers)`: RFC 8659 §3, the CAA set of the closest name walking up the tree
 *   applies (a CNAME is followed by the resolver, as the CA's lookup does); evaluated by
 *   core/domain/caa.ts.
 * - "Authoritative first" (../shared/reference/domain-security-anchors.md §0.4, §1.8: lego's and
 *   certmagic's pre-check): `lookupTxtAuthoritative(name)` follows the name's CNAMEs, walks up to
 *   the closest name with an NS set (never above the registrable domain), resolves each
 *   nameserver's addresses and asks each server directly; `txtOnAuthoritative(name, value)` is
 *   true only when every nameserver answers the value. Completing an ACME challenge before
 *   that breaks the order for good, so this runs before `completeChallenge`. A delegated
 *   challenge (D203) is checked by its CNAME instead: `cnameOnAuthoritative(name, target)` asks
 *   the name's own zone's servers (the CNAME is not followed).
 *
 * A fresh Resolver per operation: c-ares keeps a query cache per channel, and a warm Lambda
 * would otherwise answer a poll from an earlier one.
 */
import { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';
import { caaCheck, caaSearchNames } from '../../core/domain/caa';
import { normalizeHost, registrableDomain } from '../../core/domain/names';
import {
  absoluteName, formatCaa,
  type AuthoritativeCnameCheck, type AuthoritativeTxt, type AuthoritativeTxtCheck, type CaaCheck, type CaaIssuer, type CaaRecord, type CapturedRecords,
  type DnsChecker, type DnsRecordType, type ExpectedDnsRecord, type RecordCheck,
} from '../../core/domain/records';
import { UpstreamError } from '../../core/errors';

export const DEFAULT_DNS_RESOLVERS: readonly string[] = ['8.8.8.8', '8.8.4.4', '1.1.1.1', '1.0.0.1'];

export interface DnsCheckerOptions {
  /** `DNS_RESOLVERS` entries (`1.1.1.1`, `127.0.0.1:5353`, `[::1]:53`); empty: the public resolvers. */
  resolvers?: readonly string[];
  /** Per-try timeout of one query (ms, default 2500) and tries per server (default 2). */
  timeoutMs?: number;
  tries?: number;
  /** Port the zones' authoritative servers are asked on (default 53; tests: the test server's). */
  nameserverPort?: number;
}

/** Codes of "the name or the record does not exist": an empty answer, not a failure. */
const NO_RECORD = new Set(['ENODATA', 'ENOTFOUND']);
const MAX_CNAME_HOPS = 8;

/** `DNS_RESOLVERS` entries → `Resolver.setServers` form; throws naming the first invalid entry. */
export function resolverServers(entries: readonly string[] | undefined): string[] {
  const list = (entries ?? []).map((e) => e.trim()).filter(Boolean);
  if (list.length === 0) return [...DEFAULT_DNS_RESOLVERS];
  return list.map((entry) => {
    const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
    const v4 = /^([\d.]+)(?::(\d+))?$/.exec(entry);
    const [address, port] = bracketed ? [bracketed[1], bracketed[2]] : v4 ? [v4[1], v4[2]] : [entry, undefined];
    const family = isIP(address);
    if (family === 0) throw new Error(`DNS_RESOLVERS entry "${entry}" is not an IP address with an optional :port`);
    if (port !== undefined && !(Number(port) >= 1 && Number(port) <= 65535)) throw new Error(`DNS_RESOLVERS entry "${entry}" has an invalid port`);
    if (port === undefined) return address;
    return family === 6 ? `[${address}]:${port}` : `${address}:${port}`;
  });
}

export function createDnsChecker(options: DnsCheckerOptions = {}): DnsChecker {
  const servers = resolverServers(options.resolvers);
  const timeout = options.timeoutMs ?? 2500;
  const tries = options.tries ?? 2;
  const nameserverPort = options.nameserverPort ?? 53;
  const resolver = (at: string[] = servers, attempts = tries): Resolver => {
    const r = new Resolver({ timeout, tries: attempts });
    r.setServers(at);
    return r;
  };

  async function lookupTxt(name: string): Promise<string[]> {
    const result = await query(resolver(), 'TXT', fqdn(name));
    if (result.error) throw new UpstreamError(`DNS TXT lookup of ${fqdn(name)} failed (${result.error})`);
    return result.values;
  }

  async function captureRecords(name: string): Promise<CapturedRecords> {
    const r = resolver();
    const host = fqdn(name);
    const cname = await query(r, 'CNAME', host);
    failOn(cname, host, 'CNAME');
    if (cname.values.length > 0) return { A: [], AAAA: [], CNAME: cname.values[0], CAA: [] };
    const [a, aaaa, caa] = await Promise.all([query(r, 'A', host), query(r, 'AAAA', host), caaAt(r, host)]);
    failOn(a, host, 'A');
    failOn(aaaa, host, 'AAAA');
    if (caa.error) throw new UpstreamError(`DNS CAA lookup of ${host} failed (${caa.error})`);
    return { A: a.values, AAAA: aaaa.values, CNAME: null, CAA: caa.records };
  }

  async function verifyRecords(expected: readonly ExpectedDnsRecord[], opts: { zone?: string } = {}): Promise<RecordCheck[]> {
    const r = resolver();
    const cache = new Map<string, Promise<{ values: string[]; error?: string }>>();
    const lookup = (type: DnsRecordType, name: string) => {
      const key = `${type} ${name}`;
      if (!cache.has(key)) cache.set(key, type === 'CAA' ? caaAt(r, name).then((c) => ({ values: c.records.map(formatCaa), error: c.error })) : query(r, type, name));
      return cache.get(key)!;
    };
    return Promise.all(expected.map(async (record) => {
      const name = opts.zone ? absoluteName(record.host, opts.zone) : fqdn(record.host);
      const result = await lookup(record.type, name);
      const actual = result.values;
      const want = canonicalValue(record.type, record.value);
      const check: RecordCheck = {
        type: record.type,
        host: record.host,
        name,
        expected: record.value,
        actual,
        found: actual.some((v) => canonicalValue(record.type, v) === want),
      };
      if (result.error) check.error = result.error;
      return check;
    }));
  }

  async function caaAllows(name: string, issuers: readonly CaaIssuer[]): Promise<CaaCheck> {
    const r = resolver();
    const host = fqdn(name);
    for (const candidate of caaSearchNames(host)) {
      const caa = await caaAt(r, candidate);
      if (caa.error) {
        const reason = `the CAA lookup of ${candidate} failed (${caa.error}); certificate authorities refuse to issue until it answers`;
        return { ...caaCheck(host, candidate, [], []), allowed: false, issuers: issuers.map((i) => ({ label: i.label, allowed: false, reason })), error: caa.error };
      }
      if (caa.records.length > 0) return caaCheck(host, candidate, caa.records, issuers);
    }
    return caaCheck(host, null, [], issuers);
  }

  /** `type` of `name` as each of the zone's nameservers answers it (one answering address per nameserver is enough, IPv4 first). */
  async function askNameservers(r: Resolver, nameservers: readonly string[], type: 'TXT' | 'CNAME', name: string): Promise<AuthoritativeTxt['servers']> {
    return Promise.all(nameservers.map(async (nameserver): Promise<AuthoritativeTxt['servers'][number]> => {
      const addresses = await nameserverAddresses(r, nameserver);
      if (addresses.length === 0) return { nameserver, address: '', values: null, error: 'no address found for the nameserver' };
      let failure = '';
      for (const address of addresses) {
        const endpoint = isIP(address) === 6 ? `[${address}]:${nameserverPort}` : `${address}:${nameserverPort}`;
        const result = await query(resolver([endpoint], 1), type, name);
        if (!result.error) return { nameserver, address, values: result.values };
        failure = result.error;
      }
      return { nameserver, address: addresses[addresses.length - 1], values: null, error: failure };
    }));
  }

  async function lookupTxtAuthoritative(name: string): Promise<AuthoritativeTxt> {
    const r = resolver();
    const host = fqdn(name);
    const queriedName = await followCnames(r, host);
    const zone = await findZone(r, queriedName);
    if (!zone) return { name: host, queriedName, zone: null, servers: [] };
    return { name: host, queriedName, zone: zone.name, servers: await askNameservers(r, zone.nameservers, 'TXT', queriedName) };
  }

  async function txtOnAuthoritative(name: string, value: string): Promise<AuthoritativeTxtCheck> {
    const detail = await lookupTxtAuthoritative(name);
    if (detail.servers.length > 0) {
      return { found: detail.servers.every((s) => s.values?.includes(value) ?? false), source: 'authoritative', detail };
    }
    const result = await query(resolver(), 'TXT', detail.queriedName);
    return { found: result.values.includes(value), source: 'resolver', resolverValues: result.values, detail };
  }

  async function cnameOnAuthoritative(name: string, target: string): Promise<AuthoritativeCnameCheck> {
    const r = resolver();
    const host = fqdn(name);
    const want = normalizeHost(target);
    // The CNAME itself, never followed: its owner's zone answers it.
    const zone = await findZone(r, host);
    if (zone) {
      const servers = await askNameservers(r, zone.nameservers, 'CNAME', host);
      return { found: servers.every((s) => s.values?.includes(want) ?? false), source: 'authoritative', actual: [...new Set(servers.flatMap((s) => s.values ?? []))] };
    }
    const result = await query(r, 'CNAME', host);
    return { found: result.values.includes(want), source: 'resolver', actual: result.values };
  }

  return { captureRecords, lookupTxt, verifyRecords, caaAllows, lookupTxtAuthoritative, txtOnAuthoritative, cnameOnAuthoritative };
}

// --- helpers -------------------------------------------------------------------------------

interface QueryResult {
  values: string[];
  /** A failure other than "no such name/record". */
  error?: string;
}

async function query(r: Resolver, type: Exclude<DnsRecordType, 'CAA'> | 'NS', name: string): Promise<QueryResult> {
  try {
    switch (type) {
      case 'A': return { values: await r.resolve4(name) };
      case 'AAAA': return { values: await r.resolve6(name) };
      case 'CNAME': return { values: (await r.resolveCname(name)).map(normalizeHost) };
      case 'NS': return { values: (await r.resolveNs(name)).map(normalizeHost) };
      case 'TXT': return { values: (await r.resolveTxt(name)).map((chunks) => chunks.join('')) };
    }
  } catch (error) {
    return noRecordOr(error);
  }
}

async function caaAt(r: Resolver, name: string): Promise<{ records: CaaRecord[]; error?: string }> {
  try {
    return { records: (await r.resolveCaa(name)).map(caaRecordOf) };
  } catch (error) {
    const { error: code } = noRecordOr(error);
    return code ? { records: [], error: code } : { records: [] };
  }
}

/** Node's `{critical, issue: 'ca.example'}` → `{flags, tag, value}`. */
function caaRecordOf(record: object): CaaRecord {
  const entries = Object.entries(record as Record<string, unknown>);
  const flags = Number((record as { critical?: unknown }).critical ?? 0);
  const [tag, value] = entries.find(([k]) => k !== 'critical') ?? ['', ''];
  return { flags, tag: tag.toLowerCase(), value: String(value) };
}

function noRecordOr(error: unknown): QueryResult {
  const code = (error as { code?: string }).code ?? 'ERROR';
  return NO_RECORD.has(code) ? { values: [] } : { values: [], error: code };
}

function failOn(result: QueryResult, name: string, type: string): void {
  if (result.error) throw new UpstreamError(`DNS ${type} lookup of ${name} failed (${result.error})`);
}

function fqdn(name: string): string {
  return normalizeHost(name);
}

async function followCnames(r: Resolver, name: string): Promise<string> {
  let current = name;
  for (let hop = 0; hop < MAX_CNAME_HOPS; hop++) {
    const cname = await query(r, 'CNAME', current);
    if (cname.values.length === 0 || cname.values[0] === current) return current;
    current = cname.values[0];
  }
  return current;
}

/** The closest name at or above `name` (not above its registrable domain) with an NS set. */
async function findZone(r: Resolver, name: string): Promise<{ name: string; nameservers: string[] } | null> {
  const top = registrableDomain(name);
  const labels = name.split('.');
  for (let i = 0; i < labels.length; i++) {
    const candidate = labels.slice(i).join('.');
    const ns = await query(r, 'NS', candidate);
    if (ns.values.length > 0) return { name: candidate, nameservers: ns.values };
    if (candidate === top) break;
  }
  return null;
}

async function nameserverAddresses(r: Resolver, nameserver: string): Promise<string[]> {
  if (isIP(nameserver)) return [nameserver];
  const [v4, v6] = await Promise.all([query(r, 'A', nameserver), query(r, 'AAAA', nameserver)]);
  return [...v4.values, ...v6.values];
}

/** The comparable form of a record value: canonical addresses, names without the final dot, CAA normalized. */
function canonicalValue(type: DnsRecordType, value: string): string {
  const v = value.trim();
  switch (type) {
    case 'A': return v;
    case 'AAAA': return canonicalIpv6(v);
    case 'CNAME': return normalizeHost(v);
    case 'TXT': return v;
    case 'CAA': {
      const m = /^(\d+)\s+([A-Za-z0-9]+)\s+"?(.*?)"?$/.exec(v);
      return m ? `${Number(m[1])} ${m[2].toLowerCase()} "${m[3]}"` : v;
    }
  }
}

function canonicalIpv6(address: string): string {
  try {
    return new URL(`http://[${address}]/`).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return address.toLowerCase();
  }
}
