/**
 * Daily-schedule run records (core/daily/run.ts):
 * - per execution, `PK = DAILYEXEC#<id>`: the execution record (`SK = EXECUTION`, atomic
 *   counters per outcome) and one run record per business (`SK = ORG#<slug>`), so every
 *   execution reads back whole, whatever ran later that day. Each step updates only its own
 *   entry of the `steps` map. The changed URLs (up to every page of a 5,000-page store) are
 *   string sets spread over `URL_BUCKETS` items of the execution's partition by URL hash
 *   (`SK = CHANGED#<slug>#<nn>`, D39), so the run record stays small and retries add nothing
 *   twice; runs recorded before keep theirs in the run item, read alongside.
 * - per business per day, `PK = DAILYRUN#<date>, SK = ORG#<slug>`: the day's lease (one
 *   execution at a time; conditional writes, expiring) and the latest execution.
 */
import { createHash } from 'node:crypto';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { BusinessRun, DailyExecution, DayLease } from '../../core/daily/run';
import type { DailyRunRepository } from '../../ports';
import { conditionalWrite, isConditionFailure } from './client';
import { keys } from './keys';
import { decodeCursor, encodeCursor } from './page-cursor';

const RUN_TYPE = 'daily_run';
/** Items a run's changed URLs are spread over: 64 × 400 KB holds far more than 5,000 pages' URLs. */
export const URL_BUCKETS = 64;
const bucketOf = (url: string) => Number.parseInt(createHash('sha1').update(url).digest('hex').slice(0, 8), 16) % URL_BUCKETS;

