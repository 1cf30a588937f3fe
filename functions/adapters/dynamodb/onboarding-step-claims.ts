/**
 * Which invocation runs an onboarding step (D233): one attribute per step on the run's item,
 * `stepClaim_<step>` = `<until>|<token>`. ISO times have one length, so the string compares
 * with `now` as its time does. Apart from the onboarding repository so that only the step
 * tasks' bundles carry it.
 */
import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { OnboardingStepClaims } from '../../ports';
import { conditionalWrite } from './client';
import { keys } from './keys';

export function createOnboardingStepClaims(db: DynamoDBDocumentClient, table: string): OnboardingStepClaims {
  const write = (orgSlug: string, executionId: string, step: string, update: string, condition: string, values: Record<string, string>) =>
    conditionalWrite(() => db.send(new UpdateCommand({
      TableName: table,
      Key: keys.onboardingRun(orgSlug, executionId),
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
