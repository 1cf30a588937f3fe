/** Workflow objects (a Distributed Map's item lists and results) as plain JSON in the sites bucket. */
import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { WorkflowObjectStore } from '../../ports';
import { getTextOrNull } from './s3-get';

export function createS3WorkflowObjects(s3: S3Client, bucket: string): WorkflowObjectStore {
  return {
    bucket,
    async putJson(key, value) {
      await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: JSON.stringify(value), ContentType: 'application/json' }));
    },
    async getJson(key) {
      const text = await getTextOrNull(s3, bucket, key);
      return text === null ? null : JSON.parse(text);
    },
  };
}
