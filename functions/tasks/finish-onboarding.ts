import { finishOnboarding, type StepInput } from '../app/onboarding';
import { readyContainer } from '../container';

/** After every branch ended: the run's outcome (succeeded, partial or failed). */
export const handler = async (event: StepInput) => finishOnboarding(await readyContainer(), event);
