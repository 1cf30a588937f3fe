/**
 * The edge-function rollout's local parts (issue 15): the local CDN's `setEdgeFunction` with
 * fault injection, the local publisher (the edge-function source's hash, versions counted in
 * the table) and the version repository on the embedded table (current version, attached
 * versions, lease).
 */
import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDocumentClient } from '../../functions/adapters/dynamodb/client';
import { createAiSiteRepository } from '../../functions/adapters/dynamodb/ai-site-repo';
import { createFsArtifactStore } from '../../functions/adapters/local/fs-artifact-store';
import { createEdgeVersionRepository } from '../../functions/adapters/dynamodb/edge-version-repo';
import { createLocalCdn, localDistributionDomain, localDistributionId } from '../../functions/adapters/local/local-cdn';
import { createLocalEdgePublisher, edgeSourceSha256, LOCAL_EDGE_SOURCE_DIR } from '../../functions/adapters/local/local-edge-publisher';
import type { DistributionRoute } from '../../functions/core/proxy/types';
import { ensureTable, startEmbeddedDatabase, type EmbeddedDatabase } from '../../functions/local/runtime/database';
import { CloudFrontClient, CreateDistributionCommand } from '@aws-sdk/client-cloudfront';
import { GetFunctionCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { loadConfig } from '../../functions/config';
import { createCdnEngine } from '../../functions/engines/cdn';

const V1 = 'local:edge-function:1';
const V2 = 'local:edge-function:2';
const INPUT = { orgSlug: 'edgeshop', storeOrigin: 'http://127.0.0.1:9000', aiSiteHost: 'edgeshop.localhost', callerReference: 'ai-visibility-proxy-edgeshop' };

describe('local CDN: edge-function versions', () => {
  const none = { findByDomain: async (): Promise<DistributionRoute | null> => null };

  test('created with a version: returned, and shown by getDistribution; a repeated create keeps the first version', async () => {
    const cdn = createLocalCdn(none);
    const created = await cdn.createDistribution({ ...INPUT, edgeFunctionVersionArn: V1 });
    expect(created.edgeFunctionVersionArn).toBe(V1);
    await expect(cdn.createDistribution({ ...INPUT, edgeFunctionVersionArn: V2 })).resolves.toMatchObject({ distributionId: created.distributionId, edgeFunctionVersionArn: V1 });
    await expect(cdn.getDistribution(created.distributionId)).resolves.toMatchObject({ edgeFunctionVersionArn: V1 });
    await expect(cdn.createDistribution({ ...INPUT, callerReference: 'other', edgeFunctionVersionArn: 'v1' })).rejects.toMatchObject({ name: 'ValidationError' });
  });

  test('setEdgeFunction moves it (changed, previous), a second time is no change; Lambda versions are accepted, anything else refused', async () => {
    const cdn = createLocalCdn(none);
    const { distributionId } = await cdn.createDistribution({ ...INPUT, edgeFunctionVersionArn: V1 });
    await expect(cdn.setEdgeFunction(distributionId, V2)).resolves.toEqual({ changed: true, previousVersionArn: V1 });
    await expect(cdn.setEdgeFunction(distributionId, V2)).resolves.toEqual({ changed: false, previousVersionArn: V2 });
    await expect(cdn.getDistribution(distributionId)).resolves.toMatchObject({ edgeFunctionVersionArn: V2 });
    const lambdaArn = 'arn:aws:lambda:us-east-1:123456789012:function:router:4';
    await expect(cdn.setEdgeFunction(distributionId, lambdaArn)).resolves.toMatchObject({ changed: true });
    for (const bad of ['local:edge-function:x', 'arn:aws:lambda:us-east-1:123456789012:function:router:$LATEST', '']) {
      await expect(cdn.setEdgeFunction(distributionId, bad)).rejects.toMatchObject({ name: 'ValidationError' });
    }
  });

  test('an unknown distribution is refused; one indexed by the app (another process) is found through the registry', async () => {
    const id = localDistributionId('ai-visibility-proxy-indexed');
    const route = { orgSlug: 'indexed', distributionId: id, storeOrigin: 'http://127.0.0.1:9000', aiSiteHost: 'indexed.localhost' };
    const cdn = createLocalCdn({ findByDomain: async (d) => (d === localDistributionDomain(id) ? route : null) });
    await expect(cdn.setEdgeFunction(localDistributionId('nobody'), V1)).rejects.toThrow(/no local distribution/);
    await expect(cdn.setEdgeFunction(id, V1)).resolves.toEqual({ changed: true, previousVersionArn: null });
  });

  test('fault injection: a distribution in the live set fails with a reason and keeps its version until taken out', async () => {
    const failing = new Set<string>();
    const cdn = createLocalCdn(none, { failEdgeUpdates: failing });
    expect(cdn.edgeUpdateFaults).toBe(failing);
    const a = await cdn.createDistribution({ ...INPUT, edgeFunctionVersionArn: V1 });
    const b = await cdn.createDistribution({ ...INPUT, callerReference: 'ai-visibility-proxy-b', edgeFunctionVersionArn: V1 });
    failing.add(a.distributionId);
    await expect(cdn.setEdgeFunction(a.distributionId, V2)).rejects.toThrow(/refused the update of distribution .*fault injected/);
    await expect(cdn.setEdgeFunction(b.distributionId, V2)).resolves.toMatchObject({ changed: true });
    await expect(cdn.getDistribution(a.distributionId)).resolves.toMatchObject({ edgeFunctionVersionArn: V1 });
    cdn.edgeUpdateFaults.delete(a.distributionId);
    await expect(cdn.setEdgeFunction(a.distributionId, V2)).resolves.toEqual({ changed: true, previousVersionArn: V1 });
  });
});

describe('local edge-function publisher', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'edge-src-'));
    for (const name of readdirSync(LOCAL_EDGE_SOURCE_DIR)) copyFileSync(join(LOCAL_EDGE_SOURCE_DIR, name), join(dir, name));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('the code is the .ts sources: a copy has the repository\'s hash; a change to a source changes it, other files do not', async () => {
    const original = await edgeSourceSha256(LOCAL_EDGE_SOURCE_DIR);
    expect(original).toMatch(/^[0-9a-f]{64}$/);
    await expect(edgeSourceSha256(dir)).resolves.toBe(original);
    writeFileSync(join(dir, 'notes.md'), 'not code');
    writeFileSync(join(dir, 'route.test.ts'), 'a test, not code');
    await expect(edgeSourceSha256(dir)).resolves.toBe(original);
    writeFileSync(join(dir, 'route.ts'), '\n// changed\n', { flag: 'a' });
    await expect(edgeSourceSha256(dir)).resolves.not.toBe(original);
  });

  test('publish numbers versions with the counter; code changed since it was looked at is not published', async () => {
    let n = 0;
    const publisher = createLocalEdgePublisher({ sourceDir: dir, nextVersion: async () => ++n });
    const sha = await publisher.latestCodeSha256();
    await expect(publisher.publish(sha, 'x')).resolves.toEqual({ versionArn: V1, version: '1', codeSha256: sha });
    await expect(publisher.versionCodeSha256(V1)).resolves.toBeNull();
    writeFileSync(join(dir, 'index.ts'), '\n// changed\n', { flag: 'a' });
    await expect(publisher.publish(sha, 'x')).rejects.toThrow(/changed while it was being published/);
    expect(n).toBe(1);
  });

  test('a directory without sources is an error naming it', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'edge-empty-'));
    await expect(edgeSourceSha256(empty)).rejects.toThrow(empty);
    rmSync(empty, { recursive: true, force: true });
  });
});

