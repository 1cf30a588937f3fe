/**
 * The webmaster console (Google Search Console API, ../shared/reference/web-protocols.md §6) and
 * domain verification for it (Google Site Verification API, §6 and
 * ../shared/reference/domain-security-anchors.md §3.1).
 *
 * Sitemap resubmission (`sitemaps.submit`):
 *
 *   PUT {WEBMASTER_API_URL, default https://www.googleapis.com/webmasters/v3}
 *       /sites/{encodeURIComponent(siteUrl)}/sitemaps/{encodeURIComponent(feedpath)}
 *   Authorization: Bearer <access token>          (scope https://www.googleapis.com/auth/webmasters)
 *   no body; success is an empty 2xx.
 *
 * `siteUrl` is the Search Console property: `sc-domain:example.com` for the Domain property the
 * domain connection verifies by DNS TXT (`searchConsoleSiteUrl`), or a URL-prefix property
 * (`https://www.example.com/`). `feedpath` is the sitemap's absolute URL.
 *
 * Domain verification (Site Verification API, at `siteVerificationUrl`: by default derived from
 * WEBMASTER_API_URL by `siteVerificationUrlFor`, `.../webmasters/v3` → `.../siteVerification/v1`,
 * else https://www.googleapis.com/siteVerification/v1; scope .../auth/siteverification):
 *
 *   POST {siteVerificationUrl}/token
 *     {"site":{"type":"INET_DOMAIN","identifier":"example.com"},"verificationMethod":"DNS_TXT"}
 *     → 200 {"method":"DNS_TXT","token":"google-site-verification=..."}   (published as TXT at the apex)
 *   POST {siteVerificationUrl}/webResource?verificationMethod=DNS_TXT
 *     {"site":{"type":"INET_DOMAIN","identifier":"example.com"}}
 *     → 200 WebResource {"id":"dns%3A%2F%2Fexample.com","site":{...},"owners":[...]}: verified;
 *     → 400 {"error":{"code":400,"message":"The necessary verification token could not be found
 *       on your site."}}: not verified yet (Google looks the TXT record up at call time).
 *
 * WEBMASTER_CREDENTIALS, one of (the value is trimmed; it is a secret and never logged):
 * - a service-account key, the JSON file the console's cloud project issues
 *   (`{"type":"service_account","client_email":...,"private_key":"-----BEGIN PRIVATE KEY-----...",
 *   "private_key_id":...,"token_uri":"https://oauth2.googleapis.com/token"}`): an access token is
 *   obtained with the JWT-bearer grant (RFC 7523): an RS256 assertion signed with `jose`
 *   (`iss` = client_email, `aud` = token_uri, `scope` = the webmasters and siteverification
 *   scopes, space-separated, one hour), POSTed to `token_uri` as
 *   `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer&assertion=...`; the token is cached
 *   until a minute before it expires. The service account must be an owner of the property (it
 *   is, when it verified the domain through `verifyDomain`);
 * - an OAuth access token as it is (a string that does not start with `{`), or
 *   `{"access_token":"..."}`: used as the bearer directly (short-lived; for tests and manual runs).
 *
 * Every call: WEBMASTER_CREDENTIALS unset → `skipped`, naming the setting; a 401 with a
 * service-account token gets one fresh token; 429, 5xx, timeouts and network errors are retried
 * with backoff (Retry-After honoured); the secrets (access token, private key) are masked in
 * every reason. Outcomes are results, never thrown.
 *
 * `resubmitSitemap({siteUrl, sitemapUrl, verified})`:
 * - not verified → `skipped` ('the site is not verified in the webmaster console (domain
 *   connection)'): the console only takes sitemaps of verified properties;
 * - otherwise the PUT. A 403/404 answer gets one `sites.add` (`PUT .../sites/{siteUrl}`, adding
 *   the verified property to the account's console) and one more submit; anything else is
 *   `failed` with the status and the console's message.
 *
 * `requestVerificationToken(domain)`: the DNS_TXT token → `{status:'token', token, method}`.
 *
 * `verifyDomain(domain)`: webResource.insert. 200 → `verified` (`id`, `owners`), then `sites.add`
 * of `sc-domain:<domain>` so sitemaps can be submitted (when that fails the result is still
 * `verified`, with `siteAddFailure`; `resubmitSitemap` adds the site again on 403/404);
 * 400 → `not-verified` with Google's message, not retried: the normal "not yet" answer while
 * the TXT record propagates (the caller polls); anything else → `failed`.
 */
