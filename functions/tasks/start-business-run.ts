import { startBusinessRun, type BusinessTaskInput } from '../app/daily/business-run';
import { readyContainer } from '../container';

/** Claims the business's run record for today and decides whether it runs (a published AI site) or is skipped. */
export const handler = async (event: BusinessTaskInput) => startBusinessRun(await readyContainer(), event);
