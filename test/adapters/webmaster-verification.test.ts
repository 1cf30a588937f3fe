/**
 * Domain verification through the Site Verification API (webmaster.ts `requestVerificationToken`,
 * `verifyDomain`) on the wire: against the local console (functions/local/fakes/webmaster.ts),
 * which looks the TXT records up in a real DNS server on loopback
 * (functions/local/fakes/dns-server.ts) through adapters/external/dns.ts.
 */
import { decodeJwt, importPKCS8, SignJWT } from 'jose';
import { createDnsChecker } from '../../functions/adapters/external/dns';
import type { ProviderFetch } from '../../functions/adapters/external/provider-fetch';
import {
  createWebmasterClient,
  JWT_BEARER_GRANT,
  WEBMASTER_SCOPE,
  type WebmasterClientOptions,
} from '../../functions/adapters/external/webmaster';
import type { Logger } from '../../functions/logger';
import { startDnsTestServer, type DnsTestServer } from '../../functions/local/fakes/dns-server';
import { startWebmasterFake, type WebmasterFake } from '../../functions/local/fakes/webmaster';

type Line = { level: string; msg: string; fields: Record<string, unknown> };
function captureLogger(lines: Line[] = [], base: Record<string, unknown> = {}): Logger & { lines: Line[] } {
  const write = (level: string) => (msg: string, fields: Record<string, unknown> = {}) => lines.push({ level, msg, fields: { ...base, ...fields } });
  return { lines, debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error'), child: (f) => captureLogger(lines, { ...base, ...f }) };
}

const DOMAIN = 'acme-store.test';
const SITE = 'sc-domain:acme-store.test';
const SITEMAP = 'https://www.acme-store.test/sitemap.xml';
const TOKEN_RE = /^google-site-verification=[A-Za-z0-9_-]{43}$/;
const noSleep = { sleep: async () => undefined, random: () => 0 };

let dns: DnsTestServer;
let fake: WebmasterFake;

beforeAll(async () => {
  dns = await startDnsTestServer({ zones: [DOMAIN], records: { [DOMAIN]: { A: ['192.0.2.10'], TXT: ['v=spf1 -all'] }, [`www.${DOMAIN}`]: { A: ['192.0.2.10'] } } });
});
afterAll(async () => {
  await dns?.close();
});
beforeEach(async () => {
  dns.set(DOMAIN, 'TXT', ['v=spf1 -all']);
  dns.queries.length = 0;
  const checker = createDnsChecker({ resolvers: [dns.endpoint], timeoutMs: 500, tries: 1 });
  // Nothing is owned until verified here; sitemaps need a sites.add first.
  fake = await startWebmasterFake({ lookupTxt: (name) => checker.lookupTxt(name), allowedSites: [], requireSiteAdded: true });
});
afterEach(async () => {
  await fake.close();
});

function client(overrides: Partial<WebmasterClientOptions> = {}) {
  return createWebmasterClient({ apiUrl: fake.apiUrl, credentials: fake.serviceAccountJson, log: captureLogger(), retry: noSleep, ...overrides });
}

/** A ProviderFetch that records every call and passes it on. */
function recordingFetch(seen: Array<{ url: string; method: string; headers: Record<string, string>; body?: string }>): ProviderFetch {
  return (url, init) => {
    seen.push({ url, method: init.method, headers: init.headers, body: init.body });
    return fetch(url, init);
  };
}

const summary = (f: WebmasterFake) => f.requests.map((r) => `${r.method} ${r.path} ${r.status}`);

describe('requestVerificationToken', () => {
  test('POST {siteVerificationUrl}/token with the INET_DOMAIN / DNS_TXT body, Bearer auth; the token parsed', async () => {
    const seen: Parameters<typeof recordingFetch>[0] = [];
    const c = client({ credentials: fake.accessToken, fetchImpl: recordingFetch(seen) });
    const result = await c.requestVerificationToken(DOMAIN);
    expect(result).toEqual({ status: 'token', token: expect.stringMatching(TOKEN_RE), method: 'DNS_TXT' });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ url: `${fake.origin}/siteVerification/v1/token`, method: 'POST' });
    expect(seen[0].headers).toMatchObject({ authorization: `Bearer ${fake.accessToken}`, 'content-type': 'application/json', accept: 'application/json' });
    expect(JSON.parse(seen[0].body ?? '')).toEqual({ site: { type: 'INET_DOMAIN', identifier: DOMAIN }, verificationMethod: 'DNS_TXT' });
    expect(fake.siteVerificationUrl).toBe(`${fake.origin}/siteVerification/v1`);
    expect(fake.tokens.get(DOMAIN)).toBe(result.status === 'token' ? result.token : undefined);
  });

  test('the same token again for the same domain (case and trailing dot do not matter), another for another domain', async () => {
    const c = client({ credentials: fake.accessToken });
    const first = await c.requestVerificationToken(DOMAIN);
    const again = await c.requestVerificationToken('Acme-Store.TEST.');
    const other = await c.requestVerificationToken('other-store.test');
    expect(again).toEqual(first);
    expect(other).toMatchObject({ status: 'token' });
    expect(other).not.toEqual(first);
    expect([...fake.tokens.keys()]).toEqual([DOMAIN, 'other-store.test']);
  });

  test('the service-account token carries both scopes, space-separated, and is cached across calls', async () => {
    const seen: Parameters<typeof recordingFetch>[0] = [];
    const c = client({ fetchImpl: recordingFetch(seen) });
    expect(await c.requestVerificationToken(DOMAIN)).toMatchObject({ status: 'token' });
    expect(await c.verifyDomain(DOMAIN)).toMatchObject({ status: 'not-verified' });
    expect(fake.tokensIssued()).toBe(1);
    const grant = new URLSearchParams(seen.find((s) => s.url === fake.tokenUri)?.body ?? '');
    expect(grant.get('grant_type')).toBe(JWT_BEARER_GRANT);
    expect(decodeJwt(grant.get('assertion') ?? '').scope).toBe('https://www.googleapis.com/auth/webmasters https://www.googleapis.com/auth/siteverification');
  });

  test('429 then success: retried once, Retry-After honoured', async () => {
    const sleeps: number[] = [];
    const c = client({ credentials: fake.accessToken, retry: { sleep: async (ms) => void sleeps.push(ms), random: () => 0 } });
    fake.failNext(429, 1, { retryAfter: 3 });
    expect(await c.requestVerificationToken(DOMAIN)).toMatchObject({ status: 'token' });
    expect(summary(fake)).toEqual(['POST /siteVerification/v1/token 429', 'POST /siteVerification/v1/token 200']);
    expect(sleeps).toEqual([3000]);
  });

  test('5xx beyond the retries: failed with the last status', async () => {
    const c = client({ credentials: fake.accessToken, retry: { ...noSleep, maxRetries: 2 } });
    fake.failNext(503, 5);
    expect(await c.requestVerificationToken(DOMAIN)).toEqual({ status: 'failed', httpStatus: 503, reason: expect.stringMatching(/site verification API .*HTTP 503.*\(after 3 attempts\)/) });
    expect(fake.requests).toHaveLength(3);
  });

  test('a rejected service-account token is replaced once', async () => {
    const c = client();
    expect(await c.requestVerificationToken(DOMAIN)).toMatchObject({ status: 'token' });
    fake.revokeTokens();
    expect(await c.requestVerificationToken(DOMAIN)).toMatchObject({ status: 'token' });
    expect(fake.tokensIssued()).toBe(2);
    expect(summary(fake)).toEqual([
      'POST /token 200', 'POST /siteVerification/v1/token 200',
      'POST /siteVerification/v1/token 401', 'POST /token 200', 'POST /siteVerification/v1/token 200',
    ]);
  });

  test('an access token the API rejects: failed 401 (no refresh for a plain token), the token never in the reason', async () => {
    const c = client({ credentials: 'ya29.not-a-valid-token' });
    const result = await c.requestVerificationToken(DOMAIN);
    expect(result).toEqual({ status: 'failed', httpStatus: 401, reason: expect.stringMatching(/HTTP 401: the access token was rejected/) });
    expect(JSON.stringify(result)).not.toContain('ya29.not-a-valid-token');
    expect(fake.requests).toHaveLength(1);
  });

  test('not a domain name: failed before any request', async () => {
    const c = client({ credentials: fake.accessToken });
    for (const bad of ['', 'localhost', 'https://acme-store.test/', '192.0.2.1', 'a b.test', 'user@acme-store.test']) {
      expect(await c.requestVerificationToken(bad)).toMatchObject({ status: 'failed', reason: expect.stringMatching(/not a domain name/) });
      expect(await c.verifyDomain(bad)).toMatchObject({ status: 'failed', reason: expect.stringMatching(/not a domain name/) });
    }
    expect(fake.requests).toEqual([]);
  });
});

