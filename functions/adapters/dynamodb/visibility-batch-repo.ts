/**
 * The day's vendor batch jobs (issue 47, app/visibility/batches.ts): one item per job under
 * `VISBATCH#<run_date>` / `<platform>#<job_id>`, so one Query lists the day's jobs. A job
 * holds the checks it carries (at most MAX_JOB_CHECKS members, ~100 KB) and its businesses
 * (at most 100 slugs, ~2 KB), which the listing reads instead (D231). Created once (a
 * retried submit finds it), then updated as the vendor reports.
 *
 * Beside them, one item per shard of the day's business list (D222) under
 * `shard#<execution_id>#<shard>`: the set of its businesses done with their day (a string set,
 * so a repeated arrival adds nothing) and whether its checks were sent.
 */
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { OpenBatchJob, VisibilityBatchJob, VisibilityBatchRepository, VisibilityBatchShard } from '../../ports';
import { conditionalWrite, putIfAbsent } from './client';
import { queryAll } from './query-all';

const key = (runDate: string, platform: string, jobId: string) => ({ PK: `VISBATCH#${runDate}`, SK: `${platform}#${jobId}` });
const shardPrefix = (executionId: string) => `shard#${executionId}#`;
/** Zero-padded so the shards list in order. */
const shardKey = (runDate: string, executionId: string, shard: number) => ({ PK: `VISBATCH#${runDate}`, SK: `${shardPrefix(executionId)}${String(shard).padStart(6, '0')}` });

const shardOf = (item: Record<string, unknown>): VisibilityBatchShard => ({
  shard: item.shard as number,
  expected: item.expected as number,
  arrived: [...((item.arrived as Set<string> | undefined) ?? [])].sort(),
  submitted: item.submitted === true,
});

