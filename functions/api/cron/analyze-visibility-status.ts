/**
 * GET /api/cron/analyze-visibility/{execution_id}?business_id=&run_date= (KEY): the execution
 * and the day's report. An execution that checked nothing (no platform configured, no tracked
 * prompt) reads `skipped` with the reason, as the daily run records it on its 2b step (D30).
 */
import { readVisibilityAnalysis } from '../../app/visibility/reads';
import { skippedAnalysisOf } from '../../app/visibility/sample';
import { endpoint } from '../../http/endpoint';
import { analysisResponse } from './visibility-responses';
import { executionIdPath } from '../../http/workflow-http';
import { visibilityDayQuery, visibilityRunDate } from './visibility-schemas';
import { keyAuth } from '../../http/auth/key';

export const handler = endpoint('GET /api/cron/analyze-visibility/{execution_id}', { authenticator: keyAuth, path: executionIdPath, query: visibilityDayQuery, response: analysisResponse }, async ({ path, query, container }) => {
  const runDate = visibilityRunDate(container, query.run_date);
  const read = await readVisibilityAnalysis(container, path.execution_id, query.business_id, runDate);
  const skipped = read.status === 'succeeded'
    ? await skippedAnalysisOf(container, query.business_id, runDate, { startedAt: read.started_at, stoppedAt: read.finished_at })
    : null;
  return { body: skipped ? { ...read, status: 'skipped', reason: skipped.reason } : { ...read, reason: null } };
});
