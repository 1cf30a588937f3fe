/** The local CDN stand-in: CloudFront-like ids and domains, idempotent creates, host lookup. */
import { createLocalCdn, localDistributionDomain, localDistributionId, type LocalCdnRegistry } from '../../functions/adapters/local/local-cdn';
import { loadConfig } from '../../functions/config';
import type { DistributionRoute } from '../../functions/core/proxy/types';
import { createCdnEngine, edgeFunctionVersionArnOf } from '../../functions/engines/cdn';

function registry(routes: Record<string, DistributionRoute> = {}): LocalCdnRegistry & { asked: string[] } {
  const asked: string[] = [];
  return { asked, findByDomain: async (domain) => { asked.push(domain); return routes[domain] ?? null; } };
}

const INPUT = { orgSlug: 'demo-store', storeOrigin: 'http://127.0.0.1:9000', aiSiteHost: 'demo-store.localhost', callerReference: 'ai-visibility-proxy-demo-store' };

test('ids look like CloudFront ids (E + 13 uppercase alphanumerics), domains are <id>.cdn.localhost', async () => {
  const cdn = createLocalCdn(registry());
  const created = await cdn.createDistribution(INPUT);
  expect(created.distributionId).toMatch(/^E[A-Z0-9]{13}$/);
  expect(created.domainName).toBe(`${created.distributionId.toLowerCase()}.cdn.localhost`);
  expect(localDistributionDomain('EABC')).toBe('eabc.cdn.localhost');
});

test('the same caller reference gives the same distribution, another reference another one', async () => {
  const cdn = createLocalCdn(registry());
  const a = await cdn.createDistribution(INPUT);
  expect(await cdn.createDistribution(INPUT)).toEqual(a);
  expect(await createLocalCdn(registry()).createDistribution(INPUT)).toEqual(a);
  const b = await cdn.createDistribution({ ...INPUT, orgSlug: 'other', callerReference: 'ai-visibility-proxy-other' });
  expect(b.distributionId).not.toBe(a.distributionId);
  expect(localDistributionId('x')).toMatch(/^E[A-Z0-9]{13}$/);
});

test('getDistribution: created in this process, found through the registry, or null', async () => {
  const id = localDistributionId('ai-visibility-proxy-indexed');
  const domain = localDistributionDomain(id);
  const reg = registry({ [domain]: { orgSlug: 'indexed', distributionId: id, storeOrigin: 'https://s.example', aiSiteHost: 'indexed.localhost' } });
  const cdn = createLocalCdn(reg);
  const created = await cdn.createDistribution(INPUT);
  await expect(cdn.getDistribution(created.distributionId)).resolves.toEqual({ id: created.distributionId, domainName: created.domainName, status: 'Deployed', aliases: [] });
  await expect(cdn.getDistribution(id)).resolves.toEqual({ id, domainName: domain, status: 'Deployed', aliases: [] });
  await expect(cdn.getDistribution(localDistributionId('unknown'))).resolves.toBeNull();
  await expect(cdn.getDistribution('not-an-id')).resolves.toBeNull();
});

test('resolveHost ignores case and port and answers null for unknown or incomplete entries', async () => {
  const reg = registry({
    'e1.cdn.localhost': { orgSlug: 'demo', distributionId: 'E1', storeOrigin: 'http://127.0.0.1:9000', aiSiteHost: 'demo.localhost' },
    'e2.cdn.localhost': { orgSlug: 'broken', distributionId: 'E2', storeOrigin: '', aiSiteHost: '' },
  });
  const cdn = createLocalCdn(reg);
  await expect(cdn.resolveHost('E1.CDN.localhost:8082')).resolves.toEqual({ orgSlug: 'demo', storeOrigin: 'http://127.0.0.1:9000', aiSiteHost: 'demo.localhost', distributionId: 'E1' });
  await expect(cdn.resolveHost('e2.cdn.localhost')).resolves.toBeNull();
  await expect(cdn.resolveHost('shop.example')).resolves.toBeNull();
  await expect(cdn.resolveHost('')).resolves.toBeNull();
  expect(reg.asked).toEqual(['e1.cdn.localhost', 'e2.cdn.localhost', 'shop.example']);
});

