/**
 * The AI-site distribution's origin-request resolver (D179), end to end over one request path:
 * a release published by the S3 site store in the manifest layout, the viewer-request router
 * (the CloudFront Function) picking it from the KeyValueStore, then the resolver turning the
 * file into its object. What S3 would answer is read from the same bucket the store wrote.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CopyObjectCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client, DeleteObjectsCommand } from '@aws-sdk/client-s3';
import type { CloudFrontRequestEvent, CloudFrontResultResponse } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { createS3SiteStore } from '../../functions/adapters/aws/s3-site-store';
import { createResolver, s3OriginOf, type ObjectReader } from '../../edge-function/ai-site-resolver';
import type { SiteFile } from '../../functions/core/site/types';

const BUCKET = 'aivisibilitydata-sitebucket-1x2y3z';
const s3 = mockClient(S3Client);
const objects = new Map<string, string>();

beforeEach(() => {
  objects.clear();
  s3.reset();
  s3.on(PutObjectCommand).callsFake(async (input) => { objects.set(input.Key, String(input.Body)); return {}; });
  s3.on(CopyObjectCommand).callsFake(async (input) => {
    const key = String(input.CopySource).split('/').slice(1).map(decodeURIComponent).join('/');
    objects.set(input.Key, objects.get(key)!);
    return {};
  });
  s3.on(GetObjectCommand).callsFake(async (input) => {
    const text = objects.get(input.Key);
    if (text === undefined) throw Object.assign(new Error('no such key'), { name: 'NoSuchKey' });
    return { Body: { transformToString: async () => text } };
  });
  s3.on(ListObjectsV2Command).callsFake(async (input) => {
    const keys = [...objects.keys()].filter((k) => k.startsWith(input.Prefix ?? '')).sort();
    if (!input.Delimiter) return { Contents: keys.map((Key) => ({ Key, LastModified: new Date() })) };
    const prefixes = new Set<string>();
    const contents: { Key: string }[] = [];
    for (const key of keys) {
      const cut = key.indexOf(input.Delimiter, (input.Prefix ?? '').length);
      if (cut >= 0) prefixes.add(key.slice(0, cut + 1));
      else contents.push({ Key: key });
    }
    return { Contents: contents, CommonPrefixes: [...prefixes].map((Prefix) => ({ Prefix })) };
  });
  s3.on(DeleteObjectsCommand).callsFake(async (input) => { for (const o of input.Delete.Objects) objects.delete(o.Key); return {}; });
});

const clock = { now: () => new Date('2026-11-26T06:00:00Z') };
const file = (path: string, content: string): SiteFile => ({ path, content, contentType: path.endsWith('.html') ? 'text/html; charset=utf-8' : 'text/plain; charset=utf-8' });
const SITE = [
  file('/index.html', '<h1>Harbor & Pine</h1>'),
  file('/ai/index.html', '<h1>Harbor & Pine</h1>'),
  file('/llms.txt', '# Harbor & Pine'),
  file('/ai/products/blue-mug/index.html', '<p>Blue mug</p>'),
  file('/best-mugs/index.html', '<p>An article</p>'),
];

function loadRouter(releases: Record<string, string>): (event: unknown) => Promise<any> {
  const source = readFileSync(join(__dirname, '../../edge-function/ai-site-router.js'), 'utf8')
    .replace("import cf from 'cloudfront';", '').replace('__AI_SITE_DOMAIN__', 'aisites.example');
  const cf = { kvs: () => ({ get: async (key: string) => releases[key] }) };
  return new Function('cf', `${source}\nreturn handler;`)(cf);
}

/** The origin-request event CloudFront sends for an S3 origin (AWS Lambda@Edge event structure). */
const originRequest = (uri: string): CloudFrontRequestEvent => ({
  Records: [{
    cf: {
      config: { distributionDomainName: 'd111111abcdef8.cloudfront.net', distributionId: 'EDFDVBD6EXAMPLE', eventType: 'origin-request', requestId: 'r1' },
      request: {
        clientIp: '203.0.113.178', method: 'GET', querystring: '', uri, headers: {},
        origin: { s3: { authMethod: 'origin-access-identity', customHeaders: {}, domainName: `${BUCKET}.s3.eu-central-1.amazonaws.com`, path: '', region: 'eu-central-1' } },
      },
    },
  }],
});

