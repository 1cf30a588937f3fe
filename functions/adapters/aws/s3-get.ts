/** One S3 object's body, or null when the key does not exist (NoSuchKey); other errors are thrown. */
import { GetObjectCommand, type GetObjectCommandOutput, type S3Client } from '@aws-sdk/client-s3';

async function bodyOrNull<T>(s3: S3Client, bucket: string, key: string, read: (body: GetObjectCommandOutput['Body']) => Promise<T>): Promise<T | null> {
  try {
    const res = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    return await read(res.Body);
  } catch (err) {
    if ((err as { name?: string }).name === 'NoSuchKey') return null;
    throw err;
  }
}

export const getTextOrNull = (s3: S3Client, bucket: string, key: string): Promise<string | null> =>
  bodyOrNull(s3, bucket, key, async (body) => (await body?.transformToString('utf-8')) ?? '');

export const getBytesOrNull = (s3: S3Client, bucket: string, key: string): Promise<Uint8Array | null> =>
  bodyOrNull(s3, bucket, key, async (body) => (await body?.transformToByteArray()) ?? new Uint8Array());
