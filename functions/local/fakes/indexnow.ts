/**
 * A local IndexNow endpoint (node:http on 127.0.0.1) for tests and `npm start`: set
 * INDEXNOW_ENDPOINT to its `url`. It behaves like a participating engine:
 *
 * - `POST /indexnow` with `Content-Type: application/json` and `{host, key, keyLocation?, urlList}`,
 *   or the single-URL form `GET /indexnow?url=...&key=...[&keyLocation=...]`;
 * - 400 for a malformed request (not JSON, wrong shape, no URLs, more than 10,000 URLs, a URL
 *   that is not absolute http(s), a host with a scheme or path);
 * - 422 for a URL on another host than `host`, a keyLocation on another host, URLs outside the
 *   key file's directory, or a key that does not fit the schema (8-128 of a-zA-Z0-9-);
 * - 403 when `keyLocation` (default `https://{host}/{key}.txt`) does not answer 200 with exactly
 *   the key: like real engines, it fetches the key file. The fetch stays on loopback: `localhost`,
 *   `*.localhost` (the local AI-site hosts, RFC 6761) and loopback addresses connect to
 *   127.0.0.1 with the URL's Host, hostnames listed in `loopbackHosts` go to the port given
 *   (e.g. customer domains through the local CDN proxy), any other host counts as unreachable;
 * - 200 (or `answer: 202`) otherwise; `failNext(status, count)` makes the next requests answer
 *   that status first (429 with Retry-After when given, 5xx...).
 * Every request is recorded in `submissions` with the status it got and why.
 */
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { INDEXNOW_MAX_URLS_PER_SUBMISSION, isValidIndexNowKey, normalizeIndexNowHost, urlBelongsToHost } from '../../core/indexnow/submission';
import { closeServer } from '../runtime/close-server';
import { listen } from '../runtime/listen';
import { readBody } from '../runtime/read-body';

export interface IndexNowFakeSubmission {
  method: string;
  contentType?: string;
  /** The parsed JSON body (POST), the query's equivalent (GET), or the raw text when it is not JSON. */
  body: unknown;
  host?: string;
  key?: string;
  keyLocation?: string;
  urlList?: string[];
  /** What the fake answered. */
  status: number;
  /** Why it refused (absent on success). */
  reason?: string;
  /** The key file check, when it ran. */
  keyCheck?: { url: string; status: number; matched: boolean };
}

export interface KeyFileResponse {
  /** 0 when unreachable. */
  status: number;
  body: string;
}

export interface IndexNowFakeOptions {
  /** Default 0 (any free port). */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** The success status. Default 200. */
  answer?: 200 | 202;
  /** Fetch and compare the key file. Default true. */
  checkKey?: boolean;
  /**
   * Hostnames whose key files are fetched over plain http from 127.0.0.1:<port> (Host kept),
   * e.g. a customer domain → the local CDN proxy's port. A key starting with `.` matches every
   * name under it (`.ai.test` → `acme.ai.test`), e.g. a custom AI_SITE_DOMAIN → the sites host.
   */
  loopbackHosts?: Record<string, number>;
  /** Replaces the key file fetch entirely. */
  keyFileFetch?: (url: string) => Promise<KeyFileResponse>;
  /** Per key file fetch. Default 5 000. */
  keyFetchTimeoutMs?: number;
}

export interface IndexNowFake {
  /** The value for INDEXNOW_ENDPOINT: `http://127.0.0.1:<port>/indexnow`. */
  url: string;
  origin: string;
  port: number;
  /** Every request, in arrival order. */
  submissions: IndexNowFakeSubmission[];
  /** The submissions answered 200/202. */
  accepted(): IndexNowFakeSubmission[];
  /** The next `count` requests answer `status` (before any validation). */
  failNext(status: number, count?: number, options?: { retryAfter?: number | string }): void;
  /** Forgets submissions and pending failures. */
  reset(): void;
  close(): Promise<void>;
}

export const INDEXNOW_FAKE_PATH = '/indexnow';
const MAX_BODY_BYTES = 32 * 1024 * 1024;
const MAX_KEY_FILE_BYTES = 64 * 1024;

class Refusal extends Error {
  constructor(readonly status: number, readonly code: string, message: string) {
    super(message);
  }
}

