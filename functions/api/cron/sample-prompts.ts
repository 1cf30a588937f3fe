/**
 * GET /api/cron/sample-prompts?business_id=&run_date= (KEY): the day's visibility sample
 * (D31: 10 prompts of the business, untested first, then random). The stored sample once
 * the day's analysis drew it; before that, the sample it will draw (nothing is stored: GET).
 */
import { drawSample } from '../../app/visibility/sample';
import { requireBusiness } from '../../app/business';
import { endpoint } from '../../http/endpoint';
import { sampleResponse, visibilityDayQuery, visibilityRunDate } from './visibility-schemas';
import { keyAuth } from '../../http/auth/key';

export const handler = endpoint('GET /api/cron/sample-prompts', { authenticator: keyAuth, query: visibilityDayQuery, response: sampleResponse }, async ({ query, container }) => {
  await requireBusiness(container, query.business_id);
  const runDate = visibilityRunDate(container, query.run_date);
  const stored = await container.visibilityChecks.getSample(query.business_id, runDate);
  const sample = stored ?? await drawSample(container, query.business_id, runDate);
  return { body: { business_id: query.business_id, run_date: runDate, stored: stored !== null, prompts: sample.prompts, total: sample.prompts.length } };
});
