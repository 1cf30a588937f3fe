import { updateAiSite } from '../app/daily/update-ai-site';
import { dailyTask } from './daily-task';

/** Daily merged deploy: regenerate what changed, publish every part once. */
export const handler = dailyTask('deploy', (container, input) => updateAiSite(container, input.org_slug));
