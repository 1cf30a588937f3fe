/**
 * Which IP addresses the outbound HTTP client may connect to (SSRF defence, D24).
 * Pure: no DNS, no sockets. The guarded client applies it to IP-literal hosts and to
 * every address a hostname resolves to.
 */
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * - `public`: globally routable unicast, always allowed.
 * - `private-network`: loopback, RFC 1918, unique-local, CGNAT; allowed only with
 *   `allowPrivateNetwork` (local development and tests).
 * - `forbidden`: never allowed (link-local, cloud metadata, unspecified, multicast, reserved...).
 */
export type AddressKind = 'public' | 'private-network' | 'forbidden';

export interface AddressClassification {
  kind: AddressKind;
  /** ipaddr.js range name (or our own label), for error messages. */
  range: string;
}

/** Ranges that `allowPrivateNetwork` opens up. */
const PRIVATE_NETWORK_RANGES = new Set(['loopback', 'private', 'uniqueLocal', 'carrierGradeNat']);

/**
 * Cloud instance-metadata and platform endpoints. Most sit in link-local space (always
 * forbidden anyway); these are the ones that would otherwise pass as private or public.
 */
const METADATA_CIDRS: Array<[ipaddr.IPv4 | ipaddr.IPv6, number]> = [
  ipaddr.parseCIDR('fd00:ec2::/32'), // AWS IMDS / DNS / NTP over IPv6 (fd00:ec2::254 ...)
  ipaddr.parseCIDR('100.100.100.200/32'), // Alibaba Cloud metadata (inside CGNAT space)
  ipaddr.parseCIDR('192.0.0.192/32'), // Oracle Cloud metadata
  ipaddr.parseCIDR('168.63.129.16/32'), // Azure WireServer (public space, platform-only)
];

/** Only 2000::/3 is global unicast; ipaddr.js calls anything unnamed 'unicast'. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
const NAT64_WELL_KNOWN = ipaddr.parseCIDR('64:ff9b::/96');

export function classifyAddress(ip: string): AddressClassification {
  // Canonical forms only (what DNS and the WHATWG URL parser produce); ipaddr.js alone
  // would also accept shorthand like "127.1", which we never expect here.
  if (isIP(ip) === 0) return { kind: 'forbidden', range: 'not an IP address' };
  // process() turns IPv4-mapped IPv6 (::ffff:a.b.c.d) into plain IPv4.
  return classifyParsed(ipaddr.process(ip));
}

export function isAddressAllowed(ip: string, allowPrivateNetwork: boolean): boolean {
  const { kind } = classifyAddress(ip);
  return kind === 'public' || (kind === 'private-network' && allowPrivateNetwork);
}

function classifyParsed(addr: ipaddr.IPv4 | ipaddr.IPv6): AddressClassification {
  if (METADATA_CIDRS.some(([net, bits]) => addr.kind() === net.kind() && addr.match(net, bits))) {
    return { kind: 'forbidden', range: 'cloud metadata' };
  }
  if (addr.kind() === 'ipv6') {
    const v6 = addr as ipaddr.IPv6;
    const range = v6.range();
    // Local-use NAT64 prefixes have no fixed layout, so we cannot tell where they lead.
    if (range === 'rfc6052' && !v6.match(NAT64_WELL_KNOWN)) return { kind: 'forbidden', range };
    // Translation forms (6to4, Teredo, NAT64) carry an IPv4 destination: allow them only
    // toward public IPv4, so they cannot smuggle a private or metadata address past the check.
    const embedded = embeddedIPv4(v6);
    if (embedded) {
      const inner = embedded.map(classifyParsed).find((c) => c.kind !== 'public');
      return inner ? { kind: 'forbidden', range: `${range} embedding ${inner.range}` } : { kind: 'public', range };
    }
    if (range === 'unicast') {
      return v6.match(GLOBAL_UNICAST_V6) ? { kind: 'public', range } : { kind: 'forbidden', range: 'reserved' };
    }
    return { kind: PRIVATE_NETWORK_RANGES.has(range) ? 'private-network' : 'forbidden', range };
  }
  const range = (addr as ipaddr.IPv4).range();
  if (range === 'unicast') return { kind: 'public', range };
  return { kind: PRIVATE_NETWORK_RANGES.has(range) ? 'private-network' : 'forbidden', range };
}

/** IPv4 addresses embedded in 6to4, Teredo, NAT64 and SIIT addresses; null for other IPv6. */
function embeddedIPv4(v6: ipaddr.IPv6): ipaddr.IPv4[] | null {
  const p = v6.parts;
  const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  switch (v6.range()) {
    case '6to4': // 2002:AABB:CCDD::/48
      return [v4(p[1], p[2])];
    case 'teredo': // 2001:0:SERVER:SERVER:flags:port:~CLIENT:~CLIENT
      return [v4(p[2], p[3]), v4(p[6] ^ 0xffff, p[7] ^ 0xffff)];
    case 'rfc6145': // ::ffff:0:a.b.c.d
      return [v4(p[6], p[7])];
    case 'rfc6052': // 64:ff9b::a.b.c.d (local-use 64:ff9b:1::/48 is caught by the caller)
      return [v4(p[6], p[7])];
    default:
      return null;
  }
}
