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
import { ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { createCdnDistribution } from '../../functions/app/cdn';
import { createDocumentClient } from '../../functions/adapters/dynamodb/client';
import { keys } from '../../functions/adapters/dynamodb/keys';
import { getContainer } from '../../functions/container';
import { startDnsTestServer, type DnsTestServer } from '../../functions/local/dns-test-server';
import { pebbleAvailable, startPebble, type PebbleServer } from '../support/pebble';
import { startTestStack, type TestStack } from '../support/stack';

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
      },
    });
    store = createServer((req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(`store ${req.method} ${req.url} host=${req.headers.host}`);
    });
    await new Promise<void>((resolve) => store.listen(0, '127.0.0.1', resolve));
    storeOrigin = `http://127.0.0.1:${(store.address() as AddressInfo).port}`;

    stack = await startTestStack({
      LOG_LEVEL: 'warn',
      ACME_DIRECTORY_URL: pebble.directoryUrl,
      ACME_CA_BUNDLE: pebble.caFile,
      ACME_ACCOUNT_EMAIL: 'certs@shop.example.test',
      DNS_RESOLVERS: dns.endpoint,
    });
    for (const [org, name] of [[ORG, 'Cert Shop'], ['ipshop', 'IP Shop'], ['other', 'Other Shop'], ['caashop', 'CAA Shop'], ['apexshop', 'Apex Shop']]) {
      const created = await stack.call('POST', '/api/business', { token: await token(org), body: { name, url: storeOrigin } });
      expect(created.status).toBe(201);
    }
    const container = getContainer();
    await createCdnDistribution(container, ORG); // onboarding step 1f
    for (const org of ['ipshop', 'caashop', 'apexshop']) await createCdnDistribution(container, org);
    // The stand-in: the business's URL is its own domain (see the header).
    const db = createDocumentClient({ region: stack.config.region, endpoint: stack.config.dynamodbEndpoint });
    for (const [org, host, domain] of [[ORG, WWW, ZONE], ['caashop', 'www.blocked.test', 'blocked.test'], ['apexshop', 'apex.test', 'apex.test']]) {
      await db.send(new UpdateCommand({
        TableName: stack.config.tableName, Key: keys.business(org),
        UpdateExpression: 'SET #url = :url, #domain = :domain',
        ExpressionAttributeNames: { '#url': 'url', '#domain': 'domain' },
        ExpressionAttributeValues: { ':url': `https://${host}/`, ':domain': domain },
      }));
    }
  }, 90_000);

  afterAll(async () => {
    Object.assign(acmeSettings, retries);
    await stack?.close();
    await dns?.close();
    await pebble?.stop();
    if (store) await new Promise<void>((resolve) => { store.closeAllConnections(); store.close(() => resolve()); });
  });

  let startExecution = '';
  let records: { type: string; host: string; value: string; ttl: number }[] = [];

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

  test('start-certificate: one order for www + naked domain, the TXT records, SSL_VALIDATING, originals captured', async () => {
    const res = await post('start-certificate');
    expect({ status: res.status, body: res.status === 200 ? 'ok' : res.body }).toEqual({ status: 200, body: 'ok' });
    expect(res.body).toMatchObject({
      status: 'success', proxy_status: 'SSL_VALIDATING', custom_domain: WWW, naked_domain: ZONE, domain_type: 'www',
      note: expect.stringContaining('webmaster verification is not wired yet'), execution_id: expect.any(String),
    });
    records = res.body.records;
    expect(records.map((r) => r.host).sort()).toEqual(['_acme-challenge', '_acme-challenge.www']);
    for (const r of records) expect(r).toEqual({ type: 'TXT', host: r.host, value: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), ttl: expect.any(Number) });
    startExecution = res.body.execution_id;

    const site = await getContainer().aiSites.get(ORG);
    expect(site).toMatchObject({
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
    expect(back.body).toMatchObject({ status: 'success', proxy_status: 'SSL_VALIDATING', records });
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
    for (const r of records) {
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
