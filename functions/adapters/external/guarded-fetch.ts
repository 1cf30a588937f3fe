/**
 * The one outbound HTTP client for user-supplied URLs (D24, OWASP SSRF cheat sheet).
 *
 * - http/https only, no credentials in URLs, ports 80/443 unless `allowPrivateNetwork`;
 * - every address a host resolves to is checked inside the socket's own `lookup`, so the
 *   address validated is the address connected to (no DNS-rebinding TOCTOU window);
 * - redirects are followed by hand and every hop is validated again;
 * - one deadline covers connect + all hops + the whole body; bodies are capped in bytes
 *   (after decompression).
 */
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { pipeline, type Readable } from 'node:stream';
import zlib from 'node:zlib';
import { BlockedUrlError, UpstreamError } from '../../core/errors';
import { assertAddressAllowed, assertFetchableUrl } from '../../core/net/url-policy';
import type { FetchResponse, HttpFetcher, UrlGuard } from '../../ports';

export interface GuardedFetchOptions {
  allowPrivateNetwork: boolean;
  maxRedirects?: number; // default 3
  timeoutMs?: number; // default 10_000
  maxBytes?: number; // default 5 * 1024 * 1024
  userAgent?: string;
}


const DEFAULT_MAX_REDIRECTS = 3;
const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;
const DEFAULT_USER_AGENT = 'AIVisibilityBot/1.0 (+https://example.invalid/bot)';
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Never sent: no cookie jar, and the caller's cookies are not the target's business. */
const NEVER_SENT_HEADERS = ['cookie', 'host', 'content-length', 'accept-encoding', 'user-agent'];
/** Dropped when a redirect leaves the original origin, as browsers do. */
const CREDENTIAL_HEADERS = ['authorization', 'proxy-authorization'];

/**
 * The hop validator: resolves a Location header against the current URL and applies the
 * same checks as the first request. Exported for tests.
 */
export function resolveRedirectTarget(
  location: string,
  current: URL,
  options: Pick<GuardedFetchOptions, 'allowPrivateNetwork'>,
): URL {
  let target: URL;
  try {
    target = new URL(location, current);
  } catch {
    throw new UpstreamError(`invalid redirect location from ${current.host}`);
  }
  return assertFetchableUrl(target.href, options);
}

export function createGuardedFetch(options: GuardedFetchOptions): HttpFetcher {
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
  const lookup = guardedLookup(options.allowPrivateNetwork);

  return async (url, request = {}) => {
    const timeoutMs = request.timeoutMs ?? options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const maxBytes = request.maxBytes ?? options.maxBytes ?? DEFAULT_MAX_BYTES;
    const deadline = Date.now() + timeoutMs;
    let current = assertFetchableUrl(url, options);
    const origin = current.origin;
    let method = request.method ?? 'GET';
    let body = request.body;
    let headers = callerHeaders(request.headers);

    for (let redirects = 0; ; redirects++) {
      const hop = { url: current, method, headers, body, userAgent, lookup, deadline, timeoutMs, maxBytes };
      const result = await fetchOnce(hop);
      if (!('location' in result)) return result;

      if (redirects >= maxRedirects) {
        throw new UpstreamError(`too many redirects (more than ${maxRedirects}) fetching ${current.hostname}`);
      }
      current = resolveRedirectTarget(result.location, current, options);
      if (result.status !== 307 && result.status !== 308 && method !== 'HEAD') {
        // 301/302/303 become a bodiless GET (what every browser does); 307/308 replay as is.
        method = 'GET';
        body = undefined;
        headers = withoutHeaders(headers, ['content-type']);
      }
      if (current.origin !== origin) headers = withoutHeaders(headers, CREDENTIAL_HEADERS);
    }
  };
}

interface Hop {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
  userAgent: string;
  lookup: LookupFunction;
  deadline: number;
  timeoutMs: number;
  maxBytes: number;
}

/** One request/response; a redirect comes back as its Location without reading the body. */
async function fetchOnce(hop: Hop): Promise<FetchResponse | { status: number; location: string }> {
  const host = hop.url.hostname;
  const timeoutError = new UpstreamError(`timed out after ${hop.timeoutMs} ms fetching ${host}`);
  const remaining = hop.deadline - Date.now();
  if (remaining <= 0) throw timeoutError;

  const transport = hop.url.protocol === 'https:' ? https : http;
  const req = transport.request({
    protocol: hop.url.protocol,
    hostname: hop.url.hostname.replace(/^\[|\]$/g, ''),
    port: hop.url.port || undefined,
    path: hop.url.pathname + hop.url.search,
    method: hop.method,
    headers: {
      ...hop.headers,
      'user-agent': hop.userAgent,
      'accept-encoding': 'gzip, deflate, br',
      ...(hop.body !== undefined ? { 'content-length': String(Buffer.byteLength(hop.body)) } : {}),
    },
    lookup: hop.lookup,
    // No pooling: a kept-alive socket could be reused by a fetcher with a stricter policy.
    agent: false,
  });

  // An overall deadline, not a socket idle timeout, so a slow drip of bytes is cut off too.
  let timedOut = false;
  let response: http.IncomingMessage | undefined;
  const timer = setTimeout(() => {
    timedOut = true;
    const abort = new Error('deadline reached');
    response?.destroy(abort);
    req.destroy(abort);
  }, remaining);

  try {
    response = await new Promise<http.IncomingMessage>((resolve, reject) => {
      req.on('response', resolve);
      req.on('error', reject);
      req.end(hop.body);
    });
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (REDIRECT_STATUSES.has(status) && location) {
      response.destroy();
      return { status, location };
    }
    const headers = flattenHeaders(response.headers);
    const body = hop.method === 'HEAD' ? Buffer.alloc(0) : await readBody(response, headers, hop.maxBytes, host);
    if (timedOut) throw timeoutError;
    return makeResponse(status, hop.url.href, headers, body, host);
  } catch (err) {
    if (timedOut) throw timeoutError;
    throw toFetchError(err, host);
  } finally {
    clearTimeout(timer);
    req.destroy();
  }
}