describe('verifyDomain', () => {
  test('before the TXT record exists: not-verified with Google\'s message, one request, no retry, no sites.add', async () => {
    const c = client();
    const issued = await c.requestVerificationToken(DOMAIN);
    expect(issued).toMatchObject({ status: 'token' });
    fake.requests.length = 0;
    const result = await c.verifyDomain(DOMAIN);
    expect(result).toEqual({ status: 'not-verified', reason: expect.stringContaining('The necessary verification token could not be found on your site.') });
    expect(summary(fake)).toEqual(['POST /siteVerification/v1/webResource 400']);
    expect(fake.verified.size).toBe(0);
    expect(fake.sites.size).toBe(0);
    expect(dns.queries).toContainEqual({ name: DOMAIN, type: 'TXT' });
  });

  test('after the TXT record is added: verified, sc-domain: added to the console, and its sitemap then submitted', async () => {
    const seen: Parameters<typeof recordingFetch>[0] = [];
    const c = client({ fetchImpl: recordingFetch(seen) });
    const issued = await c.requestVerificationToken(DOMAIN);
    if (issued.status !== 'token') throw new Error(`no token: ${JSON.stringify(issued)}`);
    // Nothing owned yet: the console refuses the sitemap and sites.add.
    expect(await c.resubmitSitemap({ siteUrl: SITE, sitemapUrl: SITEMAP, verified: true })).toMatchObject({ status: 'failed', httpStatus: 403 });
    expect(await c.verifyDomain(DOMAIN)).toMatchObject({ status: 'not-verified' });

    dns.set(DOMAIN, 'TXT', ['v=spf1 -all', issued.token]);
    fake.requests.length = 0;
    seen.length = 0;
    const result = await c.verifyDomain(DOMAIN);
    expect(result).toEqual({ status: 'verified', id: 'dns%3A%2F%2Facme-store.test', siteUrl: SITE, owners: [fake.clientEmail] });
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual([
      `POST ${fake.origin}/siteVerification/v1/webResource?verificationMethod=DNS_TXT`,
      `PUT ${fake.apiUrl}/sites/sc-domain%3Aacme-store.test`,
    ]);
    expect(JSON.parse(seen[0].body ?? '')).toEqual({ site: { type: 'INET_DOMAIN', identifier: DOMAIN } });
    expect(seen[0].headers['content-type']).toBe('application/json');
    expect(summary(fake)).toEqual(['POST /siteVerification/v1/webResource 200', 'PUT /webmasters/v3/sites/sc-domain%3Aacme-store.test 204']);
    expect([...fake.verified]).toEqual([DOMAIN]);
    expect([...fake.sites]).toEqual([SITE]);

    expect(await c.resubmitSitemap({ siteUrl: SITE, sitemapUrl: SITEMAP, verified: true })).toMatchObject({ status: 'submitted', attempts: 1 });
    expect(fake.sitemaps).toEqual([{ siteUrl: SITE, feedpath: SITEMAP, at: expect.any(String) }]);
    expect(fake.tokensIssued()).toBe(1);
  });

  test('with a plain access token the owner is the fake\'s, and a domain given in upper case is verified as lower case', async () => {
    const c = client({ credentials: fake.accessToken });
    const issued = await c.requestVerificationToken(DOMAIN);
    if (issued.status !== 'token') throw new Error('no token');
    dns.set(DOMAIN, 'TXT', [issued.token]);
    expect(await c.verifyDomain('ACME-STORE.test.')).toEqual({ status: 'verified', id: 'dns%3A%2F%2Facme-store.test', siteUrl: SITE, owners: ['owner@fake'] });
  });

  test('a TXT record with another token, or none requested: not-verified', async () => {
    const c = client({ credentials: fake.accessToken });
    expect(await c.verifyDomain(DOMAIN)).toMatchObject({ status: 'not-verified' }); // no token issued yet
    await c.requestVerificationToken(DOMAIN);
    dns.set(DOMAIN, 'TXT', ['google-site-verification=somebody-elses-token-aaaaaaaaaaaaaaaaaaaaaaa']);
    expect(await c.verifyDomain(DOMAIN)).toMatchObject({ status: 'not-verified' });
    expect(summary(fake).filter((r) => r.includes('webResource'))).toEqual(['POST /siteVerification/v1/webResource 400', 'POST /siteVerification/v1/webResource 400']);
  });

  test('a fake without lookupTxt verifies nothing', async () => {
    const blind = await startWebmasterFake();
    try {
      const c = createWebmasterClient({ apiUrl: blind.apiUrl, credentials: blind.accessToken, log: captureLogger(), retry: noSleep });
      const issued = await c.requestVerificationToken(DOMAIN);
      if (issued.status !== 'token') throw new Error('no token');
      dns.set(DOMAIN, 'TXT', [issued.token]);
      expect(await c.verifyDomain(DOMAIN)).toEqual({ status: 'not-verified', reason: expect.stringContaining('could not be found') });
    } finally {
      await blind.close();
    }
  });

  test('429 then success: retried, then verified', async () => {
    const c = client({ credentials: fake.accessToken });
    const issued = await c.requestVerificationToken(DOMAIN);
    if (issued.status !== 'token') throw new Error('no token');
    dns.set(DOMAIN, 'TXT', [issued.token]);
    fake.requests.length = 0;
    fake.failNext(429);
    expect(await c.verifyDomain(DOMAIN)).toMatchObject({ status: 'verified' });
    expect(summary(fake)).toEqual([
      'POST /siteVerification/v1/webResource 429',
      'POST /siteVerification/v1/webResource 200',
      'PUT /webmasters/v3/sites/sc-domain%3Aacme-store.test 204',
    ]);
  });

  test('5xx beyond the retries: failed with the last status, no sites.add', async () => {
    const c = client({ credentials: fake.accessToken, retry: { ...noSleep, maxRetries: 1 } });
    fake.failNext(500, 4);
    expect(await c.verifyDomain(DOMAIN)).toEqual({ status: 'failed', httpStatus: 500, reason: expect.stringMatching(/HTTP 500.*\(after 2 attempts\)/) });
    expect(summary(fake)).toEqual(['POST /siteVerification/v1/webResource 500', 'POST /siteVerification/v1/webResource 500']);
  });

  test('a rejected service-account token is replaced once, then verified', async () => {
    const c = client();
    const issued = await c.requestVerificationToken(DOMAIN);
    if (issued.status !== 'token') throw new Error('no token');
    dns.set(DOMAIN, 'TXT', [issued.token]);
    fake.revokeTokens();
    fake.requests.length = 0;
    expect(await c.verifyDomain(DOMAIN)).toMatchObject({ status: 'verified', owners: [fake.clientEmail] });
    expect(fake.tokensIssued()).toBe(2);
    expect(summary(fake)).toEqual([
      'POST /siteVerification/v1/webResource 401',
      'POST /token 200',
      'POST /siteVerification/v1/webResource 200',
      'PUT /webmasters/v3/sites/sc-domain%3Aacme-store.test 204',
    ]);
  });

  test('verified, but sites.add refused: still verified, with the failure', async () => {
    const refuseSitesAdd: ProviderFetch = async (url, init) =>
      init.method === 'PUT'
        ? { status: 403, headers: { get: () => null }, text: async () => JSON.stringify({ error: { code: 403, message: 'User does not have sufficient permission' } }) }
        : fetch(url, init);
    const c = client({ credentials: fake.accessToken, fetchImpl: refuseSitesAdd });
    const issued = await c.requestVerificationToken(DOMAIN);
    if (issued.status !== 'token') throw new Error('no token');
    dns.set(DOMAIN, 'TXT', [issued.token]);
    expect(await c.verifyDomain(DOMAIN)).toEqual({
      status: 'verified', id: 'dns%3A%2F%2Facme-store.test', siteUrl: SITE, owners: ['owner@fake'],
      siteAddFailure: expect.stringMatching(/sites\.add of sc-domain:acme-store\.test: .*HTTP 403 \(User does not have sufficient permission\)/),
    });
  });
});

