import { startBusinessRun, type BusinessTaskInput } from '../app/daily/business-run';
import { readyContainer } from '../container';
import { lambdaTask } from '../invocation';

/** Claims the business's run record for today and decides whether it runs (a published AI site) or is skipped. */
export const handler = lambdaTask(async (event: BusinessTaskInput) => startBusinessRun(await readyContainer(), event));
