/**
 * Delegated DNS-01 end to end (issue 37 part 3; D203): with ACME_DNS_ZONE_ID/ACME_DNS_ZONE_NAME
 * set and ROUTE53_ENDPOINT at the local Route 53 fake, the customer adds one CNAME per name
 * once, and every certificate after that (the first, and a new one after the kept one expired)
 * is issued by Pebble through the API with no DNS step of theirs: the service writes each
 * challenge TXT through the official Route 53 SDK and removes it after the order.
 *
 * Two DNS servers, as in domain-certificate.test.ts: the service checks the customer's records
 * on a local authoritative test server (DNS_RESOLVERS); Pebble validates through
 * pebble-challtestsrv. The customer's CNAMEs go into both; the Route 53 fake mirrors its zone
 * into challtestsrv (what Route 53's own servers are to a real CA). The business URL is set in
 * the table directly (no public DNS here), the one stand-in.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as acme from 'acme-client';
import { createCdnDistribution } from '../../functions/app/domain/cdn';
import { getContainer } from '../../functions/container';
import { delegatedChallengeName } from '../../functions/core/domain/delegation';
import { startDnsTestServer, type DnsTestServer } from '../../functions/local/fakes/dns-server';
import { startRoute53Fake, type FakeRecordSet, type Route53Fake } from '../../functions/local/fakes/route53';
import type { LocalWorkflows } from '../../functions/local/runtime/workflow-runner';
import { setBusinessDomain } from '../support/business-domain';
import { pebbleAvailable, startPebble, type PebbleServer } from '../support/pebble';
import { startTestStack, type TestStack } from '../support/stack';

const describeWithPebble = pebbleAvailable ? describe : describe.skip;

const ZONE_ID = 'Z0ACMEDELEGATED1';
const ACME_ZONE = 'acme-zone.test';
const DOMAIN = 'deleg.test';
const WWW = `www.${DOMAIN}`;
const ORG = 'delegshop';

describeWithPebble('delegated DNS-01 through the API: one CNAME per name, then no DNS step', () => {
  let pebble: PebbleServer;
  let dns: DnsTestServer;
  let route53: Route53Fake;
  let stack: TestStack;
  let store: Server;
  /** Every record set the service wrote in its zone, in order (values empty once deleted). */
  const changes: FakeRecordSet[] = [];
  let clockOffsetMs = 0;
  const acmeSettings = (acme.axios.defaults as unknown as { acmeSettings: Record<string, number> }).acmeSettings;
  const retries = { ...acmeSettings };

  const post = async (op: string) => stack.call('POST', `/api/domain/${op}/${ORG}`, { token: await stack.token(ORG) });
  const site = async () => (await getContainer().aiSites.get(ORG)) as Record<string, unknown>;
  const delegated = (name: string) => delegatedChallengeName(ORG, name, ACME_ZONE);
  const ok = (res: { status: number; body: unknown }) => ({ status: res.status, body: res.status === 200 ? 'ok' : res.body });

  beforeAll(async () => {
    Object.assign(acmeSettings, { retryMaxAttempts: 1, retryDefaultDelay: 1 });
    pebble = await startPebble();
    route53 = await startRoute53Fake({
      zones: { [ZONE_ID]: ACME_ZONE },
      onChange: async (_zone, set) => {
        changes.push(set);
        await pebble.clearTxt(set.name);
        for (const value of set.values) await pebble.setTxt(set.name, value.slice(1, -1));
      },
    });
    dns = await startDnsTestServer({ zones: ['test'], records: { [DOMAIN]: { A: ['203.0.113.20'] }, [WWW]: { CNAME: 'shops.myshopify.com' } } });
    stack = await startTestStack({
      LOG_LEVEL: 'warn',
      ACME_DIRECTORY_URL: pebble.directoryUrl,
      ACME_CA_BUNDLE: pebble.caFile,
      DNS_RESOLVERS: dns.endpoint,
      ACME_DNS_ZONE_ID: ZONE_ID,
      ACME_DNS_ZONE_NAME: ACME_ZONE,
      ROUTE53_ENDPOINT: route53.url,
      INDEXNOW_ENDPOINT: 'http://127.0.0.1:9/',
      VERIFICATION_POLL_SECONDS: '0',
      NATIVE_CERTIFICATE_WAIT_SECONDS: '0',
    }, { clock: { now: () => new Date(Date.now() + clockOffsetMs) } });
    // The onboarding checks need a reachable store.
    store = createServer((_req, res) => res.end('store'));
    await new Promise<void>((resolve) => store.listen(0, '127.0.0.1', resolve));
    const storeOrigin = `http://127.0.0.1:${(store.address() as AddressInfo).port}`;
    expect((await stack.call('POST', '/api/business', { token: await stack.token(ORG), body: { name: 'Delegated Shop', url: storeOrigin } })).status).toBe(201);
    await createCdnDistribution(getContainer(), ORG);
    await setBusinessDomain(stack, ORG, WWW, DOMAIN);
  }, 90_000);

  afterAll(async () => {
    Object.assign(acmeSettings, retries);
    await stack?.close();
    await route53?.close();
    await dns?.close();
    await pebble?.stop();
    if (store) await new Promise<void>((resolve) => { store.closeAllConnections(); store.close(() => resolve()); });
  });

  test('start-certificate asks for one CNAME per name, stable for the organization, instead of the TXT records', async () => {
    const res = await post('start-certificate');
    expect(ok(res)).toEqual({ status: 200, body: 'ok' });
    expect(res.body).toMatchObject({
      proxy_status: 'SSL_VALIDATING', custom_domain: WWW,
      acme_delegation: { status: 'delegated', zone: ACME_ZONE, cnames_in_place: false, txt_written: false, reason: expect.stringContaining('once') },
    });
    expect(res.body.records).toEqual([
      { type: 'CNAME', host: '_acme-challenge.www', value: delegated(WWW), ttl: 300 },
      { type: 'CNAME', host: '_acme-challenge', value: delegated(DOMAIN), ttl: 300 },
    ]);
    expect(delegated(WWW)).toMatch(new RegExp(`^[0-9a-f]{20}\\.${ACME_ZONE.replace('.', '\\.')}$`));
    expect(delegated(WWW)).not.toBe(delegatedChallengeName('another-org', WWW, ACME_ZONE));
    expect(await site()).toMatchObject({
      proxyStatus: 'SSL_VALIDATING',
      acmeDelegation: { zone: ACME_ZONE, names: { [`_acme-challenge.${WWW}`]: delegated(WWW), [`_acme-challenge.${DOMAIN}`]: delegated(DOMAIN) } },
    });
    // Nothing written while the CNAMEs are not there.
    expect(route53.calls().ChangeResourceRecordSets ?? 0).toBe(0);
  }, 60_000);

  test('complete-certificate without the CNAMEs: 409 cname_not_found naming them, nothing written, nothing changed', async () => {
    const before = await site();
    const res = await post('complete-certificate');
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ status: 'error', code: 'cname_not_found', proxy_status: 'SSL_VALIDATING' });
    expect(res.body.error).toContain(`_acme-challenge.${WWW} CNAME ${delegated(WWW)}`);
    expect(res.body.missing.map((m: { host: string; value: string }) => [m.host, m.value]).sort()).toEqual([
      ['_acme-challenge', delegated(DOMAIN)], ['_acme-challenge.www', delegated(WWW)],
    ]);
    expect(route53.calls().ChangeResourceRecordSets ?? 0).toBe(0);
    const after = await site();
    expect(after.proxyStatus).toBe('SSL_VALIDATING');
    expect(after.certTmp).toEqual(before.certTmp);
    expect(after.certificateArn).toBeUndefined();
  }, 60_000);

  let first: { arn: string; notAfter: string };

  test('the customer adds the CNAMEs once; complete-certificate writes the TXTs through Route 53, issues, attaches, removes them', async () => {
    // The customer's one DNS step, seen by the service's checks and by the CA.
    for (const name of [WWW, DOMAIN]) {
      dns.set(`_acme-challenge.${name}`, 'CNAME', delegated(name));
      await pebble.setCname(`_acme-challenge.${name}`, delegated(name));
    }
    const verify = await post('verify-dns');
    expect(verify.body).toMatchObject({ step: 'certificate', all_found: true });
    expect(verify.body.records.map((r: { type: string }) => r.type)).toEqual(['CNAME', 'CNAME']);

    const order = (await site()).certTmp as { challenges: { name: string; keyAuthorization: string }[] };
    const res = await post('complete-certificate');
    expect(ok(res)).toEqual({ status: 200, body: 'ok' });
    expect(res.body).toMatchObject({ proxy_status: 'SSL_VALIDATED', certificate_type: 'FREE_CA', aliases: [WWW, DOMAIN] });
    expect(Date.parse(res.body.not_after)).toBeGreaterThan(Date.now());
    first = { arn: res.body.certificate_arn, notAfter: res.body.not_after };
    expect(await site()).toMatchObject({ proxyStatus: 'SSL_VALIDATED', certificateType: 'FREE_CA', certificateNotAfter: res.body.not_after, certTmp: null });

    // Each name's key authorization was written at its delegated name, then removed.
    for (const c of order.challenges) {
      expect(changes).toContainEqual({ name: `${delegated(c.name)}.`, type: 'TXT', ttl: 60, values: [`"${c.keyAuthorization}"`] });
      expect(changes).toContainEqual({ name: `${delegated(c.name)}.`, type: 'TXT', ttl: 60, values: [] });
    }
    expect(route53.recordSets(ZONE_ID)).toEqual([]);
    expect(route53.calls().GetChange).toBeGreaterThanOrEqual(2);
  }, 90_000);

  const postBody = async (op: string, body: unknown) => stack.call('POST', `/api/domain/${op}/${ORG}`, { token: await stack.token(ORG), body });
  const finished = (executionId: string) => (getContainer().workflows as LocalWorkflows).finished(executionId);

  test('connected, then disconnected (the certificate stays)', async () => {
    const cdnDomain = String((await site()).cdnDomain);
    dns.set(WWW, 'CNAME', cdnDomain);
    const connected = await postBody('mark-step-complete', { step: 2 });
    expect(ok(connected)).toEqual({ status: 200, body: 'ok' });
    await finished(connected.body.execution_id);
    dns.set(WWW, 'CNAME', 'shops.myshopify.com');
    const disconnected = await post('mark-disconnect-complete');
    expect(ok(disconnected)).toEqual({ status: 200, body: 'ok' });
    expect(await site()).toMatchObject({ proxyStatus: 'DISCONNECTED', certificateType: 'FREE_CA', certificateArn: first.arn });
  }, 120_000);

  test('reconnect after the certificate expired: start-certificate writes the TXTs at once, complete-certificate issues with no DNS step', async () => {
    clockOffsetMs = Date.parse(first.notAfter) - Date.now() + 24 * 3600_000;
    try {
      const writesBefore = route53.calls().ChangeResourceRecordSets;
      const start = await post('start-certificate');
      expect(ok(start)).toEqual({ status: 200, body: 'ok' });
      expect(start.body).toMatchObject({
        proxy_status: 'SSL_VALIDATING',
        acme_delegation: { status: 'delegated', cnames_in_place: true, txt_written: true, reason: expect.stringContaining('no DNS step') },
        records: expect.arrayContaining([{ type: 'CNAME', host: '_acme-challenge.www', value: delegated(WWW), ttl: 300 }]),
      });
      const order = (await site()).certTmp as { challenges: { name: string; keyAuthorization: string }[] };
      // Written by start, for this order: in the zone now.
      expect(route53.recordSets(ZONE_ID).map((s) => [s.name, s.values]).sort()).toEqual(
        order.challenges.map((c) => [`${delegated(c.name)}.`, [`"${c.keyAuthorization}"`]]).sort(),
      );

      const res = await post('complete-certificate');
      expect(ok(res)).toEqual({ status: 200, body: 'ok' });
      expect(res.body).toMatchObject({ proxy_status: 'SSL_VALIDATED', certificate_type: 'FREE_CA', aliases: [WWW, DOMAIN] });
      expect(Date.parse(res.body.not_after)).toBeGreaterThanOrEqual(Date.parse(first.notAfter));
      expect(await site()).toMatchObject({ proxyStatus: 'SSL_VALIDATED', certificateNotAfter: res.body.not_after, certTmp: null });
      expect(route53.recordSets(ZONE_ID)).toEqual([]);
      // Start wrote both names, complete wrote them again (a repeat is the same UPSERT) and removed them.
      expect(route53.calls().ChangeResourceRecordSets - writesBefore).toBeGreaterThanOrEqual(6);
    } finally {
      clockOffsetMs = 0;
    }
  }, 90_000);
});
