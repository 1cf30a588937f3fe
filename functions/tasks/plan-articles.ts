import { planDailyArticles } from '../app/articles/daily';
import type { BusinessTaskInput } from '../app/daily/business-run';
import { readyContainer } from '../container';
import { lambdaTask } from '../invocation';

/** Daily 2a, first part: the day's article plan (the Map's items). */
export const handler = lambdaTask(async (event: BusinessTaskInput) => planDailyArticles(await readyContainer(), event));
