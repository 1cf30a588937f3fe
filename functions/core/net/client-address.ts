/**
 * The client address of a request, bounded and normalised before it is used for anything
 * (a rate-limit key is a DynamoDB key, and those have a size limit). Pure: no sockets.
 *
 * - `parseClientAddress` reads one address as proxies write it (`1.2.3.4`, `1.2.3.4:567`,
 *   `[2001:db8::1]:567`, `::ffff:1.2.3.4`, `fe80::1%eth0`) and answers its canonical form
 *   (IPv4-mapped IPv6 → IPv4, IPv6 compressed lower case), or undefined for anything else.
 * - `clientIdentity` is what the API calls the client IP: the canonical address, `unknown`
 *   when there is none, or a fixed-length digest of a value that is not an address.
 * - `rateLimitKey` is what a client is counted under: IPv4 as is, IPv6 by its /64 (one
 *   subscriber usually holds a whole /64, so counting single IPv6 addresses would let one
 *   client rotate through 2^64 of them), anything else as `clientIdentity` does.
 * Every output is at most a few dozen characters, whatever the input.
 */
import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** The longest textual address we read: a bracketed IPv6 with an embedded IPv4, a zone id and a port. */
const MAX_ADDRESS_LENGTH = 100;
/** How much of a value that is not an address is digested (the digest is fixed-length anyway). */
const MAX_DIGESTED_LENGTH = 256;
export const UNKNOWN_CLIENT = 'unknown';
const UNPARSED_PREFIX = 'unparsed:';
const UNPARSED = /^unparsed:[0-9a-f]{32}$/;

export function parseClientAddress(value: string | null | undefined): string | undefined {
  if (typeof value !== 'string') return undefined;
  let text = value.trim();
  if (text === '' || text.length > MAX_ADDRESS_LENGTH) return undefined;
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(text);
  if (bracketed) text = bracketed[1];
  else if (/^[\d.]+:\d{1,5}$/.test(text)) text = text.slice(0, text.indexOf(':')); // IPv4 with a port
  text = text.replace(/%[\w.-]*$/, ''); // an IPv6 zone id names a local interface, not a client
  // Canonical forms only: ipaddr.js alone would also take shorthand like "127.1" or "0x7f.1".
  if (isIP(text) === 0) return undefined;
  return ipaddr.process(text).toString();
}

export function clientIdentity(value: string | null | undefined): string {
  const address = parseClientAddress(value);
  if (address) return address;
  const text = typeof value === 'string' ? value.trim() : '';
  if (text === '' || text === UNKNOWN_CLIENT) return UNKNOWN_CLIENT;
  if (UNPARSED.test(text)) return text; // already an identity: idempotent
  const digest = createHash('sha256').update(text.slice(0, MAX_DIGESTED_LENGTH)).digest('hex').slice(0, 32);
  return `${UNPARSED_PREFIX}${digest}`;
}

export function rateLimitKey(value: string | null | undefined): string {
  const identity = clientIdentity(value);
  if (isIP(identity) !== 6) return identity;
  const parts = ipaddr.IPv6.parse(identity).parts;
  return `${new ipaddr.IPv6([...parts.slice(0, 4), 0, 0, 0, 0]).toString()}/64`;
}