/** Streams the (decoded) body and stops as soon as it passes the limit. */
async function readBody(
  response: http.IncomingMessage,
  headers: Record<string, string>,
  maxBytes: number,
  host: string,
): Promise<Buffer> {
  const tooLarge = () => new UpstreamError(`response from ${host} exceeds the ${maxBytes}-byte limit`);
  if (Number(headers['content-length']) > maxBytes) {
    response.destroy();
    throw tooLarge();
  }
  const decoder = decoderFor(headers['content-encoding'], host);
  let source: Readable = response;
  if (decoder) {
    source = pipeline(response, decoder, () => undefined); // errors surface on the decoder
    // The body we hand back is decoded: do not let these headers describe the encoded one.
    delete headers['content-encoding'];
    delete headers['content-length'];
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of source) {
    total += (chunk as Buffer).length;
    if (total > maxBytes) {
      source.destroy();
      response.destroy();
      throw tooLarge();
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks, total);
}

function decoderFor(encoding: string | undefined, host: string): zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress | null {
  switch ((encoding ?? '').trim().toLowerCase()) {
    case '':
    case 'identity':
      return null;
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip();
    case 'deflate':
      return zlib.createInflate();
    case 'br':
      return zlib.createBrotliDecompress();
    default:
      throw new UpstreamError(`unsupported content-encoding "${encoding}" from ${host}`);
  }
}

function makeResponse(status: number, url: string, headers: Record<string, string>, body: Buffer, host: string): FetchResponse {
  return {
    status,
    url,
    headers,
    body,
    text: () => body.toString('utf8'),
    json: () => {
      try {
        return JSON.parse(body.toString('utf8')) as unknown;
      } catch {
        // Never echo the upstream body: it is attacker-controlled content.
        throw new UpstreamError(`invalid JSON from ${host}`);
      }
    },
  };
}

/**
 * dns.lookup wrapper that refuses the connection if ANY resolved address is not allowed
 * (an attacker's DNS can mix a public and a private answer). Exported for the local CDN
 * proxy, whose origin connections obey the same policy.
 */
export function guardedLookup(allowPrivateNetwork: boolean): LookupFunction {
  return (hostname, lookupOptions, callback) => {
    dns.lookup(hostname, { ...lookupOptions, all: true }, (err, addresses) => {
      if (err) return callback(err, '');
      try {
        for (const { address } of addresses) assertAddressAllowed(address, { allowPrivateNetwork }, hostname);
      } catch (blocked) {
        return callback(blocked as BlockedUrlError, '');
      }
      if (addresses.length === 0) return callback(Object.assign(new Error('no addresses'), { code: 'ENOTFOUND' }), '');
      if (lookupOptions.all) return callback(null, addresses);
      return callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

/** How long the URL guard waits for DNS before letting the connect-time check decide. */
const GUARD_LOOKUP_TIMEOUT_MS = 3_000;

/**
 * The URL guard (ports.ts UrlGuard): the URL policy, then every address the host resolves to
 * now. A name that does not resolve passes (a new store's DNS may not be live yet); every
 * fetch checks again at connect time, so a later DNS change cannot reach a refused address.
 */
export function createUrlGuard(options: { allowPrivateNetwork: boolean }): UrlGuard {
  return async (url) => {
    const parsed = assertFetchableUrl(url, options);
    const host = parsed.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host)) return parsed;
    const addresses = await resolveWithin(host, GUARD_LOOKUP_TIMEOUT_MS);
    for (const address of addresses) assertAddressAllowed(address, options, host);
    return parsed;
  };
}

function resolveWithin(host: string, timeoutMs: number): Promise<string[]> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve([]), timeoutMs);
    dns.lookup(host, { all: true }, (err, addresses) => {
      clearTimeout(timer);
      resolve(err ? [] : addresses.map((a) => a.address));
    });
  });
}

const NETWORK_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'DNS lookup failed',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EPIPE: 'connection closed',
};

function toFetchError(err: unknown, host: string): Error {
  if (err instanceof BlockedUrlError || err instanceof UpstreamError) return err;
  // With happy-eyeballs (autoSelectFamily) Node reports an AggregateError of attempts.
  const first = err instanceof AggregateError && err.errors.length > 0 ? err.errors[0] : err;
  const code = (first as NodeJS.ErrnoException | undefined)?.code ?? '';
  if (code.startsWith('Z_')) return new UpstreamError(`invalid compressed response from ${host}`);
  if (code.startsWith('HPE_')) return new UpstreamError(`invalid HTTP response from ${host}`);
  const reason =
    NETWORK_ERRORS[code] ??
    (/CERT|SSL|TLS/.test(code) ? `TLS error (${code})` : code ? `network error (${code})` : 'network error');
  return new UpstreamError(`could not reach ${host}: ${reason}`);
}

function callerHeaders(headers: Record<string, string> | undefined): Record<string, string> {
  const lower: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) lower[name.toLowerCase()] = value;
  return withoutHeaders(lower, NEVER_SENT_HEADERS);
}

function withoutHeaders(headers: Record<string, string>, names: string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !names.includes(name)));
}

function flattenHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}
