/**
 * POST /api/domain/mark-step-complete/{org_id} (JWT), body `{step: 2}`: the DNS records of
 * Part 2 are switched (from SSL_VALIDATED, or a reconnect from DISCONNECTED). Runs the
 * domain-connect workflow (D20): its first task checks the records live, re-points the
 * distribution's store origin, serves the site under the customer's domain and answers;
 * the execution goes on with the native certificate, webmaster verification polling and
 * search-engine submissions. Any other step is a 400, a state outside the table a 409.
 */
import * as z from 'zod/mini';
import { DOMAIN_CONNECT_WORKFLOW } from '../../app/domain/operation-run';
import { DNS_SWITCH_STEP } from '../../core/domain/states';
import { connectResponse } from './connection-schemas';
import { domainPostHandler } from './operation-http';

const STEP_MESSAGE = `step must be ${DNS_SWITCH_STEP} (the DNS switch)`;

const markStepRequest = z.object({
  step: z.number({ error: 'step is required and must be an integer' }).check(z.refine((n) => n === DNS_SWITCH_STEP, STEP_MESSAGE)),
});

export const handler = domainPostHandler('POST /api/domain/mark-step-complete/{org_id}', DOMAIN_CONNECT_WORKFLOW, connectResponse, markStepRequest);