import { isIP } from 'node:net';
import { importPKCS8, SignJWT } from 'jose';
import type { Logger } from '../../logger';
import type { ProviderFetch } from './provider-fetch';
import { AttemptError, createScrubber, describeFetchError, parseRetryAfter, withRetries, type RetryPolicy } from './vendor-request';

export const DEFAULT_WEBMASTER_API_URL = 'https://www.googleapis.com/webmasters/v3';
export const DEFAULT_SITE_VERIFICATION_URL = 'https://www.googleapis.com/siteVerification/v1';
export const WEBMASTER_SCOPE = 'https://www.googleapis.com/auth/webmasters';
export const SITE_VERIFICATION_SCOPE = 'https://www.googleapis.com/auth/siteverification';
/** The `scope` claim of the service-account assertion: both APIs, space-separated (RFC 6749 §3.3). */
export const WEBMASTER_TOKEN_SCOPES = `${WEBMASTER_SCOPE} ${SITE_VERIFICATION_SCOPE}`;
export const DEFAULT_GOOGLE_TOKEN_URI = 'https://oauth2.googleapis.com/token';
export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
export const NOT_VERIFIED_REASON = 'the site is not verified in the webmaster console (domain connection)';
export const NOT_CONFIGURED_REASON = 'the webmaster console is not configured: WEBMASTER_CREDENTIALS is not set';

export type WebmasterCredentials =
  | { kind: 'access-token'; accessToken: string }
  | { kind: 'service-account'; clientEmail: string; privateKey: string; privateKeyId?: string; tokenUri: string };

export type SitemapResubmission =
  | { status: 'submitted'; siteUrl: string; sitemapUrl: string; submittedAt: string; attempts: number }
  | { status: 'skipped'; reason: string }
  /** `httpStatus`: the console's last answer, undefined when none came. */
  | { status: 'failed'; reason: string; httpStatus?: number };

export type VerificationTokenRequest =
  /** `token`: the TXT value to publish at the domain's apex (`google-site-verification=...`). */
  | { status: 'token'; token: string; method: 'DNS_TXT' }
  | { status: 'skipped'; reason: string }
  | { status: 'failed'; reason: string; httpStatus?: number };

export type DomainVerification =
  /**
   * `id`: the WebResource id (`dns%3A%2F%2Fexample.com`); `siteUrl`: `sc-domain:<domain>`;
   * `siteAddFailure`: only when the follow-up sites.add did not succeed (the domain is verified
   * all the same; `resubmitSitemap` adds the site on its own 403/404).
   */
  | { status: 'verified'; id: string; siteUrl: string; owners: string[]; siteAddFailure?: string }
  /** Google did not find the token in the domain's TXT records (yet): poll again later. */
  | { status: 'not-verified'; reason: string }
  | { status: 'skipped'; reason: string }
  | { status: 'failed'; reason: string; httpStatus?: number };

export interface WebmasterClient {
  resubmitSitemap(input: { siteUrl: string; sitemapUrl: string; verified: boolean }): Promise<SitemapResubmission>;
  /** Site Verification API `webResource.getToken` for the domain, method DNS_TXT. */
  requestVerificationToken(domain: string): Promise<VerificationTokenRequest>;
  /** Site Verification API `webResource.insert` (DNS_TXT), then Search Console `sites.add` of `sc-domain:<domain>`. */
  verifyDomain(domain: string): Promise<DomainVerification>;
}

export interface WebmasterClientOptions {
  /** WEBMASTER_API_URL; unset: the public API. */
  apiUrl?: string;
  /** The Site Verification API; unset: `siteVerificationUrlFor(apiUrl)`. */
  siteVerificationUrl?: string;
  /** WEBMASTER_CREDENTIALS (format above); unset: every call is skipped. */
  credentials?: string;
  fetchImpl?: ProviderFetch;
  log: Logger;
  /** Default: the system clock. */
  now?: () => Date;
  /** Per attempt. Default 15 000. */
  timeoutMs?: number;
  /** Default: 2 retries, 1 s base, 20 s cap. */
  retry?: RetryPolicy;
}

/** The Domain property of a domain: `sc-domain:example.com`. */
export function searchConsoleSiteUrl(domain: string): string {
  return `sc-domain:${domain.trim().toLowerCase().replace(/\.$/, '')}`;
}

