/** One S3 object as text, or null when the key does not exist (NoSuchKey); other errors are thrown. */
import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';

export async function getTextOrNull(s3: S3Client, bucket: string, key: string): Promise<string | null> {
  try {
    const res = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    return (await res.Body?.transformToString('utf-8')) ?? '';
  } catch (err) {
    if ((err as { name?: string }).name === 'NoSuchKey') return null;
    throw err;
  }
}
