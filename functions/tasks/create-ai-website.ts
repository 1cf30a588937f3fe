import { createAiWebsite } from '../app/site/create';
import { stepTask } from './step-task';

/** 2a: generate and deploy the AI website from the scraped pages. */
export const handler = stepTask('2a', (container, org) => createAiWebsite(container, org));
