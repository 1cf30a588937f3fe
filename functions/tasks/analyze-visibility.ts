import { analyzeVisibility } from '../app/visibility/analyze';
import { dailyTask } from './daily-task';

/** Daily 2b: 10 sampled prompts on the 8 platforms, the report and the business's score of the day. */
export const handler = dailyTask('2b', (container, input) => analyzeVisibility(container, input.org_slug, input.run_date));
