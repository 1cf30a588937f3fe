import { discoverCompetitors } from '../app/competitors';
import { stepTask } from './step-task';

/** 1b: up to 10 auto-discovered competitors (skipped without a search API). */
export const handler = stepTask('1b', (container, org) => discoverCompetitors(container, org));