const WEBMASTERS_PATH = '/webmasters/v3';

/**
 * The Site Verification API next to a webmaster API URL (one setting, WEBMASTER_API_URL):
 * `<base>/webmasters/v3` → `<base>/siteVerification/v1` (the public API, or a local fake that
 * serves both); anything else (or unset) → the public https://www.googleapis.com/siteVerification/v1.
 */
export function siteVerificationUrlFor(apiUrl?: string): string {
  const base = (apiUrl?.trim() || DEFAULT_WEBMASTER_API_URL).replace(/\/+$/, '');
  return base.endsWith(WEBMASTERS_PATH) ? `${base.slice(0, -WEBMASTERS_PATH.length)}/siteVerification/v1` : DEFAULT_SITE_VERIFICATION_URL;
}

/** Reads WEBMASTER_CREDENTIALS. Throws an Error whose message never contains the value. */
export function parseWebmasterCredentials(raw: string): WebmasterCredentials {
  const text = raw.trim();
  if (!text) throw new Error('WEBMASTER_CREDENTIALS is empty');
  if (!text.startsWith('{')) {
    if (/\s/.test(text)) throw new Error('WEBMASTER_CREDENTIALS is neither a service-account JSON nor an access token (it contains whitespace)');
    return { kind: 'access-token', accessToken: text };
  }
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new Error('WEBMASTER_CREDENTIALS starts with { but is not valid JSON');
  }
  if (typeof json.access_token === 'string' && json.access_token) return { kind: 'access-token', accessToken: json.access_token };
  const missing = ['client_email', 'private_key'].filter((k) => typeof json[k] !== 'string' || !json[k]);
  if (missing.length) throw new Error(`WEBMASTER_CREDENTIALS is JSON without ${missing.join(' and ')} (a service-account key or {"access_token": ...} is expected)`);
  if (json.type !== undefined && json.type !== 'service_account') throw new Error(`WEBMASTER_CREDENTIALS is a ${JSON.stringify(json.type)} credential; a service_account key is expected`);
  const tokenUri = typeof json.token_uri === 'string' && json.token_uri ? json.token_uri : DEFAULT_GOOGLE_TOKEN_URI;
  try {
    const u = new URL(tokenUri);
    if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error('scheme');
  } catch {
    throw new Error('WEBMASTER_CREDENTIALS has a token_uri that is not an http(s) URL');
  }
  return {
    kind: 'service-account',
    clientEmail: json.client_email as string,
    // Keys pasted through some shells keep literal \n sequences.
    privateKey: (json.private_key as string).replace(/\\n/g, '\n'),
    ...(typeof json.private_key_id === 'string' && json.private_key_id ? { privateKeyId: json.private_key_id } : {}),
    tokenUri,
  };
}

interface HttpAnswer {
  status: number;
  text: string;
  retryAfter: string | null;
}

/** One authorized API call: the answer (any status but 429/5xx), or why none came. */
type CallOutcome =
  | { ok: true; status: number; text: string; attempts: number }
  | { ok: false; reason: string; httpStatus?: number; attempts: number };

type Failed = { status: 'failed'; reason: string; httpStatus?: number };

const MAX_MESSAGE = 300;

