import { generateOnboardingPrompts } from '../app/prompts/generate';
import { searchPromptSourceOf } from '../engines/search-prompts';
import { stepTask } from './step-task';

/** 3a: business prompts (10 from the search API when configured) and product prompts. */
export const handler = stepTask('3a', (container, org) => generateOnboardingPrompts(container, org, { search: searchPromptSourceOf(container) }));
