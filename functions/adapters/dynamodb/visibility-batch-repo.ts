/**
 * The day's vendor batch jobs (issue 47, app/visibility/batches.ts): one item per job under
 * `VISBATCH#<run_date>` / `<platform>#<job_id>`, so one Query lists the day's jobs. A job
 * holds the checks it carries (at most one Map child's businesses × the day's prompts: ~100
 * members, a few KB). Created once (a retried submit finds it), then updated as the vendor
 * reports.
 */
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { VisibilityBatchJob, VisibilityBatchRepository } from '../../ports';
import { putIfAbsent } from './client';
import { queryAll } from './query-all';

const key = (runDate: string, platform: string, jobId: string) => ({ PK: `VISBATCH#${runDate}`, SK: `${platform}#${jobId}` });

export function createVisibilityBatchRepository(db: DynamoDBDocumentClient, table: string): VisibilityBatchRepository {
  const strip = (item: Record<string, unknown>) => {
    const { PK: _pk, SK: _sk, type: _type, ...job } = item;
    return job as unknown as VisibilityBatchJob;
  };
  return {
    create: (job) => putIfAbsent(db, table, { ...key(job.run_date, job.platform, job.job_id), type: 'visibility_batch_job', ...job }),
    async get(runDate, platform, jobId) {
      const { Item } = await db.send(new GetCommand({ TableName: table, Key: key(runDate, platform, jobId), ConsistentRead: true }));
      return Item ? strip(Item) : null;
    },
    async update(job, fields) {
      const entries = Object.entries(fields);
      if (entries.length === 0) return;
      await db.send(new UpdateCommand({
        TableName: table,
        Key: key(job.run_date, job.platform, job.job_id),
        ConditionExpression: 'attribute_exists(PK)',
        UpdateExpression: `SET ${entries.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
        ExpressionAttributeNames: Object.fromEntries(entries.map(([name], i) => [`#f${i}`, name])),
        ExpressionAttributeValues: Object.fromEntries(entries.map(([, value], i) => [`:v${i}`, value])),
      }));
    },
    async listOpen(runDate) {
      const items = await queryAll(db, {
        TableName: table,
        KeyConditionExpression: 'PK = :pk',
        FilterExpression: '#s IN (:submitting, :progress)',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':pk': `VISBATCH#${runDate}`, ':submitting': 'submitting', ':progress': 'in_progress' },
        ConsistentRead: true,
      });
      return items.map(strip);
    },
  };
}
