/**
 * Issue 13 Part 1 end to end on the local runtime: POST /api/domain/start-certificate/{org_id}
 * and POST /api/domain/complete-certificate/{org_id} through the real routes, the real
 * start-certificate / complete-certificate workflows (local runner), the real acme-client
 * against Pebble, DNS checks against a local authoritative test server (DNS_RESOLVERS), and
 * the local CDN gateway's attachCertificate; then the local CDN proxy serves the custom domain.
 *
 * The business: created through POST /api/business on a loopback store (the onboarding
 * checks need a reachable store), its distribution made by onboarding step 1f
 * (createCdnDistribution, whose store origin stays that store). Then its URL is set to
 * `https://www.shop.example.test/` in the table directly: this machine has no public DNS, so
 * no route can create a business on a domain that only the test DNS server knows. That one
 * write is the only stand-in; everything after it runs through the API.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as acme from 'acme-client';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { createCdnDistribution } from '../../functions/app/domain/cdn';
import { createDocumentClient } from '../../functions/adapters/dynamodb/client';
import { getContainer } from '../../functions/container';
import { createDnsChecker } from '../../functions/adapters/external/dns';
import { siteIdentity } from '../../functions/app/site/identity';
import { PUBLIC_ORIGIN_TOKEN } from '../../functions/core/site/paths';
import { startDnsTestServer, type DnsTestServer } from '../../functions/local/fakes/dns-server';
import { startIndexNowFake, type IndexNowFake } from '../../functions/local/fakes/indexnow';
import { startWebmasterFake, type WebmasterFake } from '../../functions/local/fakes/webmaster';
import type { LocalWorkflows } from '../../functions/local/runtime/workflow-runner';
import { setBusinessDomain } from '../support/business-domain';
import { pebbleAvailable, startPebble, type PebbleServer } from '../support/pebble';
import { DEV_API_KEY, startTestStack, type TestStack } from '../support/stack';

if (!pebbleAvailable) {
  console.warn('domain-certificate.test.ts skipped: pebble / pebble-challtestsrv / openssl not on PATH (apt-get install -y pebble)');
}
const describeWithPebble = pebbleAvailable ? describe : describe.skip;

const ZONE = 'example.test'; // .test is a public suffix: example.test is the registrable domain
const WWW = `www.${ZONE}`;
const ORG = 'certshop';

describeWithPebble('free certificate (Part 1) against Pebble, end to end', () => {
  let pebble: PebbleServer;
  let dns: DnsTestServer;
  let stack: TestStack;
  let store: Server;
  let storeOrigin: string;
  let webmaster: WebmasterFake;
  /** Moves the service's clock (certificate expiry); tokens and Pebble keep real time. */
  let clockOffsetMs = 0;
  let indexNow: IndexNowFake;
  const acmeSettings = (acme.axios.defaults as unknown as { acmeSettings: Record<string, number> }).acmeSettings;
  const retries = { ...acmeSettings };

  const token = (org = ORG) => stack.token(org);
  const post = async (op: string, org = ORG, as = org) => stack.call('POST', `/api/domain/${op}/${org}`, { token: await token(as) });

  beforeAll(async () => {
    Object.assign(acmeSettings, { retryMaxAttempts: 1, retryDefaultDelay: 1 });
    pebble = await startPebble();
    dns = await startDnsTestServer({
      // Authoritative up to the TLD, so the CAA walk (shop.example.test, example.test, test) gets answers.
      zones: ['test'],
      records: {
        [ZONE]: { A: ['203.0.113.10'] },
        [WWW]: { CNAME: 'shops.myshopify.com' },
        'blocked.test': { CAA: [{ flags: 0, tag: 'issue', value: 'sectigo.com' }] },
        'shop.poll.test': { CNAME: 'stores.platform.test' },
      },
    });
    store = createServer((req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(`store ${req.method} ${req.url} host=${req.headers.host}`);
    });
    await new Promise<void>((resolve) => store.listen(0, '127.0.0.1', resolve));
    storeOrigin = `http://127.0.0.1:${(store.address() as AddressInfo).port}`;

    // The console looks the verification token up in DNS, as Google does; the engine fetches
    // the key file from the customer's domain, which only the local CDN proxy serves.
    webmaster = await startWebmasterFake({ lookupTxt: createDnsChecker({ resolvers: [dns.endpoint] }).lookupTxt });
    indexNow = await startIndexNowFake({
      keyFileFetch: async (url) => {
        const { pathname, hostname } = new URL(url);
        const answer = await send(stack.proxy.port, pathname, hostname);
        return { status: answer.status, body: answer.text };
      },
    });
    stack = await startTestStack({
      LOG_LEVEL: 'warn',
      ACME_DIRECTORY_URL: pebble.directoryUrl,
      ACME_CA_BUNDLE: pebble.caFile,
      ACME_ACCOUNT_EMAIL: 'certs@shop.example.test',
      DNS_RESOLVERS: dns.endpoint,
      WEBMASTER_API_URL: webmaster.apiUrl,
      WEBMASTER_CREDENTIALS: webmaster.serviceAccountJson,
      INDEXNOW_ENDPOINT: indexNow.url,
      // D18's 10 s between polls and the native certificate's 5 min, without the waiting.
      VERIFICATION_POLL_SECONDS: '0',
      NATIVE_CERTIFICATE_WAIT_SECONDS: '0',
    }, { clock: { now: () => new Date(Date.now() + clockOffsetMs) } });
    for (const [org, name] of [[ORG, 'Cert Shop'], ['ipshop', 'IP Shop'], ['other', 'Other Shop'], ['caashop', 'CAA Shop'], ['apexshop', 'Apex Shop'], ['pollshop', 'Poll Shop']]) {
      const created = await stack.call('POST', '/api/business', { token: await token(org), body: { name, url: storeOrigin } });
      expect(created.status).toBe(201);
    }
    const container = getContainer();
    await createCdnDistribution(container, ORG); // onboarding step 1f
    for (const org of ['ipshop', 'caashop', 'apexshop', 'pollshop']) await createCdnDistribution(container, org);
    // The stand-in: the business's URL is its own domain (see the header).
    for (const [org, host, domain] of [[ORG, WWW, ZONE], ['caashop', 'www.blocked.test', 'blocked.test'], ['apexshop', 'apex.test', 'apex.test'], ['pollshop', 'shop.poll.test', 'poll.test']]) {
      await setBusinessDomain(stack, org, host, domain);
    }
  }, 90_000);

  afterAll(async () => {
    Object.assign(acmeSettings, retries);
    await stack?.close();
    await webmaster?.close();
    await indexNow?.close();
    await dns?.close();
    await pebble?.stop();
    if (store) await new Promise<void>((resolve) => { store.closeAllConnections(); store.close(() => resolve()); });
  });

  let startExecution = '';
  let records: { type: string; host: string; value: string; ttl: number }[] = [];
  let verificationRecord: { type: string; host: string; value: string; ttl: number };
  let nextRecords: { type: string; host: string; value: string; ttl: number }[] = [];

  test('another organization\'s token gets 403; complete before any order is refused (409)', async () => {
    expect((await post('start-certificate', ORG, 'other')).status).toBe(403);
    expect((await post('complete-certificate', ORG, 'other')).status).toBe(403);
    const early = await post('complete-certificate');
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({ status: 'error', error: expect.stringContaining('start-certificate first') });
  });

  test('a business URL that is not a domain the business owns is refused with the reason (400)', async () => {
    const res = await post('start-certificate', 'ipshop');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 'error', code: 'ip_address', error: expect.stringContaining('IP address') });
    expect((await getContainer().aiSites.get('ipshop'))?.proxyStatus).toBe('PENDING_VALIDATION');
  });

  test('Prefer: respond-async answers 202 with the read-back URL; the read-back gives the operation\'s answer once finished', async () => {
    const res = await stack.call('POST', '/api/domain/start-certificate/ipshop', { token: await token('ipshop'), headers: { Prefer: 'respond-async' } });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ status: 'running', execution_id: expect.any(String), status_url: `/api/domain/start-certificate/ipshop/${res.body.execution_id}` });
    expect(res.headers.get('location')).toBe(res.body.status_url);
    let back = await stack.call('GET', res.body.status_url, { token: await token('ipshop') });
    for (let i = 0; back.status === 202 && i < 100; i++) {
      await new Promise((r) => setTimeout(r, 100));
      back = await stack.call('GET', res.body.status_url, { token: await token('ipshop') });
    }
    expect(back.status).toBe(400);
    expect(back.body).toMatchObject({ status: 'error', code: 'ip_address', execution_id: res.body.execution_id });
  });

  test('CAA records that forbid the CA are reported before ordering (400), state unchanged', async () => {
    const res = await post('start-certificate', 'caashop');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 'error', code: 'caa_forbidden', error: expect.stringContaining('allows only sectigo.com') });
    expect(res.body.error).toContain("Let's Encrypt");
    const site = await getContainer().aiSites.get('caashop');
    expect(site?.proxyStatus).toBe('PENDING_VALIDATION');
    expect(site?.certTmp).toBeUndefined();
  });

  test('an apex business URL without APEX_GATEWAY_IPS is refused honestly (400)', async () => {
    const res = await post('start-certificate', 'apexshop');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 'error', code: 'apex_without_gateway', error: expect.stringContaining('APEX_GATEWAY_IPS') });
  });

  test('start-certificate: one order for www + naked domain, the TXT records (certificate and webmaster token), SSL_VALIDATING, originals captured', async () => {
    const res = await post('start-certificate');
    expect({ status: res.status, body: res.status === 200 ? 'ok' : res.body }).toEqual({ status: 200, body: 'ok' });
    expect(res.body).toMatchObject({
      status: 'success', proxy_status: 'SSL_VALIDATING', custom_domain: WWW, naked_domain: ZONE, domain_type: 'www',
      webmaster_verification: { status: 'token', google_verification_status: 'PENDING' }, execution_id: expect.any(String),
      // No zone of the service's to write challenges in (D203): the TXT records, added by hand.
      acme_delegation: { status: 'skipped', reason: expect.stringContaining('ACME_DNS_ZONE_ID') },
    });
    records = res.body.records.filter((r: { host: string }) => r.host.startsWith('_acme-challenge'));
    expect(records.map((r) => r.host).sort()).toEqual(['_acme-challenge', '_acme-challenge.www']);
    for (const r of records) expect(r).toEqual({ type: 'TXT', host: r.host, value: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), ttl: expect.any(Number) });
    verificationRecord = res.body.records.find((r: { host: string }) => r.host === '@');
    expect(verificationRecord).toEqual({ type: 'TXT', host: '@', value: webmaster.tokens.get(ZONE), ttl: expect.any(Number) });
    expect(verificationRecord.value).toMatch(/^google-site-verification=/);
    expect(res.body.records).toHaveLength(3);
    startExecution = res.body.execution_id;

    const site = await getContainer().aiSites.get(ORG);
    expect(site).toMatchObject({
      googleVerificationStatus: 'PENDING', googleVerificationToken: verificationRecord.value,
      proxyStatus: 'SSL_VALIDATING', customDomain: WWW, nakedDomain: ZONE, subdomainLabel: 'www', domainType: 'subdomain',
      originalWwwCname: 'shops.myshopify.com', originCname: 'shops.myshopify.com',
      capturedRecords: { [ZONE]: { A: ['203.0.113.10'], AAAA: [], CNAME: null, CAA: [] }, [WWW]: { A: [], AAAA: [], CNAME: 'shops.myshopify.com', CAA: [] } },
      certTmp: { names: [WWW, ZONE], orderUrl: expect.stringContaining('127.0.0.1') },
    });
    const proxy = await stack.call('GET', `/api/domain/get-proxy/${ORG}`, { token: await token() });
    expect(proxy.body).toMatchObject({ proxy_status: 'SSL_VALIDATING', custom_domain: WWW, naked_domain: ZONE, subdomain_label: 'www', original_www_cname: 'shops.myshopify.com' });
  }, 60_000);

  test('the start result reads back at GET <path>/{execution_id}; not for another organization', async () => {
    const back = await stack.call('GET', `/api/domain/start-certificate/${ORG}/${startExecution}`, { token: await token() });
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ status: 'success', proxy_status: 'SSL_VALIDATING', records: expect.arrayContaining([...records, verificationRecord]) });
    expect((await stack.call('GET', `/api/domain/start-certificate/${ORG}/${startExecution}`, { token: await token('other') })).status).toBe(403);
    expect((await stack.call('GET', `/api/domain/start-certificate/other/${startExecution}`, { token: await token('other') })).status).toBe(404);
  });

  test('complete-certificate before the TXT records are on the authoritative servers: 409 naming them, nothing changed', async () => {
    const res = await post('complete-certificate');
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ status: 'error', code: 'txt_not_found', proxy_status: 'SSL_VALIDATING' });
    expect(res.body.error).toContain(`_acme-challenge.${WWW}`);
    expect(res.body.missing.map((m: { host: string }) => m.host).sort()).toEqual(['_acme-challenge', '_acme-challenge.www']);
    expect((await getContainer().aiSites.get(ORG))?.proxyStatus).toBe('SSL_VALIDATING');
  }, 60_000);

  test('with one of the two records only, the other one is named', async () => {
    const www = records.find((r) => r.host === '_acme-challenge.www')!;
    dns.set(`_acme-challenge.${WWW}`, 'TXT', [www.value]);
    const res = await post('complete-certificate');
    expect(res.status).toBe(409);
    expect(res.body.missing.map((m: { host: string }) => m.host)).toEqual(['_acme-challenge']);
  }, 60_000);

  test('verify-dns (D21): each TXT record of the order with expected, actual and found', async () => {
    const res = await post('verify-dns');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'success', proxy_status: 'SSL_VALIDATING', step: 'certificate', all_found: false });
    const byName = Object.fromEntries(res.body.records.map((r: { name: string }) => [r.name, r]));
    const www = records.find((r) => r.host === '_acme-challenge.www')!;
    const naked = records.find((r) => r.host === '_acme-challenge')!;
    expect(byName[`_acme-challenge.${WWW}`]).toMatchObject({ type: 'TXT', expected: www.value, actual: [www.value], found: true });
    expect(byName[`_acme-challenge.${ZONE}`]).toMatchObject({ type: 'TXT', expected: naked.value, actual: [], found: false });
    expect((await post('verify-dns', ORG, 'other')).status).toBe(403);
    expect((await post('verify-dns', 'caashop')).status).toBe(409); // nothing ordered yet
    expect((await post('verify-dns', 'apexshop')).status).toBe(400); // an apex without gateway addresses cannot be connected
  }, 60_000);

  test('complete-certificate: validated by Pebble, issued, attached (FREE_CA), SSL_VALIDATED; the local CDN proxy serves the custom domain', async () => {
    for (const r of records) { // the certificate's records only: the webmaster token comes later
      const name = r.host === '@' ? ZONE : `${r.host}.${ZONE}`;
      dns.set(name, 'TXT', [r.value]);
      await pebble.setTxt(name, r.value); // Pebble validates through challtestsrv
    }
    const res = await post('complete-certificate');
    expect({ status: res.status, body: res.status === 200 ? 'ok' : res.body }).toEqual({ status: 200, body: 'ok' });
    expect(res.body).toMatchObject({
      status: 'success', proxy_status: 'SSL_VALIDATED', certificate_type: 'FREE_CA',
      certificate_arn: expect.stringMatching(/^local:E[A-Z0-9]{13}:/), aliases: [WWW, ZONE],
    });
    expect(Date.parse(res.body.not_after)).toBeGreaterThan(Date.now());
    // The Part 2 instructions: www → the CDN (its original CNAME removed first), the naked domain
    // left alone without gateway addresses, and the native certificate's validation CNAMEs.
    const cdnDomain = (await getContainer().aiSites.get(ORG))?.cdnDomain as string;
    expect(res.body.native_certificate).toMatchObject({ status: 'PENDING_VALIDATION', certificate_arn: expect.stringMatching(/^local:native:/), reason: expect.stringContaining('validation CNAME') });
    nextRecords = res.body.next_records;
    expect(nextRecords[0]).toEqual({ type: 'CNAME', host: 'www', value: cdnDomain, ttl: 300 });
    expect(nextRecords.slice(1).map((r) => r.host).sort()).toEqual([expect.stringMatching(/^_[0-9a-f]{32}$/), expect.stringMatching(/^_[0-9a-f]{32}\.www$/)]);
    for (const r of nextRecords.slice(1)) expect(r).toMatchObject({ type: 'CNAME', value: expect.stringMatching(/^_[0-9a-f]{32}\.acm-validations\.localhost$/) });
    expect(res.body.next_remove).toEqual([{ type: 'CNAME', host: 'www', value: 'shops.myshopify.com', ttl: 300 }]);
    expect(res.body.next_skipped).toEqual([{ name: ZONE, reason: expect.stringContaining('APEX_GATEWAY_IPS') }]);

    const site = await getContainer().aiSites.get(ORG);
    expect(site).toMatchObject({ proxyStatus: 'SSL_VALIDATED', certificateType: 'FREE_CA', certificateArn: res.body.certificate_arn, certificateNotAfter: res.body.not_after, certTmp: null });
    const proxy = await stack.call('GET', `/api/domain/get-proxy/${ORG}`, { token: await token() });
    expect(proxy.body).toMatchObject({ proxy_status: 'SSL_VALIDATED', certificate_arn: res.body.certificate_arn });

    // No private key anywhere in the table (AI-site record, execution records with their input/output).
    const db = createDocumentClient({ region: stack.config.region, endpoint: stack.config.dynamodbEndpoint });
    const { Items } = await db.send(new ScanCommand({ TableName: stack.config.tableName }));
    expect(JSON.stringify(Items)).not.toMatch(/PRIVATE KEY/);

    const distribution = await getContainer().aiSites.get(ORG);
    for (const host of [WWW, ZONE]) {
      const answer = await send(stack.proxy.port, '/products/x', host);
      expect(answer.status).toBe(200);
      expect(answer.text).toContain('store GET /products/x');
    }
    expect(distribution?.cdnStoreOrigin).toBe(storeOrigin);
  }, 90_000);

  test('transitions outside the table are refused with 409 and the allowed next steps', async () => {
    for (const op of ['start-certificate', 'complete-certificate']) {
      const res = await post(op);
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ status: 'error', proxy_status: 'SSL_VALIDATED', allowed: ['mark-step-complete'] });
    }
  });

  // --- Part 2: the DNS switch, verification, disconnect, reconnect -----------------------

  const postBody = async (op: string, body: unknown, org = ORG) => stack.call('POST', `/api/domain/${op}/${org}`, { token: await token(org), body });
  const finished = (executionId: string) => (getContainer().workflows as LocalWorkflows).finished(executionId);
  let cdnDomain = '';
  let aiOrigin = '';
  const page = (origin: string) => `<!doctype html><html><head><title>Mug</title><link rel="canonical" href="${origin}/ai/products/mug/"></head>`
    + '<body><a href="https://www.example.test/products/mug">Buy the mug</a></body></html>';

  test('the AI site is published on the AI host before the switch', async () => {
    const { indexNowKey } = await siteIdentity(getContainer(), ORG);
    const res = await stack.call('POST', '/api/cron/deploy-site', {
      apiKey: DEV_API_KEY,
      body: {
        business_id: ORG,
        files: [
          { path: '/ai/products/mug/index.html', content: page(PUBLIC_ORIGIN_TOKEN) },
          { path: '/llms.txt', content: `# Cert Shop\n\n- [Mug](${PUBLIC_ORIGIN_TOKEN}/ai/products/mug/)\n` },
          { path: '/indexing-key.txt', content: indexNowKey },
        ],
      },
    });
    expect(res.status).toBe(200);
    const site = await getContainer().aiSites.get(ORG);
    cdnDomain = String(site?.cdnDomain);
    aiOrigin = String(site?.deploymentUrl);
    expect(aiOrigin).toContain(ORG);
    expect(site?.publishedOrigin).toBe(aiOrigin);
  });

  test('mark-step-complete: any step but 2 is a 400 whatever the state; another organization 403; outside the table 409', async () => {
    for (const body of [{ step: 1 }, { step: 3 }, { step: '2' }, { step: 2.5 }, {}]) {
      const res = await postBody('mark-step-complete', body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      expect(JSON.stringify(res.body)).toMatch(/step/);
    }
    expect((await stack.call('POST', `/api/domain/mark-step-complete/${ORG}`, { token: await token('other'), body: { step: 2 } })).status).toBe(403);
    const early = await postBody('mark-step-complete', { step: 2 }, 'caashop');
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({ proxy_status: 'PENDING_VALIDATION', allowed: ['start-certificate', 'complete-certificate'] });
    for (const op of ['disconnect-proxy', 'mark-disconnect-complete']) {
      const res = await post(op);
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ proxy_status: 'SSL_VALIDATED', allowed: ['mark-step-complete'] });
    }
  });

  test('mark-step-complete before the records are switched: 409 naming them (found/expected/actual), nothing changed', async () => {
    const res = await postBody('mark-step-complete', { step: 2 });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ status: 'error', code: 'dns_not_switched', proxy_status: 'SSL_VALIDATED' });
    expect(res.body.records[0]).toMatchObject({ type: 'CNAME', host: 'www', expected: cdnDomain, actual: ['shops.myshopify.com'], found: false });
    const site = await getContainer().aiSites.get(ORG);
    expect(site).toMatchObject({ proxyStatus: 'SSL_VALIDATED', cdnStoreOrigin: storeOrigin, publishedOrigin: aiOrigin });
    expect(site?.publicOrigin).toBeUndefined();
  }, 30_000);

  test('after the switch: DEPLOYED, store origin re-pointed, served and redeployed on the custom domain; 12 polls → FAILED; IndexNow only', async () => {
    dns.set(WWW, 'CNAME', cdnDomain); // the switch only: the native certificate's records are not added yet
    const res = await postBody('mark-step-complete', { step: 2 });
    expect({ status: res.status, body: res.status === 200 ? 'ok' : res.body }).toEqual({ status: 200, body: 'ok' });
    expect(res.body).toMatchObject({
      status: 'success', proxy_status: 'DEPLOYED', custom_domain: WWW, public_origin: `https://${WWW}`,
      store_origin: 'https://shops.myshopify.com', previous_public_origin: aiOrigin,
      redeployed: { release_id: expect.any(String), file_count: expect.any(Number) },
      google_verification_status: 'PENDING', webmaster_verification: 'polling every 0 s, 12 times',
    });
    expect(res.body.records[0]).toMatchObject({ type: 'CNAME', host: 'www', found: true });
    await finished(res.body.execution_id);
    const back = await stack.call('GET', `/api/domain/mark-step-complete/${ORG}/${res.body.execution_id}`, { token: await token() });
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ proxy_status: 'DEPLOYED', store_origin: 'https://shops.myshopify.com' });

    const site = await getContainer().aiSites.get(ORG);
    expect(site).toMatchObject({
      proxyStatus: 'DEPLOYED', publicOrigin: `https://${WWW}`, publishedOrigin: `https://${WWW}`, cdnStoreOrigin: 'https://shops.myshopify.com',
      // Its validation records are not in DNS: the free certificate stays after the last look.
      certificateType: 'FREE_CA', nativeCertificate: { status: 'PENDING_VALIDATION' },
      googleVerificationStatus: 'FAILED',
    });
    expect(webmaster.requests.filter((r) => r.path.endsWith('/webResource'))).toHaveLength(12);
    expect(webmaster.sitemaps).toHaveLength(0);

    // Both names find the organization, with the store origin moved (the proxy would loop on the customer's domain).
    const { cdnOf } = await import('../../functions/engines/cdn');
    for (const host of [WWW, ZONE]) {
      expect(await cdnOf(getContainer()).resolveHost(host)).toMatchObject({ orgSlug: ORG, storeOrigin: 'https://shops.myshopify.com', aiSiteHost: site?.cdnAiSiteHost });
    }
    // The site names the custom domain: canonicals, llms links, sitemap, robots; store links untouched.
    const mug = await send(stack.proxy.port, '/ai/products/mug/', WWW);
    expect(mug.status).toBe(200);
    expect(mug.text).toBe(page(`https://${WWW}`));
    expect((await send(stack.proxy.port, '/llms.txt', WWW)).text).toContain(`(https://${WWW}/ai/products/mug/)`);
    const sitemap = (await send(stack.proxy.port, '/sitemap.xml', WWW)).text;
    expect(sitemap).toContain(`<loc>https://${WWW}/ai/products/mug/</loc>`);
    expect(sitemap).not.toContain(aiOrigin);
    expect((await send(stack.proxy.port, '/robots.txt', WWW)).text).toContain(`Sitemap: https://${WWW}/sitemap.xml`);

    // IndexNow, once, on the customer's domain, its key proven there.
    const accepted = indexNow.accepted();
    expect(accepted).toHaveLength(1);
    expect(accepted[0]).toMatchObject({ host: WWW, keyLocation: `https://${WWW}/indexing-key.txt` });
    expect(accepted[0].urlList).toEqual(expect.arrayContaining([`https://${WWW}/ai/products/mug/`, `https://${WWW}/llms.txt`]));
    expect(accepted[0].urlList!.every((u) => u.startsWith(`https://${WWW}/`))).toBe(true);

    const proxy = await stack.call('GET', `/api/domain/get-proxy/${ORG}`, { token: await token() });
    expect(proxy.body).toMatchObject({
      proxy_status: 'DEPLOYED', custom_domain: WWW, public_origin: `https://${WWW}`,
      certificate_type: 'FREE_CA', native_certificate_status: 'PENDING_VALIDATION', google_verification_status: 'FAILED',
      certificate_not_after: site?.certificateNotAfter,
    });
  }, 90_000);

  test('complete-google-verification: 409 with the record check before the TXT record; then VERIFIED, property added, sitemap submitted', async () => {
    const before = await post('complete-google-verification');
    expect(before.status).toBe(409);
    expect(before.body).toMatchObject({ status: 'error', google_verification_status: 'FAILED' });
    expect(before.body.records).toEqual([expect.objectContaining({ type: 'TXT', host: '@', expected: verificationRecord.value, found: false })]);

    dns.set(ZONE, 'TXT', [verificationRecord.value]);
    const res = await post('complete-google-verification');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'success', google_verification_status: 'VERIFIED', site_url: `sc-domain:${ZONE}`,
      records: [expect.objectContaining({ found: true })],
      sitemap: { status: 'submitted', siteUrl: `sc-domain:${ZONE}`, sitemapUrl: `https://${WWW}/sitemap.xml` },
    });
    expect(webmaster.sitemaps).toEqual([expect.objectContaining({ siteUrl: `sc-domain:${ZONE}`, feedpath: `https://${WWW}/sitemap.xml` })]);

    const again = await post('start-google-verification');
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ google_verification_status: 'VERIFIED' });

    // The schedule's resubmission (KEY).
    expect((await stack.call('POST', `/api/domain/resubmit-sitemap/${ORG}`, {})).status).toBe(401);
    const resubmitted = await stack.call('POST', `/api/domain/resubmit-sitemap/${ORG}`, { apiKey: DEV_API_KEY });
    expect(resubmitted.status).toBe(200);
    expect(resubmitted.body).toMatchObject({ status: 'success', sitemap: { status: 'submitted' } });
    expect(webmaster.sitemaps).toHaveLength(2);
    const unconnected = await stack.call('POST', '/api/domain/resubmit-sitemap/caashop', { apiKey: DEV_API_KEY });
    expect(unconnected.body).toMatchObject({ status: 'skipped', reason: expect.stringContaining('not verified') });
  }, 60_000);

  test('disconnect-proxy answers the records that restore the captured originals; mark-disconnect-complete → DISCONNECTED, AI host again', async () => {
    const plan = await post('disconnect-proxy');
    expect(plan.status).toBe(200);
    expect(plan.body).toMatchObject({ status: 'success', proxy_status: 'DEPLOYED', custom_domain: WWW });
    expect(plan.body.remove).toEqual([{ type: 'CNAME', host: 'www', value: cdnDomain, ttl: 300 }]);
    // Exactly what the names held when the connection started.
    expect(plan.body.records).toEqual([
      { type: 'CNAME', host: 'www', value: 'shops.myshopify.com', ttl: 300 },
      { type: 'A', host: '@', value: '203.0.113.10', ttl: 300 },
    ]);
    expect((await getContainer().aiSites.get(ORG))?.proxyStatus).toBe('DEPLOYED');

    dns.set(WWW, 'CNAME', 'shops.myshopify.com');
    const res = await post('mark-disconnect-complete');
    expect({ status: res.status, body: res.status === 200 ? 'ok' : res.body }).toEqual({ status: 200, body: 'ok' });
    expect(res.body).toMatchObject({ status: 'success', proxy_status: 'DISCONNECTED', all_restored: true, certificate_type: 'FREE_CA' });
    const site = await getContainer().aiSites.get(ORG);
    expect(site).toMatchObject({ proxyStatus: 'DISCONNECTED', publicOrigin: null, publishedOrigin: aiOrigin, certificateType: 'FREE_CA' });
    expect(site?.cdnDistributionId).toBeTruthy();
    // The pages name the AI host again; the store link stays.
    expect((await send(stack.proxy.port, '/ai/products/mug/', WWW)).text).toBe(page(aiOrigin));

    for (const op of ['disconnect-proxy', 'mark-disconnect-complete']) {
      const refused = await post(op);
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ proxy_status: 'DISCONNECTED', allowed: ['mark-step-complete'] });
    }
  }, 60_000);

  test('reconnect once the free certificate has expired: a new certificate is needed first (409, start-certificate)', async () => {
    const notAfter = Date.parse(String((await getContainer().aiSites.get(ORG))?.certificateNotAfter));
    clockOffsetMs = notAfter - Date.now() + 24 * 3600_000;
    try {
      const res = await postBody('mark-step-complete', { step: 2 });
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ proxy_status: 'DISCONNECTED', allowed: ['start-certificate'] });
    } finally {
      clockOffsetMs = 0;
    }
  });

  test('reconnect with the unexpired certificate: straight to DEPLOYED (no new order), already verified; the native certificate attached once its records are in DNS', async () => {
    const orders = (await getContainer().aiSites.get(ORG))?.certificateArn;
    dns.set(WWW, 'CNAME', cdnDomain);
    for (const r of nextRecords.slice(1)) dns.set(`${r.host}.${ZONE}`, 'CNAME', r.value);
    indexNow.reset();
    const res = await postBody('mark-step-complete', { step: 2 });
    expect({ status: res.status, body: res.status === 200 ? 'ok' : res.body }).toEqual({ status: 200, body: 'ok' });
    expect(res.body).toMatchObject({ proxy_status: 'DEPLOYED', webmaster_verification: 'already verified', google_verification_status: 'VERIFIED' });
    await finished(res.body.execution_id);
    const site = await getContainer().aiSites.get(ORG);
    expect(site).toMatchObject({ proxyStatus: 'DEPLOYED', certificateType: 'NATIVE', certificateArn: expect.stringMatching(/^local:native:/), publicOrigin: `https://${WWW}` });
    expect(site?.certificateArn).not.toBe(orders);
    expect(Date.parse(String(site?.certificateNotAfter))).toBeGreaterThan(Date.now());
    const { cdnOf } = await import('../../functions/engines/cdn');
    expect((await cdnOf(getContainer()).gateway.getDistribution(String(site?.cdnDistributionId)))?.certificateArn).toBe(site?.certificateArn);
    expect(indexNow.accepted()).toHaveLength(1);
    expect(webmaster.sitemaps).toHaveLength(3);
    const proxy = await stack.call('GET', `/api/domain/get-proxy/${ORG}`, { token: await token() });
    expect(proxy.body).toMatchObject({ proxy_status: 'DEPLOYED', certificate_type: 'NATIVE', native_certificate_status: 'ISSUED', google_verification_status: 'VERIFIED' });
    expect((await send(stack.proxy.port, '/ai/products/mug/', WWW)).text).toBe(page(`https://${WWW}`));
  }, 90_000);

  test('a custom subdomain whose verification record is in place before the switch: the first poll verifies it, then IndexNow and the sitemap', async () => {
    const host = 'shop.poll.test';
    const zone = 'poll.test';
    const start = await post('start-certificate', 'pollshop');
    expect({ status: start.status, body: start.status === 200 ? 'ok' : start.body }).toEqual({ status: 200, body: 'ok' });
    expect(start.body).toMatchObject({ custom_domain: host, naked_domain: zone, domain_type: 'custom_subdomain' });
    expect(start.body.records.map((r: { host: string }) => r.host).sort()).toEqual(['@', '_acme-challenge.shop']);
    for (const r of start.body.records as { host: string; value: string }[]) { // the widget adds both TXT records at once (spec Part 1)
      const name = r.host === '@' ? zone : `${r.host}.${zone}`;
      dns.set(name, 'TXT', [r.value]);
      if (r.host !== '@') await pebble.setTxt(name, r.value);
    }
    const completed = await post('complete-certificate', 'pollshop');
    expect({ status: completed.status, body: completed.status === 200 ? 'ok' : completed.body }).toEqual({ status: 200, body: 'ok' });
    expect(completed.body).toMatchObject({ aliases: [host], next_remove: [{ type: 'CNAME', host: 'shop', value: 'stores.platform.test', ttl: 300 }], next_skipped: [] });
    const cdn = String((await getContainer().aiSites.get('pollshop'))?.cdnDomain);
    expect(completed.body.next_records[0]).toEqual({ type: 'CNAME', host: 'shop', value: cdn, ttl: 300 });

    dns.set(host, 'CNAME', cdn);
    const verifyCalls = () => webmaster.requests.filter((r) => r.path.endsWith('/webResource')).length;
    const before = { calls: verifyCalls(), sitemaps: webmaster.sitemaps.length };
    // A double-click: two switches at once, one wins, the other is told so (409).
    const both = await Promise.all([postBody('mark-step-complete', { step: 2 }, 'pollshop'), postBody('mark-step-complete', { step: 2 }, 'pollshop')]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    const res = both.find((r) => r.status === 200)!;
    expect(res.body).toMatchObject({ store_origin: 'https://stores.platform.test', public_origin: `https://${host}`, google_verification_status: 'PENDING' });
    await finished(res.body.execution_id);

    const site = await getContainer().aiSites.get('pollshop');
    expect(site).toMatchObject({ proxyStatus: 'DEPLOYED', googleVerificationStatus: 'VERIFIED', webmasterVerified: true, webmasterSiteUrl: `sc-domain:${zone}` });
    expect(verifyCalls() - before.calls).toBe(1);
    expect(webmaster.sitemaps.slice(before.sitemaps)).toEqual([expect.objectContaining({ siteUrl: `sc-domain:${zone}`, feedpath: `https://${host}/sitemap.xml` })]);
  }, 90_000);
});

function send(port: number, path: string, host: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'GET', headers: { Host: host } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}
