/**
 * AI-site releases in S3, plus a `sites/<slug>/current` pointer object. CloudFront picks the
 * release at the edge from a KeyValueStore entry (`<slug>` → release id), so switching the KVS
 * key is the atomic step: every object of the new release is uploaded before it, and old
 * releases stay until pruned. A superseded release is pruned only after a grace, so a pinned
 * reader finishes it. Two layouts (D179):
 * - `prefix` (no edge resolver deployed): each release is its own prefix
 *   `sites/<slug>/releases/<id>/<path>`, every file written again, D28 by fallback copies;
 * - `manifest` (the edge resolver deployed, SITES_LAYOUT=manifest): a release is the manifest
 *   `sites/<slug>/releases/<id>.json` naming content-addressed objects `sites/<slug>/objects/<id>`
 *   (core/site/release-manifest.ts); a publish uploads only the objects the current release
 *   does not hold, and objects no kept manifest names are deleted after the grace.
 * Either layout reads both, so switching leaves earlier releases readable and restorable.
 */
import {
  CopyObjectCommand, DeleteObjectsCommand, ListObjectsV2Command, PutObjectCommand, type S3Client,
} from '@aws-sdk/client-s3';
import {
  CloudFrontKeyValueStoreClient, DescribeKeyValueStoreCommand, PutKeyCommand,
} from '@aws-sdk/client-cloudfront-keyvaluestore';
import '@aws-sdk/signature-v4a'; // KVS requests are signed with SigV4A
import pLimit from 'p-limit';
import { NotFoundError } from '../../core/errors';
import { getTextOrNull } from './s3-get';
import { contentTypeOf } from '../../core/site/content-types';
import {
  addToManifest, emptyManifest, isObjectId, parseManifest, unreferencedObjects, type ReleaseManifest, type SiteLayout,
} from '../../core/site/release-manifest';
import {
  aiFallbackCopyPaths, assertNewPath, isReleaseId, newReleaseId, readPinnedRelease, releaseRelativePath, RELEASES_KEPT, releasesToPrune,
  withoutAiFallbackCopies, type ReleaseFiles,
} from '../../core/site/release';
import type { SiteFile } from '../../core/site/types';
import type { Clock, ReleaseReader, SiteStore } from '../../ports';
import { forEachBounded } from '../../core/util/for-each-bounded';

export interface S3SiteStoreSettings {
  bucket: string;
  s3: S3Client;
  /** The KeyValueStore the AI-site distribution's CloudFront Function reads. */
  kvs?: { arn: string; client: CloudFrontKeyValueStoreClient };
  clock: Clock;
  keep?: number;
  uploadConcurrency?: number;
  /** `manifest` only where the AI-site distribution resolves manifests at the edge (D179). */
  layout?: SiteLayout;
}

const prefix = (slug: string) => `sites/${slug}/`;
const releasePrefix = (slug: string, id: string) => `${prefix(slug)}releases/${id}/`;
const manifestKey = (slug: string, id: string) => `${prefix(slug)}releases/${id}.json`;
const objectKey = (slug: string, id: string) => `${prefix(slug)}objects/${id}`;

/** CopyObject's source: `bucket/key`, URL-encoded (a `+` in a key is not a space). */
const copySource = (bucket: string, key: string) => `${bucket}/${key.split('/').map(encodeURIComponent).join('/')}`;

/** HTML and text change daily at most; the edge may keep them for 5 minutes. */
const cacheControl = (path: string) => (/\.(js|ico|png|svg)$/.test(path) ? 'public, max-age=3600' : 'public, max-age=300');