export async function startIndexNowFake(options: IndexNowFakeOptions = {}): Promise<IndexNowFake> {
  const submissions: IndexNowFakeSubmission[] = [];
  const injected: Array<{ status: number; retryAfter?: string }> = [];
  const checkKey = options.checkKey ?? true;
  const keyFileFetch = options.keyFileFetch ?? ((url: string) => fetchOnLoopback(url, options.loopbackHosts ?? {}, options.keyFetchTimeoutMs ?? 5_000));

  const send = (res: ServerResponse, status: number, error?: { code: string; message: string }, headers: Record<string, string> = {}) => {
    if (!error) {
      res.writeHead(status, headers).end();
      return;
    }
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers }).end(JSON.stringify(error));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse, raw: string, tooLarge: boolean) => {
    const requestUrl = new URL(req.url ?? '/', 'http://indexnow.fake');
    const record: IndexNowFakeSubmission = { method: req.method ?? '', contentType: req.headers['content-type'], body: raw, status: 0 };
    submissions.push(record);
    const refuse = (status: number, code: string, message: string, headers?: Record<string, string>) => {
      record.status = status;
      record.reason = message;
      send(res, status, { code, message }, headers);
    };

    const failure = injected.shift();
    if (failure) {
      return refuse(failure.status, 'Injected', `injected failure (HTTP ${failure.status})`, failure.retryAfter !== undefined ? { 'retry-after': failure.retryAfter } : undefined);
    }
    if (requestUrl.pathname !== INDEXNOW_FAKE_PATH) return refuse(404, 'NotFound', `no endpoint at ${requestUrl.pathname}`);
    if (req.method !== 'POST' && req.method !== 'GET') return refuse(405, 'MethodNotAllowed', `${req.method} is not allowed`, { allow: 'GET, POST' });

    try {
      let body: unknown;
      if (req.method === 'GET') {
        const url = requestUrl.searchParams.get('url');
        const key = requestUrl.searchParams.get('key');
        if (!url || !key) throw new Refusal(400, 'InvalidRequestParameters', 'the single-URL form needs url and key');
        let host: string;
        try {
          host = new URL(url).host;
        } catch {
          throw new Refusal(400, 'InvalidRequestParameters', 'url is not an absolute URL');
        }
        body = { host, key, keyLocation: requestUrl.searchParams.get('keyLocation') ?? undefined, urlList: [url] };
      } else {
        if (tooLarge) throw new Refusal(413, 'RequestTooLarge', 'the request body is too large');
        if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) throw new Refusal(400, 'InvalidRequestParameters', 'Content-Type must be application/json');
        try {
          body = JSON.parse(raw);
        } catch {
          throw new Refusal(400, 'InvalidRequestParameters', 'the body is not JSON');
        }
      }
      record.body = body;
      const submission = validateShape(body);
      Object.assign(record, submission);
      const keyLocation = submission.keyLocation ?? `https://${submission.host}/${submission.key}.txt`;
      validateProtocol(submission, keyLocation);
      if (checkKey) {
        const got = await keyFileFetch(keyLocation).catch((): KeyFileResponse => ({ status: 0, body: '' }));
        const matched = got.status === 200 && got.body === submission.key;
        record.keyCheck = { url: keyLocation, status: got.status, matched };
        if (!matched) {
          const why = got.status === 0 ? 'could not be fetched' : got.status !== 200 ? `answered HTTP ${got.status}` : 'does not contain exactly the key';
          throw new Refusal(403, 'UserForbiddedToAccessSite', `key not valid: the key file at ${keyLocation} ${why}`);
        }
      }
      const status = options.answer ?? 200;
      record.status = status;
      send(res, status);
    } catch (err) {
      if (err instanceof Refusal) return refuse(err.status, err.code, err.message);
      return refuse(500, 'InternalError', `fake failed: ${(err as Error).message}`);
    }
  };

  const server = createServer((req, res) => {
    void readBody(req, MAX_BODY_BYTES).then((body) => handle(req, res, body?.toString('utf8') ?? '', body === null));
  });
  const port = await listen(server, options.port, options.host);
  const origin = `http://${options.host ?? '127.0.0.1'}:${port}`;

  return {
    url: `${origin}${INDEXNOW_FAKE_PATH}`,
    origin,
    port,
    submissions,
    accepted: () => submissions.filter((s) => s.status === 200 || s.status === 202),
    failNext(status, count = 1, failOptions = {}) {
      for (let i = 0; i < count; i++) injected.push({ status, ...(failOptions.retryAfter !== undefined ? { retryAfter: String(failOptions.retryAfter) } : {}) });
    },
    reset() {
      submissions.length = 0;
      injected.length = 0;
    },
    close: () => closeServer(server),
  };
}

interface Shape {
  host: string;
  key: string;
  keyLocation?: string;
  urlList: string[];
}