describe('edge version repository on the embedded table', () => {
  const TABLE = 'edge-versions-test';
  let database: EmbeddedDatabase;
  let repo: ReturnType<typeof createEdgeVersionRepository>;
  let db: ReturnType<typeof createDocumentClient>;

  beforeAll(async () => {
    database = await startEmbeddedDatabase();
    await ensureTable(database.endpoint, TABLE);
    db = createDocumentClient({ region: 'us-east-1', endpoint: database.endpoint });
    repo = createEdgeVersionRepository(db, TABLE);
  });
  afterAll(() => database.close());

  const version = (n: number, sha = `sha-${n}`) => ({ versionArn: `local:edge-function:${n}`, codeSha256: sha, version: String(n), publishedAt: '2026-01-01T00:00:00.000Z', publishedBy: `exec-${n}` });

  test('current: none, then stored; replaced only over the version it replaces (a stale writer gets the winner)', async () => {
    await expect(repo.current()).resolves.toBeNull();
    await expect(repo.saveCurrent(version(1), null)).resolves.toEqual(version(1));
    await expect(repo.current()).resolves.toEqual(version(1));
    await expect(repo.saveCurrent(version(9), null)).resolves.toEqual(version(1));
    await expect(repo.saveCurrent(version(2), V1)).resolves.toEqual(version(2));
    await expect(repo.saveCurrent(version(3), V1)).resolves.toEqual(version(2));
    await expect(repo.current()).resolves.toEqual(version(2));
  });

  test('local version numbers count up from 1', async () => {
    const a = await repo.nextLocalVersion();
    const b = await repo.nextLocalVersion();
    expect([a, b]).toEqual([1, 2]);
  });

  test('distributions with their recorded versions, beyond one batch of 100 keys; organizations without a distribution left out', async () => {
    const sites = createAiSiteRepository(db, TABLE, createFsArtifactStore(mkdtempSync(join(tmpdir(), 'ai-site-fields-'))));
    const slugs = Array.from({ length: 130 }, (_, i) => `org-${String(i).padStart(3, '0')}`);
    for (const [i, slug] of slugs.entries()) {
      const fields = i % 10 === 9 ? {} : { cdnDistributionId: localDistributionId(slug), ...(i % 2 ? { cdnEdgeFunctionVersionArn: V1 } : {}) };
      await sites.patch(slug, `entity-${slug}`, fields as never);
    }
    const found = await repo.distributionsOf([...slugs, 'no-such-org', slugs[0]]);
    expect(found).toHaveLength(117);
    expect(found[0]).toEqual({ orgSlug: 'org-000', distributionId: localDistributionId('org-000'), versionArn: null });
    expect(found[1]).toEqual({ orgSlug: 'org-001', distributionId: localDistributionId('org-001'), versionArn: V1 });
    expect(found.map((f) => f.orgSlug)).not.toContain('org-009');
  });

  test('recordAttached: only while the record names that distribution', async () => {
    const sites = createAiSiteRepository(db, TABLE, createFsArtifactStore(mkdtempSync(join(tmpdir(), 'ai-site-fields-'))));
    await sites.patch('attach', 'entity-attach', { cdnDistributionId: 'EAAAAAAAAAAAAA' } as never);
    await expect(repo.recordAttached('attach', 'EAAAAAAAAAAAAA', V2, '2026-01-02T00:00:00.000Z')).resolves.toBe(true);
    await expect(repo.recordAttached('attach', 'EBBBBBBBBBBBBB', V1, '2026-01-02T00:00:00.000Z')).resolves.toBe(false);
    await expect(repo.recordAttached('nobody', 'EAAAAAAAAAAAAA', V1, '2026-01-02T00:00:00.000Z')).resolves.toBe(false);
    await expect(sites.get('attach')).resolves.toMatchObject({ cdnEdgeFunctionVersionArn: V2, cdnEdgeFunctionAttachedAt: '2026-01-02T00:00:00.000Z' });
  });

  test('lease: one holder; free again when released or expired; taken over only from the holder named', async () => {
    const t0 = new Date('2026-01-01T00:00:00.000Z');
    const later = (s: number) => new Date(t0.getTime() + s * 1000);
    await expect(repo.acquireLease('a', t0, later(60))).resolves.toBe(true);
    await expect(repo.acquireLease('b', later(1), later(61))).resolves.toBe(false);
    await expect(repo.acquireLease('b', later(1), later(61), 'someone-else')).resolves.toBe(false);
    await expect(repo.lease()).resolves.toEqual({ executionId: 'a', acquiredAt: t0.toISOString(), expiresAt: later(60).toISOString() });
    await repo.releaseLease('b'); // not the holder: nothing happens
    await expect(repo.lease()).resolves.toMatchObject({ executionId: 'a' });
    await expect(repo.acquireLease('b', later(2), later(62), 'a')).resolves.toBe(true);
    await expect(repo.acquireLease('c', later(63), later(120))).resolves.toBe(true); // b's lease expired
    await repo.releaseLease('c');
    await expect(repo.lease()).resolves.toBeNull();
    await expect(repo.acquireLease('d', later(64), later(120))).resolves.toBe(true);
    await repo.releaseLease('d');
  });
});