export function createS3SiteStore(settings: S3SiteStoreSettings): SiteStore {
  const { bucket, s3, kvs, clock } = settings;
  const keep = settings.keep ?? RELEASES_KEPT;
  const uploadConcurrency = settings.uploadConcurrency ?? 16;
  const limit = pLimit(uploadConcurrency);

  const listKeys = async (keyPrefix: string, delimiter?: string) => {
    const keys: string[] = [];
    const modified = new Map<string, Date | undefined>();
    const prefixes: string[] = [];
    let token: string | undefined;
    do {
      const page = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: keyPrefix, Delimiter: delimiter, ContinuationToken: token }));
      for (const o of page.Contents ?? []) {
        if (!o.Key) continue;
        keys.push(o.Key);
        modified.set(o.Key, o.LastModified);
      }
      prefixes.push(...(page.CommonPrefixes ?? []).map((p) => p.Prefix!).filter(Boolean));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return { keys, prefixes, modified };
  };

  const getText = (key: string) => getTextOrNull(s3, bucket, key);

  const deleteKeys = async (keys: string[]) => {
    for (let i = 0; i < keys.length; i += 1000) {
      await s3.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys.slice(i, i + 1000).map((Key) => ({ Key })) } }));
    }
  };

  /** Releases of either layout, by id: a prefix `releases/<id>/` or a manifest `releases/<id>.json`. */
  const releaseLayouts = async (slug: string) => {
    const { keys, prefixes } = await listKeys(`${prefix(slug)}releases/`, '/');
    const layouts = new Map<string, 'prefix' | 'manifest'>();
    for (const p of prefixes) layouts.set(p.split('/').at(-2)!, 'prefix');
    for (const name of keys.map((k) => k.split('/').at(-1)!)) if (name.endsWith('.json')) layouts.set(name.slice(0, -'.json'.length), 'manifest');
    for (const id of layouts.keys()) if (!isReleaseId(id)) layouts.delete(id);
    return layouts;
  };

  const listReleases = async (slug: string) => [...(await releaseLayouts(slug)).keys()].sort();

  const currentId = async (slug: string) => (await getText(`${prefix(slug)}current`))?.trim() || null;

  const readManifest = async (slug: string, releaseId: string): Promise<ReleaseManifest | null> => {
    const text = await getText(manifestKey(slug, releaseId));
    return text === null ? null : parseManifest(text);
  };

  const readManifestRelease = async (slug: string, releaseId: string, manifest: ReleaseManifest) => {
    const ids = [...new Set(Object.values(manifest.files))];
    const contents = new Map(await Promise.all(ids.map((id) => limit(async () => [id, await getText(objectKey(slug, id))] as const))));
    // An object gone between manifest and get: the release was pruned under us; never a partial one.
    if ([...contents.values()].some((c) => c === null)) return null;
    const files = Object.entries(manifest.files).map(([path, id]) => ({ path, content: contents.get(id)!, contentType: manifest.types[id]! }));
    return { releaseId, files: files.sort((a, b) => (a.path < b.path ? -1 : 1)) };
  };

  const readPrefixRelease = async (slug: string, releaseId: string) => {
    const base = releasePrefix(slug, releaseId);
    const { keys } = await listKeys(base);
    if (keys.length === 0) return null;
    const files = await Promise.all(keys.map((key) => limit(async () => {
      const path = '/' + key.slice(base.length);
      const content = await getText(key);
      return content === null ? null : { path, content, contentType: contentTypeOf(path) };
    })));
    // An object gone between list and get: the release was pruned under us; never a partial one.
    if (files.some((f) => f === null)) return null;
    return { releaseId, files: withoutAiFallbackCopies(files as SiteFile[]).sort((a, b) => (a.path < b.path ? -1 : 1)) };
  };

  const readRelease = async (slug: string, releaseId: string) => {
    if (!isReleaseId(releaseId)) return null;
    const manifest = await readManifest(slug, releaseId);
    return manifest ? readManifestRelease(slug, releaseId, manifest) : readPrefixRelease(slug, releaseId);
  };

  const point = async (slug: string, releaseId: string) => {
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: `${prefix(slug)}current`, Body: releaseId, ContentType: 'text/plain' }));
    if (kvs) await putKvsKey(kvs, slug, releaseId);
  };

  const putObject = (key: string, file: SiteFile) => s3.send(new PutObjectCommand({
    Bucket: bucket, Key: key, Body: file.content, ContentType: file.contentType || contentTypeOf(file.path), CacheControl: cacheControl(file.path),
  }));

  /** What one upload of a streamed release counts: its paths (each once) and bytes. */
  const tally = () => ({ paths: new Set<string>(), bytes: 0 });

  /**
   * Every file under the release's own prefix as it streams, then D28's fallback copies, copied
   * inside the bucket (only once every path is known can a file be told to need one).
   */
  const uploadPrefixRelease = async (slug: string, releaseId: string, files: ReleaseFiles) => {
    const base = releasePrefix(slug, releaseId);
    const written = tally();
    try {
      await forEachBounded(files, uploadConcurrency, async (file) => {
        assertNewPath(written.paths, file.path);
        written.bytes += Buffer.byteLength(file.content);
        await putObject(base + releaseRelativePath(file.path), file);
      });
      await forEachBounded(aiFallbackCopyPaths(written.paths), uploadConcurrency, ({ from, to }) => s3.send(new CopyObjectCommand({
        Bucket: bucket, Key: base + releaseRelativePath(to), CopySource: copySource(bucket, base + releaseRelativePath(from)),
      })));
    } catch (err) {
      // A prefix is listed as a release: what a failed stream wrote goes, so no half release can be rolled back to.
      await deleteKeys((await listKeys(base)).keys).catch(() => undefined);
      throw err;
    }
    return written;
  };

  /** The objects the current release does not hold, as the files stream, then the manifest naming them all. */
  const uploadManifestRelease = async (slug: string, releaseId: string, files: ReleaseFiles) => {
    const current = await currentId(slug);
    const previous = current ? await readManifest(slug, current) : null;
    const held = new Set(previous ? Object.values(previous.files) : []);
    const manifest = emptyManifest();
    const written = tally();
    await forEachBounded(files, uploadConcurrency, async (file) => {
      releaseRelativePath(file.path); // the same path rules as the prefix layout
      assertNewPath(written.paths, file.path);
      written.bytes += Buffer.byteLength(file.content);
      const typed = { ...file, contentType: file.contentType || contentTypeOf(file.path) };
      const id = addToManifest(manifest, typed);
      if (held.has(id)) return;
      held.add(id); // two paths with the same bytes: one upload
      await putObject(objectKey(slug, id), typed);
    });
    await s3.send(new PutObjectCommand({
      Bucket: bucket, Key: manifestKey(slug, releaseId), Body: JSON.stringify(manifest), ContentType: 'application/json', CacheControl: 'public, max-age=31536000, immutable',
    }));
    return written;
  };

  /** One release read file by file: through its manifest, or under its prefix. */
  const openRelease = async (slug: string, releaseId: string): Promise<ReleaseReader | null> => {
    if (!isReleaseId(releaseId)) return null;
    const manifest = await readManifest(slug, releaseId);
    if (manifest) {
      return {
        paths: async () => Object.keys(manifest.files),
        read: async (path) => { const id = manifest.files[path]; return id ? getText(objectKey(slug, id)) : null; },
      };
    }
    if (!(await listReleases(slug)).includes(releaseId)) return null;
    const base = releasePrefix(slug, releaseId);
    return {
      paths: async () => (await listKeys(base)).keys.map((key) => '/' + key.slice(base.length)),
      read: (path) => getText(base + releaseRelativePath(path)),
    };
  };

  /** Objects no kept manifest names, once the grace has passed (D179). */
  const collectObjects = async (slug: string, kept: string[]) => {
    const manifests = (await Promise.all(kept.map((id) => readManifest(slug, id)))).filter((m): m is ReleaseManifest => m !== null);
    const { keys, modified } = await listKeys(`${prefix(slug)}objects/`);
    const objects = keys.map((key) => ({ id: key.split('/').at(-1)!, lastModified: modified.get(key) })).filter((o) => isObjectId(o.id));
    await deleteKeys(unreferencedObjects(objects, manifests, clock.now()).map((id) => objectKey(slug, id)));
  };

  return {
    async publish(slug, files) {
      const releaseId = newReleaseId(clock.now());
      const written = settings.layout === 'manifest' ? await uploadManifestRelease(slug, releaseId, files) : await uploadPrefixRelease(slug, releaseId, files);
      await point(slug, releaseId);
      // The pointer is re-read: a concurrent publish may have moved it.
      const current = (await currentId(slug)) ?? releaseId;
      const layouts = await releaseLayouts(slug);
      const pruned = releasesToPrune([...layouts.keys()], current, clock.now(), keep);
      for (const old of pruned) {
        await deleteKeys(layouts.get(old) === 'manifest' ? [manifestKey(slug, old)] : (await listKeys(releasePrefix(slug, old))).keys);
      }
      if (pruned.some((id) => layouts.get(id) === 'manifest')) await collectObjects(slug, [...layouts.keys()].filter((id) => !pruned.includes(id)));
      return { releaseId, fileCount: written.paths.size, bytes: written.bytes };
    },

    openRelease,

    readCurrent: (slug) => readPinnedRelease(() => currentId(slug), (id) => readRelease(slug, id), slug),

    currentReleaseId: currentId,

    readRelease,

    listReleases,

    async rollback(slug, releaseId) {
      if (!(await listReleases(slug)).includes(releaseId)) throw new NotFoundError(`release ${releaseId} of ${slug} does not exist`);
      await point(slug, releaseId);
    },
  };
}

/** KVS writes are optimistic (ETag): retry when another writer got in first. */
async function putKvsKey(kvs: { arn: string; client: CloudFrontKeyValueStoreClient }, key: string, value: string, attempts = 5): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const { ETag } = await kvs.client.send(new DescribeKeyValueStoreCommand({ KvsARN: kvs.arn }));
    try {
      await kvs.client.send(new PutKeyCommand({ KvsARN: kvs.arn, Key: key, Value: value, IfMatch: ETag }));
      return;
    } catch (err) {
      if ((err as { name?: string }).name !== 'ConflictException' || attempt >= attempts) throw err;
    }
  }
}