export function createVisibilityBatchRepository(db: DynamoDBDocumentClient, table: string): VisibilityBatchRepository {
  const strip = (item: Record<string, unknown>) => {
    const { PK: _pk, SK: _sk, type: _type, collected_orgs: collected, ...job } = item;
    return { ...job, ...(collected ? { collected_orgs: [...(collected as Set<string>)].sort() } : {}) } as unknown as VisibilityBatchJob;
  };
  const uncollected = (job: VisibilityBatchJob) => job.status === 'submitting' || job.status === 'in_progress'
    || (job.member_orgs !== undefined && (job.collected_orgs?.length ?? 0) < job.member_orgs);
  async function get(runDate: string, platform: string, jobId: string): Promise<VisibilityBatchJob | null> {
    const { Item } = await db.send(new GetCommand({ TableName: table, Key: key(runDate, platform, jobId), ConsistentRead: true }));
    return Item ? strip(Item) : null;
  }
  /** Sets the job's `field` to `until` when `condition` holds and no claim in that field is live at `now` (a conditional write). */
  function claim(
    job: Pick<VisibilityBatchJob, 'run_date' | 'platform' | 'job_id'>, field: 'results_claimed_until' | 'send_claimed_until', condition: string,
    names: Record<string, string>, until: string, now: string, values: Record<string, string> = {},
  ): Promise<boolean> {
    return conditionalWrite(() => db.send(new UpdateCommand({
      TableName: table,
      Key: key(job.run_date, job.platform, job.job_id),
      ConditionExpression: `${condition} AND (attribute_not_exists(#claim) OR #claim < :now)`,
      UpdateExpression: 'SET #claim = :until',
      ExpressionAttributeNames: { ...names, '#claim': field },
      ExpressionAttributeValues: { ...values, ':until': until, ':now': now },
    })));
  }
  return {
    create: (job) => putIfAbsent(db, table, { ...key(job.run_date, job.platform, job.job_id), type: 'visibility_batch_job', ...job }),
    get,
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
    async listOpen(runDate, endedSince) {
      const items = await queryAll(db, {
        TableName: table,
        KeyConditionExpression: 'PK = :pk',
        // Ended recently and counting its businesses: whether all are collected is read from the item.
        FilterExpression: '#s IN (:submitting, :progress) OR (attribute_exists(#members) AND #ended >= :since)',
        // The businesses, not the ~100 KB of members (D231): a 50,000-business day lists 1,500 jobs every poll.
        ProjectionExpression: '#pk, #sk, run_date, platform, job_id, execution_id, #s, ended_at, #members, member_org_slugs, collected_orgs',
        ExpressionAttributeNames: { '#pk': 'PK', '#sk': 'SK', '#s': 'status', '#members': 'member_orgs', '#ended': 'ended_at' },
        ExpressionAttributeValues: { ':pk': `VISBATCH#${runDate}`, ':submitting': 'submitting', ':progress': 'in_progress', ':since': endedSince },
        ConsistentRead: true,
      });
      const open = items.map(strip).filter(uncollected);
      // A job recorded before D231 has no business list: its members, read whole.
      return Promise.all(open.map(async (job): Promise<OpenBatchJob> => {
        const orgSlugs = job.member_org_slugs ?? [...new Set((await get(job.run_date, job.platform, job.job_id))?.members.map((m) => m.org_slug) ?? [])];
        const { member_org_slugs: _slugs, ...rest } = job;
        return { ...rest, org_slugs: orgSlugs };
      }));
    },
    // The first collector of an ended job stores its answers (D224); one copy of a submit sends a job (D230).
    claimResults: (job, until, now) => claim(job, 'results_claimed_until', 'attribute_exists(PK) AND attribute_not_exists(results_stored_at)', {}, until, now),
    claimSend: (job, until, now) => claim(job, 'send_claimed_until', '#s = :submitting', { '#s': 'status' }, until, now, { ':submitting': 'submitting' }),
    async markCollected(job, orgSlugs) {
      if (orgSlugs.length === 0) return;
      // A job that was never recorded has nothing to mark (its checks were failed for that): the failed condition is ignored.
      await conditionalWrite(() => db.send(new UpdateCommand({
        TableName: table,
        Key: key(job.run_date, job.platform, job.job_id),
        ConditionExpression: 'attribute_exists(PK)',
        UpdateExpression: 'ADD #collected :orgs',
        ExpressionAttributeNames: { '#collected': 'collected_orgs' },
        ExpressionAttributeValues: { ':orgs': new Set(orgSlugs) },
      })));
    },
    async arrive(runDate, executionId, shard, expected, orgSlugs) {
      const { Attributes } = await db.send(new UpdateCommand({
        TableName: table,
        Key: shardKey(runDate, executionId, shard),
        // `shard` and `type` are reserved words: every name goes through a placeholder.
        UpdateExpression: 'ADD #arrived :orgs SET #type = :type, #shard = :shard, #expected = :expected',
        ExpressionAttributeNames: { '#arrived': 'arrived', '#type': 'type', '#shard': 'shard', '#expected': 'expected' },
        ExpressionAttributeValues: { ':orgs': new Set(orgSlugs), ':type': 'visibility_batch_shard', ':shard': shard, ':expected': expected },
        ReturnValues: 'ALL_NEW',
      }));
      return shardOf(Attributes!);
    },
    async markShardSubmitted(runDate, executionId, shard) {
      await db.send(new UpdateCommand({
        TableName: table,
        Key: shardKey(runDate, executionId, shard),
        ConditionExpression: 'attribute_exists(PK)',
        UpdateExpression: 'SET #submitted = :yes',
        ExpressionAttributeNames: { '#submitted': 'submitted' },
        ExpressionAttributeValues: { ':yes': true },
      }));
    },
    async listUnsubmittedShards(runDate, executionId) {
      const items = await queryAll(db, {
        TableName: table,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
        FilterExpression: 'attribute_not_exists(#submitted)',
        ExpressionAttributeNames: { '#submitted': 'submitted' },
        ExpressionAttributeValues: { ':pk': `VISBATCH#${runDate}`, ':prefix': shardPrefix(executionId) },
        ConsistentRead: true,
      });
      return items.map(shardOf);
    },
  };
}
