/**
 * Sitemap resubmission to the webmaster console (Google Search Console API, `sitemaps.submit`;
 * ../shared/reference/web-protocols.md §6):
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
 * WEBMASTER_CREDENTIALS, one of (the value is trimmed; it is a secret and never logged):
 * - a service-account key, the JSON file the console's cloud project issues
 *   (`{"type":"service_account","client_email":...,"private_key":"-----BEGIN PRIVATE KEY-----...",
 *   "private_key_id":...,"token_uri":"https://oauth2.googleapis.com/token"}`): an access token is
 *   obtained with the JWT-bearer grant (RFC 7523): an RS256 assertion signed with `jose`
 *   (`iss` = client_email, `aud` = token_uri, `scope` = the webmasters scope, one hour), POSTed
 *   to `token_uri` as `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer&assertion=...`;
 *   the token is cached until a minute before it expires. The service account must be an owner
 *   of the property (it is, when it verified the domain through the Site Verification API);
 * - an OAuth access token as it is (a string that does not start with `{`), or
 *   `{"access_token":"..."}`: used as the bearer directly (short-lived; for tests and manual runs).
 *
 * `resubmitSitemap({siteUrl, sitemapUrl, verified})`:
 * - not verified → `skipped` ('the site is not verified in the webmaster console (domain
 *   connection)'): the console only takes sitemaps of verified properties;
 * - WEBMASTER_CREDENTIALS unset → `skipped`, naming the setting;
 * - otherwise the PUT. A 403/404 answer gets one `sites.add` (`PUT .../sites/{siteUrl}`, adding
 *   the verified property to the account's console) and one more submit; a 401 with a
 *   service-account token gets one fresh token; 429, 5xx, timeouts and network errors are
 *   retried with backoff (Retry-After honoured); anything else is `failed` with the status and
 *   the console's message. Outcomes are results, never thrown.
 */
import { importPKCS8, SignJWT } from 'jose';
import type { Logger } from '../../logger';
import type { ProviderFetch } from './provider-fetch';
import { AttemptError, createScrubber, describeFetchError, parseRetryAfter, withRetries, type RetryPolicy } from './vendor-request';

export const DEFAULT_WEBMASTER_API_URL = 'https://www.googleapis.com/webmasters/v3';
export const WEBMASTER_SCOPE = 'https://www.googleapis.com/auth/webmasters';
export const DEFAULT_GOOGLE_TOKEN_URI = 'https://oauth2.googleapis.com/token';
export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
export const NOT_VERIFIED_REASON = 'the site is not verified in the webmaster console (domain connection)';

export type WebmasterCredentials =
  | { kind: 'access-token'; accessToken: string }
  | { kind: 'service-account'; clientEmail: string; privateKey: string; privateKeyId?: string; tokenUri: string };

export type SitemapResubmission =
  | { status: 'submitted'; siteUrl: string; sitemapUrl: string; submittedAt: string; attempts: number }
  | { status: 'skipped'; reason: string }
  /** `httpStatus`: the console's last answer, undefined when none came. */
  | { status: 'failed'; reason: string; httpStatus?: number };

export interface WebmasterClient {
  resubmitSitemap(input: { siteUrl: string; sitemapUrl: string; verified: boolean }): Promise<SitemapResubmission>;
}

