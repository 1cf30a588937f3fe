/** GET /api/cron/analyze-visibility/{execution_id}?business_id=&run_date= (KEY): the execution and the day's report. */
import { checkRunDate, readVisibilityAnalysis } from '../../app/visibility/reads';
import { endpoint } from '../../http/endpoint';
import { executionIdPath, visibilityDayQuery } from './visibility-schemas';

export const handler = endpoint('GET /api/cron/analyze-visibility/{execution_id}', { path: executionIdPath, query: visibilityDayQuery }, async ({ path, query, container }) => ({
  body: await readVisibilityAnalysis(container, path.execution_id, query.business_id, checkRunDate(container, query.run_date)),
}));