export function createWebmasterClient(options: WebmasterClientOptions): WebmasterClient {
  const apiUrl = (options.apiUrl?.trim() || DEFAULT_WEBMASTER_API_URL).replace(/\/+$/, '');
  const verificationUrl = (options.siteVerificationUrl?.trim() || siteVerificationUrlFor(apiUrl)).replace(/\/+$/, '');
  const fetchImpl: ProviderFetch = options.fetchImpl ?? ((url, init) => fetch(url, init));
  const now = options.now ?? (() => new Date());
  const timeoutMs = options.timeoutMs ?? 15_000;
  const retry: RetryPolicy = { maxRetries: 2, retryBaseMs: 1_000, retryMaxMs: 20_000, ...options.retry };
  let credentials: WebmasterCredentials | undefined;
  let credentialsError: string | undefined;
  if (options.credentials?.trim()) {
    try {
      credentials = parseWebmasterCredentials(options.credentials);
    } catch (err) {
      credentialsError = (err as Error).message;
    }
  }
  let cached: { token: string; expiresAt: number } | undefined;
  // The private key whole and line by line: an echo may be JSON-escaped (`\n`) or reflowed.
  const keySecrets = credentials?.kind === 'service-account'
    ? [credentials.privateKey, ...credentials.privateKey.split(/\r?\n/).map((line) => line.trim()).filter((line) => line.length >= 16)]
    : [];
  /** Masks the configured access token, the private key and the current service-account token. */
  const scrub = (text: string): string => createScrubber(
    credentials?.kind === 'access-token' ? credentials.accessToken : cached?.token,
    ...keySecrets,
  )(text);
  const apiLabel = hostOf(apiUrl);
  const consoleLabel = `webmaster console (${apiLabel})`;
  const verificationLabel = `site verification API (${hostOf(verificationUrl)})`;

  /** One HTTP exchange; network failures and timeouts become retryable AttemptErrors. */
  const exchange = async (url: string, init: { method: string; headers: Record<string, string>; body?: string }, label: string): Promise<HttpAnswer> => {
    try {
      const res = await fetchImpl(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
      // Scrubbed before any message is cut out of it (shortened or reflowed, a secret would no longer match).
      return { status: res.status, retryAfter: res.headers.get('retry-after'), text: scrub(await res.text().catch(() => '')) };
    } catch (err) {
      throw new AttemptError({ reason: `${label}: ${describeFetchError(err, timeoutMs)}`, retryable: true });
    }
  };

  /** Runs one request with retries on 429/5xx/network; other statuses come back as answers. */
  const withRetry = async (url: string, init: { method: string; headers: Record<string, string>; body?: string }, label: string) =>
    withRetries(async () => {
      const answer = await exchange(url, init, label);
      if (answer.status === 429 || answer.status >= 500) {
        throw new AttemptError({
          reason: `${label} answered HTTP ${answer.status}${messageOf(answer.text) ? `: ${messageOf(answer.text)}` : ''}`,
          retryable: true,
          status: answer.status,
          retryAfterMs: parseRetryAfter(answer.retryAfter),
        });
      }
      return answer;
    }, retry);

  /** A bearer token, or a failure reason. */
  const accessToken = async (fresh: boolean): Promise<{ token: string } | { reason: string; status?: number }> => {
    if (!credentials) return { reason: credentialsError ?? 'WEBMASTER_CREDENTIALS is not set' };
    if (credentials.kind === 'access-token') return { token: credentials.accessToken };
    const nowMs = now().getTime();
    if (!fresh && cached && cached.expiresAt - 60_000 > nowMs) return { token: cached.token };
    let assertion: string;
    try {
      const key = await importPKCS8(credentials.privateKey, 'RS256');
      const iat = Math.floor(nowMs / 1000);
      assertion = await new SignJWT({ scope: WEBMASTER_TOKEN_SCOPES })
        .setProtectedHeader({ alg: 'RS256', typ: 'JWT', ...(credentials.privateKeyId ? { kid: credentials.privateKeyId } : {}) })
        .setIssuer(credentials.clientEmail)
        .setAudience(credentials.tokenUri)
        .setIssuedAt(iat)
        .setExpirationTime(iat + 3600)
        .sign(key);
    } catch {
      return { reason: 'WEBMASTER_CREDENTIALS has a private_key that is not a PKCS#8 RSA key' };
    }
    const tokenLabel = `token endpoint (${hostOf(credentials.tokenUri)})`;
    const outcome = await withRetry(
      credentials.tokenUri,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({ grant_type: JWT_BEARER_GRANT, assertion }).toString(),
      },
      tokenLabel,
    );
    if (!outcome.ok) return { reason: `could not get an access token: ${outcome.reason}`, status: outcome.failure.status };
    const answer = outcome.value;
    let json: { access_token?: unknown; expires_in?: unknown; error?: unknown; error_description?: unknown } = {};
    try {
      json = JSON.parse(answer.text) as typeof json;
    } catch {
      // described below
    }
    if (answer.status < 200 || answer.status >= 300 || typeof json.access_token !== 'string' || !json.access_token) {
      const why = [json.error, json.error_description].filter((v) => typeof v === 'string').join(': ').slice(0, MAX_MESSAGE);
      return { reason: `${tokenLabel} refused the service account (HTTP ${answer.status}${why ? `, ${why}` : ''})`, status: answer.status };
    }
    const expiresIn = typeof json.expires_in === 'number' && json.expires_in > 0 ? json.expires_in : 3600;
    cached = { token: json.access_token, expiresAt: nowMs + expiresIn * 1000 };
    return { token: json.access_token };
  };

  /**
   * One API call with the bearer token: retried on 429/5xx/network, and repeated once with a
   * fresh token when a service-account token is rejected (401). Reasons are scrubbed.
   */
  const authorized = async (url: string, init: { method: 'PUT' | 'POST'; json?: unknown }, label: string): Promise<CallOutcome> => {
    let attempts = 0;
    let fresh = false;
    for (;;) {
      const token = await accessToken(fresh);
      if ('reason' in token) return { ok: false, reason: scrub(token.reason), ...(token.status ? { httpStatus: token.status } : {}), attempts };
      const headers: Record<string, string> = { authorization: `Bearer ${token.token}`, accept: 'application/json' };
      if (init.json !== undefined) headers['content-type'] = 'application/json';
      const outcome = await withRetry(url, { method: init.method, headers, ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {}) }, label);
      attempts += outcome.attempts;
      if (!outcome.ok) return { ok: false, reason: scrub(outcome.reason), ...(outcome.failure.status ? { httpStatus: outcome.failure.status } : {}), attempts };
      const { status, text } = outcome.value;
      if (status === 401 && credentials?.kind === 'service-account' && !fresh) {
        fresh = true;
        continue;
      }
      return { ok: true, status, text, attempts };
    }
  };

  /** Search Console `sites.add`: adds a (verified) property to the account's console. */
  const addSite = async (siteUrl: string): Promise<{ ok: boolean; reason?: string; attempts: number }> => {
    const added = await authorized(`${apiUrl}/sites/${encodeURIComponent(siteUrl)}`, { method: 'PUT' }, consoleLabel);
    if (!added.ok) return { ok: false, reason: added.reason, attempts: added.attempts };
    if (added.status >= 200 && added.status < 300) return { ok: true, attempts: added.attempts };
    const message = messageOf(added.text);
    return { ok: false, reason: scrub(`sites.add of ${siteUrl}: ${consoleLabel} answered HTTP ${added.status}${message ? ` (${message})` : ''}`), attempts: added.attempts };
  };

  /** Why no call can be made: credentials unset (skipped) or unusable, or the URL is not http(s). */
  const precheck = (url: string, setting: string): { status: 'skipped'; reason: string } | Failed | undefined => {
    if (!options.credentials?.trim()) return { status: 'skipped', reason: NOT_CONFIGURED_REASON };
    if (credentialsError) return { status: 'failed', reason: credentialsError };
    if (!isHttpUrl(url)) return { status: 'failed', reason: `${setting} is not a valid http(s) URL: ${JSON.stringify(url)}` };
    return undefined;
  };

  /** A failed result from an unexpected answer of the Site Verification API. */
  const verificationRefused = (status: number, text: string): Failed => {
    const message = messageOf(text);
    const meaning = status === 401 ? 'the access token was rejected'
      : status === 403 ? 'no permission (the token lacks the siteverification scope, or the Site Verification API is not enabled in the project)'
        : status === 404 ? 'not found'
          : 'refused';
    return { status: 'failed', reason: scrub(`${verificationLabel} answered HTTP ${status}: ${meaning}${message ? ` (${message})` : ''}`), httpStatus: status };
  };

  const verificationSetting = options.siteVerificationUrl?.trim() ? 'the Site Verification API URL' : 'the Site Verification API URL (derived from WEBMASTER_API_URL)';

  return {
    async resubmitSitemap({ siteUrl, sitemapUrl, verified }) {
      const log = options.log.child({ webmaster_api: apiLabel, site_url: siteUrl });
      if (!verified) return { status: 'skipped', reason: NOT_VERIFIED_REASON };
      if (!options.credentials?.trim()) return { status: 'skipped', reason: NOT_CONFIGURED_REASON };
      if (credentialsError) {
        log.warn('sitemap resubmission failed', { reason: credentialsError });
        return { status: 'failed', reason: credentialsError };
      }
      const invalid = invalidSite(siteUrl, sitemapUrl);
      if (invalid) return { status: 'failed', reason: invalid };
      const unusable = precheck(apiUrl, 'WEBMASTER_API_URL');
      if (unusable) return unusable;

      const submitUrl = `${apiUrl}/sites/${encodeURIComponent(siteUrl)}/sitemaps/${encodeURIComponent(sitemapUrl)}`;
      let attempts = 0;
      let siteAdded = false;
      for (;;) {
        const submitted = await authorized(submitUrl, { method: 'PUT' }, consoleLabel);
        attempts += submitted.attempts;
        if (!submitted.ok) {
          log.warn('sitemap resubmission failed', { status: submitted.httpStatus, attempts, reason: submitted.reason });
          return { status: 'failed', reason: submitted.reason, ...(submitted.httpStatus ? { httpStatus: submitted.httpStatus } : {}) };
        }
        const { status, text } = submitted;
        if (status >= 200 && status < 300) {
          const submittedAt = now().toISOString();
          log.info('sitemap resubmitted', { sitemap_url: sitemapUrl, attempts, site_added: siteAdded });
          return { status: 'submitted', siteUrl, sitemapUrl, submittedAt, attempts };
        }
        if ((status === 403 || status === 404) && !siteAdded) {
          siteAdded = true;
          const added = await addSite(siteUrl);
          attempts += added.attempts;
          if (added.ok) {
            log.info('site added to the webmaster console', { attempts });
            continue;
          }
        }
        const message = messageOf(text);
        const meaning = status === 401 ? 'the access token was rejected' : status === 403 ? 'no permission on this property (the credentials are not an owner of the verified site)' : status === 404 ? 'property not found' : 'refused';
        const reason = scrub(`${consoleLabel} answered HTTP ${status}: ${meaning}${message ? ` (${message})` : ''}`);
        log.warn('sitemap resubmission failed', { status, attempts, reason });
        return { status: 'failed', reason, httpStatus: status };
      }
    },

    async requestVerificationToken(domain) {
      const log = options.log.child({ site_verification_api: hostOf(verificationUrl), domain });
      const unusable = precheck(verificationUrl, verificationSetting);
      if (unusable) return unusable;
      const name = domainName(domain);
      if (!name) return { status: 'failed', reason: `not a domain name: ${JSON.stringify(domain)}` };

      const body = { site: { type: 'INET_DOMAIN', identifier: name }, verificationMethod: 'DNS_TXT' };
      const answer = await authorized(`${verificationUrl}/token`, { method: 'POST', json: body }, verificationLabel);
      if (!answer.ok) {
        log.warn('verification token request failed', { status: answer.httpStatus, attempts: answer.attempts, reason: answer.reason });
        return { status: 'failed', reason: answer.reason, ...(answer.httpStatus ? { httpStatus: answer.httpStatus } : {}) };
      }
      if (answer.status < 200 || answer.status >= 300) {
        const failed = verificationRefused(answer.status, answer.text);
        log.warn('verification token request failed', { status: answer.status, attempts: answer.attempts, reason: failed.reason });
        return failed;
      }
      const json = parseObject(answer.text);
      if (typeof json?.token !== 'string' || !json.token || json.method !== 'DNS_TXT') {
        const reason = `${verificationLabel} answered HTTP ${answer.status} without a DNS_TXT token`;
        log.warn('verification token request failed', { status: answer.status, attempts: answer.attempts, reason });
        return { status: 'failed', reason, httpStatus: answer.status };
      }
      log.info('verification token issued', { attempts: answer.attempts });
      return { status: 'token', token: json.token, method: 'DNS_TXT' };
    },

    async verifyDomain(domain) {
      const log = options.log.child({ site_verification_api: hostOf(verificationUrl), domain });
      // sites.add follows a verification, so the console's URL must be usable too.
      const unusable = precheck(verificationUrl, verificationSetting) ?? precheck(apiUrl, 'WEBMASTER_API_URL');
      if (unusable) return unusable;
      const name = domainName(domain);
      if (!name) return { status: 'failed', reason: `not a domain name: ${JSON.stringify(domain)}` };

      const body = { site: { type: 'INET_DOMAIN', identifier: name } };
      const answer = await authorized(`${verificationUrl}/webResource?verificationMethod=DNS_TXT`, { method: 'POST', json: body }, verificationLabel);
      if (!answer.ok) {
        log.warn('domain verification failed', { status: answer.httpStatus, attempts: answer.attempts, reason: answer.reason });
        return { status: 'failed', reason: answer.reason, ...(answer.httpStatus ? { httpStatus: answer.httpStatus } : {}) };
      }
      if (answer.status === 400) {
        // Google's "not yet": the token is not among the domain's TXT records (not retried here; the caller polls).
        const message = messageOf(answer.text);
        const reason = scrub(`Google did not find the verification token in the DNS TXT records of ${name}${message ? ` (${message})` : ''}`);
        log.info('domain not verified yet', { attempts: answer.attempts });
        return { status: 'not-verified', reason };
      }
      if (answer.status < 200 || answer.status >= 300) {
        const failed = verificationRefused(answer.status, answer.text);
        log.warn('domain verification failed', { status: answer.status, attempts: answer.attempts, reason: failed.reason });
        return failed;
      }
      const json = parseObject(answer.text);
      if (typeof json?.id !== 'string' || !json.id) {
        const reason = `${verificationLabel} answered HTTP ${answer.status} without a WebResource id`;
        log.warn('domain verification failed', { status: answer.status, attempts: answer.attempts, reason });
        return { status: 'failed', reason, httpStatus: answer.status };
      }
      const owners = Array.isArray(json.owners) ? json.owners.filter((o): o is string => typeof o === 'string') : [];
      const siteUrl = searchConsoleSiteUrl(name);
      const added = await addSite(siteUrl);
      if (!added.ok) log.warn('domain verified; sites.add failed', { reason: added.reason });
      log.info('domain verified', { site_url: siteUrl, owners: owners.length, site_added: added.ok });
      return { status: 'verified', id: json.id, siteUrl, owners, ...(added.ok ? {} : { siteAddFailure: added.reason ?? 'sites.add failed' }) };
    },
  };
}

