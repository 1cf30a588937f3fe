/**
 * Daily-schedule run records. Per business per day: `PK = DAILYRUN#<date>`, `SK = ORG#<slug>`
 * (one partition per day, so the status route pages through a day's businesses with one
 * query); each step updates only its own entry of the `steps` map, and the changed URLs
 * are a string set, so retries add nothing twice. Per execution: `PK = DAILYEXEC#<id>`, with
 * atomic counters per outcome.
 */
import { GetCommand, PutCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { BusinessRun, DailyExecution } from '../../core/daily/run';
import type { DailyRunRepository } from '../../ports';
import { keys } from './keys';
import { decodeCursor, encodeCursor } from './page-cursor';

const RUN_TYPE = 'daily_run';

export function createDailyRunRepository(db: DynamoDBDocumentClient, table: string): DailyRunRepository {
  /** One update of an item that must exist (a run or execution record is never created by these). */
  const updateExisting = async (Key: Record<string, string>, UpdateExpression: string, values: Record<string, unknown>, names?: Record<string, string>) => {
    await db.send(new UpdateCommand({
      TableName: table, Key, UpdateExpression, ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: values, ...(names ? { ExpressionAttributeNames: names } : {}),
    }));
  };
  const toRun = (item: Record<string, any>): BusinessRun => ({
    org_slug: item.org_slug,
    run_date: item.run_date,
    execution_id: item.execution_id,
    status: item.status,
    reason: item.reason ?? null,
    started_at: item.started_at,
    finished_at: item.finished_at ?? null,
    steps: item.steps,
    changed_urls: item.changed_urls ? [...(item.changed_urls as Set<string>)].sort() : [],
  });

  return {
    async getBusinessRun(runDate, orgSlug) {
      const { Item } = await db.send(new GetCommand({ TableName: table, Key: keys.dailyRun(runDate, orgSlug), ConsistentRead: true }));
      return Item ? toRun(Item) : null;
    },

    async claimBusinessRun(run) {
      const { Attributes } = await db.send(new UpdateCommand({
        TableName: table,
        Key: keys.dailyRun(run.run_date, run.org_slug),
        UpdateExpression: 'SET #type = :type, org_slug = :org, run_date = :date, execution_id = :exec, #status = :status, reason = :null, '
          + 'finished_at = :null, started_at = if_not_exists(started_at, :started), steps = if_not_exists(steps, :steps)',
        ExpressionAttributeNames: { '#type': 'type', '#status': 'status' },
        ExpressionAttributeValues: {
          ':type': RUN_TYPE, ':org': run.org_slug, ':date': run.run_date, ':exec': run.execution_id, ':status': run.status,
          ':null': null, ':started': run.started_at, ':steps': run.steps,
        },
        ReturnValues: 'ALL_NEW',
      }));
      return toRun(Attributes!);
    },

    async updateStep(runDate, orgSlug, step, state) {
      await updateExisting(keys.dailyRun(runDate, orgSlug), 'SET steps.#step = :state', { ':state': state }, { '#step': step });
    },

    async addChangedUrls(runDate, orgSlug, urls) {
      if (urls.length === 0) return;
      await updateExisting(keys.dailyRun(runDate, orgSlug), 'ADD changed_urls :urls', { ':urls': new Set(urls) });
    },

    async finishBusinessRun(runDate, orgSlug, fields) {
      await updateExisting(keys.dailyRun(runDate, orgSlug), 'SET #status = :status, reason = :reason, finished_at = :finished, steps = :steps',
        { ':status': fields.status, ':reason': fields.reason, ':finished': fields.finished_at, ':steps': fields.steps }, { '#status': 'status' });
    },

    async listBusinessRuns(runDate, { cursor, limit, executionId }) {
      const page = await db.send(new QueryCommand({
        TableName: table,
        KeyConditionExpression: 'PK = :pk',
        ...(executionId ? { FilterExpression: 'execution_id = :exec' } : {}),
        ExpressionAttributeValues: { ':pk': keys.dailyRun(runDate, '').PK, ...(executionId ? { ':exec': executionId } : {}) },
        ExclusiveStartKey: decodeCursor(cursor, ['PK', 'SK']),
        Limit: limit,
        ConsistentRead: true,
      }));
      return { runs: (page.Items ?? []).map(toRun), nextCursor: encodeCursor(page.LastEvaluatedKey) };
    },

    async createExecution(execution) {
      await db.send(new PutCommand({
        TableName: table,
        Item: { ...keys.dailyExecution(execution.execution_id), type: 'daily_execution', ...execution },
        ConditionExpression: 'attribute_not_exists(PK)',
      })).catch((err: { name?: string }) => {
        // A retried task: the execution is already recorded.
        if (err.name !== 'ConditionalCheckFailedException') throw err;
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
