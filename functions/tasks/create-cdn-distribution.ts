import { createCdnDistribution } from '../app/domain/cdn';
import { CDN_NOT_CONFIGURED, cdnOf } from '../engines/cdn';
import { stepTask } from './step-task';

/** 1f: the customer's CDN distribution (proxy status PENDING_VALIDATION); skipped, with the reason, when no CDN is configured. */
export const handler = stepTask('1f', async (container, org) =>
  cdnOf(container).kind === 'unconfigured' ? { status: 'skipped', reason: CDN_NOT_CONFIGURED } : createCdnDistribution(container, org));
