/** The onboarding steps' invocation claims (D233), on the container's table. Imported only by the onboarding steps. */
import { createOnboardingStepClaims } from '../adapters/dynamodb/onboarding-step-claims';
import { perContainer } from './per-container';

export const onboardingStepClaimsOf = perContainer(({ dynamo }) => createOnboardingStepClaims(dynamo.db, dynamo.table), { needsSecrets: false });
