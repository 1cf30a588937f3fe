/**
 * The CDN proxy through the real local stack: onboarding step 1f (createCdnDistribution),
 * GET /api/domain/get-proxy/{org_id} before and after, and the local CDN proxy end to end
 * (a loopback store, the real AI-site host with a deployed site, the real edge function).
 */
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { callerReferenceOf, createCdnDistribution, getProxyInfo } from '../../functions/app/domain/cdn';
import { deploySite } from '../../functions/app/site/deploy';
import type { Config } from '../../functions/config';
import { getContainer } from '../../functions/container';
import { cdnOf } from '../../functions/engines/cdn';
import type { RunningServer } from '../../functions/local/runtime/api-server';
import { startCdnProxy, toOriginRequestEvent } from '../../functions/local/runtime/cdn-proxy';
import { startTestStack, type TestStack } from '../support/stack';


interface StoreHit { method: string; url: string; host: string; aiSiteHost: string | undefined; forwardedFor: string | undefined; body: string }

let stack: TestStack;
let store: Server;
let storeOrigin: string;
const storeHits: StoreHit[] = [];
let proxy: RunningServer;

async function startStore(): Promise<void> {
  store = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      storeHits.push({
        method: req.method ?? '', url: req.url ?? '', host: req.headers.host ?? '',
        aiSiteHost: req.headers['x-ai-site-host'] as string | undefined,
        forwardedFor: req.headers['x-forwarded-for'] as string | undefined, body,
      });
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Set-Cookie': ['a=1', 'b=2'], 'X-Store': 'yes' });
      res.end(`store ${req.method} ${req.url}${body ? ` body=${body}` : ''}`);
    });
  });
  await new Promise<void>((resolve) => store.listen(0, '127.0.0.1', resolve));
  storeOrigin = `http://127.0.0.1:${(store.address() as AddressInfo).port}`;
}

interface Answer { status: number; text: string; headers: IncomingHttpHeaders }

/** A request on loopback with an explicit Host (fetch cannot set Host). */
function send(port: number, path: string, host: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: init.method ?? 'GET', headers: { Host: host, ...init.headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), headers: res.headers }));
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

const NO_PROXY = {
  has_proxy: false, proxy_status: null, cdn_domain: null, distribution_id: null, certificate_arn: null,
  origin_cname: null, original_www_cname: null, custom_domain: null, domain_type: 'subdomain',
  naked_domain: null, subdomain_label: null, original_apex_a_records: [], apex_gateway_ips: null,
  certificate_type: null, certificate_not_after: null, native_certificate_status: null, google_verification_status: null, public_origin: null,
};

beforeAll(async () => {
  stack = await startTestStack({ LOG_LEVEL: 'warn' });
  await startStore();
  for (const [org, name] of [['cdnshop', 'CDN Shop'], ['other', 'Other Shop'], ['retry', 'Retry Shop'], ['apexshop', 'Apex Shop']]) {
    const created = await stack.call('POST', '/api/business', { token: await stack.token(org), body: { name, url: storeOrigin } });
    expect(created.status).toBe(201);
  }
}, 60_000);

afterAll(async () => {
  await proxy?.close();
  await new Promise<void>((resolve) => { store.closeAllConnections(); store.close(() => resolve()); });
  await stack?.close();
});

