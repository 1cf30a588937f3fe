/**
 * S3 buckets as directories (the local stand-in for what Step Functions reads and writes in
 * S3 on a Distributed Map's behalf): `<root>/<bucket>/<key>`, plain JSON, each object
 * written whole or not at all.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';
import type { WorkflowObjectStore } from '../../ports';

export interface LocalBuckets {
  putJson(bucket: string, key: string, value: unknown): Promise<void>;
  getJson<T>(bucket: string, key: string): Promise<T | null>;
}

const NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

export function createFsBuckets(root: string): LocalBuckets {
  const file = (bucket: string, key: string) => {
    if (!NAME.test(bucket)) throw new Error(`bucket name ${JSON.stringify(bucket)} is not a valid S3 bucket name`);
    const base = resolve(root, bucket);
    const target = resolve(base, key);
    // A key is a name, not a path out of the bucket.
    if (!target.startsWith(base + sep)) throw new Error(`object key ${JSON.stringify(key)} leaves its bucket`);
    return target;
  };
  return {
    async putJson(bucket, key, value) {
      const target = file(bucket, key);
      await mkdir(dirname(target), { recursive: true });
      const tmp = `${target}.${process.pid}.${randomUUID()}.tmp`;
      await writeFile(tmp, JSON.stringify(value));
      await rename(tmp, target);
    },
    async getJson(bucket, key) {
      try {
        return JSON.parse(await readFile(file(bucket, key), 'utf8'));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },
  };
}

/** The local runtime's one bucket for workflow objects. */
export const LOCAL_WORKFLOW_BUCKET = 'local-workflow-objects';

export function createFsWorkflowObjects(root: string, bucket = LOCAL_WORKFLOW_BUCKET): WorkflowObjectStore {
  const buckets = createFsBuckets(root);
  return {
    bucket,
    putJson: (key, value) => buckets.putJson(bucket, key, value),
    getJson: (key) => buckets.getJson(bucket, key),
  };
}
