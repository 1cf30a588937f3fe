import { createCdnDistribution } from '../app/cdn';
import { stepTask } from './step-task';

/** 1f: the customer's CDN distribution (proxy status PENDING_VALIDATION). */
export const handler = stepTask('1f', (container, org) => createCdnDistribution(container, org));
