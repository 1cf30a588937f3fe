import { recordStepFailure, type StepInput } from '../app/onboarding';
import { getContainer } from '../container';
import type { StepId } from '../core/onboarding/steps';

/** The Catch of every step: records the failure and skips the steps that follow it. */
export const handler = async (event: StepInput & { step: StepId; error?: { Error?: string; Cause?: string } }) => {
  await recordStepFailure(getContainer(), event);
  return { step: event.step, status: 'failed' };
};
