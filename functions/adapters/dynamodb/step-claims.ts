/**
 * Which invocation runs a workflow step (D233, D234, D237): one attribute per step,
 * `stepClaim_<step>` = `<until>|<token>`, on the item that records the run (an onboarding run, a
 * business's day: it must exist), or on a claim item of the execution's own (an execution whose
 * work is recorded elsewhere: created by the first claim, removed by the table's TTL a day after
 * the claim). ISO times have one length, so the string compares with `now` as its time does.
 * Apart from the run repositories so that only the step tasks' bundles carry it.
 */
import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { StepClaims } from '../../ports';
import { conditionalWrite } from './client';
import { keys } from './keys';
import { TABLE_SCHEMA } from './table-schema';

/** The key of the item that holds the claims of one execution of `scope`. */
export type ClaimItemKey = (scope: string, executionId: string) => { PK: string; SK: string };

const CLAIM_ITEM_DAYS = 1;

/**
 * The claim items of their own (keys.ts builds every other key; these stay here so that only the
 * step tasks' bundles carry them, the 250 KB route budget): a business's day in one execution
 * (D234), beside its run record so that a claim does not rewrite the record; one execution of a
 * workflow whose work is recorded as an artifact (D237). Both expire by TTL.
 */
export const claimKeys = {
  dailySteps: (orgSlug: string, executionId: string) => ({ PK: keys.dailyExecution(executionId).PK, SK: `CLAIMS#${orgSlug}` }),
  execution: (workflow: string, executionId: string) => ({ PK: `EXECCLAIM#${workflow}#${executionId}`, SK: 'CLAIM' }),
};

/** `ownItem`: the claims sit on an item of their own (created by the first claim, expiring by TTL), not on an existing run item. */
export function createStepClaims(db: DynamoDBDocumentClient, table: string, keyOf: ClaimItemKey, { ownItem = false }: { ownItem?: boolean } = {}): StepClaims {
  const write = (scope: string, executionId: string, step: string, update: string, condition: string, values: Record<string, string | number>, ttl = false) =>
    conditionalWrite(() => db.send(new UpdateCommand({
      TableName: table,
      Key: keyOf(scope, executionId),
      UpdateExpression: update,
      ConditionExpression: condition,
      ExpressionAttributeNames: { '#claim': `stepClaim_${step}`, ...(ttl ? { '#ttl': TABLE_SCHEMA.ttlAttribute } : {}) },
      ExpressionAttributeValues: values,
    })));
  const free = 'attribute_not_exists(#claim) OR #claim < :now';
  return {
    claim: (scope, executionId, step, token, until, now) => (ownItem
      ? write(scope, executionId, step, 'SET #claim = :claim, #ttl = :ttl', free,
        { ':claim': `${until}|${token}`, ':now': now, ':ttl': Math.floor(Date.parse(until) / 1000) + CLAIM_ITEM_DAYS * 86_400 }, true)
      : write(scope, executionId, step, 'SET #claim = :claim', `attribute_exists(PK) AND (${free})`, { ':claim': `${until}|${token}`, ':now': now })),
    // The token is the invocation's UUID: only its own claim holds it.
    release: async (scope, executionId, step, token) => {
      await write(scope, executionId, step, 'REMOVE #claim', 'contains(#claim, :token)', { ':token': `|${token}` });
    },
  };
}
