import { finishBusinessRun, type BusinessTaskInput } from '../app/daily/business-run';
import { readyContainer } from '../container';
import { lambdaTask } from '../invocation';

/** Closes a business's day: its outcome from the steps, or the failure the state machine caught. */
export const handler = lambdaTask(async (event: BusinessTaskInput & { error?: { Error?: string; Cause?: string } }) => finishBusinessRun(await readyContainer(), event));
