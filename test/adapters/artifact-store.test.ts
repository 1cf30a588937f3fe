import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { createS3ArtifactStore } from '../../functions/adapters/aws/s3-artifact-store';
import { createFsArtifactStore } from '../../functions/adapters/local/fs-artifact-store';

describe('local artifact store', () => {
  const store = createFsArtifactStore(mkdtempSync(join(tmpdir(), 'artifacts-')));

  test('puts, gets and lists by prefix; a missing key is null', async () => {
    await store.put('site-parts/shop/main', [{ path: '/llms.txt' }]);
    await store.put('site-parts/shop/product-llms', [{ path: '/llms/a.txt' }]);
    await store.put('site-parts/other/main', []);
    expect(await store.get('site-parts/shop/main')).toEqual([{ path: '/llms.txt' }]);
    expect(await store.list('site-parts/shop')).toEqual(['site-parts/shop/main', 'site-parts/shop/product-llms']);
    expect(await store.get('scrape/nobody')).toBeNull();
    expect(await store.list('site-parts/nobody')).toEqual([]);
  });

  test('keys that could leave the artifact root are refused', async () => {
    await expect(store.put('../escape', 1)).rejects.toThrow(/invalid artifact key/);
    await expect(store.get('scrape/../../etc')).rejects.toThrow(/invalid artifact key/);
  });
});

describe('S3 artifact store', () => {
  const s3 = mockClient(S3Client);
  beforeEach(() => s3.reset());

  test('stores gzip JSON under artifacts/ and reads it back', async () => {
    let stored: Buffer | undefined;
    s3.on(PutObjectCommand).callsFake((input) => { stored = input.Body as Buffer; return {}; });
    const store = createS3ArtifactStore(new S3Client({}), 'bucket');
    await store.put('catalog/shop', { products: [1, 2] });
    expect(s3.commandCalls(PutObjectCommand)[0].args[0].input).toMatchObject({ Bucket: 'bucket', Key: 'artifacts/catalog/shop.json.gz', ContentEncoding: 'gzip' });
    expect(JSON.parse(gunzipSync(stored!).toString())).toEqual({ products: [1, 2] });
    s3.on(GetObjectCommand).resolves({ Body: { transformToByteArray: async () => new Uint8Array(stored!) } as never });
    expect(await store.get('catalog/shop')).toEqual({ products: [1, 2] });
  });

  test('a missing object is null; listing follows continuation tokens', async () => {
    s3.on(GetObjectCommand).rejects(Object.assign(new Error('no'), { name: 'NoSuchKey' }));
    s3.on(ListObjectsV2Command)
      .resolvesOnce({ Contents: [{ Key: 'artifacts/site-parts/shop/main.json.gz' }], IsTruncated: true, NextContinuationToken: 't' })
      .resolves({ Contents: [{ Key: 'artifacts/site-parts/shop/product-llms.json.gz' }] });
    const store = createS3ArtifactStore(new S3Client({}), 'bucket');
    expect(await store.get('scrape/shop')).toBeNull();
    expect(await store.list('site-parts/shop')).toEqual(['site-parts/shop/main', 'site-parts/shop/product-llms']);
  });
});

describe('artifact versions', () => {
  test('locally, a rewrite changes the version token and an untouched artifact keeps it', async () => {
    const store = createFsArtifactStore(mkdtempSync(join(tmpdir(), 'artifacts-')));
    await store.put('site-parts/shop/main', [1]);
    await store.put('site-parts/shop/product-llms', [2]);
    const before = await store.versions('site-parts/shop');
    expect(Object.keys(before)).toEqual(['site-parts/shop/main', 'site-parts/shop/product-llms']);
    await store.put('site-parts/shop/main', [1]);
    const after = await store.versions('site-parts/shop');
    expect(after['site-parts/shop/main']).not.toBe(before['site-parts/shop/main']);
    expect(after['site-parts/shop/product-llms']).toBe(before['site-parts/shop/product-llms']);
  });

  test('on S3 the versions are the listed ETags', async () => {
    const s3 = mockClient(S3Client);
    s3.on(ListObjectsV2Command).resolves({ Contents: [{ Key: 'artifacts/site-parts/shop/main.json.gz', ETag: '"abc"' }] });
    const store = createS3ArtifactStore(new S3Client({}), 'bucket');
    expect(await store.versions('site-parts/shop')).toEqual({ 'site-parts/shop/main': '"abc"' });
  });
});

describe('artifact delete (a retired article\'s part)', () => {
  test('locally: the artifact is gone, its key leaves the listing and the versions (a change), and a second delete does nothing', async () => {
    const store = createFsArtifactStore(mkdtempSync(join(tmpdir(), 'artifacts-')));
    await store.put('site-parts/shop/main', [1]);
    await store.put('site-parts/shop/article-a', [2]);
    const before = await store.versions('site-parts/shop');
    await store.delete('site-parts/shop/article-a');
    expect(await store.get('site-parts/shop/article-a')).toBeNull();
    expect(await store.list('site-parts/shop')).toEqual(['site-parts/shop/main']);
    const after = await store.versions('site-parts/shop');
    expect(after).toEqual({ 'site-parts/shop/main': before['site-parts/shop/main'] });
    expect(JSON.stringify(Object.entries(after).sort())).not.toBe(JSON.stringify(Object.entries(before).sort()));
    await expect(store.delete('site-parts/shop/article-a')).resolves.toBeUndefined();
    await expect(store.delete('site-parts/nobody/main')).resolves.toBeUndefined();
    await expect(store.delete('../escape')).rejects.toThrow(/invalid artifact key/);
  });

  test('on S3: DeleteObject on the artifact\'s key (S3 answers a missing key with success)', async () => {
    const s3 = mockClient(S3Client);
    s3.on(DeleteObjectCommand).resolves({});
    const store = createS3ArtifactStore(new S3Client({}), 'bucket');
    await store.delete('site-parts/shop/article-a');
    expect(s3.commandCalls(DeleteObjectCommand)[0].args[0].input).toEqual({ Bucket: 'bucket', Key: 'artifacts/site-parts/shop/article-a.json.gz' });
  });
});