/** The JSON shape (400 when wrong); the key's format is a 422, as engines answer. */
function validateShape(body: unknown): Shape {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new Refusal(400, 'InvalidRequestParameters', 'the body must be a JSON object');
  const { host, key, keyLocation, urlList } = body as Record<string, unknown>;
  if (typeof host !== 'string' || !host) throw new Refusal(400, 'InvalidRequestParameters', 'host is missing');
  try {
    if (normalizeIndexNowHost(host) !== host.toLowerCase()) throw new Error('not normalized');
  } catch {
    throw new Refusal(400, 'InvalidRequestParameters', 'host must be a host name without scheme or path');
  }
  if (typeof key !== 'string' || !key) throw new Refusal(400, 'InvalidRequestParameters', 'key is missing');
  if (keyLocation !== undefined && typeof keyLocation !== 'string') throw new Refusal(400, 'InvalidRequestParameters', 'keyLocation must be a string');
  if (!Array.isArray(urlList) || urlList.length === 0) throw new Refusal(400, 'InvalidRequestParameters', 'urlList must be a non-empty array');
  if (urlList.length > INDEXNOW_MAX_URLS_PER_SUBMISSION) throw new Refusal(400, 'InvalidRequestParameters', `urlList has more than ${INDEXNOW_MAX_URLS_PER_SUBMISSION} URLs`);
  if (!urlList.every((u): u is string => typeof u === 'string')) throw new Refusal(400, 'InvalidRequestParameters', 'urlList must hold strings');
  return { host: host.toLowerCase(), key, ...(keyLocation ? { keyLocation } : {}), urlList };
}

/** URLs absolute http(s) (400); URLs and key location on the host, under the key file's directory, key schema (422). */
function validateProtocol(submission: Shape, keyLocation: string): void {
  if (!isValidIndexNowKey(submission.key)) throw new Refusal(422, 'InvalidKey', 'the key must be 8-128 characters of a-z, A-Z, 0-9 and -');
  let location: URL;
  try {
    location = new URL(keyLocation);
  } catch {
    throw new Refusal(422, 'InvalidKeyLocation', 'keyLocation is not an absolute URL');
  }
  if (!urlBelongsToHost(location, submission.host)) throw new Refusal(422, 'InvalidKeyLocation', `keyLocation ${location.host} is not on the host ${submission.host}`);
  const directory = location.pathname.slice(0, location.pathname.lastIndexOf('/') + 1) || '/';
  for (const raw of submission.urlList) {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new Refusal(400, 'InvalidRequestParameters', `not an absolute URL: ${raw.slice(0, 200)}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Refusal(400, 'InvalidRequestParameters', `not an http(s) URL: ${raw.slice(0, 200)}`);
    if (!urlBelongsToHost(url, submission.host)) throw new Refusal(422, 'UrlNotBelongToHost', `${url.host} is another host than ${submission.host}`);
    if (!url.pathname.startsWith(directory)) throw new Refusal(422, 'UrlNotUnderKeyLocation', `${url.pathname} is outside ${directory}, the key file's directory`);
  }
}

function mappedPort(hostname: string, loopbackHosts: Record<string, number>): number | undefined {
  if (loopbackHosts[hostname] !== undefined) return loopbackHosts[hostname];
  const suffix = Object.keys(loopbackHosts).filter((k) => k.startsWith('.') && hostname.endsWith(k.toLowerCase())).sort((a, b) => b.length - a.length)[0];
  return suffix === undefined ? undefined : loopbackHosts[suffix];
}

function isLoopbackName(hostname: string): boolean {
  const name = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  if (isIP(name) === 4) return name.startsWith('127.');
  return name === '::1';
}

/**
 * GETs a key file without leaving the machine: loopback names connect to 127.0.0.1 (or ::1)
 * with the URL's Host, `loopbackHosts` names to 127.0.0.1:<port> over http; anything else is
 * unreachable (status 0). No redirects are followed.
 */
export function fetchOnLoopback(rawUrl: string, loopbackHosts: Record<string, number> = {}, timeoutMs = 5_000): Promise<KeyFileResponse> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return Promise.resolve({ status: 0, body: '' });
  }
  const mapped = mappedPort(url.hostname.toLowerCase(), loopbackHosts);
  if (mapped === undefined && !isLoopbackName(url.hostname)) return Promise.resolve({ status: 0, body: '' });
  const secure = mapped === undefined && url.protocol === 'https:';
  const address = url.hostname === '[::1]' || url.hostname === '::1' ? '::1' : '127.0.0.1';
  const port = mapped ?? (url.port ? Number(url.port) : secure ? 443 : 80);
  const request = secure ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    const req = request(
      {
        host: address,
        port,
        method: 'GET',
        path: `${url.pathname}${url.search}`,
        headers: { host: url.host, 'user-agent': 'IndexNowFake/1.0' },
        timeout: timeoutMs,
        ...(secure ? { servername: isIP(url.hostname) ? undefined : url.hostname, rejectUnauthorized: false } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size <= MAX_KEY_FILE_BYTES) chunks.push(chunk);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', () => resolve({ status: 0, body: '' }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve({ status: 0, body: '' }));
    req.end();
  });
}
