import { generateKeyPairSync } from 'node:crypto';
import {
  createWebmasterClient,
  DEFAULT_WEBMASTER_API_URL,
  NOT_VERIFIED_REASON,
  parseWebmasterCredentials,
  searchConsoleSiteUrl,
  siteVerificationUrlFor,
} from '../../functions/adapters/external/webmaster';
import type { ProviderFetch } from '../../functions/adapters/external/provider-fetch';
import type { Logger } from '../../functions/logger';
import { startWebmasterFake, type WebmasterFake } from '../../functions/local/fakes/webmaster';

function captureLogger(lines: Array<{ level: string; msg: string; fields: Record<string, unknown> }> = [], base: Record<string, unknown> = {}): Logger & { lines: typeof lines } {
  const write = (level: string) => (msg: string, fields: Record<string, unknown> = {}) => lines.push({ level, msg, fields: { ...base, ...fields } });
  return { lines, debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error'), child: (f) => captureLogger(lines, { ...base, ...f }) };
}

const SITE = 'sc-domain:acme-store.com';
const SITEMAP = 'https://www.acme-store.com/sitemap.xml';
const noSleep = { sleep: async () => undefined, random: () => 0 };

let fake: WebmasterFake;
beforeEach(async () => {
  fake = await startWebmasterFake();
});
afterEach(async () => {
  await fake.close();
});

describe('resubmitSitemap: skipped', () => {
  test('a site not verified in the console is skipped with the reason, nothing sent', async () => {
    const client = createWebmasterClient({ apiUrl: fake.apiUrl, credentials: fake.accessToken, log: captureLogger() });
    expect(await client.resubmitSitemap({ siteUrl: SITE, sitemapUrl: SITEMAP, verified: false })).toEqual({
      status: 'skipped',
      reason: 'the site is not verified in the webmaster console (domain connection)',
    });
    expect(NOT_VERIFIED_REASON).toBe('the site is not verified in the webmaster console (domain connection)');
    expect(fake.requests).toEqual([]);
  });

  test('without WEBMASTER_CREDENTIALS it is skipped, naming the setting', async () => {
    for (const credentials of [undefined, '', '   ']) {
      const client = createWebmasterClient({ apiUrl: fake.apiUrl, credentials, log: captureLogger() });
      const result = await client.resubmitSitemap({ siteUrl: SITE, sitemapUrl: SITEMAP, verified: true });
      expect(result).toEqual({ status: 'skipped', reason: expect.stringContaining('WEBMASTER_CREDENTIALS is not set') });
    }
    expect(fake.requests).toEqual([]);
  });
});

describe('resubmitSitemap against the local console', () => {
  test('with an access token: PUT .../sites/{siteUrl}/sitemaps/{feedpath}, both URL-encoded, Bearer auth', async () => {
    const seen: Array<{ url: string; method: string; auth?: string; body?: string }> = [];
    const fetchImpl: ProviderFetch = (url, init) => {
      seen.push({ url, method: init.method, auth: init.headers.authorization, body: init.body });
      return fetch(url, init);
    };
    const now = new Date('2026-11-20T14:05:00.000Z');
    const client = createWebmasterClient({ apiUrl: fake.apiUrl, credentials: fake.accessToken, fetchImpl, log: captureLogger(), now: () => now });
    const result = await client.resubmitSitemap({ siteUrl: SITE, sitemapUrl: SITEMAP, verified: true });
    expect(result).toEqual({ status: 'submitted', siteUrl: SITE, sitemapUrl: SITEMAP, submittedAt: '2026-11-20T14:05:00.000Z', attempts: 1 });
    expect(seen).toEqual([{
      url: `${fake.apiUrl}/sites/sc-domain%3Aacme-store.com/sitemaps/https%3A%2F%2Fwww.acme-store.com%2Fsitemap.xml`,
      method: 'PUT',
      auth: `Bearer ${fake.accessToken}`,
      body: undefined,
    }]);
    expect(fake.sitemaps).toEqual([{ siteUrl: SITE, feedpath: SITEMAP, at: expect.any(String) }]);
  });

  test('with a service-account key: a JWT-bearer grant at token_uri, the token cached for the next call', async () => {
    const log = captureLogger();
    const client = createWebmasterClient({ apiUrl: fake.apiUrl, credentials: fake.serviceAccountJson, log });
    expect(await client.resubmitSitemap({ siteUrl: SITE, sitemapUrl: SITEMAP, verified: true })).toMatchObject({ status: 'submitted' });
    expect(await client.resubmitSitemap({ siteUrl: 'https://www.acme-store.com/', sitemapUrl: SITEMAP, verified: true })).toMatchObject({ status: 'submitted' });
    expect(fake.tokensIssued()).toBe(1);
    expect(fake.requests.map((r) => `${r.method} ${r.path.startsWith('/token') ? '/token' : 'api'} ${r.status}`)).toEqual(['POST /token 200', 'PUT api 204', 'PUT api 204']);
    expect(fake.sitemaps.map((s) => s.siteUrl)).toEqual([SITE, 'https://www.acme-store.com/']);
    const logged = JSON.stringify(log.lines);
    expect(logged).not.toContain('PRIVATE KEY');
    expect(logged).not.toContain('ya29.');
  });

  test('a rejected (expired) service-account token is replaced once', async () => {
    const client = createWebmasterClient({ apiUrl: fake.apiUrl, credentials: fake.serviceAccountJson, log: captureLogger() });
    expect(await client.resubmitSitemap({ siteUrl: SITE, sitemapUrl: SITEMAP, verified: true })).toMatchObject({ status: 'submitted' });
    fake.revokeTokens();
    expect(await client.resubmitSitemap({ siteUrl: SITE, sitemapUrl: SITEMAP, verified: true })).toMatchObject({ status: 'submitted' });
    expect(fake.tokensIssued()).toBe(2);
  });

  test('a service account signed with another key is refused at the token endpoint: failed, never thrown', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
    const forged = JSON.stringify({ ...JSON.parse(fake.serviceAccountJson), private_key: privateKey });
    const client = createWebmasterClient({ apiUrl: fake.apiUrl, credentials: forged, log: captureLogger(), retry: noSleep });
    const result = await client.resubmitSitemap({ siteUrl: SITE, sitemapUrl: SITEMAP, verified: true });
    expect(result).toEqual({ status: 'failed', httpStatus: 400, reason: expect.stringMatching(/token endpoint .* refused the service account \(HTTP 400, invalid_grant/) });
    expect(fake.sitemaps).toEqual([]);
  });

  test('a property not yet added to the account is added (sites.add) and the sitemap submitted', async () => {
    const strict = await startWebmasterFake({ requireSiteAdded: true });
    try {
      const client = createWebmasterClient({ apiUrl: strict.apiUrl, credentials: strict.accessToken, log: captureLogger(), retry: noSleep });
      expect(await client.resubmitSitemap({ siteUrl: SITE, sitemapUrl: SITEMAP, verified: true })).toMatchObject({ status: 'submitted', attempts: 3 });
      expect(strict.requests.map((r) => r.status)).toEqual([403, 204, 204]);
      expect([...strict.sites]).toEqual([SITE]);
    } finally {
      await strict.close();
    }
  });

  test('a property the credentials do not own: failed with 403 and the console message', async () => {
    const owned = await startWebmasterFake({ allowedSites: ['sc-domain:other.com'] });
    try {
      const client = createWebmasterClient({ apiUrl: owned.apiUrl, credentials: owned.accessToken, log: captureLogger(), retry: noSleep });
      const result = await client.resubmitSitemap({ siteUrl: SITE, sitemapUrl: SITEMAP, verified: true });
      expect(result).toEqual({ status: 'failed', httpStatus: 403, reason: expect.stringMatching(/HTTP 403: no permission.*User does not have sufficient permission/) });
    } finally {
      await owned.close();
    }
  });

  test('429 then success: retried, Retry-After honoured', async () => {
    const sleeps: number[] = [];
    const client = createWebmasterClient({ apiUrl: fake.apiUrl, credentials: fake.accessToken, log: captureLogger(), retry: { sleep: async (ms) => void sleeps.push(ms), random: () => 0 } });
    fake.failNext(429, 1, { retryAfter: 4 });
    expect(await client.resubmitSitemap({ siteUrl: SITE, sitemapUrl: SITEMAP, verified: true })).toMatchObject({ status: 'submitted', attempts: 2 });
    expect(sleeps).toEqual([4000]);
  });

  test('5xx beyond the retries: failed with the last status', async () => {
    const client = createWebmasterClient({ apiUrl: fake.apiUrl, credentials: fake.accessToken, log: captureLogger(), retry: { ...noSleep, maxRetries: 2 } });
    fake.failNext(500, 5);
    const result = await client.resubmitSitemap({ siteUrl: SITE, sitemapUrl: SITEMAP, verified: true });
    expect(result).toEqual({ status: 'failed', httpStatus: 500, reason: expect.stringMatching(/HTTP 500.*\(after 3 attempts\)/) });
  });

  test('an access token the console rejects: failed 401, the token never in the reason', async () => {
    const client = createWebmasterClient({ apiUrl: fake.apiUrl, credentials: 'ya29.not-a-valid-token', log: captureLogger(), retry: noSleep });
    const result = await client.resubmitSitemap({ siteUrl: SITE, sitemapUrl: SITEMAP, verified: true });
    expect(result).toMatchObject({ status: 'failed', httpStatus: 401 });
    expect(JSON.stringify(result)).not.toContain('ya29.not-a-valid-token');
  });

  test('a sitemap outside the property, or a malformed property, fails before any request', async () => {
    const client = createWebmasterClient({ apiUrl: fake.apiUrl, credentials: fake.accessToken, log: captureLogger() });
    expect(await client.resubmitSitemap({ siteUrl: SITE, sitemapUrl: 'https://other.com/sitemap.xml', verified: true })).toMatchObject({ status: 'failed', reason: expect.stringMatching(/not on the property's domain/) });
    expect(await client.resubmitSitemap({ siteUrl: 'https://www.acme-store.com', sitemapUrl: SITEMAP, verified: true })).toMatchObject({ status: 'failed', reason: expect.stringMatching(/ends with \//) });
    expect(await client.resubmitSitemap({ siteUrl: SITE, sitemapUrl: '/sitemap.xml', verified: true })).toMatchObject({ status: 'failed' });
    expect(fake.requests).toEqual([]);
  });

  test('malformed credentials fail with a reason that never repeats them', async () => {
    const secret = '{"client_email":"x@y","private_key":"super-secret-material"}';
    const client = createWebmasterClient({ apiUrl: fake.apiUrl, credentials: secret, log: captureLogger() });
    const result = await client.resubmitSitemap({ siteUrl: SITE, sitemapUrl: SITEMAP, verified: true });
    expect(result).toEqual({ status: 'failed', reason: 'WEBMASTER_CREDENTIALS has a private_key that is not a PKCS#8 RSA key' });
    const broken = createWebmasterClient({ apiUrl: fake.apiUrl, credentials: '{"client_email": "x", ', log: captureLogger() });
    expect(await broken.resubmitSitemap({ siteUrl: SITE, sitemapUrl: SITEMAP, verified: true })).toEqual({ status: 'failed', reason: 'WEBMASTER_CREDENTIALS starts with { but is not valid JSON' });
  });
});

describe('credentials and properties', () => {
  test('parseWebmasterCredentials: an access token, {"access_token"}, or a service-account key', () => {
    expect(parseWebmasterCredentials(' ya29.abc ')).toEqual({ kind: 'access-token', accessToken: 'ya29.abc' });
    expect(parseWebmasterCredentials('{"access_token":"ya29.def"}')).toEqual({ kind: 'access-token', accessToken: 'ya29.def' });
    expect(parseWebmasterCredentials(JSON.stringify({ type: 'service_account', client_email: 'a@b.iam.gserviceaccount.com', private_key: 'K\\nL', private_key_id: 'k1' }))).toEqual({
      kind: 'service-account', clientEmail: 'a@b.iam.gserviceaccount.com', privateKey: 'K\nL', privateKeyId: 'k1', tokenUri: 'https://oauth2.googleapis.com/token',
    });
    expect(() => parseWebmasterCredentials('{"type":"authorized_user","client_email":"a","private_key":"b"}')).toThrow(/service_account key is expected/);
    expect(() => parseWebmasterCredentials('{"client_email":"a"}')).toThrow(/without private_key/);
    expect(() => parseWebmasterCredentials('two words')).toThrow(/neither/);
    expect(() => parseWebmasterCredentials('{"client_email":"a","private_key":"b","token_uri":"ftp://x"}')).toThrow(/token_uri/);
  });

  test('the Domain property of a domain, and the default API URL', () => {
    expect(searchConsoleSiteUrl('Acme-Store.com.')).toBe('sc-domain:acme-store.com');
    expect(DEFAULT_WEBMASTER_API_URL).toBe('https://www.googleapis.com/webmasters/v3');
  });

  test('siteVerificationUrlFor: .../webmasters/v3 becomes .../siteVerification/v1; anything else is the public API', () => {
    expect(siteVerificationUrlFor(undefined)).toBe('https://www.googleapis.com/siteVerification/v1');
    expect(siteVerificationUrlFor('  ')).toBe('https://www.googleapis.com/siteVerification/v1');
    expect(siteVerificationUrlFor(DEFAULT_WEBMASTER_API_URL)).toBe('https://www.googleapis.com/siteVerification/v1');
    expect(siteVerificationUrlFor('http://127.0.0.1:4545/webmasters/v3/')).toBe('http://127.0.0.1:4545/siteVerification/v1');
    expect(siteVerificationUrlFor(fake.apiUrl)).toBe(fake.siteVerificationUrl);
    expect(siteVerificationUrlFor('https://proxy.example/google/webmasters/v3')).toBe('https://proxy.example/google/siteVerification/v1');
    expect(siteVerificationUrlFor('https://console.example/api')).toBe('https://www.googleapis.com/siteVerification/v1');
  });

  test('an explicit siteVerificationUrl wins over the derived one', async () => {
    const seen: string[] = [];
    const fetchImpl: ProviderFetch = (url, init) => {
      seen.push(url);
      return fetch(url, init);
    };
    const client = createWebmasterClient({ apiUrl: 'https://console.example/api', siteVerificationUrl: `${fake.siteVerificationUrl}/`, credentials: fake.accessToken, fetchImpl, log: captureLogger() });
    expect(await client.requestVerificationToken('acme-store.com')).toMatchObject({ status: 'token' });
    expect(seen).toEqual([`${fake.origin}/siteVerification/v1/token`]);
    const broken = createWebmasterClient({ siteVerificationUrl: 'ftp://x', credentials: fake.accessToken, log: captureLogger() });
    expect(await broken.requestVerificationToken('acme-store.com')).toEqual({ status: 'failed', reason: 'the Site Verification API URL is not a valid http(s) URL: "ftp://x"' });
  });
});