describe('skipped, failed and secrets', () => {
  test('without WEBMASTER_CREDENTIALS both calls are skipped, naming the setting, nothing sent', async () => {
    for (const credentials of [undefined, '', '  ']) {
      const c = client({ credentials });
      expect(await c.requestVerificationToken(DOMAIN)).toEqual({ status: 'skipped', reason: expect.stringContaining('WEBMASTER_CREDENTIALS is not set') });
      expect(await c.verifyDomain(DOMAIN)).toEqual({ status: 'skipped', reason: expect.stringContaining('WEBMASTER_CREDENTIALS is not set') });
    }
    expect(fake.requests).toEqual([]);
  });

  test('malformed credentials fail with a reason that never repeats them', async () => {
    const c = client({ credentials: '{"client_email":"x@y","private_key":"super-secret-material"}' });
    const token = await c.requestVerificationToken(DOMAIN);
    const verify = await c.verifyDomain(DOMAIN);
    expect(token).toEqual({ status: 'failed', reason: 'WEBMASTER_CREDENTIALS has a private_key that is not a PKCS#8 RSA key' });
    expect(verify).toEqual(token);
    expect(JSON.stringify([token, verify])).not.toContain('super-secret-material');
  });

  test('an API that echoes the bearer token and the private key: masked in every reason and log line', async () => {
    const privateKey = (JSON.parse(fake.serviceAccountJson) as { private_key: string }).private_key;
    const bearers: string[] = [];
    // The key is echoed JSON-escaped (\n), and messages are shortened: masked all the same.
    const echo = (status: number, withKey = true): ProviderFetch => async (url, init) => {
      if (url === fake.tokenUri) return fetch(url, init);
      const bearer = init.headers.authorization?.replace(/^Bearer /, '') ?? '';
      bearers.push(bearer);
      const message = `token ${bearer}${withKey ? ` key ${privateKey}` : ''}`;
      return { status, headers: { get: () => null }, text: async () => JSON.stringify({ error: { code: status, message } }) };
    };
    const log = captureLogger();
    const results = [];
    for (const status of [400, 403, 503]) {
      const c = client({ fetchImpl: echo(status), log });
      results.push(await c.requestVerificationToken(DOMAIN), await c.verifyDomain(DOMAIN));
    }
    const access = createWebmasterClient({ apiUrl: fake.apiUrl, credentials: 'ya29.plain-secret-token', fetchImpl: echo(403, false), log, retry: noSleep });
    results.push(await access.requestVerificationToken(DOMAIN), await access.verifyDomain(DOMAIN));

    expect(results.map((r) => r.status)).toEqual(['failed', 'not-verified', 'failed', 'failed', 'failed', 'failed', 'failed', 'failed']);
    expect(new Set(bearers).size).toBeGreaterThan(1);
    const text = JSON.stringify([results, log.lines]);
    expect(bearers).toContain('ya29.plain-secret-token');
    for (const secret of [...new Set(bearers), 'PRIVATE KEY', ...privateKey.split('\n').filter((line) => line.length >= 16 && !line.startsWith('-----'))]) expect(text).not.toContain(secret);
    expect(text).toContain('[redacted]');
  });
});