/** A domain name, lower-case without the trailing dot; undefined for anything else (an IP, a URL, one label). */
function domainName(input: string): string | undefined {
  const name = String(input ?? '').trim().toLowerCase().replace(/\.$/, '');
  if (!name || name.length > 253 || isIP(name) !== 0) return undefined;
  const labels = name.split('.');
  if (labels.length < 2) return undefined;
  return labels.every((label) => /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/.test(label)) ? name : undefined;
}

function isHttpUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:';
  } catch {
    return false;
  }
}

/** Why a property / sitemap pair cannot be submitted, or undefined. */
function invalidSite(siteUrl: string, sitemapUrl: string): string | undefined {

  let sitemap: URL;
  try {
    sitemap = new URL(sitemapUrl);
    if (sitemap.protocol !== 'https:' && sitemap.protocol !== 'http:') throw new Error('scheme');
  } catch {
    return `the sitemap URL must be an absolute http(s) URL, got ${JSON.stringify(sitemapUrl)}`;
  }
  if (siteUrl.startsWith('sc-domain:')) {
    const domain = siteUrl.slice('sc-domain:'.length).toLowerCase();
    if (!domain || /[/:@\s]/.test(domain)) return `the property ${JSON.stringify(siteUrl)} is not a valid Domain property`;
    const host = sitemap.hostname.toLowerCase();
    if (host !== domain && !host.endsWith(`.${domain}`)) return `the sitemap ${sitemapUrl} is not on the property's domain ${domain}`;
    return undefined;
  }
  try {
    const prefix = new URL(siteUrl);
    if (prefix.protocol !== 'https:' && prefix.protocol !== 'http:') throw new Error('scheme');
  } catch {
    return `the property must be sc-domain:<domain> or an http(s) URL prefix, got ${JSON.stringify(siteUrl)}`;
  }
  if (!siteUrl.endsWith('/')) return `a URL-prefix property ends with /, got ${JSON.stringify(siteUrl)}`;
  if (!sitemapUrl.startsWith(siteUrl)) return `the sitemap ${sitemapUrl} is not under the property ${siteUrl}`;
  return undefined;
}

/** The console's error message (`{"error":{"message":...}}`), shortened; '' when none. */
function messageOf(text: string): string {
  if (!text) return '';
  try {
    const json = JSON.parse(text) as { error?: { message?: unknown } | string; error_description?: unknown };
    const message = typeof json.error === 'object' && json.error ? json.error.message : json.error_description ?? json.error;
    return typeof message === 'string' ? message.replace(/\s+/g, ' ').slice(0, MAX_MESSAGE) : '';
  } catch {
    return '';
  }
}

/** The JSON object of a body; undefined when it is not one. */
function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const json = JSON.parse(text) as unknown;
    return json && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
