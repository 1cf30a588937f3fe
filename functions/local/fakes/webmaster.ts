/**
 * A local webmaster console (Google Search Console API subset, Site Verification API subset
 * and the OAuth token endpoint) on node:http, 127.0.0.1, for tests and `npm start`. Point
 * WEBMASTER_API_URL at `apiUrl` (the Site Verification API is then derived as
 * `siteVerificationUrl`, same port) and WEBMASTER_CREDENTIALS at `serviceAccountJson` (a
 * generated RSA key whose `token_uri` is this server) or at `accessToken`.
 *
 * - `POST /token`: the JWT-bearer grant. The assertion must be RS256-signed by the generated
 *   key, `iss` = its client_email, `aud` = this token_uri, `scope` (space-separated) containing
 *   the webmasters or the siteverification scope, unexpired; answers
 *   `{access_token, expires_in, token_type}` or Google's `400 {"error":"invalid_grant", ...}`.
 *   The token carries the scopes asked for; `accessToken` carries both.
 * - API calls need a valid bearer token (else 401) with the API's scope (else 403
 *   `ACCESS_TOKEN_SCOPE_INSUFFICIENT`); errors are Google's
 *   `{"error":{"code","message","status","errors":[{message,reason}]}}`.
 * - `PUT /webmasters/v3/sites/{siteUrl}`: sites.add (owned properties only).
 * - `PUT /webmasters/v3/sites/{siteUrl}/sitemaps/{feedpath}`: sitemaps.submit. 403 for a
 *   property the account does not own (not in `allowedSites`, when given, and not verified
 *   here) or, with `requireSiteAdded`, one not added yet; 400 when the feedpath is not an
 *   absolute URL on the property; 204 otherwise, recorded in `sitemaps`.
 * - `POST /siteVerification/v1/token` `{"site":{"type":"INET_DOMAIN","identifier":d},
 *   "verificationMethod":"DNS_TXT"}`: 200 `{"method":"DNS_TXT","token":
 *   "google-site-verification=<43 base64url chars>"}`, one stable token per identifier (in
 *   `tokens`); another site type or method → 400.
 * - `POST /siteVerification/v1/webResource?verificationMethod=DNS_TXT`
 *   `{"site":{"type":"INET_DOMAIN","identifier":d}}`: the identifier's TXT values come from the
 *   `lookupTxt` option (tests: the DNS test server through adapters/external/dns.ts); the
 *   issued token among them → 200 `{"id":"dns%3A%2F%2F<d>","site":{...},"owners":[<client
 *   email, or owner@fake for accessToken>]}`, `d` joins `verified` and `sc-domain:<d>` becomes
 *   owned; no token issued, not found, a failed lookup or no `lookupTxt` → 400 "The necessary
 *   verification token could not be found on your site.".
 * - `failNext(status, count, {retryAfter})`: the next API requests (not /token) answer `status`.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { importSPKI, jwtVerify } from 'jose';
import { JWT_BEARER_GRANT, SITE_VERIFICATION_SCOPE, WEBMASTER_SCOPE } from '../../adapters/external/webmaster';
import { closeServer } from '../runtime/close-server';
import { listen } from '../runtime/listen';

export interface WebmasterFakeOptions {
  port?: number;
  host?: string;
  /** Properties the account owns; unset: any. */
  allowedSites?: string[];
  /** Submitting needs a sites.add first (403 until then). Default false. */
  requireSiteAdded?: boolean;
  /** Lifetime of issued tokens, seconds. Default 3600. */
  tokenLifetimeSeconds?: number;
  /** TXT values of a name, for webResource.insert; unset: nothing can be verified. */
  lookupTxt?: (name: string) => Promise<string[]>;
}

export interface WebmasterFakeRequest {
  method: string;
  path: string;
  status: number;
  reason?: string;
}

