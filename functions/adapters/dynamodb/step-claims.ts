/**
 * Which invocation runs a workflow step (D233, D234): one attribute per step on the item that
 * records the run (an onboarding run, a business's day), `stepClaim_<step>` = `<until>|<token>`.
 * ISO times have one length, so the string compares with `now` as its time does. Apart from the
 * run repositories so that only the step tasks' bundles carry it.
 */
import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { StepClaims } from '../../ports';
import { conditionalWrite } from './client';

/** The key of the item that records one run of `orgSlug` (`executionId`). */
export type RunItemKey = (orgSlug: string, executionId: string) => { PK: string; SK: string };

export function createStepClaims(db: DynamoDBDocumentClient, table: string, keyOf: RunItemKey): StepClaims {
  const write = (orgSlug: string, executionId: string, step: string, update: string, condition: string, values: Record<string, string>) =>
    conditionalWrite(() => db.send(new UpdateCommand({
      TableName: table,
      Key: keyOf(orgSlug, executionId),
      UpdateExpression: update,
      ConditionExpression: condition,
      ExpressionAttributeNames: { '#claim': `stepClaim_${step}` },
      ExpressionAttributeValues: values,
    })));
  return {
    claim: (orgSlug, executionId, step, token, until, now) => write(orgSlug, executionId, step, 'SET #claim = :claim',
      'attribute_exists(PK) AND (attribute_not_exists(#claim) OR #claim < :now)', { ':claim': `${until}|${token}`, ':now': now }),
    // The token is the invocation's UUID: only its own claim holds it.
    release: async (orgSlug, executionId, step, token) => {
      await write(orgSlug, executionId, step, 'REMOVE #claim', 'contains(#claim, :token)', { ':token': `|${token}` });
    },
  };
}
