import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteObjectsCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { CloudFrontKeyValueStoreClient, DescribeKeyValueStoreCommand, PutKeyCommand } from '@aws-sdk/client-cloudfront-keyvaluestore';
import { mockClient } from 'aws-sdk-client-mock';
import { createFsSiteStore } from '../../functions/adapters/local/fs-site-store';
import { createS3SiteStore } from '../../functions/adapters/aws/s3-site-store';
import type { SiteFile } from '../../functions/core/site/types';

let tick = 0;
const clock = { now: () => new Date(Date.UTC(2026, 10, 21, 12, 0, tick++)) };
const file = (path: string, content: string): SiteFile => ({ path, content, contentType: 'text/plain' });

describe('local site store', () => {
  const root = mkdtempSync(join(tmpdir(), 'sites-'));
  const store = createFsSiteStore(root, clock, 3);

  test('publish switches the current pointer to a complete release', async () => {
    const first = await store.publish('shop', [file('/llms.txt', 'v1'), file('/ai/products/a/index.html', '<p>a</p>')]);
    expect(readFileSync(join(root, 'shop', 'current'), 'utf8')).toBe(first.releaseId);
    const current = await store.readCurrent('shop');
    expect(current!.files.map((f) => [f.path, f.content])).toEqual([['/ai/products/a/index.html', '<p>a</p>'], ['/llms.txt', 'v1']]);
  });

  test('a failed publish leaves the previous release current and no staging debris', async () => {
    const before = (await store.readCurrent('shop'))!.releaseId;
    await expect(store.publish('shop', [file('/llms.txt', 'v2'), file('/../escape.txt', 'x')])).rejects.toThrow(/invalid segment/);
    await expect(store.publish('shop', [file('/a.txt', '1'), file('/a.txt', '2')])).rejects.toThrow(/duplicate/);
    expect((await store.readCurrent('shop'))!.releaseId).toBe(before);
    expect(readdirSync(join(root, 'shop', 'releases')).filter((n) => n.startsWith('.'))).toEqual([]);
  });

  test('keeps the newest releases for rollback, prunes older ones', async () => {
    const ids = [];
    for (let i = 2; i <= 5; i++) ids.push((await store.publish('shop', [file('/llms.txt', `v${i}`)])).releaseId);
    const releases = await store.listReleases('shop');
    expect(releases).toEqual(ids.slice(-3));
    await store.rollback('shop', ids[1]);
    expect((await store.readCurrent('shop'))!.files[0].content).toBe('v3');
    await expect(store.rollback('shop', 'nope')).rejects.toThrow(/does not exist/);
  });

  test('an unknown site has no current release', async () => {
    expect(await store.readCurrent('ghost')).toBeNull();
  });
});

