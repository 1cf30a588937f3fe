import { fetchFavicon } from '../app/onboarding/favicon';
import { stepTask } from './step-task';

/** 1d: the store's favicon URL. */
export const handler = stepTask('1d', (container, org) => fetchFavicon(container, org));
