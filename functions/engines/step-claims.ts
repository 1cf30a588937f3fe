/** The workflow steps' invocation claims (D233, D234), on the container's table. Imported only by the step tasks. */
import { createStepClaims } from '../adapters/dynamodb/step-claims';
import { keys } from '../adapters/dynamodb/keys';
import { perContainer } from './per-container';

export const onboardingStepClaimsOf = perContainer(({ dynamo }) => createStepClaims(dynamo.db, dynamo.table, keys.onboardingRun), { needsSecrets: false });
export const dailyStepClaimsOf = perContainer(({ dynamo }) => createStepClaims(dynamo.db, dynamo.table, (orgSlug, executionId) => keys.dailyBusinessRun(executionId, orgSlug)),
  { needsSecrets: false });
