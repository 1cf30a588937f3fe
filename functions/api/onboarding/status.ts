/** GET /api/onboarding/status (D12): each step's state, timings and failure reason. */
import { onboardingStatus } from '../../app/onboarding';
import { endpoint } from '../../http/endpoint';

export const handler = endpoint('GET /api/onboarding/status', {}, async ({ auth, container }) => {
  if (auth.kind !== 'jwt') throw new Error('JWT route without token context');
  return { body: { org_slug: auth.orgId, ...(await onboardingStatus(container, auth.orgId)) } };
});