describe('get-proxy and createCdnDistribution', () => {
  test('before any distribution: has_proxy false, every nullable field null, domain_type subdomain', async () => {
    const res = await stack.call('GET', '/api/domain/get-proxy/cdnshop', { token: await stack.token('cdnshop') });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(NO_PROXY);
  });

  test('another organization gets 403, no token 401, an organization without business 404', async () => {
    const other = await stack.call('GET', '/api/domain/get-proxy/cdnshop', { token: await stack.token('other') });
    expect(other.status).toBe(403);
    expect(other.body).toEqual({ status: 'error', error: expect.any(String) });
    expect((await stack.call('GET', '/api/domain/get-proxy/cdnshop')).status).toBe(401);
    const ghost = await stack.call('GET', '/api/domain/get-proxy/ghost', { token: await stack.token('ghost') });
    expect(ghost.status).toBe(404);
  });

  test('creates one distribution, records it on the AI-site record and indexes its domain; a second call creates nothing', async () => {
    const container = getContainer();
    const first = await createCdnDistribution(container, 'cdnshop');
    // No edge-function version is published yet on this stack: none attached (issue 15).
    expect(first).toEqual({ distributionId: expect.stringMatching(/^E[A-Z0-9]{13}$/), domainName: `${first.distributionId.toLowerCase()}.cdn.localhost`, edgeFunctionVersionArn: null, created: true });
    const again = await createCdnDistribution(container, 'cdnshop');
    expect(again).toEqual({ distributionId: first.distributionId, domainName: first.domainName, created: false });

    const site = await container.aiSites.get('cdnshop');
    expect(site).toMatchObject({
      cdnDistributionId: first.distributionId, cdnDomain: first.domainName, proxyStatus: 'PENDING_VALIDATION',
      cdnStoreOrigin: storeOrigin, cdnAiSiteHost: 'cdnshop.localhost', cdnEdgeFunctionVersionArn: null,
    });
    const cdn = cdnOf(container);
    expect(cdn.kind).toBe('local');
    await expect(cdn.resolveHost(`${first.domainName.toUpperCase()}:8082`)).resolves.toEqual({
      orgSlug: 'cdnshop', storeOrigin, aiSiteHost: 'cdnshop.localhost', distributionId: first.distributionId,
    });
    await expect(cdn.gateway.getDistribution(first.distributionId)).resolves.toMatchObject({ id: first.distributionId, domainName: first.domainName });
  });

  test('after: PENDING_VALIDATION with the distribution id and domain', async () => {
    const site = await getContainer().aiSites.get('cdnshop');
    const res = await stack.call('GET', '/api/domain/get-proxy/cdnshop', { token: await stack.token('cdnshop') });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...NO_PROXY, has_proxy: true, proxy_status: 'PENDING_VALIDATION', cdn_domain: site!.cdnDomain, distribution_id: site!.cdnDistributionId,
    });
  });

  test('a retry after a crash between create and record update gets the first distribution back', async () => {
    const container = getContainer();
    const lost = await cdnOf(container).gateway.createDistribution({
      orgSlug: 'retry', storeOrigin, aiSiteHost: 'retry.localhost', callerReference: callerReferenceOf('retry'),
    });
    expect(await container.aiSites.get('retry')).toBeNull();
    const result = await createCdnDistribution(container, 'retry');
    expect(result).toEqual({ ...lost, created: true });
    expect((await container.aiSites.get('retry'))?.cdnDistributionId).toBe(lost.distributionId);
  });

  test('a business that does not exist is refused', async () => {
    await expect(createCdnDistribution(getContainer(), 'nobody')).rejects.toMatchObject({ name: 'NotFoundError' });
  });

  test('apex and subdomain connections map to the spec fields', async () => {
    const container = getContainer();
    const created = await createCdnDistribution(container, 'apexshop');
    const business = await container.businesses.get('apexshop');
    await container.aiSites.patch('apexshop', business!.id, {
      proxyStatus: 'DEPLOYED', customDomain: 'apexshop.example', domainType: 'apex', nakedDomain: 'apexshop.example', subdomainLabel: '@',
      originCname: '23.227.38.65', originalWwwCname: 'shops.myshopify.com', originalApexARecords: ['23.227.38.65'],
      certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/abc', certificateType: 'NATIVE',
    });
    const withIps = { ...container, config: { ...container.config, cdn: { apexGatewayIps: ['75.2.60.5', '99.83.190.102'] } } as Config };
    expect(await getProxyInfo(withIps, 'apexshop')).toEqual({
      has_proxy: true, proxy_status: 'DEPLOYED', cdn_domain: created.domainName, distribution_id: created.distributionId,
      certificate_arn: 'arn:aws:acm:us-east-1:123456789012:certificate/abc', origin_cname: '23.227.38.65',
      original_www_cname: null, custom_domain: 'apexshop.example', domain_type: 'apex', naked_domain: 'apexshop.example',
      subdomain_label: '@', original_apex_a_records: ['23.227.38.65'], apex_gateway_ips: ['75.2.60.5', '99.83.190.102'],
      certificate_type: 'NATIVE', certificate_not_after: null, native_certificate_status: null, google_verification_status: null, public_origin: null,
    });

    await container.aiSites.patch('apexshop', business!.id, {
      customDomain: 'www.apexshop.example', domainType: 'subdomain', subdomainLabel: 'www', originCname: 'shops.myshopify.com', originalApexARecords: null,
    });
    expect(await getProxyInfo(withIps, 'apexshop')).toMatchObject({
      domain_type: 'subdomain', subdomain_label: 'www', custom_domain: 'www.apexshop.example',
      original_www_cname: 'shops.myshopify.com', original_apex_a_records: [], apex_gateway_ips: null,
    });
  });
});

