/**
 * Which URLs the service may fetch or proxy to (D24), before any DNS: http(s) only, no
 * credentials, ports 80/443 unless private networks are allowed, and IP-literal hosts
 * checked against the address policy. One rule for every route and the CDN proxy; the
 * guarded client applies it to every redirect hop and checks resolved addresses itself.
 */
import { isIP } from 'node:net';
import { BlockedUrlError } from '../errors';
import { classifyAddress, isAddressAllowed } from './address-policy';

export interface UrlPolicyOptions {
  allowPrivateNetwork: boolean;
}

const DEFAULT_PORTS = new Set(['', '80', '443']); // '' = the scheme default (URL drops it)

/** Throws BlockedUrlError naming the reason; returns the parsed URL. */
export function assertFetchableUrl(url: string, options: UrlPolicyOptions): URL {
  let parsed: URL;
  try {
    // The WHATWG parser normalizes IP literals (2130706433, 0x7f.1, 0177.0.0.1 -> 127.0.0.1),
    // so the checks below see the address that will actually be dialled.
    parsed = new URL(url);
  } catch {
    throw new BlockedUrlError('invalid URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new BlockedUrlError(`URL scheme "${parsed.protocol.replace(/:$/, '')}" is not allowed (http and https only)`);
  }
  if (parsed.username || parsed.password) throw new BlockedUrlError('URLs with credentials are not allowed');
  const literal = ipLiteral(parsed.hostname);
  if (literal !== null) assertAddressAllowed(literal, options, literal);
  if (!options.allowPrivateNetwork && !DEFAULT_PORTS.has(parsed.port)) {
    throw new BlockedUrlError(`port ${parsed.port} is not allowed (80 and 443 only)`);
  }
  return parsed;
}

/** Throws BlockedUrlError when `address` (what `host` resolved to) is not allowed. */
export function assertAddressAllowed(address: string, options: UrlPolicyOptions, host: string): void {
  if (isAddressAllowed(address, options.allowPrivateNetwork)) return;
  const range = classifyAddress(address).range;
  throw new BlockedUrlError(host === address
    ? `address ${address} is not allowed (${range})`
    : `${host} resolves to ${address} (${range}), which is not allowed`);
}

/** IP-literal hostname without brackets, or null for a name that needs DNS. */
export function ipLiteral(hostname: string): string | null {
  const bare = hostname.replace(/^\[|\]$/g, '');
  return isIP(bare) ? bare : null;
}
