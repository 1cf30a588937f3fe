/**
 * POST /api/cron/analyze-visibility (KEY) `{business_id, run_date?}`: 80 checks (10 prompts
 * × 8 platforms, each answer judged) take minutes, far past API Gateway's 29 s, and the
 * vendor clients stay out of route bundles: it starts the visibility-analysis workflow and
 * answers 202 with the execution id and the URL to read it back (D20).
 */
import { startVisibilityAnalysis } from '../../app/visibility/reads';
import { endpoint } from '../../http/endpoint';
import { analysisStartedResponse, visibilityDayRequest, visibilityRunDate } from './visibility-schemas';
import { keyAuth } from '../../http/auth/key';

export const handler = endpoint('POST /api/cron/analyze-visibility', { authenticator: keyAuth, body: visibilityDayRequest, response: analysisStartedResponse }, async ({ body, container }) => ({
  statusCode: 202,
  body: await startVisibilityAnalysis(container, body.business_id, visibilityRunDate(container, body.run_date)),
}));