describe('local CDN proxy, end to end', () => {
  let cdnHost: string;

  beforeAll(async () => {
    const container = getContainer();
    const site = await container.aiSites.get('cdnshop');
    await deploySite(container, {
      orgSlug: 'cdnshop',
      mode: 'replace',
      files: [
        { path: '/llms.txt', content: '# CDN Shop\n\n> AI summary of the shop.\n', contentType: 'text/plain; charset=utf-8' },
        { path: '/llms/a.txt', content: 'product a, AI file\n', contentType: 'text/plain; charset=utf-8' },
        { path: '/x/index.html', content: '<!doctype html><title>X</title><h1>Article X</h1>', contentType: 'text/html; charset=utf-8' },
      ],
    });
    proxy = await startCdnProxy({ resolveHost: cdnOf(container).resolveHost, sitesPort: stack.sites.port, allowPrivateNetwork: true });
    cdnHost = `${site!.cdnDomain}:${proxy.port}`;
  }, 30_000);

  beforeEach(() => { storeHits.length = 0; });

  test.each([
    ['/llms.txt', /^# CDN Shop/],
    ['/ai/x/', /<h1>Article X<\/h1>/],
    ['/robots.txt?x=1', /Sitemap: /],
    ['/sitemap.xml', /<(urlset|sitemapindex)\b/],
    ['/llms/a.txt', /^product a, AI file/],
    ['/ai', /<html|<!doctype/i],
  ])('%s is served by the AI-site host', async (path, body) => {
    const res = await send(proxy.port, path, cdnHost);
    expect(res.status).toBe(200);
    expect(res.headers['x-edge-route']).toBe('ai');
    expect(res.text).toMatch(body);
    expect(storeHits).toEqual([]);
  });

  test.each(['/', '/products/x?variant=2', '/llms.txt.bak', '/AI/x', '/%61i/x', '/LLMS.TXT'])('%s goes to the store with its own host, the custom header and the query string', async (path) => {
    const res = await send(proxy.port, path, cdnHost);
    expect(res.status).toBe(200);
    expect(res.headers['x-edge-route']).toBe('store');
    expect(res.headers['x-store']).toBe('yes');
    expect(res.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    expect(res.text).toBe(`store GET ${path}`);
    expect(storeHits).toEqual([{
      method: 'GET', url: path, host: new URL(storeOrigin).host, aiSiteHost: 'cdnshop.localhost',
      forwardedFor: '127.0.0.1', body: '',
    }]);
  });

  test('the User-Agent changes nothing', async () => {
    for (const ua of ['Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)', 'Mozilla/5.0 (Windows NT 10.0) Chrome/126.0', 'curl/8']) {
      expect((await send(proxy.port, '/llms.txt', cdnHost, { headers: { 'User-Agent': ua } })).headers['x-edge-route']).toBe('ai');
      expect((await send(proxy.port, '/products/x', cdnHost, { headers: { 'User-Agent': ua } })).headers['x-edge-route']).toBe('store');
    }
  });

  test('request bodies stream to the store (a cart POST)', async () => {
    const res = await send(proxy.port, '/cart/add', cdnHost, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'id=1&quantity=2' });
    expect(res.text).toBe('store POST /cart/add body=id=1&quantity=2');
    expect(storeHits[0]).toMatchObject({ method: 'POST', body: 'id=1&quantity=2' });
  });

  test('an unknown host is a clear 404', async () => {
    const res = await send(proxy.port, '/llms.txt', `eunknown.cdn.localhost:${proxy.port}`);
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.text).toMatch(/no CDN distribution serves the host eunknown\.cdn\.localhost/);
    expect(storeHits).toEqual([]);
  });

  test('a store that is down answers 502 on store paths, AI paths still work', async () => {
    const down = await startCdnProxy({
      resolveHost: async () => ({ orgSlug: 'cdnshop', storeOrigin: 'http://127.0.0.1:1', aiSiteHost: 'cdnshop.localhost' }),
      sitesPort: stack.sites.port,
      allowPrivateNetwork: true,
    });
    try {
      const storePath = await send(down.port, '/', 'any.example');
      expect(storePath.status).toBe(502);
      expect(storePath.headers['x-edge-route']).toBe('store');
      expect((await send(down.port, '/llms.txt', 'any.example')).status).toBe(200);
    } finally {
      await down.close();
    }
  });

  test.each([
    ['a loopback store', () => storeOrigin, /127\.0\.0\.1 is not allowed \(loopback\)/],
    ['a metadata address', () => 'http://169.254.169.254', /169\.254\.169\.254 is not allowed/],
    ['a name resolving to loopback', () => 'http://localhost', /localhost resolves to (127\.0\.0\.1|::1) \(loopback\)/],
  ])('without ALLOW_PRIVATE_NETWORK the proxy refuses %s as store origin and never contacts it', async (_what, origin, reason) => {
    const guarded = await startCdnProxy({
      resolveHost: async () => ({ orgSlug: 'cdnshop', storeOrigin: origin(), aiSiteHost: 'cdnshop.localhost' }),
      sitesPort: stack.sites.port,
      allowPrivateNetwork: false,
    });
    try {
      const res = await send(guarded.port, '/products/x', 'any.example');
      expect(res.status).toBe(502);
      expect(res.headers['x-edge-route']).toBe('store');
      expect(res.text).toMatch(reason);
      expect(storeHits).toEqual([]);
      // AI paths go to the AI-site host, which is the service's own origin, not the store.
      expect((await send(guarded.port, '/llms.txt', 'any.example')).status).toBe(200);
    } finally {
      await guarded.close();
    }
  });

  test('the edge function sees a CloudFront origin-request event', async () => {
    let captured: unknown;
    const probe = createServer((req, res) => {
      captured = toOriginRequestEvent(req, { orgSlug: 'cdnshop', storeOrigin: 'https://shop.example', aiSiteHost: 'cdnshop.localhost', distributionId: 'EABCDEFGHIJKLM' }, req.headers.host ?? '');
      res.end();
    });
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    try {
      await send((probe.address() as AddressInfo).port, '/robots.txt?x=1&y=%2F', 'eabcdefghijklm.cdn.localhost:8082', { headers: { 'User-Agent': 'GPTBot', Cookie: 'a=1' } });
    } finally {
      await new Promise<void>((resolve) => probe.close(() => resolve()));
    }
    expect(captured).toEqual({
      Records: [{
        cf: {
          config: { distributionDomainName: 'eabcdefghijklm.cdn.localhost', distributionId: 'EABCDEFGHIJKLM', eventType: 'origin-request', requestId: expect.any(String) },
          request: {
            clientIp: '127.0.0.1',
            method: 'GET',
            uri: '/robots.txt',
            querystring: 'x=1&y=%2F',
            headers: {
              host: [{ key: 'Host', value: 'eabcdefghijklm.cdn.localhost:8082' }],
              'user-agent': [{ key: 'User-Agent', value: 'GPTBot' }],
              cookie: [{ key: 'Cookie', value: 'a=1' }],
              'x-forwarded-for': [{ key: 'X-Forwarded-For', value: '127.0.0.1' }],
              via: [{ key: 'Via', value: expect.stringContaining('(CloudFront)') }],
            },
            origin: {
              custom: {
                customHeaders: { 'x-ai-site-host': [{ key: 'x-ai-site-host', value: 'cdnshop.localhost' }] },
                domainName: 'shop.example', keepaliveTimeout: 5, path: '', port: 443, protocol: 'https', readTimeout: 30, sslProtocols: ['TLSv1.2'],
              },
            },
          },
        },
      }],
    });
  });
});
