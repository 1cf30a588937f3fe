import { scrapeWebsite } from '../app/onboarding/scrape-website';
import { stepTask } from './step-task';

/** 1a: map and scrape the store. */
export const handler = stepTask('1a', (container, org) => scrapeWebsite(container, org));
