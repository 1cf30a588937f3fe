/**
 * Onboarding runs: one item per run plus a `latest` pointer item. Starting a run is a
 * conditional write on the pointer, so two generate-all calls cannot both start one.
 * Each step updates only its own entry of the run's `steps` map.
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
      return Item ? getRun(orgSlug, Item.executionId) : null;
    },

    getRun,

    async start(run, replacing, staleBefore) {
      try {
        // Allowed when there is no run yet, the latest one is the run we looked at and it
        // is not running, or it has been "running" for longer than a run can take.
        await db.send(new PutCommand({
          TableName: table,
          Item: { ...keys.onboardingLatest(run.org_slug), type: 'onboarding_latest', executionId: run.execution_id, runStatus: 'running', startedAt: run.started_at },
          ConditionExpression: 'attribute_not_exists(PK) OR (executionId = :prev AND (runStatus <> :running OR startedAt < :stale))',
          ExpressionAttributeValues: { ':prev': replacing ?? '-', ':running': 'running', ':stale': staleBefore },
        }));
      } catch (err) {
        if (isConditionFailure(err)) throw new ConflictError(`onboarding is already running for ${run.org_slug}`);
        throw err;
      }
      await db.send(new PutCommand({ TableName: table, Item: { ...keys.onboardingRun(run.org_slug, run.execution_id), type: 'onboarding_run', run } }));
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
