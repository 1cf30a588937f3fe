/**
 * `republishUnder` (app/domain/context.ts) on a failed redeploy, through the real routes:
 * `POST /api/domain/mark-step-complete/{org_id}` `{step: 2}` (domain-connect workflow) and
 * `POST /api/domain/mark-disconnect-complete/{org_id}` (domain-disconnect workflow), on the
 * local runtime (embedded database, local workflow runner, local CDN gateway, file site store),
 * DNS answered by a local authoritative test server (DNS_RESOLVERS).
 *
 * The failure is injected at the site store's boundary: the real store's `publish` throws
 * once when asked to (in this process's container, so the workflow tasks run in process). What the code restores on that failure is the record's `publicOrigin`
 * (to what it was before the operation); the release, its published origin and the other
 * record fields were never written, since the redeploy stopped before its record patch. The
 * store origin re-pointed by connect (step 2, before the redeploy) is not undone: DNS already
 * points at the proxy, so the record keeps naming the origin the distribution really has.
 * A retry of the operation then succeeds. The last two tests show a failure after the store's
 * publish: the recorded release is made current again (found by this file, fixed in republishUnder).
 *
 * The given (instead of running Part 1 against an ACME server): the business's URL is set to
 * its own domain in the table (this machine has no public DNS; the same stand-in as
 * domain-certificate.test.ts), and its AI-site record is given what complete-certificate
 * leaves (the analysis fields, the records captured live from the test DNS server, a FREE_CA
 * certificate, SSL_VALIDATED), through the repository.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createCdnDistribution } from '../../functions/app/domain/cdn';
import { getContainer } from '../../functions/container';
import { analysisFields, analyzeDomain, namesToCapture, originalFields } from '../../functions/core/domain/analysis';
import type { CapturedByName } from '../../functions/core/domain/records';
import { PUBLIC_ORIGIN_TOKEN } from '../../functions/core/site/paths';
import { cdnOf } from '../../functions/engines/cdn';
import { dnsCheckerOf } from '../../functions/engines/dns';
import { startDnsTestServer, type DnsTestServer } from '../../functions/local/fakes/dns-server';
import { startIndexNowFake, type IndexNowFake } from '../../functions/local/fakes/indexnow';
import type { LocalWorkflows } from '../../functions/local/runtime/workflow-runner';
import type { SiteStore } from '../../functions/ports';
import { setBusinessDomain } from '../support/business-domain';
import { DEV_API_KEY, startTestStack, type TestStack } from '../support/stack';

const ZONE = 'restore.test';
const WWW = `www.${ZONE}`;
const CUSTOM_ORIGIN = `https://${WWW}`;
const ORG = 'restoreshop';
const STORE_HOST = 'shops.myshopify.com';

describe('republishUnder: a failed redeploy during connect / disconnect restores the previous public origin; a retry succeeds', () => {
  let dns: DnsTestServer;
  let indexNow: IndexNowFake;
  let store: Server;
  let stack: TestStack;
  /** How many of the next site-store publishes fail (the injected fault). */
  let failingPublishes = 0;
  const publishAttempts: string[] = [];
  let aiOrigin = '';
  let cdnDomain = '';

  const post = async (op: string, body?: unknown) => stack.call('POST', `/api/domain/${op}/${ORG}`, { token: await stack.token(ORG), body });
  const finished = (executionId: string) => (getContainer().workflows as LocalWorkflows).finished(executionId);
  const record = async () => (await getContainer().aiSites.get(ORG)) as Record<string, unknown>;
  /** The live release's sitemap (what the site serves). */
  const liveSitemap = async () => {
    const live = await getContainer().siteStore.readCurrent(ORG);
    return { releaseId: live?.releaseId, sitemap: live?.files.find((f) => f.path === '/sitemap.xml')?.content ?? '' };
  };
  /** The fields the redeploy and the restore touch, plus the connection state. */
  const snapshot = (site: Record<string, unknown>) => ({
    proxyStatus: site.proxyStatus,
    publicOrigin: site.publicOrigin ?? null,
    publishedOrigin: site.publishedOrigin,
    releaseId: site.releaseId,
    fileCount: site.fileCount,
    deployedAt: site.deployedAt,
    deploymentUrl: site.deploymentUrl,
  });

  beforeAll(async () => {
    dns = await startDnsTestServer({
      zones: ['test'],
      records: { [ZONE]: { A: ['203.0.113.10'] }, [WWW]: { CNAME: STORE_HOST } },
    });
    indexNow = await startIndexNowFake({ checkKey: false });
    store = createServer((_req, res) => { res.writeHead(200, { 'Content-Type': 'text/html' }); res.end('store'); });
    await new Promise<void>((resolve) => store.listen(0, '127.0.0.1', resolve));
    stack = await startTestStack({
      LOG_LEVEL: 'warn',
      DNS_RESOLVERS: dns.endpoint,
      INDEXNOW_ENDPOINT: indexNow.url,
      VERIFICATION_POLL_SECONDS: '0',
      NATIVE_CERTIFICATE_WAIT_SECONDS: '0',
    }, { tasksInProcess: true });

    // The fault: the real site store, whose publish throws while `failingPublishes` > 0.
    const siteStore: SiteStore = getContainer().siteStore;
    const realPublish = siteStore.publish.bind(siteStore);
    siteStore.publish = async (orgSlug, files) => {
      publishAttempts.push(orgSlug);
      if (failingPublishes > 0) {
        failingPublishes--;
        throw new Error('injected: the site store is unavailable');
      }
      return realPublish(orgSlug, files);
    };

    const storeOrigin = `http://127.0.0.1:${(store.address() as AddressInfo).port}`;
    const created = await stack.call('POST', '/api/business', { token: await stack.token(ORG), body: { name: 'Restore Shop', url: storeOrigin } });
    expect(created.status).toBe(201);
    const container = getContainer();
    await createCdnDistribution(container, ORG); // onboarding step 1f

    // The stand-in: the business's URL is its own domain.
    await setBusinessDomain(stack, ORG, WWW, ZONE);

    // What Part 1 leaves: the analysis, the original records (captured live), a valid free certificate, SSL_VALIDATED.
    const analyzed = analyzeDomain(`https://${WWW}/`, { apexGatewayIps: container.config.cdn.apexGatewayIps });
    if (!analyzed.ok) throw new Error(analyzed.reason);
    const { analysis } = analyzed;
    const captured: CapturedByName = {};
    for (const name of namesToCapture(analysis)) captured[name] = await dnsCheckerOf(container).captureRecords(name);
    expect(captured[WWW]?.CNAME).toBe(STORE_HOST);
    const business = await container.businesses.get(ORG);
    await container.aiSites.patch(ORG, business!.id, {
      ...analysisFields(analysis),
      ...originalFields(analysis, captured),
      domainConnectionType: analysis.type,
      certificateNames: analysis.certificateNames,
      capturedRecords: captured,
      certTmp: null,
      certificateArn: 'local:restore:free-ca',
      certificateType: 'FREE_CA',
      certificateNotAfter: new Date(container.clock.now().getTime() + 60 * 86_400_000).toISOString(),
      certificateAliases: analysis.certificateNames,
      proxyStatus: 'SSL_VALIDATED',
    });

    // The AI site, published on the AI-site host.
    const deployed = await stack.call('POST', '/api/cron/deploy-site', {
      apiKey: DEV_API_KEY,
      body: {
        business_id: ORG,
        files: [
          { path: '/ai/products/mug/index.html', content: `<!doctype html><html><head><title>Mug</title><link rel="canonical" href="${PUBLIC_ORIGIN_TOKEN}/ai/products/mug/"></head><body>Mug</body></html>` },
          { path: '/llms.txt', content: `# Restore Shop\n\n- [Mug](${PUBLIC_ORIGIN_TOKEN}/ai/products/mug/)\n` },
        ],
      },
    });
    expect(deployed.status).toBe(200);
    const site = await record();
    aiOrigin = String(site.deploymentUrl);
    cdnDomain = String(site.cdnDomain);
    expect(site.publishedOrigin).toBe(aiOrigin);
    expect((await liveSitemap()).sitemap).toContain(`${aiOrigin}/ai/products/mug/`);

    // The customer switched DNS (Part 2's record): www → the distribution.
    dns.set(WWW, 'CNAME', cdnDomain);
  }, 60_000);

  afterAll(async () => {
    await stack?.close();
    await indexNow?.close();
    await dns?.close();
    if (store) await new Promise<void>((resolve) => { store.closeAllConnections(); store.close(() => resolve()); });
  });

  let beforeConnect: ReturnType<typeof snapshot>;

  test('connect: the redeploy under the custom domain fails → 500, the public origin goes back (none), the live release and its record untouched, still SSL_VALIDATED', async () => {
    const before = await record();
    beforeConnect = snapshot(before);
    expect(beforeConnect).toMatchObject({ proxyStatus: 'SSL_VALIDATED', publicOrigin: null, publishedOrigin: aiOrigin, releaseId: expect.any(String) });
    const liveBefore = await liveSitemap();

    failingPublishes = 1;
    const attempts = publishAttempts.length;
    const res = await post('mark-step-complete', { step: 2 });
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ status: 'error', org_slug: ORG, error: expect.stringContaining('injected: the site store is unavailable') });
    expect(publishAttempts.length - attempts).toBe(1); // the redeploy did run, and failed
    expect(failingPublishes).toBe(0);
    await finished(res.body.execution_id);

    // Restored: the record names the origin the published files do.
    const after = await record();
    expect(snapshot(after)).toEqual(beforeConnect);
    expect(after.publicOrigin).toBeNull(); // there was none: put back as none (the AI-site host)
    expect(after.connectedAt).toBeUndefined();
    expect(after.domainConnectExecution).toBeUndefined();
    const liveAfter = await liveSitemap();
    expect(liveAfter).toEqual(liveBefore);
    expect(liveAfter.releaseId).toBe(beforeConnect.releaseId);
    expect(liveAfter.sitemap).not.toContain(CUSTOM_ORIGIN);

    // Not restored on purpose: the store origin moved off the customer's domain (DNS points at
    // the proxy already); the record still names what the distribution really has.
    expect(after.cdnStoreOrigin).toBe(`https://${STORE_HOST}`);
    await expect(cdnOf(getContainer()).resolveHost(WWW)).resolves.toMatchObject({ orgSlug: ORG, storeOrigin: `https://${STORE_HOST}` });

    // The read-back gives the same failure; get-proxy still offers the connection.
    const back = await stack.call('GET', `/api/domain/mark-step-complete/${ORG}/${res.body.execution_id}`, { token: await stack.token(ORG) });
    expect(back.status).toBe(500);
    const proxy = await stack.call('GET', `/api/domain/get-proxy/${ORG}`, { token: await stack.token(ORG) });
    expect(proxy.body).toMatchObject({ proxy_status: 'SSL_VALIDATED' });
  }, 60_000);

  test('connect retried: DEPLOYED, a new release published under the custom domain and recorded', async () => {
    const res = await post('mark-step-complete', { step: 2 });
    expect({ status: res.status, body: res.status === 200 ? 'ok' : res.body }).toEqual({ status: 200, body: 'ok' });
    expect(res.body).toMatchObject({
      status: 'success', proxy_status: 'DEPLOYED', public_origin: CUSTOM_ORIGIN, previous_public_origin: aiOrigin,
      store_origin: `https://${STORE_HOST}`, redeployed: { release_id: expect.any(String), file_count: expect.any(Number) },
    });
    expect(res.body.redeployed.release_id).not.toBe(beforeConnect.releaseId);
    await finished(res.body.execution_id);

    const site = await record();
    expect(site).toMatchObject({ proxyStatus: 'DEPLOYED', publicOrigin: CUSTOM_ORIGIN, publishedOrigin: CUSTOM_ORIGIN, releaseId: res.body.redeployed.release_id, domainConnectExecution: res.body.execution_id });
    const live = await liveSitemap();
    expect(live.releaseId).toBe(res.body.redeployed.release_id);
    expect(live.sitemap).toContain(`${CUSTOM_ORIGIN}/ai/products/mug/`);
    expect(live.sitemap).not.toContain(aiOrigin);
  }, 60_000);

  let beforeDisconnect: ReturnType<typeof snapshot>;

  test('disconnect: the redeploy back on the AI-site host fails → 500, the custom domain stays the public origin, the live release and its record untouched, still DEPLOYED', async () => {
    beforeDisconnect = snapshot(await record());
    expect(beforeDisconnect).toMatchObject({ proxyStatus: 'DEPLOYED', publicOrigin: CUSTOM_ORIGIN, publishedOrigin: CUSTOM_ORIGIN });
    const liveBefore = await liveSitemap();

    failingPublishes = 1;
    const res = await post('mark-disconnect-complete');
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ status: 'error', org_slug: ORG, error: expect.stringContaining('injected: the site store is unavailable') });
    expect(failingPublishes).toBe(0);
    await finished(res.body.execution_id);

    const after = await record();
    expect(snapshot(after)).toEqual(beforeDisconnect);
    expect(after.disconnectedAt).toBeUndefined();
    expect(after.domainDisconnectExecution).toBeUndefined();
    expect(await liveSitemap()).toEqual(liveBefore);
    expect(liveBefore.sitemap).toContain(CUSTOM_ORIGIN);
  }, 60_000);

  test('disconnect retried: DISCONNECTED, republished on the AI-site host and recorded', async () => {
    const res = await post('mark-disconnect-complete');
    expect({ status: res.status, body: res.status === 200 ? 'ok' : res.body }).toEqual({ status: 200, body: 'ok' });
    expect(res.body).toMatchObject({ status: 'success', proxy_status: 'DISCONNECTED', redeployed: { release_id: expect.any(String) } });
    expect(res.body.redeployed.release_id).not.toBe(beforeDisconnect.releaseId);
    await finished(res.body.execution_id);

    const site = await record();
    expect(site).toMatchObject({ proxyStatus: 'DISCONNECTED', publicOrigin: null, publishedOrigin: aiOrigin, releaseId: res.body.redeployed.release_id });
    const live = await liveSitemap();
    expect(live.sitemap).toContain(`${aiOrigin}/ai/products/mug/`);
    expect(live.sitemap).not.toContain(CUSTOM_ORIGIN);
  }, 60_000);

  test('a reconnect whose redeploy fails is restored the same way (previous origin: none), and its retry reconnects', async () => {
    const before = snapshot(await record());
    failingPublishes = 1;
    const failed = await post('mark-step-complete', { step: 2 });
    expect(failed.status).toBe(500);
    await finished(failed.body.execution_id);
    expect(snapshot(await record())).toEqual(before);
    expect(before).toMatchObject({ proxyStatus: 'DISCONNECTED', publicOrigin: null, publishedOrigin: aiOrigin });

    const res = await post('mark-step-complete', { step: 2 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ proxy_status: 'DEPLOYED', public_origin: CUSTOM_ORIGIN });
    await finished(res.body.execution_id);
    expect(await record()).toMatchObject({ proxyStatus: 'DEPLOYED', publicOrigin: CUSTOM_ORIGIN, publishedOrigin: CUSTOM_ORIGIN });
  }, 60_000);

  // The redeploy can also fail after the store's publish moved the live release (deploySite,
  // app/site/deploy.ts, publishes, then saves the release's digests, then patches the record):
  // the restore puts the previous public origin back on the record but leaves the new release
  // live, so the record names an origin the published files do not. The files kept by the next
  // ordinary deploy (same recorded origin, so nothing is re-pointed) keep the wrong origin.
  let disconnectExecution = '';

  test('disconnect whose redeploy fails after the store published (digests not saved): 500, the record restored (custom domain, still DEPLOYED)', async () => {
    const before = snapshot(await record());
    expect(before).toMatchObject({ proxyStatus: 'DEPLOYED', publicOrigin: CUSTOM_ORIGIN, publishedOrigin: CUSTOM_ORIGIN });
    const artifacts = getContainer().artifacts;
    const realPut = artifacts.put.bind(artifacts);
    let failingDigestSaves = 1;
    artifacts.put = async (key, value) => {
      if (key.includes('site-digests/') && failingDigestSaves > 0) {
        failingDigestSaves--;
        throw new Error('injected: the artifact store is unavailable');
      }
      return realPut(key, value);
    };
    try {
      const res = await post('mark-disconnect-complete');
      expect(res.status).toBe(500);
      expect(res.body).toMatchObject({ status: 'error', error: expect.stringContaining('injected: the artifact store is unavailable') });
      disconnectExecution = res.body.execution_id;
      await finished(disconnectExecution);
    } finally {
      artifacts.put = realPut;
    }
    expect(failingDigestSaves).toBe(0);
    expect(snapshot(await record())).toEqual(before);
  }, 60_000);

  test('after that failure the live release is the recorded one again and names the recorded public origin', async () => {
    expect(disconnectExecution).not.toBe('');
    const site = await record();
    const live = await liveSitemap();
    expect(live.releaseId).toBe(site.releaseId);
    expect(live.sitemap).toContain(`${String(site.publicOrigin)}/ai/products/mug/`);
  });
});