/** What the distribution answers for a viewer path: the router, the resolver, then S3. */
async function serve(path: string, reads: string[] = []) {
  const store = createS3SiteStore({ bucket: BUCKET, s3: new S3Client({}), clock, layout: 'manifest' });
  const current = (await store.currentReleaseId('demo-store'))!;
  const viewer = await loadRouter({ 'demo-store': current })({ request: { method: 'GET', uri: path, headers: { host: { value: 'demo-store.aisites.example' } }, querystring: {} } });
  const read: ObjectReader = async (bucket, region, key) => {
    reads.push(`${bucket}@${region}:${key}`);
    return objects.get(key) ?? null;
  };
  const result = (await createResolver(read)(originRequest(viewer.uri)))!;
  if ('status' in result) return { status: Number((result as CloudFrontResultResponse).status), body: null };
  const key = (result as { uri: string }).uri.slice(1);
  const body = objects.get(key);
  return body === undefined ? { status: 404, body: null } : { status: 200, body, key };
}

describe('the manifest resolver (Lambda@Edge, origin-request)', () => {
  test('every file of the release is served from its object, /ai/ paths fall back to the root file (D28)', async () => {
    await createS3SiteStore({ bucket: BUCKET, s3: new S3Client({}), clock, layout: 'manifest' }).publish('demo-store', SITE);
    const reads: string[] = [];
    expect(await serve('/', reads)).toMatchObject({ status: 200, body: '<h1>Harbor & Pine</h1>', key: expect.stringMatching(/^sites\/demo-store\/objects\/[0-9a-f]{64}$/) });
    expect(reads[0]).toMatch(new RegExp(`^${BUCKET}@eu-central-1:sites/demo-store/releases/[^/]+\\.json$`));
    expect(await serve('/llms.txt')).toMatchObject({ status: 200, body: '# Harbor & Pine' });
    expect(await serve('/ai/products/blue-mug/')).toMatchObject({ status: 200, body: '<p>Blue mug</p>' });
    expect(await serve('/best-mugs/')).toMatchObject({ status: 200, body: '<p>An article</p>' });
    expect(await serve('/ai/best-mugs/')).toMatchObject({ status: 200, body: '<p>An article</p>' }); // no copy was written
    expect(await serve('/ai/llms.txt')).toMatchObject({ status: 200, body: '# Harbor & Pine' });
    expect(await serve('/missing/')).toEqual({ status: 404, body: null });
    expect(await serve('/ai/products/red-mug/')).toEqual({ status: 404, body: null });
  });

  test('a release of the prefix layout (no manifest) goes on unchanged', async () => {
    await createS3SiteStore({ bucket: BUCKET, s3: new S3Client({}), clock }).publish('demo-store', SITE);
    expect(await serve('/ai/best-mugs/')).toMatchObject({ status: 200, body: '<p>An article</p>', key: expect.stringMatching(/^sites\/demo-store\/releases\/[^/]+\/ai\/best-mugs\/index\.html$/) });
  });

  test('a manifest is read once per container; a failed read is tried again', async () => {
    await createS3SiteStore({ bucket: BUCKET, s3: new S3Client({}), clock, layout: 'manifest' }).publish('demo-store', SITE);
    const release = (await createS3SiteStore({ bucket: BUCKET, s3: new S3Client({}), clock }).currentReleaseId('demo-store'))!;
    let calls = 0;
    const resolve = createResolver(async (_b, _r, key) => {
      calls++;
      if (calls === 1) throw new Error('S3 throttled');
      return objects.get(key) ?? null;
    });
    const uri = `/sites/demo-store/releases/${release}/llms.txt`;
    await expect(resolve(originRequest(uri))).rejects.toThrow('S3 throttled');
    for (let i = 0; i < 3; i++) expect(await resolve(originRequest(uri))).toMatchObject({ uri: expect.stringMatching(/^\/sites\/demo-store\/objects\//) });
    expect(calls).toBe(2);
  });

  test('requests that are not a release file, or not for an S3 origin, pass through', async () => {
    const resolve = createResolver(async () => { throw new Error('must not read'); });
    expect(await resolve(originRequest('/favicon.ico'))).toMatchObject({ uri: '/favicon.ico' });
    const custom = originRequest('/sites/demo-store/releases/R1/llms.txt');
    custom.Records[0]!.cf.request.origin = { custom: { customHeaders: {}, domainName: 'example.com', keepaliveTimeout: 5, path: '', port: 443, protocol: 'https', readTimeout: 30, sslProtocols: ['TLSv1.2'] } };
    expect(await resolve(custom)).toMatchObject({ uri: '/sites/demo-store/releases/R1/llms.txt' });
    expect(s3OriginOf(originRequest('/x').Records[0]!.cf.request)).toEqual({ bucket: BUCKET, region: 'eu-central-1' });
    // Without a region in the event (no origin access identity), the S3 host names it.
    const bare = originRequest('/x');
    bare.Records[0]!.cf.request.origin = { s3: { authMethod: 'none', customHeaders: {}, domainName: `${BUCKET}.s3.ap-south-1.amazonaws.com`, path: '' } };
    expect(s3OriginOf(bare.Records[0]!.cf.request)).toEqual({ bucket: BUCKET, region: 'ap-south-1' });
  });
});
