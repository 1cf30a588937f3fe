import { finishOnboarding, type StepInput } from '../app/onboarding/runs';
import { readyContainer } from '../container';
import { lambdaTask } from '../invocation';

/** After every branch ended: the run's outcome (succeeded, partial or failed). */
export const handler = lambdaTask(async (event: StepInput) => finishOnboarding(await readyContainer(), event));