describe('S3 site store', () => {
  const s3 = mockClient(S3Client);
  const kvs = mockClient(CloudFrontKeyValueStoreClient);
  beforeEach(() => {
    s3.reset();
    kvs.reset();
  });

  test('uploads every object before moving the pointer and the KVS key, with content types', async () => {
    const order: string[] = [];
    s3.on(PutObjectCommand).callsFake((input) => { order.push(input.Key); return {}; });
    s3.on(ListObjectsV2Command).resolves({ CommonPrefixes: [], Contents: [] });
    kvs.on(DescribeKeyValueStoreCommand).resolves({ ETag: 'etag-1' });
    kvs.on(PutKeyCommand).callsFake(() => { order.push('KVS'); return {}; });
    const store = createS3SiteStore({ bucket: 'b', s3: new S3Client({}), kvs: { arn: 'arn:kvs', client: new CloudFrontKeyValueStoreClient({}) }, clock });
    const release = await store.publish('shop', [{ path: '/llms.txt', content: 'x', contentType: 'text/plain; charset=utf-8' }, { path: '/ai/index.html', content: '<p>', contentType: 'text/html; charset=utf-8' }]);
    expect(order.slice(-2)).toEqual(['sites/shop/current', 'KVS']);
    expect(order.slice(0, 2).sort()).toEqual([`sites/shop/releases/${release.releaseId}/ai/index.html`, `sites/shop/releases/${release.releaseId}/llms.txt`]);
    const html = s3.commandCalls(PutObjectCommand).find((c) => c.args[0].input.Key?.endsWith('index.html'))!;
    expect(html.args[0].input.ContentType).toBe('text/html; charset=utf-8');
    expect(kvs.commandCalls(PutKeyCommand)[0].args[0].input).toMatchObject({ Key: 'shop', Value: release.releaseId, IfMatch: 'etag-1' });
  });

  test('retries the KVS write when another writer changed the ETag', async () => {
    s3.on(PutObjectCommand).resolves({});
    s3.on(ListObjectsV2Command).resolves({});
    kvs.on(DescribeKeyValueStoreCommand).resolvesOnce({ ETag: 'a' }).resolves({ ETag: 'b' });
    kvs.on(PutKeyCommand).rejectsOnce(Object.assign(new Error('conflict'), { name: 'ConflictException' })).resolves({});
    const store = createS3SiteStore({ bucket: 'b', s3: new S3Client({}), kvs: { arn: 'arn:kvs', client: new CloudFrontKeyValueStoreClient({}) }, clock });
    await store.publish('shop', [{ path: '/llms.txt', content: 'x', contentType: 'text/plain' }]);
    expect(kvs.commandCalls(PutKeyCommand).map((c) => c.args[0].input.IfMatch)).toEqual(['a', 'b']);
  });

  test('prunes releases beyond the kept number, never the new one', async () => {
    s3.on(PutObjectCommand).resolves({});
    const old = ['20260101T000000000Z-aaaaaa', '20260102T000000000Z-bbbbbb'];
    s3.on(ListObjectsV2Command, { Delimiter: '/' }).callsFake(() => ({ CommonPrefixes: [...old, 'NEW'].map((id) => ({ Prefix: `sites/shop/releases/${id}/` })) }));
    s3.on(ListObjectsV2Command, { Prefix: `sites/shop/releases/${old[0]}/` }).resolves({ Contents: [{ Key: `sites/shop/releases/${old[0]}/llms.txt` }] });
    s3.on(DeleteObjectsCommand).resolves({});
    const store = createS3SiteStore({ bucket: 'b', s3: new S3Client({}), clock, keep: 2 });
    await store.publish('shop', [{ path: '/llms.txt', content: 'x', contentType: 'text/plain' }]);
    const deleted = s3.commandCalls(DeleteObjectsCommand).flatMap((c) => c.args[0].input.Delete!.Objects!.map((o) => o.Key));
    expect(deleted).toEqual([`sites/shop/releases/${old[0]}/llms.txt`]);
  });

  test('reads the current release through the pointer', async () => {
    const body = (text: string) => ({ Body: { transformToString: async () => text } as never });
    s3.on(GetObjectCommand, { Key: 'sites/shop/current' }).resolves(body('R1'));
    s3.on(ListObjectsV2Command, { Prefix: 'sites/shop/releases/R1/' }).resolves({ Contents: [{ Key: 'sites/shop/releases/R1/llms.txt' }] });
    s3.on(GetObjectCommand, { Key: 'sites/shop/releases/R1/llms.txt' }).resolves(body('# Shop'));
    const store = createS3SiteStore({ bucket: 'b', s3: new S3Client({}), clock });
    expect(await store.readCurrent('shop')).toEqual({ releaseId: 'R1', files: [{ path: '/llms.txt', content: '# Shop', contentType: 'text/plain; charset=utf-8' }] });
  });
});

describe('D28 fallback copies for static hosting', () => {
  test('every file outside /ai/ gets an /ai/ copy unless a real /ai/ file exists; reading back drops the copies', () => {
    const { withAiFallbackCopies, withoutAiFallbackCopies } = jest.requireActual('../../functions/core/site/release');
    const files = [file('/llms.txt', 'L'), file('/best-mugs/index.html', 'A'), file('/ai/index.html', 'AI'), file('/index.html', 'ROOT')];
    const published = withAiFallbackCopies(files);
    expect(published.map((f: SiteFile) => f.path).sort()).toEqual(['/ai/best-mugs/index.html', '/ai/index.html', '/ai/llms.txt', '/best-mugs/index.html', '/index.html', '/llms.txt']);
    expect(published.find((f: SiteFile) => f.path === '/ai/index.html')!.content).toBe('AI');
    expect(withoutAiFallbackCopies(published)).toEqual(files);
  });
});
