/** POST /api/onboarding/generate-all (D12): starts the onboarding workflow and returns at once. */
import * as z from 'zod/mini';
import { startOnboarding } from '../../app/onboarding/runs';
import { endpoint } from '../../http/endpoint';
import { jwtAuth } from '../../http/auth/jwt';

export const handler = endpoint('POST /api/onboarding/generate-all', { authenticator: jwtAuth,
  body: z.optional(z.strictObject({})),
  // Always 202 (D12): the run is read back at GET /api/onboarding/status.
  response: z.object({ status: z.literal('started'), execution_id: z.string() }),
}, async ({ auth, container }) => {
  const { executionId } = await startOnboarding(container, auth.orgId);
  return { statusCode: 202, body: { status: 'started', execution_id: executionId } };
});
