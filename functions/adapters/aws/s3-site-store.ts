/**
 * AI-site releases in S3: `sites/<slug>/releases/<id>/<path>` plus a `sites/<slug>/current`
 * pointer object. CloudFront picks the release at the edge from a KeyValueStore entry
 * (`<slug>` → release id), so switching the KVS key is the atomic step: every object of
 * the new release is uploaded before it, and old releases stay until pruned. Each release is its
 * own prefix, and a superseded one is pruned only after a grace, so a pinned reader finishes it.
 */
import {
  DeleteObjectsCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, type S3Client,
} from '@aws-sdk/client-s3';
import {
  CloudFrontKeyValueStoreClient, DescribeKeyValueStoreCommand, PutKeyCommand,
} from '@aws-sdk/client-cloudfront-keyvaluestore';
import '@aws-sdk/signature-v4a'; // KVS requests are signed with SigV4A
import pLimit from 'p-limit';
import { NotFoundError } from '../../core/errors';
import { contentTypeOf } from '../../core/site/content-types';
import {
  assertUniquePaths, isReleaseId, newReleaseId, readPinnedRelease, releaseRelativePath, RELEASES_KEPT, releasesToPrune,
  withAiFallbackCopies, withoutAiFallbackCopies,
} from '../../core/site/release';
import type { SiteFile } from '../../core/site/types';
import type { Clock, SiteStore } from '../../ports';

export interface S3SiteStoreSettings {
  bucket: string;
  s3: S3Client;
  /** The KeyValueStore the AI-site distribution's CloudFront Function reads. */
  kvs?: { arn: string; client: CloudFrontKeyValueStoreClient };
  clock: Clock;
  keep?: number;
  uploadConcurrency?: number;
}

const prefix = (slug: string) => `sites/${slug}/`;
const releasePrefix = (slug: string, id: string) => `${prefix(slug)}releases/${id}/`;

/** HTML and text change daily at most; the edge may keep them for 5 minutes. */
const cacheControl = (path: string) => (/\.(js|ico|png|svg)$/.test(path) ? 'public, max-age=3600' : 'public, max-age=300');

export function createS3SiteStore(settings: S3SiteStoreSettings): SiteStore {
  const { bucket, s3, kvs, clock } = settings;
  const keep = settings.keep ?? RELEASES_KEPT;
  const limit = pLimit(settings.uploadConcurrency ?? 16);

  const listKeys = async (keyPrefix: string, delimiter?: string) => {
    const keys: string[] = [];
    const prefixes: string[] = [];
    let token: string | undefined;
    do {
      const page = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: keyPrefix, Delimiter: delimiter, ContinuationToken: token }));
      keys.push(...(page.Contents ?? []).map((o) => o.Key!).filter(Boolean));
      prefixes.push(...(page.CommonPrefixes ?? []).map((p) => p.Prefix!).filter(Boolean));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return { keys, prefixes };
  };

  const getText = async (key: string) => {
    try {
      const res = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      return (await res.Body?.transformToString('utf-8')) ?? '';
    } catch (err) {
      if ((err as { name?: string }).name === 'NoSuchKey') return null;
      throw err;
    }
  };

  const listReleases = async (slug: string) =>
    (await listKeys(`${prefix(slug)}releases/`, '/')).prefixes.map((p) => p.split('/').at(-2)!).sort();

  const currentId = async (slug: string) => (await getText(`${prefix(slug)}current`))?.trim() || null;

  const readRelease = async (slug: string, releaseId: string) => {
    if (!isReleaseId(releaseId)) return null;
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

  const point = async (slug: string, releaseId: string) => {
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: `${prefix(slug)}current`, Body: releaseId, ContentType: 'text/plain' }));
    if (kvs) await putKvsKey(kvs, slug, releaseId);
  };

  return {
    async publish(slug, siteFiles) {
      assertUniquePaths(siteFiles.map((f) => f.path));
      const files = withAiFallbackCopies(siteFiles);
      const relativePaths = files.map((f) => releaseRelativePath(f.path));
      const releaseId = newReleaseId(clock.now());
      let bytes = 0;
      await Promise.all(files.map((file, i) => limit(async () => {
        bytes += Buffer.byteLength(file.content);
        await s3.send(new PutObjectCommand({
          Bucket: bucket,
          Key: releasePrefix(slug, releaseId) + relativePaths[i],
          Body: file.content,
          ContentType: file.contentType || contentTypeOf(file.path),
          CacheControl: cacheControl(file.path),
        }));
      })));
      await point(slug, releaseId);
      // The pointer is re-read: a concurrent publish may have moved it.
      const current = (await currentId(slug)) ?? releaseId;
      for (const old of releasesToPrune(await listReleases(slug), current, clock.now(), keep)) {
        const { keys } = await listKeys(releasePrefix(slug, old));
        for (let i = 0; i < keys.length; i += 1000) {
          await s3.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys.slice(i, i + 1000).map((Key) => ({ Key })) } }));
        }
      }
      return { releaseId, fileCount: siteFiles.length, bytes };
    },

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
