import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CopyObjectCommand, DeleteObjectsCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { CloudFrontKeyValueStoreClient, DescribeKeyValueStoreCommand, PutKeyCommand } from '@aws-sdk/client-cloudfront-keyvaluestore';
import { mockClient } from 'aws-sdk-client-mock';
import { createFsSiteStore } from '../../functions/adapters/local/fs-site-store';
import { createS3SiteStore } from '../../functions/adapters/aws/s3-site-store';
import { RELEASE_READER_GRACE_MS } from '../../functions/core/site/release';
import type { SiteFile } from '../../functions/core/site/types';
import type { SiteStore } from '../../functions/ports';

/** A test clock: one second passes per reading; `pass` jumps ahead. */
const testClock = () => {
  let at = Date.UTC(2026, 10, 21, 12, 0, 0);
  return { clock: { now: () => new Date((at += 1000)) }, pass: (ms: number) => { at += ms; } };
};
const { clock, pass } = testClock();
const file = (path: string, content: string): SiteFile => ({ path, content, contentType: 'text/plain' });
const noSuchKey = () => Object.assign(new Error('The specified key does not exist.'), { name: 'NoSuchKey' });
const s3 = mockClient(S3Client);

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
    for (let i = 2; i <= 5; i++) {
      if (i === 5) pass(RELEASE_READER_GRACE_MS); // older releases have had their readers' time
      ids.push((await store.publish('shop', [file('/llms.txt', `v${i}`)])).releaseId);
    }
    const releases = await store.listReleases('shop');
    expect(releases).toEqual(ids.slice(-3));
    await store.rollback('shop', ids[1]);
    expect((await store.readCurrent('shop'))!.files[0].content).toBe('v3');
    await expect(store.rollback('shop', 'nope')).rejects.toThrow(/does not exist/);
  });

  test('an unknown site has no current release', async () => {
    expect(await store.readCurrent('ghost')).toBeNull();
  });

  test('a streamed publish is written as it is read; a release is read back file by file (D204)', async () => {
    async function* files() {
      yield file('/llms.txt', 'streamed');
      yield file('/ai/products/a/index.html', '<p>a</p>');
    }
    const release = await store.publish('streamed', files());
    expect(release.fileCount).toBe(2);
    const reader = await store.openRelease('streamed', release.releaseId);
    expect((await reader!.paths()).sort()).toEqual(['/ai/products/a/index.html', '/llms.txt']);
    expect(await reader!.read('/llms.txt')).toBe('streamed');
    expect(await reader!.read('/none.txt')).toBeNull();
    expect(await store.openRelease('streamed', 'nope')).toBeNull();
    async function* broken() {
      yield file('/llms.txt', 'half');
      throw new Error('the source failed');
    }
    await expect(store.publish('streamed', broken())).rejects.toThrow(/the source failed/);
    expect((await store.readCurrent('streamed'))!.releaseId).toBe(release.releaseId);
    expect(readdirSync(join(root, 'streamed', 'releases')).filter((n) => n.startsWith('.'))).toEqual([]);
  });
});

