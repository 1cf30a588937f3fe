import { analyzeVisibility } from '../app/visibility/analyze';
import { visibilityEnginesOf } from '../engines/visibility';
import { visibilityBatchesOf } from '../engines/visibility-batches';
import { dailyTask } from './daily-task';

/**
 * Daily 2b: 10 sampled prompts on the 8 platforms, the report and the business's score of the
 * day; the checks of platforms with a vendor batch interface are queued for their batches.
 */
export const handler = dailyTask('2b', (container, input) =>
  analyzeVisibility(container, input.org_slug, input.run_date, visibilityEnginesOf(container), new Set(visibilityBatchesOf(container).clients.keys())));
