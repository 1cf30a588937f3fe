/** GET /api/onboarding/status (D12): each step's state, timings and failure reason. */
import * as z from 'zod/mini';
import { onboardingStatus } from '../../app/onboarding/runs';
import { STEP_IDS, type RunStatus, type StepStatus } from '../../core/onboarding/steps';
import { endpoint } from '../../http/endpoint';
import { jwtAuth } from '../../http/auth/jwt';

const nullableString = z.nullable(z.string());

/** One step of the run (core/onboarding/steps.ts StepState), in the order 1a..3b. */
const step = z.object({
  id: z.enum(STEP_IDS),
  name: z.string().check(z.describe('what the step does ("scrape the website")')),
  status: z.enum(['pending', 'running', 'succeeded', 'skipped', 'failed'] as const satisfies readonly StepStatus[]),
  started_at: nullableString,
  finished_at: nullableString,
  attempts: z.int().check(z.minimum(0)),
  reason: nullableString.check(z.describe('why it failed or was skipped')),
  result: z.nullable(z.record(z.string(), z.unknown())).check(z.describe('what it produced (counts, ids)')),
  kept_from: nullableString.check(z.describe('the earlier run whose success was kept instead of redoing the step')),
  duration_ms: z.nullable(z.number()),
}).check(z.meta({ id: 'OnboardingStep' }));

const response = z.object({
  org_slug: z.string(),
  status: z.enum(['running', 'succeeded', 'partial', 'failed', 'abandoned'] as const satisfies readonly RunStatus[]).check(z.describe('abandoned: the run\'s worker stopped before it finished')),
  execution_id: z.string(),
  started_at: z.string(),
  finished_at: nullableString,
  heartbeat_at: nullableString,
  reason: nullableString.check(z.describe('why the run ended without finishing (abandoned)')),
  steps: z.array(step),
}).check(z.meta({ id: 'OnboardingStatus' }));

export const handler = endpoint('GET /api/onboarding/status', { authenticator: jwtAuth, response }, async ({ auth, container }) => {
  return { body: { org_slug: auth.orgId, ...(await onboardingStatus(container, auth.orgId)) } };
});
