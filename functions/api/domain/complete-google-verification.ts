/**
 * POST /api/domain/complete-google-verification/{org_id} (JWT, D21): the verification TXT
 * record checked live (found/expected/actual), one verification attempt with the console;
 * verified → the property added and, once the site is served on the domain, its sitemap
 * submitted. Not verified yet → 409 with the record check.
 */
import * as z from 'zod/mini';
import { completeGoogleVerification } from '../../app/domain/verification';
import { dnsCheckerOf } from '../../engines/dns';
import { searchNotifyEnginesOf } from '../../engines/search-notify';
import { endpoint } from '../../http/endpoint';
import { orgSlug } from '../../http/schemas';
import { completeGoogleVerificationResponse } from './verification-schemas';
import { jwtAuth } from '../../http/auth/jwt';

export const handler = endpoint('POST /api/domain/complete-google-verification/{org_id}', { authenticator: jwtAuth, path: z.object({ org_id: orgSlug }), response: completeGoogleVerificationResponse }, async ({ path, container }) => {
  const { httpStatus, body } = await completeGoogleVerification(container, searchNotifyEnginesOf(container).webmaster, dnsCheckerOf(container), path.org_id);
  return { statusCode: httpStatus, body };
});
