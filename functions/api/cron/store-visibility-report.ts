/**
 * POST /api/cron/store-visibility-report (KEY) `{business_id, run_date?}`: rebuilds the
 * day's report from its stored checks and stores it (the analysis stores it too; this
 * re-derives it, e.g. after competitors changed). Database only: no platform is asked.
 */
import { rebuildVisibilityReport } from '../../app/visibility/reads';
import { endpoint } from '../../http/endpoint';
import { reportResponse } from './visibility-responses';
import { visibilityDayRequest, visibilityRunDate } from './visibility-schemas';
import { keyAuth } from '../../http/auth/key';

export const handler = endpoint('POST /api/cron/store-visibility-report', { authenticator: keyAuth, body: visibilityDayRequest, response: reportResponse }, async ({ body, container }) => ({
  body: await rebuildVisibilityReport(container, body.business_id, visibilityRunDate(container, body.run_date)),
}));
