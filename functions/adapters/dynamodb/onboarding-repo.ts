/**
 * Onboarding runs: one item per run plus a `latest` pointer item. Starting a run is a
 * conditional write on the pointer, so two generate-all calls cannot both start one.
 * The pointer also holds the running run's lease (`heartbeatAt`, refreshed by its steps)
 * and the runner that runs it, so replacing an abandoned run is decided in that same
 * single-item conditional write. Each step updates only its own entry of the run's `steps` map.
 */
import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ConflictError } from '../../core/errors';
import type { OnboardingRun, StepId, StepState } from '../../core/onboarding/steps';
import type { OnboardingRepository } from '../../ports';
import { isConditionFailure } from './client';
import { keys } from './keys';

export function createOnboardingRepository(db: DynamoDBDocumentClient, table: string): OnboardingRepository {
  const getRun = async (orgSlug: string, executionId: string) => {
    const { Item } = await db.send(new GetCommand({ TableName: table, Key: keys.onboardingRun(orgSlug, executionId), ConsistentRead: true }));
    return (Item?.run as OnboardingRun | undefined) ?? null;
  };

  return {
    async latest(orgSlug) {
      const { Item } = await db.send(new GetCommand({ TableName: table, Key: keys.onboardingLatest(orgSlug), ConsistentRead: true }));
      if (!Item) return null;
      const run = await getRun(orgSlug, Item.executionId);
      // Pointers written before the lease existed have no heartbeat: their start counts.
      return run && { ...run, heartbeat_at: Item.heartbeatAt ?? run.heartbeat_at ?? run.started_at, runner: Item.runner ?? run.runner ?? null };
    },

    getRun,

    async start(run, replacing, dead) {
      const values: Record<string, unknown> = { ':prev': replacing ?? '-', ':running': 'running', ':stale': dead.heartbeatBefore };
      // Allowed when there is no run yet, or the latest one is the run we looked at and it
      // is not running, or it is abandoned: no heartbeat within the lease, or (local runner)
      // started by a runner instance that is gone.
      const abandoned = ['heartbeatAt < :stale', '(attribute_not_exists(heartbeatAt) AND startedAt < :stale)'];
      if (dead.runnerOtherThan) {
        abandoned.push('(attribute_exists(runner) AND runner <> :runner)');
        values[':runner'] = dead.runnerOtherThan;
      }
      try {
        await db.send(new PutCommand({
          TableName: table,
          Item: {
            ...keys.onboardingLatest(run.org_slug), type: 'onboarding_latest', executionId: run.execution_id, runStatus: 'running',
            startedAt: run.started_at, heartbeatAt: run.heartbeat_at ?? run.started_at, ...(run.runner ? { runner: run.runner } : {}),
          },
          ConditionExpression: `attribute_not_exists(PK) OR (executionId = :prev AND (runStatus <> :running OR ${abandoned.join(' OR ')}))`,
          ExpressionAttributeValues: values,
        }));
      } catch (err) {
        if (isConditionFailure(err)) throw new ConflictError(`onboarding is already running for ${run.org_slug}`);
        throw err;
      }
      await db.send(new PutCommand({ TableName: table, Item: { ...keys.onboardingRun(run.org_slug, run.execution_id), type: 'onboarding_run', run } }));
    },

    async heartbeat(orgSlug, executionId, at) {
      try {
        await db.send(new UpdateCommand({
          TableName: table,
          Key: keys.onboardingLatest(orgSlug),
          UpdateExpression: 'SET heartbeatAt = :at',
          ConditionExpression: 'executionId = :id AND runStatus = :running',
          ExpressionAttributeValues: { ':at': at, ':id': executionId, ':running': 'running' },
        }));
        return true;
      } catch (err) {
        if (isConditionFailure(err)) return false;
        throw err;
      }
    },

    async updateStep(orgSlug, executionId, step: StepId, state: StepState) {
      await db.send(new UpdateCommand({
        TableName: table,
        Key: keys.onboardingRun(orgSlug, executionId),
        UpdateExpression: 'SET #run.#steps.#step = :state',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeNames: { '#run': 'run', '#steps': 'steps', '#step': step },
        ExpressionAttributeValues: { ':state': state },
      }));
    },

    async finish(orgSlug, executionId, status, finishedAt) {
      await db.send(new UpdateCommand({
        TableName: table,
        Key: keys.onboardingRun(orgSlug, executionId),
        UpdateExpression: 'SET #run.#status = :status, #run.finished_at = :at',
        ExpressionAttributeNames: { '#run': 'run', '#status': 'status' },
        ExpressionAttributeValues: { ':status': status, ':at': finishedAt },
      }));
      await db.send(new UpdateCommand({
        TableName: table,
        Key: keys.onboardingLatest(orgSlug),
        UpdateExpression: 'SET runStatus = :status',
        ConditionExpression: 'executionId = :id',
        ExpressionAttributeValues: { ':status': status, ':id': executionId },
      })).catch((err) => { if (!isConditionFailure(err)) throw err; });
    },
  };
}