describe('the fake\'s Site Verification API', () => {
  const post = (path: string, body: unknown, token?: string) =>
    fetch(`${fake.origin}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });

  test('a bearer token is required; Google-style 400 errors for another site type or method', async () => {
    const good = { site: { type: 'INET_DOMAIN', identifier: DOMAIN }, verificationMethod: 'DNS_TXT' };
    expect((await post('/siteVerification/v1/token', good)).status).toBe(401);
    for (const bad of [
      { site: { type: 'SITE', identifier: 'https://acme-store.test/' }, verificationMethod: 'FILE' },
      { site: { type: 'INET_DOMAIN', identifier: DOMAIN }, verificationMethod: 'DNS' },
      { site: { type: 'INET_DOMAIN' }, verificationMethod: 'DNS_TXT' },
    ]) {
      const res = await post('/siteVerification/v1/token', bad, fake.accessToken);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: { code: 400, message: expect.any(String), status: 'INVALID_ARGUMENT', errors: [{ message: expect.any(String), reason: 'INVALID_ARGUMENT' }] } });
    }
    const wrongMethod = await post('/siteVerification/v1/webResource?verificationMethod=DNS_CNAME', { site: good.site }, fake.accessToken);
    expect(wrongMethod.status).toBe(400);
    expect(fake.tokens.size).toBe(0);
  });

  test('a token with the webmasters scope only is refused by the Site Verification API (403)', async () => {
    const sa = JSON.parse(fake.serviceAccountJson) as { private_key: string; client_email: string };
    const iat = Math.floor(Date.now() / 1000);
    const assertion = await new SignJWT({ scope: WEBMASTER_SCOPE })
      .setProtectedHeader({ alg: 'RS256' })
      .setIssuer(sa.client_email)
      .setAudience(fake.tokenUri)
      .setIssuedAt(iat)
      .setExpirationTime(iat + 600)
      .sign(await importPKCS8(sa.private_key, 'RS256'));
    const granted = await fetch(fake.tokenUri, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: JWT_BEARER_GRANT, assertion }).toString() });
    const { access_token: token } = (await granted.json()) as { access_token: string };
    const res = await post('/siteVerification/v1/token', { site: { type: 'INET_DOMAIN', identifier: DOMAIN }, verificationMethod: 'DNS_TXT' }, token);
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: { code: 403, message: 'Request had insufficient authentication scopes.' } });
  });

  test('a TXT lookup that fails (a name outside the DNS server\'s zones) is a 400 "not found"', async () => {
    const c = client({ credentials: fake.accessToken });
    await c.requestVerificationToken('elsewhere.example');
    expect(await c.verifyDomain('elsewhere.example')).toMatchObject({ status: 'not-verified' });
    expect(fake.requests.at(-1)).toMatchObject({ status: 400, reason: expect.stringMatching(/could not be found.*TXT lookup failed/) });
  });

  test('reset() forgets tokens and verified domains', async () => {
    const c = client({ credentials: fake.accessToken });
    const issued = await c.requestVerificationToken(DOMAIN);
    if (issued.status !== 'token') throw new Error('no token');
    dns.set(DOMAIN, 'TXT', [issued.token]);
    expect(await c.verifyDomain(DOMAIN)).toMatchObject({ status: 'verified' });
    fake.reset();
    expect(fake.tokens.size).toBe(0);
    expect(fake.verified.size).toBe(0);
    expect(await c.verifyDomain(DOMAIN)).toMatchObject({ status: 'not-verified' });
  });
});