export interface WebmasterClientOptions {
  /** WEBMASTER_API_URL; unset: the public API. */
  apiUrl?: string;
  /** WEBMASTER_CREDENTIALS (format above); unset: resubmissions are skipped. */
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

const MAX_MESSAGE = 300;

export function createWebmasterClient(options: WebmasterClientOptions): WebmasterClient {
  const apiUrl = (options.apiUrl?.trim() || DEFAULT_WEBMASTER_API_URL).replace(/\/+$/, '');
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
  const scrub = createScrubber(
    credentials?.kind === 'access-token' ? credentials.accessToken : undefined,
  );
  let cached: { token: string; expiresAt: number } | undefined;
  let apiLabel = apiUrl;
  try {
    apiLabel = new URL(apiUrl).host;
  } catch {
    // reported on use
  }

  /** One HTTP exchange; network failures and timeouts become retryable AttemptErrors. */
  const exchange = async (url: string, init: { method: string; headers: Record<string, string>; body?: string }, label: string): Promise<HttpAnswer> => {
    try {
      const res = await fetchImpl(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
      return { status: res.status, retryAfter: res.headers.get('retry-after'), text: await res.text().catch(() => '') };
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
      assertion = await new SignJWT({ scope: WEBMASTER_SCOPE })
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

  return {
    async resubmitSitemap({ siteUrl, sitemapUrl, verified }) {
      const log = options.log.child({ webmaster_api: apiLabel, site_url: siteUrl });
      if (!verified) return { status: 'skipped', reason: NOT_VERIFIED_REASON };
      if (!options.credentials?.trim()) return { status: 'skipped', reason: 'the webmaster console is not configured: WEBMASTER_CREDENTIALS is not set' };
      if (credentialsError) {
        log.warn('sitemap resubmission failed', { reason: credentialsError });
        return { status: 'failed', reason: credentialsError };
      }
      const invalid = invalidSite(siteUrl, sitemapUrl);
      if (invalid) return { status: 'failed', reason: invalid };
      try {
        const u = new URL(apiUrl);
        if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error('scheme');
      } catch {
        return { status: 'failed', reason: `WEBMASTER_API_URL is not a valid http(s) URL: ${JSON.stringify(apiUrl)}` };
      }

      const siteBase = `${apiUrl}/sites/${encodeURIComponent(siteUrl)}`;
      const submitUrl = `${siteBase}/sitemaps/${encodeURIComponent(sitemapUrl)}`;
      const label = `webmaster console (${apiLabel})`;
      let attempts = 0;
      let freshToken = false;
      let siteAdded = false;
      for (;;) {
        const token = await accessToken(freshToken);
        if ('reason' in token) {
          log.warn('sitemap resubmission failed', { reason: token.reason });
          return { status: 'failed', reason: scrub(token.reason), ...(token.status ? { httpStatus: token.status } : {}) };
        }
        const auth = { authorization: `Bearer ${token.token}`, accept: 'application/json' };
        const outcome = await withRetry(submitUrl, { method: 'PUT', headers: auth }, label);
        attempts += outcome.attempts;
        if (!outcome.ok) {
          log.warn('sitemap resubmission failed', { status: outcome.failure.status, attempts, reason: scrub(outcome.reason) });
          return { status: 'failed', reason: scrub(outcome.reason), ...(outcome.failure.status ? { httpStatus: outcome.failure.status } : {}) };
        }
        const { status, text } = outcome.value;
        if (status >= 200 && status < 300) {
          const submittedAt = now().toISOString();
          log.info('sitemap resubmitted', { sitemap_url: sitemapUrl, attempts, site_added: siteAdded });
          return { status: 'submitted', siteUrl, sitemapUrl, submittedAt, attempts };
        }
        if (status === 401 && credentials?.kind === 'service-account' && !freshToken) {
          freshToken = true;
          continue;
        }
        if ((status === 403 || status === 404) && !siteAdded) {
          siteAdded = true;
          const added = await withRetry(siteBase, { method: 'PUT', headers: auth }, label);
          attempts += added.attempts;
          if (added.ok && added.value.status >= 200 && added.value.status < 300) {
            log.info('site added to the webmaster console', { attempts });
            continue;
          }
        }
        const message = messageOf(text);
        const meaning = status === 401 ? 'the access token was rejected' : status === 403 ? 'no permission on this property (the credentials are not an owner of the verified site)' : status === 404 ? 'property not found' : 'refused';
        const reason = scrub(`${label} answered HTTP ${status}: ${meaning}${message ? ` (${message})` : ''}`);
        log.warn('sitemap resubmission failed', { status, attempts, reason });
        return { status: 'failed', reason, httpStatus: status };
      }
    },
  };
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

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
