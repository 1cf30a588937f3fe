/**
 * POST /api/domain/start-google-verification/{org_id} (JWT, D21): a webmaster-console
 * verification token for the domain's property, as the TXT record to add
 * (`google_verification_status` → PENDING). 503 when the console is not configured.
 */
import * as z from 'zod/mini';
import { startGoogleVerification } from '../../app/domain/verification';
import { searchNotifyEnginesOf } from '../../engines/search-notify';
import { endpoint } from '../../http/endpoint';
import { orgSlug } from '../../http/schemas';
import { startGoogleVerificationResponse } from './verification-schemas';
import { jwtAuth } from '../../http/auth/jwt';

export const handler = endpoint('POST /api/domain/start-google-verification/{org_id}', { authenticator: jwtAuth, path: z.object({ org_id: orgSlug }), response: startGoogleVerificationResponse }, async ({ path, container }) => {
  const { httpStatus, body } = await startGoogleVerification(container, searchNotifyEnginesOf(container).webmaster, path.org_id);
  return { statusCode: httpStatus, body };
});