export interface WebmasterFake {
  origin: string;
  port: number;
  /** WEBMASTER_API_URL: `http://127.0.0.1:<port>/webmasters/v3`. */
  apiUrl: string;
  tokenUri: string;
  clientEmail: string;
  /** A WEBMASTER_CREDENTIALS value: a service-account key whose token_uri is this fake. */
  serviceAccountJson: string;
  /** A WEBMASTER_CREDENTIALS value accepted as it is. */
  accessToken: string;
  requests: WebmasterFakeRequest[];
  /** Accepted sitemap submissions. */
  sitemaps: Array<{ siteUrl: string; feedpath: string; at: string }>;
  /** Properties added with sites.add. */
  sites: Set<string>;
  /** The Site Verification API: `http://127.0.0.1:<port>/siteVerification/v1`. */
  siteVerificationUrl: string;
  /** Verification tokens issued, by identifier (lower-case domain). */
  tokens: Map<string, string>;
  /** Domains verified through webResource.insert (their `sc-domain:` property is owned). */
  verified: Set<string>;
  /** Tokens issued by /token. */
  tokensIssued(): number;
  /** Makes every token issued so far invalid (the next API call answers 401). */
  revokeTokens(): void;
  failNext(status: number, count?: number, options?: { retryAfter?: number | string }): void;
  /** Forgets requests, sitemaps, injected failures, added sites, verification tokens and verified domains. */
  reset(): void;
  close(): Promise<void>;
}

const API_PREFIX = '/webmasters/v3';
const VERIFICATION_PREFIX = '/siteVerification/v1';
const TOKEN_NOT_FOUND = 'The necessary verification token could not be found on your site.';
const STATIC_OWNER = 'owner@fake';

