/**
 * The access-log ingest Lambda (S3 ObjectCreated on the access-log bucket, prefix
 * `cloudfront/`; lib/constructs/access-log-ingest.ts): each new CloudFront standard log file
 * (gzip, W3C tab-separated) is streamed, line by line, into the visit store
 * (app/visits/ingest.ts). Files that are not gzip are read as plain text. A failed write is
 * counted and logged, and the file then throws, so the asynchronous invocation is retried:
 * visits already written are found again by their dedupe key and not counted twice, and the
 * ones that failed get another chance instead of being lost.
 */
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type { S3Event } from 'aws-lambda';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { ingestAccessLogLines, type IngestSummary } from '../app/visits/ingest';
import { readyContainer } from '../container';
import { createLogger } from '../logger';
import { lambdaTask } from '../invocation';

/** Reads one object as a stream (injected by tests). */
export type ObjectStreamReader = (bucket: string, key: string) => Promise<Readable>;

let s3: S3Client | undefined;
const readFromS3: ObjectStreamReader = async (bucket, key) => {
  s3 ??= new S3Client({});
  const { Body } = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  if (!Body) throw new Error(`s3://${bucket}/${key} has no body`);
  return Body as Readable;
};

/** The object's lines: gunzipped when it starts with the gzip magic bytes. */
export async function* linesOf(stream: Readable): AsyncIterable<string> {
  const iterator = stream[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done) return;
  const head = Buffer.from(first.value as Buffer);
  const rest = Readable.from((async function* () {
    yield head;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value as Buffer;
  })());
  const gzip = head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;
  const source = gzip ? rest.pipe(createGunzip()) : rest;
  yield* createInterface({ input: source, crlfDelay: Infinity });
}

export function createIngestHandler(read: ObjectStreamReader = readFromS3) {
  return async (event: S3Event): Promise<IngestSummary[]> => {
    const container = await readyContainer();
    const results: IngestSummary[] = [];
    for (const record of event.Records ?? []) {
      const bucket = record.s3.bucket.name;
      // S3 event keys are URL-encoded with `+` for spaces.
      const key = decodeURIComponent(record.s3.object.key.replace(/\+/g, ' '));
      const log = createLogger({ task: 'ingest-access-logs', bucket, key });
      const startedAt = Date.now();
      const summary = await ingestAccessLogLines(container, linesOf(await read(bucket, key)));
      log.info('access log ingested', { ...summary, duration_ms: Date.now() - startedAt });
      if (summary.failed > 0) {
        throw new Error(`ingest of s3://${bucket}/${key}: ${summary.failed} of ${summary.crawlerRequests - summary.ignored} visit writes failed`);
      }
      results.push(summary);
    }
    return results;
  };
}

export const handler = lambdaTask(createIngestHandler());