describe('settings and the engine', () => {
  const noDistributions = { index: async () => undefined, findOrg: async () => null, indexAlias: async () => undefined, setStoreOrigin: async () => ({ changed: false }) };
  const ROUTER = 'arn:aws:lambda:us-east-1:123456789012:function:router';

  test('EDGE_ROLLOUT_PAUSE_SECONDS: 1 s by default (spec), 0 allowed, anything else refused; CDN_LOG_BUCKET_DOMAIN and EDGE_FUNCTION_SOURCE_DIR read as given', () => {
    expect(loadConfig({}).cdn).toMatchObject({ rolloutPauseSeconds: 1, logBucketDomain: undefined, edgeFunctionSourceDir: undefined });
    expect(loadConfig({ EDGE_ROLLOUT_PAUSE_SECONDS: '0' }).cdn.rolloutPauseSeconds).toBe(0);
    expect(() => loadConfig({ EDGE_ROLLOUT_PAUSE_SECONDS: '-1' })).toThrow(/EDGE_ROLLOUT_PAUSE_SECONDS/);
    expect(() => loadConfig({ EDGE_ROLLOUT_PAUSE_SECONDS: '0.5' })).toThrow(/EDGE_ROLLOUT_PAUSE_SECONDS/);
    expect(loadConfig({ CDN_LOG_BUCKET_DOMAIN: 'logs.s3.eu-central-1.amazonaws.com', EDGE_FUNCTION_SOURCE_DIR: '/tmp/x' }).cdn)
      .toMatchObject({ logBucketDomain: 'logs.s3.eu-central-1.amazonaws.com', edgeFunctionSourceDir: '/tmp/x' });
  });

  test('CloudFront: new distributions log to CDN_LOG_BUCKET_DOMAIN; the publisher is Lambda in us-east-1 on the function the version setting names', async () => {
    const cf = mockClient(CloudFrontClient);
    const lambda = mockClient(LambdaClient);
    try {
      cf.on(CreateDistributionCommand).resolves({ Distribution: { Id: 'E1', DomainName: 'd1.cloudfront.net' } as never });
      lambda.on(GetFunctionCommand, { FunctionName: ROUTER }).resolves({ Configuration: { CodeSha256: 'latest==' } });
      const config = loadConfig({ EDGE_FUNCTION_VERSION_ARN: `${ROUTER}:4`, CDN_LOG_BUCKET_DOMAIN: 'logs.s3.eu-central-1.amazonaws.com' });
      const engine = createCdnEngine(config, noDistributions);
      expect(engine.kind).toBe('cloudfront');
      await engine.gateway.createDistribution(INPUT);
      expect(cf.commandCalls(CreateDistributionCommand)[0].args[0].input.DistributionConfig!.Logging)
        .toEqual({ Enabled: true, IncludeCookies: false, Bucket: 'logs.s3.eu-central-1.amazonaws.com', Prefix: 'cloudfront/proxy/edgeshop/' });
      await expect(engine.publisher.latestCodeSha256()).resolves.toBe('latest==');
      expect(await lambda.call(0).thisValue.config.region()).toBe('us-east-1');
    } finally {
      cf.restore();
      lambda.restore();
    }
  });

  test('unconfigured on AWS: moving and publishing are refused with the reason', async () => {
    const engine = createCdnEngine(loadConfig({}), noDistributions);
    await expect(engine.gateway.setEdgeFunction('E1', `${ROUTER}:4`)).rejects.toMatchObject({ name: 'ProviderNotConfiguredError', message: expect.stringMatching(/EDGE_FUNCTION_VERSION_ARN/) });
    await expect(engine.publisher.latestCodeSha256()).rejects.toMatchObject({ name: 'ProviderNotConfiguredError' });
    await expect(engine.publisher.publish('x', 'y')).rejects.toMatchObject({ name: 'ProviderNotConfiguredError' });
  });

  test('local: the local CDN (exposed for fault injection) and the local publisher on the configured source', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'edge-src-'));
    writeFileSync(join(dir, 'index.ts'), 'export const handler = 1;');
    let n = 41;
    const engine = createCdnEngine(loadConfig({ DYNAMODB_ENDPOINT: 'http://127.0.0.1:1', EDGE_FUNCTION_SOURCE_DIR: dir }), noDistributions, { nextLocalVersion: async () => ++n });
    expect(engine.kind).toBe('local');
    expect(engine.local).toBe(engine.gateway);
    const sha = await engine.publisher.latestCodeSha256();
    await expect(edgeSourceSha256(dir)).resolves.toBe(sha);
    await expect(engine.publisher.publish(sha, 'x')).resolves.toMatchObject({ versionArn: 'local:edge-function:42' });
    rmSync(dir, { recursive: true, force: true });
  });
});
