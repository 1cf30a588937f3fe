/**
 * Lambda@Edge origin-request handler of the AI-site distribution (D179): where a release is
 * a manifest of shared objects, the file a request names is looked up in it.
 *
 * The viewer-request router (ai-site-router.js) has already picked the site's release from the
 * KeyValueStore and rewritten the URI to `/sites/<slug>/releases/<release>/<file>`. This
 * function reads that release's manifest (`sites/<slug>/releases/<release>.json`, immutable, so
 * kept in memory by key), and rewrites the URI to the object holding the file's bytes
 * (`/sites/<slug>/objects/<id>`), with D28's `/ai/<path>` → `/<path>` fallback. A file the
 * release does not hold answers 404 here. A release without a manifest is one of the prefix
 * layout: the request goes on unchanged. The bucket and its region come from the S3 origin
 * in the event (Lambda@Edge has no environment variables).
 */
import { S3Client } from '@aws-sdk/client-s3';
import type { CloudFrontRequest, CloudFrontRequestEvent, CloudFrontRequestResult } from 'aws-lambda';
import { getTextOrNull } from '../functions/adapters/aws/s3-get';
import { objectForPath, parseManifest, type ReleaseManifest } from '../functions/core/site/release-manifest';

const RELEASE_URI = /^\/sites\/([a-z0-9][a-z0-9_-]*)\/releases\/([A-Za-z0-9][A-Za-z0-9_-]*)(\/.+)$/;

/** Manifests kept per container (each is immutable; a site's next release is a new key). */
const MANIFESTS_KEPT = 64;

/** Reads one object of the bucket as text; null when it does not exist. */
export type ObjectReader = (bucket: string, region: string, key: string) => Promise<string | null>;

/** `<bucket>.s3.<region>.amazonaws.com` (or the legacy global `<bucket>.s3.amazonaws.com`). */
export function s3OriginOf(request: CloudFrontRequest): { bucket: string; region: string } | null {
  const origin = request.origin?.s3;
  if (!origin) return null;
  const m = /^(.+?)\.s3(?:[.-]([a-z0-9-]+))?\.amazonaws\.com$/.exec(origin.domainName);
  if (!m) return null;
  return { bucket: m[1]!, region: origin.region || m[2] || 'us-east-1' };
}

const notFound = (): CloudFrontRequestResult => ({
  status: '404', statusDescription: 'Not Found',
  headers: { 'content-type': [{ key: 'Content-Type', value: 'text/plain' }], 'cache-control': [{ key: 'Cache-Control', value: 'max-age=60' }] },
  body: 'Not found',
});

export function createResolver(read: ObjectReader) {
  const manifests = new Map<string, Promise<ReleaseManifest | null>>();
  const manifestAt = (bucket: string, region: string, key: string) => {
    const cacheKey = `${bucket}/${key}`;
    let found = manifests.get(cacheKey);
    if (!found) {
      found = read(bucket, region, key).then((text) => (text === null ? null : parseManifest(text)));
      // A failed read is not remembered: the next request tries again.
      found.catch(() => manifests.delete(cacheKey));
      manifests.set(cacheKey, found);
      if (manifests.size > MANIFESTS_KEPT) manifests.delete(manifests.keys().next().value!);
    }
    return found;
  };

  return async (event: CloudFrontRequestEvent): Promise<CloudFrontRequestResult> => {
    const request = event.Records[0]!.cf.request;
    const m = RELEASE_URI.exec(request.uri);
    const origin = s3OriginOf(request);
    if (!m || !origin) return request;
    const [, slug, release, path] = m;
    const manifest = await manifestAt(origin.bucket, origin.region, `sites/${slug}/releases/${release}.json`);
    if (!manifest) return request; // a release of the prefix layout
    const id = objectForPath(manifest, path!);
    if (!id) return notFound();
    request.uri = `/sites/${slug}/objects/${id}`;
    return request;
  };
}

const clients = new Map<string, S3Client>();

/** GetObject with the function's role (s3:GetObject on manifests, s3:ListBucket so a missing one is NoSuchKey). */
const readFromS3: ObjectReader = async (bucket, region, key) => {
  let client = clients.get(region);
  if (!client) clients.set(region, (client = new S3Client({ region })));
  return getTextOrNull(client, bucket, key);
};

export const handler = createResolver(readFromS3);
