import { recordStepFailure, type StepInput } from '../app/onboarding/runs';
import { readyContainer } from '../container';
import type { StepId } from '../core/onboarding/steps';
import { lambdaTask } from '../invocation';

/** The Catch of every step: records the failure and skips the steps that follow it. */
export const handler = lambdaTask(async (event: StepInput & { step: StepId; error?: { Error?: string; Cause?: string } }) => {
  await recordStepFailure(await readyContainer(), event);
  return { step: event.step, status: 'failed' };
});
