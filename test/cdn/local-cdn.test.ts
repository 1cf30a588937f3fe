/** The local CDN stand-in: CloudFront-like ids and domains, idempotent creates, host lookup. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { createFsArtifactStore } from '../../functions/adapters/local/fs-artifact-store';
import { createDocumentClient } from '../../functions/adapters/dynamodb/client';
import { createAiSiteRepository } from '../../functions/adapters/dynamodb/ai-site-repo';
import { createDistributionIndex } from '../../functions/adapters/dynamodb/distribution-index';
import {
  createLocalCdn, LOCAL_NATIVE_VALIDITY_DAYS, localDistributionDomain, localDistributionId, localNativeCertificateArn, localValidationRecords,
  type LocalCdnRegistry,
} from '../../functions/adapters/local/local-cdn';
import { loadConfig } from '../../functions/config';
import type { DistributionRoute } from '../../functions/core/proxy/types';
import { createCdnEngine, edgeFunctionVersionArnOf } from '../../functions/engines/cdn';
import { ensureTable, startEmbeddedDatabase, type EmbeddedDatabase } from '../../functions/local/runtime/database';
import { startDnsTestServer } from '../../functions/local/fakes/dns-server';

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
  await expect(cdn.getDistribution(created.distributionId)).resolves.toEqual({ id: created.distributionId, domainName: created.domainName, status: 'Deployed', aliases: [], certificateArn: null, edgeFunctionVersionArn: null });
  await expect(cdn.getDistribution(id)).resolves.toEqual({ id, domainName: domain, status: 'Deployed', aliases: [], certificateArn: null, edgeFunctionVersionArn: null });
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
  const noDistributions = { index: async () => undefined, findOrg: async () => null, indexAlias: async () => undefined, setStoreOrigin: async () => ({ changed: false }) };
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
  test('unconfigured: the domain connection\'s Part 2 operations are refused the same way', async () => {
    const { gateway } = createCdnEngine(base, noDistributions);
    for (const call of [
      () => gateway.setStoreOrigin('E1', 'https://shops.myshopify.com'),
      () => gateway.requestNativeCertificate({ distributionId: 'E1', names: ['www.shop.example'], idempotencyKey: 'k' }),
      () => gateway.describeNativeCertificate('arn:aws:acm:us-east-1:123456789012:certificate/x', ['www.shop.example']),
      () => gateway.useCertificate('E1', 'arn:aws:acm:us-east-1:123456789012:certificate/x'),
    ]) {
      await expect(call()).rejects.toMatchObject({ name: 'ProviderNotConfiguredError', message: expect.stringMatching(/EDGE_FUNCTION_VERSION_ARN/) });
    }
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
  expect(await cdn.getDistribution(id)).toMatchObject({ aliases: ['www.shop.example', 'shop.example'], certificateArn: attached.certificateArn });
  await expect(cdn.attachCertificate('EAAAAAAAAAAAAA', { aliases: ['x.example'], certificate })).rejects.toThrow(/no local distribution/);
});

describe('domain connection Part 2 on the embedded table', () => {
  const TABLE = 'local-cdn-part2-test';
  let database: EmbeddedDatabase;
  let db: ReturnType<typeof createDocumentClient>;
  let distributions: ReturnType<typeof createDistributionIndex>;

  beforeAll(async () => {
    database = await startEmbeddedDatabase();
    await ensureTable(database.endpoint, TABLE);
    db = createDocumentClient({ region: 'us-east-1', endpoint: database.endpoint });
    distributions = createDistributionIndex(db, TABLE);
  });
  afterAll(() => database.close());

  const registryOf = () => ({ findByDomain: distributions.findOrg, indexAlias: distributions.indexAlias, setStoreOrigin: distributions.setStoreOrigin });

  /** What app/domain/cdn.ts records for a business: the AI-site item with the distribution, its domain indexed. */
  async function business(org: string, storeOrigin: string) {
    const id = localDistributionId(`ai-visibility-proxy-${org}`);
    await createAiSiteRepository(db, TABLE, createFsArtifactStore(mkdtempSync(join(tmpdir(), 'ai-site-fields-')))).patch(org, `entity-${org}`, {
      cdnDistributionId: id, cdnDomain: localDistributionDomain(id), cdnStoreOrigin: storeOrigin, cdnAiSiteHost: `${org}.localhost`,
    } as never);
    await distributions.index(org, localDistributionDomain(id));
    return { id, domain: localDistributionDomain(id), route: { orgSlug: org, distributionId: id, storeOrigin, aiSiteHost: `${org}.localhost` } };
  }

  test('setStoreOrigin: the distribution domain and every alias resolve to the new store origin; idempotent; other organizations untouched', async () => {
    const cdn = createLocalCdn(registryOf());
    const shop = await business('part2shop', 'https://www.part2.example');
    const other = await business('part2other', 'https://www.other.example');
    await distributions.indexAlias(shop.route, 'www.part2.example');
    await distributions.indexAlias(shop.route, 'part2.example');
    await distributions.indexAlias(other.route, 'www.other.example');

    await expect(cdn.setStoreOrigin(shop.id, 'https://Shops.MyShopify.com/')).resolves.toEqual({ storeOrigin: 'https://shops.myshopify.com', changed: true });
    const moved = { orgSlug: 'part2shop', storeOrigin: 'https://shops.myshopify.com', aiSiteHost: 'part2shop.localhost', distributionId: shop.id };
    await expect(cdn.resolveHost(shop.domain)).resolves.toEqual(moved);
    await expect(cdn.resolveHost('WWW.part2.example:443')).resolves.toEqual(moved);
    await expect(cdn.resolveHost('part2.example')).resolves.toEqual(moved);
    await expect(cdn.resolveHost('www.other.example')).resolves.toMatchObject({ orgSlug: 'part2other', storeOrigin: 'https://www.other.example' });
    await expect(cdn.resolveHost(other.domain)).resolves.toMatchObject({ storeOrigin: 'https://www.other.example' });
    // The AI-site record carries it too (what get-proxy and the edge route read).
    const { Item } = await db.send(new GetCommand({ TableName: TABLE, Key: { PK: 'ORG#part2shop', SK: 'AISITE' } }));
    expect(Item?.cdnStoreOrigin).toBe('https://shops.myshopify.com');

    await expect(cdn.setStoreOrigin(shop.id, 'https://shops.myshopify.com')).resolves.toEqual({ storeOrigin: 'https://shops.myshopify.com', changed: false });
    // An alias added after the switch (e.g. a renewal re-indexing) still gets repaired by the next call.
    await distributions.indexAlias({ ...shop.route, storeOrigin: 'https://www.part2.example' }, 'shop.part2.example');
    await expect(cdn.setStoreOrigin(shop.id, 'https://shops.myshopify.com')).resolves.toEqual({ storeOrigin: 'https://shops.myshopify.com', changed: true });
    await expect(cdn.resolveHost('shop.part2.example')).resolves.toEqual(moved);
    // A port is kept, http is accepted locally (loopback stores).
    await expect(cdn.setStoreOrigin(shop.id, 'http://127.0.0.1:9000')).resolves.toEqual({ storeOrigin: 'http://127.0.0.1:9000', changed: true });
    await expect(cdn.resolveHost('part2.example')).resolves.toMatchObject({ storeOrigin: 'http://127.0.0.1:9000' });
  });

  test('setStoreOrigin refuses an origin on the distribution\'s own hosts, a path, an unknown distribution', async () => {
    const cdn = createLocalCdn(registryOf());
    const shop = await business('loopshop', 'https://www.loop.example');
    await distributions.indexAlias(shop.route, 'www.loop.example');
    await expect(cdn.setStoreOrigin(shop.id, 'https://www.loop.example')).rejects.toMatchObject({ name: 'ValidationError', message: expect.stringMatching(/loop/) });
    await expect(cdn.setStoreOrigin(shop.id, `https://${shop.domain}`)).rejects.toMatchObject({ name: 'ValidationError' });
    await expect(cdn.setStoreOrigin(shop.id, 'https://shops.myshopify.com/eu')).rejects.toMatchObject({ name: 'ValidationError' });
    await expect(cdn.setStoreOrigin(shop.id, 'ftp://shops.myshopify.com')).rejects.toMatchObject({ name: 'ValidationError' });
    await expect(cdn.setStoreOrigin(shop.id, 'not a url')).rejects.toMatchObject({ name: 'ValidationError' });
    await expect(cdn.setStoreOrigin(localDistributionId('nobody'), 'https://shops.myshopify.com')).rejects.toThrow(/no local distribution/);
    await expect(cdn.resolveHost('www.loop.example')).resolves.toMatchObject({ storeOrigin: 'https://www.loop.example' });
  });

  test('native certificate: pending until every validation CNAME resolves, then issued for the certificate manager\'s validity', async () => {
    const shop = await business('nativeshop', 'https://www.native.example');
    const dns = new Map<string, string>();
    const asked: string[] = [];
    const now = new Date('2026-11-02T10:00:00.000Z');
    const cdn = createLocalCdn(registryOf(), { lookupCname: async (name) => (asked.push(name), dns.get(name) ?? null), now: () => now });
    const names = ['WWW.native.example.', 'native.example'];

    const { certificateArn } = await cdn.requestNativeCertificate({ distributionId: shop.id, names, idempotencyKey: 'nativeshop:native.example', tags: { org: 'nativeshop' } });
    expect(certificateArn).toMatch(new RegExp(`^local:native:${shop.id}:[0-9a-f]{16}$`));
    expect(certificateArn).toBe(localNativeCertificateArn(shop.id, ['native.example', 'www.native.example']));
    expect((await cdn.requestNativeCertificate({ distributionId: shop.id, names, idempotencyKey: 'again' })).certificateArn).toBe(certificateArn);
    expect((await cdn.requestNativeCertificate({ distributionId: shop.id, names: ['native.example'], idempotencyKey: 'x' })).certificateArn).not.toBe(certificateArn);

    const pending = await cdn.describeNativeCertificate(certificateArn, names);
    expect(pending).toEqual({
      status: 'PENDING_VALIDATION', notAfter: null, reason: expect.stringMatching(/www\.native\.example.*native\.example/),
      validationRecords: [
        { name: expect.stringMatching(/^_[0-9a-f]{32}\.www\.native\.example$/), value: expect.stringMatching(/^_[0-9a-f]{32}\.acm-validations\.localhost$/) },
        { name: expect.stringMatching(/^_[0-9a-f]{32}\.native\.example$/), value: expect.stringMatching(/^_[0-9a-f]{32}\.acm-validations\.localhost$/) },
      ],
    });
    expect(pending.validationRecords).toEqual(localValidationRecords(certificateArn, names));
    expect(asked).toEqual(pending.validationRecords.map((r) => r.name));
    // Deterministic per certificate and name; another certificate has other records.
    expect(localValidationRecords(certificateArn, names)).toEqual(pending.validationRecords);
    expect(localValidationRecords(`${certificateArn.slice(0, -1)}0`, names)[0].name).not.toBe(pending.validationRecords[0].name);

    const [www, apex] = pending.validationRecords;
    dns.set(www.name, `${www.value.toUpperCase()}.`);
    dns.set(apex.name, 'somewhere-else.example');
    await expect(cdn.describeNativeCertificate(certificateArn, names)).resolves.toMatchObject({ status: 'PENDING_VALIDATION', notAfter: null, reason: expect.stringContaining(apex.name) });
    dns.set(apex.name, apex.value);
    const issued = await cdn.describeNativeCertificate(certificateArn, names);
    const notAfter = new Date(now.getTime() + LOCAL_NATIVE_VALIDITY_DAYS * 86_400_000).toISOString();
    expect(issued).toEqual({ status: 'ISSUED', validationRecords: pending.validationRecords, notAfter });
    expect(issued.reason).toBeUndefined();
    // Issued stays issued (the certificate manager keeps an issued certificate when a record goes).
    dns.clear();
    await expect(cdn.describeNativeCertificate(certificateArn, names)).resolves.toMatchObject({ status: 'ISSUED', notAfter });
  });

  test('native certificate: without a DNS lookup it stays pending with a reason; a failed lookup is a reason too; wrong names and unknown ARNs are refused', async () => {
    const shop = await business('nolookup', 'https://www.nolookup.example');
    const names = ['www.nolookup.example'];
    const bare = createLocalCdn(registryOf());
    const { certificateArn } = await bare.requestNativeCertificate({ distributionId: shop.id, names, idempotencyKey: 'k' });
    await expect(bare.describeNativeCertificate(certificateArn, names)).resolves.toEqual({
      status: 'PENDING_VALIDATION', notAfter: null, validationRecords: localValidationRecords(certificateArn, names), reason: expect.stringMatching(/lookupCname/),
    });
    const failing = createLocalCdn(registryOf(), { lookupCname: async () => { throw new Error('DNS CNAME lookup failed (ETIMEOUT)'); } });
    await expect(failing.describeNativeCertificate(certificateArn, names)).resolves.toMatchObject({ status: 'PENDING_VALIDATION', reason: expect.stringMatching(/ETIMEOUT/) });
    await expect(bare.describeNativeCertificate(certificateArn, ['other.example'])).rejects.toMatchObject({ name: 'ValidationError' });
    await expect(bare.describeNativeCertificate('arn:aws:acm:us-east-1:123456789012:certificate/x', names)).rejects.toMatchObject({ name: 'ValidationError' });
    await expect(bare.requestNativeCertificate({ distributionId: shop.id, names: [' '], idempotencyKey: 'k' })).rejects.toMatchObject({ name: 'ValidationError' });
    await expect(bare.requestNativeCertificate({ distributionId: localDistributionId('nobody'), names, idempotencyKey: 'k' })).rejects.toThrow(/no local distribution/);
  });

  test('useCertificate: shown by getDistribution, aliases kept; an unknown distribution is refused', async () => {
    const shop = await business('useshop', 'https://www.use.example');
    const cdn = createLocalCdn(registryOf());
    await expect(cdn.getDistribution(shop.id)).resolves.toEqual({ id: shop.id, domainName: shop.domain, status: 'Deployed', aliases: [], certificateArn: null, edgeFunctionVersionArn: null });
    const arn = localNativeCertificateArn(shop.id, ['www.use.example']);
    await cdn.useCertificate(shop.id, arn);
    await expect(cdn.getDistribution(shop.id)).resolves.toEqual({ id: shop.id, domainName: shop.domain, status: 'Deployed', aliases: [], certificateArn: arn, edgeFunctionVersionArn: null });
    await expect(cdn.useCertificate(localDistributionId('nobody'), arn)).rejects.toThrow(/no local distribution/);
  });

  test('useCertificate after attachCertificate keeps the aliases and replaces the imported certificate', async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const acme = require('acme-client') as typeof import('acme-client');
    const key = await acme.crypto.createPrivateEcdsaKey();
    const [, cert] = await acme.crypto.createAlpnCertificate({ identifier: { type: 'dns', value: 'www.swap.example' } } as never, 'x', key);
    const shop = await business('swapshop', 'https://www.swap.example');
    const cdn = createLocalCdn(registryOf());
    const attached = await cdn.attachCertificate(shop.id, { aliases: ['www.swap.example'], certificate: { certificatePem: cert.toString(), chainPem: '', privateKeyPem: key.toString(), notAfter: '2027-01-01T00:00:00.000Z' } });
    await expect(cdn.getDistribution(shop.id)).resolves.toMatchObject({ aliases: ['www.swap.example'], certificateArn: attached.certificateArn });
    const native = localNativeCertificateArn(shop.id, ['www.swap.example']);
    await cdn.useCertificate(shop.id, native);
    await expect(cdn.getDistribution(shop.id)).resolves.toMatchObject({ aliases: ['www.swap.example'], certificateArn: native });
  });

  test('the engine wires the local CDN to the index: setStoreOrigin goes through DistributionIndex.setStoreOrigin', async () => {
    const shop = await business('engineshop', 'https://www.engine.example');
    await distributions.indexAlias(shop.route, 'www.engine.example');
    const engine = createCdnEngine(loadConfig({ DYNAMODB_ENDPOINT: database.endpoint }), distributions);
    expect(engine.kind).toBe('local');
    await expect(engine.gateway.setStoreOrigin(shop.id, 'https://engine.myshopify.com')).resolves.toEqual({ storeOrigin: 'https://engine.myshopify.com', changed: true });
    await expect(engine.resolveHost('www.engine.example')).resolves.toMatchObject({ storeOrigin: 'https://engine.myshopify.com' });
  });

  test('the engine\'s local certificate manager looks the validation CNAMEs up through DNS_RESOLVERS', async () => {
    const shop = await business('dnsshop', 'https://www.dns.example');
    const dns = await startDnsTestServer({ zones: ['dns.example'], records: { 'www.dns.example': { A: ['192.0.2.1'] } } });
    try {
      const engine = createCdnEngine(loadConfig({ DYNAMODB_ENDPOINT: database.endpoint, DNS_RESOLVERS: dns.endpoint }), distributions);
      const names = ['www.dns.example'];
      const { certificateArn } = await engine.gateway.requestNativeCertificate({ distributionId: shop.id, names, idempotencyKey: 'dnsshop' });
      const pending = await engine.gateway.describeNativeCertificate(certificateArn, names);
      expect(pending).toMatchObject({ status: 'PENDING_VALIDATION', notAfter: null });
      const [record] = pending.validationRecords;
      dns.set(record.name, 'CNAME', record.value);
      await expect(engine.gateway.describeNativeCertificate(certificateArn, names)).resolves.toMatchObject({ status: 'ISSUED', notAfter: expect.any(String) });
      expect(dns.queries).toContainEqual({ name: record.name, type: 'CNAME' });
    } finally {
      await dns.close();
    }
  });

  test('DistributionIndex.setStoreOrigin: an organization without an AI-site record is an error', async () => {
    await expect(distributions.setStoreOrigin('no-such-org', 'https://x.example')).rejects.toThrow(/no AI-site record/);
  });
});