describe('engine selection', () => {
  const base = loadConfig({});
  // Engine selection never touches the index; these tests need none.
  const noDistributions = { index: async () => undefined, findOrg: async () => null, indexAlias: async () => undefined };
  test('no edge function version, everything local: the local CDN', () => {
    const local = loadConfig({ DYNAMODB_ENDPOINT: 'http://127.0.0.1:1' });
    expect(edgeFunctionVersionArnOf(local)).toBeUndefined();
    expect(createCdnEngine(local, noDistributions).kind).toBe('local');
    expect(createCdnEngine({ ...local, cdn: { ...local.cdn, edgeFunctionVersionArn: ' ' } }, noDistributions).kind).toBe('local');
  });
  test('no edge function version on AWS: unconfigured, and creating a distribution says why', async () => {
    const engine = createCdnEngine(base, noDistributions);
    expect(engine.kind).toBe('unconfigured');
    await expect(engine.gateway.createDistribution({ orgSlug: 'o', storeOrigin: 'https://s.example', aiSiteHost: 'o.ai.example', callerReference: 'r' }))
      .rejects.toThrow(/EDGE_FUNCTION_VERSION_ARN/);
  });
  test('an edge function version configured: CloudFront', () => {
    const config = { ...base, cdn: { ...base.cdn, edgeFunctionVersionArn: 'arn:aws:lambda:us-east-1:123456789012:function:router:4' } };
    expect(edgeFunctionVersionArnOf(config)).toBe('arn:aws:lambda:us-east-1:123456789012:function:router:4');
    expect(createCdnEngine(config, noDistributions).kind).toBe('cloudfront');
  });
  test('apex gateway addresses come from the comma-separated APEX_GATEWAY_IPS setting', () => {
    expect(base.cdn.apexGatewayIps).toEqual([]);
    expect(loadConfig({ APEX_GATEWAY_IPS: ' 75.2.60.5, 99.83.190.102 ' }).cdn.apexGatewayIps).toEqual(['75.2.60.5', '99.83.190.102']);
  });
});

test('attachCertificate: indexes each alias with the distribution\'s route, remembers aliases; an unknown distribution is refused', async () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const acme = require('acme-client') as typeof import('acme-client');
  const key = await acme.crypto.createPrivateEcdsaKey();
  const [, cert] = await acme.crypto.createAlpnCertificate({ identifier: { type: 'dns', value: 'www.shop.example' } } as never, 'x', key);
  const id = localDistributionId(INPUT.callerReference);
  const route: DistributionRoute = { orgSlug: 'demo-store', distributionId: id, storeOrigin: INPUT.storeOrigin, aiSiteHost: INPUT.aiSiteHost };
  const indexed: [DistributionRoute, string][] = [];
  const reg = { ...registry({ [localDistributionDomain(id)]: route }), indexAlias: async (r: DistributionRoute, d: string) => { indexed.push([r, d]); } };
  const cdn = createLocalCdn(reg);
  const certificate = { certificatePem: cert.toString(), chainPem: '', privateKeyPem: key.toString(), notAfter: '2027-01-01T00:00:00.000Z' };
  const attached = await cdn.attachCertificate(id, { aliases: ['WWW.shop.example', 'shop.example.'], certificate });
  expect(attached).toEqual({ certificateArn: expect.stringMatching(new RegExp(`^local:${id}:[0-9a-f]+$`)), aliases: ['www.shop.example', 'shop.example'], notAfter: certificate.notAfter });
  expect(indexed).toEqual([[route, 'www.shop.example'], [route, 'shop.example']]);
  expect((await cdn.getDistribution(id))?.aliases).toEqual(['www.shop.example', 'shop.example']);
  await expect(cdn.attachCertificate('EAAAAAAAAAAAAA', { aliases: ['x.example'], certificate })).rejects.toThrow(/no local distribution/);
});
