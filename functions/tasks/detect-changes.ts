import { detectChanges } from '../app/daily/detect-changes';
import { dailyTask } from './daily-task';

/** Daily 1a: map, diff by fingerprint, scrape only new and changed pages. */
export const handler = dailyTask('1a', (container, input) => detectChanges(container, input.org_slug, input.execution_id));