export function createDailyRunRepository(db: DynamoDBDocumentClient, table: string): DailyRunRepository {
  /** One update of an item that must exist (a run or execution record is never created by these). */
  const updateExisting = async (Key: Record<string, string>, UpdateExpression: string, values: Record<string, unknown>, names?: Record<string, string>) => {
    await db.send(new UpdateCommand({
      TableName: table, Key, UpdateExpression, ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: values, ...(names ? { ExpressionAttributeNames: names } : {}),
    }));
  };
  /** The run's changed URLs: its buckets', and those an older record kept in its own item. */
  const changedUrlsOf = async (item: Record<string, any>): Promise<string[]> => {
    const urls = new Set<string>(item.changed_urls ? [...(item.changed_urls as Set<string>)] : []);
    let start: Record<string, unknown> | undefined;
    do {
      const page = await db.send(new QueryCommand({
        TableName: table,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
        ExpressionAttributeValues: { ':pk': keys.dailyExecution(item.execution_id).PK, ':prefix': keys.dailyChangedUrlsPrefix(item.org_slug) },
        ExclusiveStartKey: start,
        ConsistentRead: true,
      }));
      for (const bucket of page.Items ?? []) for (const url of (bucket.urls as Set<string> | undefined) ?? []) urls.add(url);
      start = page.LastEvaluatedKey;
    } while (start);
    return [...urls].sort();
  };
  const addUrls = async (executionId: string, orgSlug: string, urls: readonly string[]) => {
    const buckets = new Map<number, Set<string>>();
    for (const url of urls) {
      const bucket = bucketOf(url);
      buckets.set(bucket, (buckets.get(bucket) ?? new Set<string>()).add(url));
    }
    // One ADD per bucket, side by side: disjoint items, and a set ignores what it already holds.
    await Promise.all([...buckets].map(([bucket, set]) => db.send(new UpdateCommand({
      TableName: table,
      Key: keys.dailyChangedUrls(executionId, orgSlug, bucket),
      UpdateExpression: 'SET #type = :type ADD urls :urls',
      ExpressionAttributeNames: { '#type': 'type' },
      ExpressionAttributeValues: { ':type': 'daily_changed_urls', ':urls': set },
    }))));
  };
  const toRun = async (item: Record<string, any>): Promise<BusinessRun> => ({
    org_slug: item.org_slug,
    run_date: item.run_date,
    execution_id: item.execution_id,
    status: item.status,
    reason: item.reason ?? null,
    started_at: item.started_at,
    finished_at: item.finished_at ?? null,
    steps: item.steps,
    changed_urls: await changedUrlsOf(item),
    resumed_from: item.resumed_from ?? null,
  });
  const leaseOf = (item: Record<string, any> | undefined): DayLease | null => (item?.lease_execution_id
    ? { execution_id: item.lease_execution_id, acquired_at: item.lease_acquired_at, expires_at: item.lease_expires_at }
    : null);
  const getRun = async (executionId: string, orgSlug: string) => {
    const { Item } = await db.send(new GetCommand({ TableName: table, Key: keys.dailyBusinessRun(executionId, orgSlug), ConsistentRead: true }));
    return Item ? await toRun(Item) : null;
  };

  return {
    getBusinessRun: getRun,

    async claimBusinessRun(run) {
      const { changed_urls: _urls, ...item } = run;
      try {
        await db.send(new PutCommand({
          TableName: table,
          Item: { ...keys.dailyBusinessRun(run.execution_id, run.org_slug), type: RUN_TYPE, ...item },
          ConditionExpression: 'attribute_not_exists(PK)',
        }));
        return { run, created: true };
      } catch (err) {
        // A retried StartBusinessRun: the execution's record of the business exists already.
        if (!isConditionFailure(err)) throw err;
        return { run: (await getRun(run.execution_id, run.org_slug))!, created: false };
      }
    },

    async resumeBusinessRun(executionId, orgSlug, fields) {
      await updateExisting(keys.dailyBusinessRun(executionId, orgSlug), 'SET steps = :steps, resumed_from = :from', { ':steps': fields.steps, ':from': fields.resumed_from });
      await addUrls(executionId, orgSlug, fields.changed_urls);
    },

    async acquireDayLease(runDate, orgSlug, executionId, now, expiresAt) {
      const Key = keys.dailyLease(runDate, orgSlug);
      for (let attempt = 1; ; attempt++) {
        try {
          const { Attributes } = await db.send(new UpdateCommand({
            TableName: table,
            Key,
            UpdateExpression: 'SET #type = :type, lease_execution_id = :exec, lease_acquired_at = :now, lease_expires_at = :exp, latest_execution_id = :exec',
            ConditionExpression: 'attribute_not_exists(lease_execution_id) OR lease_execution_id = :exec OR lease_expires_at < :now',
            ExpressionAttributeNames: { '#type': 'type' },
            ExpressionAttributeValues: { ':type': 'daily_lease', ':exec': executionId, ':now': now, ':exp': expiresAt },
            ReturnValues: 'ALL_OLD',
          }));
          const previous = leaseOf(Attributes);
          return { acquired: true, abandoned: previous && previous.execution_id !== executionId ? previous : null };
        } catch (err) {
          if (!isConditionFailure(err)) throw err;
          const { Item } = await db.send(new GetCommand({ TableName: table, Key, ConsistentRead: true }));
          const holder = leaseOf(Item);
          // Released between the two requests: ask again.
          if (holder || attempt >= 3) return { acquired: false, holder: holder ?? { execution_id: 'unknown', acquired_at: now, expires_at: now } };
        }
      }
    },

    async renewDayLease(runDate, orgSlug, executionId, expiresAt) {
      return conditionalWrite(async () => {
        await db.send(new UpdateCommand({
          TableName: table,
          Key: keys.dailyLease(runDate, orgSlug),
          UpdateExpression: 'SET lease_expires_at = :exp',
          ConditionExpression: 'lease_execution_id = :exec',
          ExpressionAttributeValues: { ':exec': executionId, ':exp': expiresAt },
        }));
      });
    },

    async releaseDayLease(runDate, orgSlug, executionId) {
      await conditionalWrite(async () => {
        await db.send(new UpdateCommand({
          TableName: table,
          Key: keys.dailyLease(runDate, orgSlug),
          UpdateExpression: 'REMOVE lease_execution_id, lease_acquired_at, lease_expires_at',
          ConditionExpression: 'lease_execution_id = :exec',
          ExpressionAttributeValues: { ':exec': executionId },
        }));
      });
    },

    async getDayLease(runDate, orgSlug) {
      const { Item } = await db.send(new GetCommand({ TableName: table, Key: keys.dailyLease(runDate, orgSlug), ConsistentRead: true }));
      return { lease: leaseOf(Item), latestExecutionId: Item?.latest_execution_id ?? null };
    },

    async updateStep(executionId, orgSlug, step, state) {
      await updateExisting(keys.dailyBusinessRun(executionId, orgSlug), 'SET steps.#step = :state', { ':state': state }, { '#step': step });
    },

    async addChangedUrls(executionId, orgSlug, urls) {
      if (urls.length === 0) return;
      // A run that was never claimed gets none (as an update of its record would have failed).
      const { Item } = await db.send(new GetCommand({ TableName: table, Key: keys.dailyBusinessRun(executionId, orgSlug), ConsistentRead: true, ProjectionExpression: 'PK' }));
      if (!Item) throw new Error(`no daily run record of ${orgSlug} in execution ${executionId}: its changed URLs have nowhere to go`);
      await addUrls(executionId, orgSlug, urls);
    },

    async finishBusinessRun(executionId, orgSlug, fields) {
      // Only a running record is closed, so a retried close counts the business once.
      return conditionalWrite(async () => {
        await db.send(new UpdateCommand({
          TableName: table,
          Key: keys.dailyBusinessRun(executionId, orgSlug),
          UpdateExpression: 'SET #status = :status, reason = :reason, finished_at = :finished, steps = :steps',
          ConditionExpression: '#status = :running',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':status': fields.status, ':reason': fields.reason, ':finished': fields.finished_at, ':steps': fields.steps, ':running': 'running' },
        }));
      });
    },

    async listBusinessRuns(executionId, { cursor, limit, runDate }) {
      // An execution recorded before runs were kept per execution (D162) has them in its day's
      // partition, filtered by execution: its cursor names that partition, and an empty first
      // page of the execution's own partition sends the read there.
      const start = decodeCursor(cursor, ['PK', 'SK']);
      const dayPk = runDate ? keys.dailyLease(runDate, '').PK : null;
      const query = (pk: string, filter: boolean) => db.send(new QueryCommand({
        TableName: table,
        KeyConditionExpression: filter ? 'PK = :pk' : 'PK = :pk AND begins_with(SK, :org)',
        ...(filter ? { FilterExpression: 'execution_id = :exec AND attribute_exists(steps)' } : {}),
        ExpressionAttributeValues: filter ? { ':pk': pk, ':exec': executionId } : { ':pk': pk, ':org': 'ORG#' },
        ExclusiveStartKey: start,
        Limit: limit,
        ConsistentRead: true,
      }));
      let page = dayPk && start?.PK === dayPk ? await query(dayPk, true) : await query(keys.dailyExecution(executionId).PK, false);
      if (dayPk && !start && !page.Items?.length && !page.LastEvaluatedKey) page = await query(dayPk, true);
      return { runs: await Promise.all((page.Items ?? []).map(toRun)), nextCursor: encodeCursor(page.LastEvaluatedKey) };
    },

    async createExecution(execution) {
      await db.send(new PutCommand({
        TableName: table,
        Item: { ...keys.dailyExecution(execution.execution_id), type: 'daily_execution', ...execution },
        ConditionExpression: 'attribute_not_exists(PK)',
      })).catch((err: unknown) => {
        // A retried task: the execution is already recorded.
        if (!isConditionFailure(err)) throw err;
      });
    },

    async getExecution(executionId) {
      const { Item } = await db.send(new GetCommand({ TableName: table, Key: keys.dailyExecution(executionId), ConsistentRead: true }));
      if (!Item) return null;
      const { PK: _pk, SK: _sk, type: _type, ...execution } = Item;
      return execution as DailyExecution;
    },

    async countBusiness(executionId, outcome) {
      await updateExisting(keys.dailyExecution(executionId), 'ADD counts.#outcome :one', { ':one': 1 }, { '#outcome': outcome });
    },

    async finishExecution(executionId, fields) {
      await updateExisting(keys.dailyExecution(executionId), 'SET #status = :status, finished_at = :finished, reason = :reason',
        { ':status': fields.status, ':finished': fields.finished_at, ':reason': fields.reason }, { '#status': 'status' });
    },
  };
}
