/** The workflow steps' invocation claims (D233, D234, D237), on the container's table. Imported only by the step tasks. */
import { claimKeys, createStepClaims } from '../adapters/dynamodb/step-claims';
import { keys } from '../adapters/dynamodb/keys';
import { perContainer } from './per-container';

export const onboardingStepClaimsOf = perContainer(({ dynamo }) => createStepClaims(dynamo.db, dynamo.table, keys.onboardingRun), { needsSecrets: false });
export const dailyStepClaimsOf = perContainer(({ dynamo }) => createStepClaims(dynamo.db, dynamo.table, claimKeys.dailySteps, { ownItem: true }),
  { needsSecrets: false });
/** The claims of executions whose work is recorded as an artifact (a workflow's response, a task's output): a claim item per execution. */
export const executionClaimsOf = perContainer(({ dynamo }) => createStepClaims(dynamo.db, dynamo.table, claimKeys.execution, { ownItem: true }), { needsSecrets: false });