export async function startWebmasterFake(options: WebmasterFakeOptions = {}): Promise<WebmasterFake> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const verifyKey = await importSPKI(publicKey, 'RS256');
  const clientEmail = 'indexing@ai-visibility-local.iam.gserviceaccount.com';
  const privateKeyId = randomBytes(8).toString('hex');
  const staticToken = `ya29.static-${randomBytes(12).toString('hex')}`;
  /** Access tokens issued by /token: expiry (ms) and scopes. */
  const issued = new Map<string, { expiresAt: number; scopes: string[] }>();
  let issuedCount = 0;
  const requests: WebmasterFakeRequest[] = [];
  const sitemaps: WebmasterFake['sitemaps'] = [];
  const sites = new Set<string>();
  const tokens = new Map<string, string>();
  const verified = new Set<string>();
  const injected: Array<{ status: number; retryAfter?: string }> = [];
  const lifetime = options.tokenLifetimeSeconds ?? 3600;
  let tokenUri = '';

  const send = (res: ServerResponse, record: WebmasterFakeRequest, status: number, body?: unknown, headers: Record<string, string> = {}) => {
    record.status = status;
    if (body === undefined) {
      res.writeHead(status, headers).end();
      return;
    }
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers }).end(JSON.stringify(body));
  };
  const googleError = (status: number, message: string, code: string) => ({ error: { code: status, message, status: code, errors: [{ message, reason: code }] } });

  const handle = async (req: IncomingMessage, res: ServerResponse, raw: string) => {
    const url = new URL(req.url ?? '/', 'http://webmaster.fake');
    const record: WebmasterFakeRequest = { method: req.method ?? '', path: url.pathname, status: 0 };
    requests.push(record);
    const fail = (status: number, message: string, code: string, headers?: Record<string, string>) => {
      record.reason = message;
      send(res, record, status, googleError(status, message, code), headers);
    };

    if (url.pathname === '/token') {
      if (req.method !== 'POST') return fail(405, 'method not allowed', 'METHOD_NOT_ALLOWED');
      const form = new URLSearchParams(raw);
      let scopes: string[] = [];
      if (form.get('grant_type') !== JWT_BEARER_GRANT) {
        record.reason = 'unsupported grant type';
        return send(res, record, 400, { error: 'unsupported_grant_type', error_description: 'Invalid grant_type' });
      }
      try {
        const { payload } = await jwtVerify(form.get('assertion') ?? '', verifyKey, { issuer: clientEmail, audience: tokenUri, algorithms: ['RS256'] });
        scopes = String(payload.scope ?? '').split(/\s+/).filter(Boolean);
        if (!scopes.includes(WEBMASTER_SCOPE) && !scopes.includes(SITE_VERIFICATION_SCOPE)) throw new Error('scope');
      } catch {
        record.reason = 'invalid assertion';
        return send(res, record, 400, { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' });
      }
      const token = `ya29.fake-${randomBytes(12).toString('hex')}`;
      issued.set(token, { expiresAt: Date.now() + lifetime * 1000, scopes });
      issuedCount++;
      return send(res, record, 200, { access_token: token, expires_in: lifetime, token_type: 'Bearer' });
    }

    const failure = injected.shift();
    if (failure) return fail(failure.status, `injected failure (HTTP ${failure.status})`, 'INJECTED', failure.retryAfter !== undefined ? { 'retry-after': failure.retryAfter } : undefined);
    const verification = url.pathname === `${VERIFICATION_PREFIX}/token` || url.pathname === `${VERIFICATION_PREFIX}/webResource`;
    if (!verification && !url.pathname.startsWith(`${API_PREFIX}/sites/`)) return fail(404, `no API at ${url.pathname}`, 'NOT_FOUND');
    if (verification && req.method !== 'POST') return fail(405, 'only POST (getToken, webResource.insert) is served', 'METHOD_NOT_ALLOWED');
    if (!verification && req.method !== 'PUT') return fail(405, 'only PUT (sites.add, sitemaps.submit) is served', 'METHOD_NOT_ALLOWED');

    const bearer = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
    const grant = bearer === staticToken ? { expiresAt: Infinity, scopes: [WEBMASTER_SCOPE, SITE_VERIFICATION_SCOPE] } : bearer ? issued.get(bearer) : undefined;
    if (!grant || grant.expiresAt <= Date.now()) return fail(401, 'Request had invalid authentication credentials.', 'UNAUTHENTICATED', { 'www-authenticate': 'Bearer realm="https://accounts.google.com/"' });
    if (!grant.scopes.includes(verification ? SITE_VERIFICATION_SCOPE : WEBMASTER_SCOPE)) {
      return fail(403, 'Request had insufficient authentication scopes.', 'ACCESS_TOKEN_SCOPE_INSUFFICIENT');
    }
    if (verification) return handleVerification(url, raw, bearer === staticToken ? STATIC_OWNER : clientEmail, record, res, fail);

    const parts = url.pathname.slice(`${API_PREFIX}/sites/`.length).split('/');
    let siteUrl: string;
    let feedpath: string | undefined;
    try {
      siteUrl = decodeURIComponent(parts[0] ?? '');
      if (parts.length === 3 && parts[1] === 'sitemaps') feedpath = decodeURIComponent(parts[2] ?? '');
      else if (parts.length !== 1) return fail(404, `no API at ${url.pathname}`, 'NOT_FOUND');
    } catch {
      return fail(400, 'malformed path', 'INVALID_ARGUMENT');
    }
    const owned = !options.allowedSites || options.allowedSites.includes(siteUrl) || (siteUrl.startsWith('sc-domain:') && verified.has(siteUrl.slice('sc-domain:'.length)));
    if (!owned) return fail(403, `User does not have sufficient permission for site '${siteUrl}'. See also: https://support.google.com/webmasters/answer/2451999.`, 'PERMISSION_DENIED');

    if (feedpath === undefined) {
      sites.add(siteUrl);
      return send(res, record, 204);
    }
    if (options.requireSiteAdded && !sites.has(siteUrl)) {
      return fail(403, `User does not have sufficient permission for site '${siteUrl}'. See also: https://support.google.com/webmasters/answer/2451999.`, 'PERMISSION_DENIED');
    }
    if (!feedOnProperty(siteUrl, feedpath)) return fail(400, `Sitemap URL ${feedpath} is not allowed for site ${siteUrl}`, 'INVALID_ARGUMENT');
    sitemaps.push({ siteUrl, feedpath, at: new Date().toISOString() });
    return send(res, record, 204);
  };

  type Fail = (status: number, message: string, code: string) => void;

  /** Site Verification API: getToken and webResource.insert (INET_DOMAIN, DNS_TXT). */
  const handleVerification = async (url: URL, raw: string, owner: string, record: WebmasterFakeRequest, res: ServerResponse, fail: Fail) => {
    let body: { site?: { type?: unknown; identifier?: unknown }; verificationMethod?: unknown };
    try {
      body = JSON.parse(raw) as typeof body;
      if (!body || typeof body !== 'object') throw new Error('not an object');
    } catch {
      return fail(400, 'Invalid JSON payload received.', 'INVALID_ARGUMENT');
    }
    const site = body.site ?? {};
    if (site.type !== 'INET_DOMAIN') return fail(400, `Invalid value for site.type: ${JSON.stringify(site.type)} (this fake serves INET_DOMAIN only)`, 'INVALID_ARGUMENT');
    const identifier = typeof site.identifier === 'string' ? site.identifier.trim().toLowerCase().replace(/\.$/, '') : '';
    if (!identifier || /[/:@\s]/.test(identifier)) return fail(400, `Invalid value for site.identifier: ${JSON.stringify(site.identifier)}`, 'INVALID_ARGUMENT');
    const method = url.pathname.endsWith('/token') ? body.verificationMethod : url.searchParams.get('verificationMethod');
    if (method !== 'DNS_TXT') return fail(400, `Invalid value for verificationMethod: ${JSON.stringify(method)} (this fake serves DNS_TXT only)`, 'INVALID_ARGUMENT');

    if (url.pathname.endsWith('/token')) {
      let token = tokens.get(identifier);
      if (!token) {
        token = `google-site-verification=${randomBytes(32).toString('base64url')}`;
        tokens.set(identifier, token);
      }
      return send(res, record, 200, { method: 'DNS_TXT', token });
    }

    const token = tokens.get(identifier);
    let found = false;
    if (token && options.lookupTxt) {
      try {
        found = (await options.lookupTxt(identifier)).includes(token);
      } catch (err) {
        record.reason = `TXT lookup failed: ${(err as Error).message}`;
      }
    }
    if (!found) {
      const why = record.reason;
      fail(400, TOKEN_NOT_FOUND, 'INVALID_ARGUMENT');
      if (why) record.reason = `${TOKEN_NOT_FOUND} (${why})`;
      return;
    }
    verified.add(identifier);
    return send(res, record, 200, { id: encodeURIComponent(`dns://${identifier}`), site: { type: 'INET_DOMAIN', identifier }, owners: [owner] });
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => void handle(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  const port = await listen(server, options.port, options.host);
  const origin = `http://${options.host ?? '127.0.0.1'}:${port}`;
  tokenUri = `${origin}/token`;
  const serviceAccountJson = JSON.stringify({
    type: 'service_account',
    project_id: 'ai-visibility-local',
    private_key_id: privateKeyId,
    private_key: privateKey,
    client_email: clientEmail,
    token_uri: tokenUri,
  });

  return {
    origin,
    port,
    apiUrl: `${origin}${API_PREFIX}`,
    tokenUri,
    clientEmail,
    serviceAccountJson,
    accessToken: staticToken,
    requests,
    sitemaps,
    sites,
    siteVerificationUrl: `${origin}${VERIFICATION_PREFIX}`,
    tokens,
    verified,
    tokensIssued: () => issuedCount,
    revokeTokens: () => issued.clear(),
    failNext(status, count = 1, failOptions = {}) {
      for (let i = 0; i < count; i++) injected.push({ status, ...(failOptions.retryAfter !== undefined ? { retryAfter: String(failOptions.retryAfter) } : {}) });
    },
    reset() {
      requests.length = 0;
      sitemaps.length = 0;
      injected.length = 0;
      sites.clear();
      tokens.clear();
      verified.clear();
    },
    close: () => closeServer(server),
  };
}

/** The feedpath is an absolute URL on the property (Domain: the domain or a subdomain; URL prefix: under it). */
function feedOnProperty(siteUrl: string, feedpath: string): boolean {
  let feed: URL;
  try {
    feed = new URL(feedpath);
  } catch {
    return false;
  }
  if (siteUrl.startsWith('sc-domain:')) {
    const domain = siteUrl.slice('sc-domain:'.length).toLowerCase();
    return feed.hostname === domain || feed.hostname.endsWith(`.${domain}`);
  }
  return feedpath.startsWith(siteUrl);
}