describe('S3 site store', () => {
  const kvs = mockClient(CloudFrontKeyValueStoreClient);
  beforeEach(() => {
    s3.reset();
    kvs.reset();
    s3.on(GetObjectCommand).rejects(noSuchKey()); // no pointer yet, unless a test says otherwise
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

/**
 * Issue 23.4: reads race a publish. Every reader reads one consistent release, and a superseded
 * release outlives the readers that pinned it (the grace), on both stores.
 */
type Harness = { store: SiteStore; pass: (ms: number) => void };

const numbered = (n: number) => [
  file('/llms.txt', `release ${n}`),
  file('/ai/products/a/index.html', `<p>release ${n}</p>`),
  file('/best-mugs/index.html', `<p>release ${n} mugs</p>`),
];
const pathsAndContents = (files: SiteFile[]) => files.map((f) => [f.path, f.content]).sort((a, b) => (a[0] < b[0] ? -1 : 1));

function readersAreSafe(make: (keep: number) => Harness) {
  const KEEP = 3;

  test('(a) a pinned release stays readable, whole, while keep+3 newer ones are published', async () => {
    const { store } = make(KEEP);
    await store.publish('shop', numbered(0));
    const pinned = (await store.currentReleaseId('shop'))!;
    for (let n = 1; n <= KEEP + 3; n++) await store.publish('shop', numbered(n));
    expect(await store.currentReleaseId('shop')).not.toBe(pinned);
    const read = await store.readRelease('shop', pinned);
    expect(read!.releaseId).toBe(pinned);
    expect(pathsAndContents(read!.files)).toEqual(pathsAndContents(numbered(0)));
  });

  test('(b) once the grace has passed, the next publish prunes it, keeps the newest and the current one', async () => {
    const { store, pass } = make(KEEP);
    await store.publish('shop', numbered(0));
    const pinned = (await store.currentReleaseId('shop'))!;
    for (let n = 1; n <= KEEP + 3; n++) await store.publish('shop', numbered(n));
    pass(RELEASE_READER_GRACE_MS);
    const last = await store.publish('shop', numbered(KEEP + 4));
    const releases = await store.listReleases('shop');
    expect(releases).not.toContain(pinned);
    expect(releases).toHaveLength(KEEP);
    expect(releases.at(-1)).toBe(last.releaseId);
    expect(await store.readRelease('shop', pinned)).toBeNull();
    const current = await store.readCurrent('shop');
    expect(current!.releaseId).toBe(last.releaseId);
    expect(pathsAndContents(current!.files)).toEqual(pathsAndContents(numbered(KEEP + 4)));
  });

  test('an unknown release, or an id that is no release, reads as null', async () => {
    const { store } = make(KEEP);
    await store.publish('shop', numbered(0));
    expect(await store.readRelease('shop', '20200101T000000000Z-000000')).toBeNull();
    expect(await store.readRelease('shop', '../shop')).toBeNull();
    expect(await store.readRelease('ghost', 'R1')).toBeNull();
    expect(await store.currentReleaseId('ghost')).toBeNull();
  });

  test('(c) readCurrent in a loop while 12 publishes happen: every read succeeds, all its files from one release', async () => {
    // keep 1: without the grace, each publish deletes the release a reader may just have pinned.
    const { store } = make(1);
    await store.publish('shop', numbered(0));
    let publishing = true;
    const reads: { releaseId: string; files: SiteFile[] }[] = [];
    const reader = async () => {
      do {
        const read = await store.readCurrent('shop');
        expect(read).not.toBeNull();
        reads.push(read!);
        // The same by hand, without readCurrent's one re-pin, and with work between pin and read
        // (as a route does): the pinned release itself must last.
        const releaseId = (await store.currentReleaseId('shop'))!;
        for (let turns = reads.length % 20; turns > 0; turns--) await new Promise((resolve) => setImmediate(resolve));
        const pinned = await store.readRelease('shop', releaseId);
        expect(pinned).not.toBeNull();
        reads.push(pinned!);
      } while (publishing);
    };
    const readers = [reader(), reader(), reader()];
    try {
      for (let n = 1; n <= 12; n++) await store.publish('shop', numbered(n));
    } finally {
      publishing = false;
    }
    await Promise.all(readers);
    const seen = new Set<string>();
    for (const read of reads) {
      expect(read.files).toHaveLength(3);
      const markers = new Set(read.files.map((f) => /release (\d+)/.exec(f.content)![1]));
      expect(markers.size).toBe(1);
      seen.add([...markers][0]);
    }
    expect(seen.size).toBeGreaterThan(1); // the reads did overlap the publishes
  });
}

describe('local site store: readers of a superseded release', () => {
  readersAreSafe((keep) => {
    const { clock: own, pass: ownPass } = testClock();
    return { store: createFsSiteStore(mkdtempSync(join(tmpdir(), 'sites-')), own, keep), pass: ownPass };
  });
});

/**
 * Enough of S3 for the store; calls take 1 to 3 turns of the event loop, so readers and
 * publishers interleave. Objects carry LastModified from `now` (the store's test clock).
 */
function inMemoryBucket(now: () => Date = () => new Date()) {
  const objects = new Map<string, { text: string; at: Date }>();
  let calls = 0;
  const latency = async () => {
    for (let turns = 1 + (calls++ % 3); turns > 0; turns--) await new Promise((resolve) => setImmediate(resolve));
  };
  s3.on(PutObjectCommand).callsFake(async (input) => {
    await latency();
    objects.set(input.Key, { text: String(input.Body), at: now() });
    return {};
  });
  s3.on(CopyObjectCommand).callsFake(async (input) => {
    await latency();
    const [sourceBucket, ...key] = String(input.CopySource).split('/');
    const source = objects.get(key.map(decodeURIComponent).join('/'));
    if (sourceBucket !== input.Bucket || source === undefined) throw noSuchKey();
    objects.set(input.Key, { text: source.text, at: now() });
    return {};
  });
  s3.on(GetObjectCommand).callsFake(async (input) => {
    await latency();
    const object = objects.get(input.Key);
    if (object === undefined) throw noSuchKey();
    return { Body: { transformToString: async () => object.text } };
  });
  s3.on(ListObjectsV2Command).callsFake(async (input) => {
    await latency();
    const prefix: string = input.Prefix ?? '';
    const keys = [...objects.keys()].filter((k) => k.startsWith(prefix)).sort();
    const entry = (Key: string) => ({ Key, LastModified: objects.get(Key)!.at });
    if (!input.Delimiter) return { Contents: keys.map(entry) };
    const prefixes = new Set<string>();
    const contents: { Key: string }[] = [];
    for (const key of keys) {
      const cut = key.indexOf(input.Delimiter, prefix.length);
      if (cut >= 0) prefixes.add(key.slice(0, cut + 1));
      else contents.push(entry(key));
    }
    return { Contents: contents, CommonPrefixes: [...prefixes].map((Prefix) => ({ Prefix })) };
  });
  s3.on(DeleteObjectsCommand).callsFake(async (input) => {
    await latency();
    for (const o of input.Delete.Objects) objects.delete(o.Key);
    return {};
  });
  return objects;
}

describe('S3 site store: readers of a superseded release (in-memory bucket)', () => {
  beforeEach(() => {
    s3.reset();
    inMemoryBucket();
  });

  readersAreSafe((keep) => {
    const { clock: own, pass: ownPass } = testClock();
    return { store: createS3SiteStore({ bucket: 'b', s3: new S3Client({}), clock: own, keep }), pass: ownPass };
  });
});

describe('S3 site store, manifest layout: readers of a superseded release (in-memory bucket)', () => {
  let now: () => Date = () => new Date();
  beforeEach(() => {
    s3.reset();
    inMemoryBucket(() => now());
  });

  readersAreSafe((keep) => {
    const { clock: own, pass: ownPass } = testClock();
    now = () => own.now();
    return { store: createS3SiteStore({ bucket: 'b', s3: new S3Client({}), clock: own, keep, layout: 'manifest' }), pass: ownPass };
  });
});

describe('S3 site store, manifest layout: a publish writes only what changed (D179)', () => {
  const site = (day: number) => [
    file('/llms.txt', `# Shop, day ${day}`),
    file('/ai/products/a/index.html', '<p>a</p>'),
    file('/ai/products/b/index.html', '<p>b</p>'),
    file('/best-mugs/index.html', '<p>mugs</p>'),
    file('/robots.txt', 'User-agent: *'),
  ];
  let objects: ReturnType<typeof inMemoryBucket>;
  let harness: ReturnType<typeof testClock>;
  let store: SiteStore;
  const puts = () => s3.commandCalls(PutObjectCommand).map((c) => c.args[0].input.Key!);
  beforeEach(() => {
    s3.reset();
    harness = testClock();
    objects = inMemoryBucket(() => harness.clock.now());
    store = createS3SiteStore({ bucket: 'b', s3: new S3Client({}), clock: harness.clock, keep: 2, layout: 'manifest' });
  });

  test('the first publish writes each distinct file once, no /ai/ copies; the next one only the changed file', async () => {
    const first = await store.publish('shop', site(1));
    expect(puts().filter((k) => k.includes('/objects/'))).toHaveLength(5);
    expect(puts().filter((k) => k.includes('/ai/') && !k.includes('/objects/'))).toEqual([]);
    expect(puts().slice(-2)).toEqual([`sites/shop/releases/${first.releaseId}.json`, 'sites/shop/current']);
    s3.resetHistory();
    const second = await store.publish('shop', site(2));
    // One changed file, its manifest and the pointer: 3 writes instead of the 5 files and their 4 /ai/ copies.
    expect(puts()).toEqual([expect.stringMatching(/^sites\/shop\/objects\/[0-9a-f]{64}$/), `sites/shop/releases/${second.releaseId}.json`, 'sites/shop/current']);
    expect(pathsAndContents((await store.readCurrent('shop'))!.files)).toEqual(pathsAndContents(site(2)));
    expect(pathsAndContents((await store.readRelease('shop', first.releaseId))!.files)).toEqual(pathsAndContents(site(1)));
    s3.resetHistory();
    await store.publish('shop', site(2));
    expect(puts().filter((k) => k.includes('/objects/'))).toEqual([]); // nothing changed: the manifest and the pointer only
  });

  test('objects only pruned releases name leave after the grace; a young unreferenced object stays', async () => {
    const day1 = await store.publish('shop', site(1));
    await store.publish('shop', site(2));
    await store.publish('shop', site(3));
    const objectKeys = () => [...objects.keys()].filter((k) => k.includes('/objects/'));
    expect(objectKeys()).toHaveLength(7); // 4 shared files + 3 versions of llms.txt
    harness.pass(RELEASE_READER_GRACE_MS);
    // A concurrent publish's object, uploaded before its manifest: unreferenced but young.
    objects.set(`sites/shop/objects/${'f'.repeat(64)}`, { text: 'in flight', at: harness.clock.now() });
    const day4 = await store.publish('shop', site(4));
    // Keep 2: days 1 and 2 are pruned (superseded longer than the grace ago), day 3 and 4 stay.
    const kept = await store.listReleases('shop');
    expect(kept).toEqual([expect.any(String), day4.releaseId]);
    expect(kept).not.toContain(day1.releaseId);
    const left = objectKeys();
    expect(left).toContain(`sites/shop/objects/${'f'.repeat(64)}`);
    // Days 1 and 2's llms.txt went with their releases; the 4 shared files, days 3 and 4's llms.txt and the young object stay.
    expect(left).toHaveLength(4 + 2 + 1);
    expect(pathsAndContents((await store.readCurrent('shop'))!.files)).toEqual(pathsAndContents(site(4)));
  });

  test('a release of the prefix layout stays readable and restorable after the switch', async () => {
    const before = createS3SiteStore({ bucket: 'b', s3: new S3Client({}), clock: harness.clock, keep: 5 });
    const legacy = await before.publish('shop', site(1));
    await store.publish('shop', site(2));
    expect(await store.listReleases('shop')).toEqual([legacy.releaseId, expect.any(String)]);
    expect(pathsAndContents((await store.readRelease('shop', legacy.releaseId))!.files)).toEqual(pathsAndContents(site(1)));
    await store.rollback('shop', legacy.releaseId);
    expect((await store.readCurrent('shop'))!.releaseId).toBe(legacy.releaseId);
  });

  test('refuses a path that could leave the site: no manifest, no pointer; an object streamed before it is garbage', async () => {
    await expect(store.publish('shop', [file('/llms.txt', 'x'), file('/../escape.txt', 'x')])).rejects.toThrow(/invalid segment/);
    expect(puts().filter((k) => !k.includes('/objects/'))).toEqual([]);
    expect(await store.listReleases('shop')).toEqual([]);
    // Named by no manifest: the next publish after the grace collects it (the test above).
    expect(puts().every((k) => k.startsWith('sites/shop/objects/'))).toBe(true);
  });

  test('a streamed publish: files read one at a time, uploaded at most `uploadConcurrency` at once, read back by path (D204)', async () => {
    const streaming = createS3SiteStore({ bucket: 'b', s3: new S3Client({}), clock: harness.clock, layout: 'manifest', uploadConcurrency: 3 });
    let yielded = 0;
    let inFlightMax = 0;
    s3.on(PutObjectCommand).callsFake(async (input) => {
      const inFlight = yielded - s3.commandCalls(PutObjectCommand).filter((c) => c.args[0].input.Key!.includes('/objects/')).length + 1;
      inFlightMax = Math.max(inFlightMax, inFlight);
      await new Promise((resolve) => setImmediate(resolve));
      objects.set(input.Key!, { text: String(input.Body), at: harness.clock.now() });
      return {};
    });
    async function* many() {
      for (let i = 0; i < 40; i++) {
        yielded++;
        yield file(`/llms/p${i}.txt`, `product ${i}`);
      }
    }
    const release = await streaming.publish('shop', many());
    expect(release).toMatchObject({ fileCount: 40, bytes: expect.any(Number) });
    expect(inFlightMax).toBeLessThanOrEqual(3);
    const reader = await streaming.openRelease('shop', release.releaseId);
    expect(await reader!.read('/llms/p7.txt')).toBe('product 7');
    expect((await reader!.paths()).sort()).toEqual(Array.from({ length: 40 }, (_, i) => `/llms/p${i}.txt`).sort());
    expect(await reader!.read('/llms/none.txt')).toBeNull();
    expect(await streaming.openRelease('shop', '20200101T000000000Z-000000')).toBeNull();
  });
});

describe('S3 site store, prefix layout: a streamed publish copies the D28 fallbacks inside the bucket', () => {
  beforeEach(() => {
    s3.reset();
    inMemoryBucket();
  });

  test('root-level files get their /ai/ copy by CopyObject; a real /ai/ file is not overwritten', async () => {
    const store = createS3SiteStore({ bucket: 'b', s3: new S3Client({}), clock });
    async function* files() {
      yield file('/llms/a+b.txt', 'A');
      yield file('/best-mugs/index.html', 'MUGS');
      yield file('/ai/best-mugs/index.html', 'AI MUGS');
    }
    const release = await store.publish('shop', files());
    const copies = s3.commandCalls(CopyObjectCommand).map((c) => c.args[0].input.Key);
    expect(copies).toEqual([`sites/shop/releases/${release.releaseId}/ai/llms/a+b.txt`]);
    const reader = await store.openRelease('shop', release.releaseId);
    expect(await reader!.read('/ai/llms/a+b.txt')).toBe('A');
    expect(await reader!.read('/ai/best-mugs/index.html')).toBe('AI MUGS');
    expect((await reader!.paths()).sort()).toEqual(['/ai/best-mugs/index.html', '/ai/llms/a+b.txt', '/best-mugs/index.html', '/llms/a+b.txt']);
    expect(pathsAndContents((await store.readCurrent('shop'))!.files)).toEqual([['/ai/best-mugs/index.html', 'AI MUGS'], ['/best-mugs/index.html', 'MUGS'], ['/llms/a+b.txt', 'A']]);
  });

  test('a stream that fails half way leaves no half release to list or roll back to', async () => {
    const store = createS3SiteStore({ bucket: 'b', s3: new S3Client({}), clock });
    const good = await store.publish('halfway', [file('/llms.txt', 'whole')]);
    async function* broken() {
      yield file('/llms.txt', 'half');
      yield file('/a/index.html', 'A');
      throw new Error('the source failed');
    }
    await expect(store.publish('halfway', broken())).rejects.toThrow(/the source failed/);
    expect(await store.listReleases('halfway')).toEqual([good.releaseId]);
    expect((await store.readCurrent('halfway'))!.files.map((f) => f.content)).toEqual(['whole']);
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
