/** Workflow artifacts as gzip JSON objects under `artifacts/` in the sites bucket. */
import { DeleteObjectCommand, ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { getBytesOrNull } from './s3-get';
import { gunzipSync, gzipSync } from 'node:zlib';
import { artifactPath } from '../../core/artifacts';
import type { ArtifactStore } from '../../ports';

export function createS3ArtifactStore(s3: S3Client, bucket: string): ArtifactStore {
  const key = (k: string) => `artifacts/${artifactPath(k)}.json.gz`;
  const listWithETags = async (prefix: string): Promise<Record<string, string>> => {
    const base = `artifacts/${artifactPath(prefix)}/`;
    const out: Record<string, string> = {};
    let token: string | undefined;
    do {
      const page = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: base, ContinuationToken: token }));
      for (const o of page.Contents ?? []) {
        if (!o.Key?.endsWith('.json.gz')) continue;
        out[`${prefix.replace(/\/$/, '')}/${o.Key.slice(base.length, -'.json.gz'.length)}`] = o.ETag ?? '';
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return out;
  };

  return {
    async put(k, value) {
      await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key(k), Body: gzipSync(JSON.stringify(value)), ContentType: 'application/json', ContentEncoding: 'gzip' }));
    },
    async get(k) {
      const bytes = await getBytesOrNull(s3, bucket, key(k));
      return bytes === null ? null : JSON.parse(gunzipSync(Buffer.from(bytes)).toString('utf8'));
    },
    list: async (prefix) => Object.keys(await listWithETags(prefix)).sort(),
    // S3 gives every object version its own ETag, returned by the listing itself; a deleted object is no longer listed.
    versions: listWithETags,
    async delete(k) {
      // S3 answers a delete of a missing key with success: a retry deletes nothing twice.
      await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: key(k) }));
    },
  };
}
