/** POST /api/domain/verify-dns/{org_id} (JWT, same org; D21): each record of the current step, found or not. */
import * as z from 'zod/mini';
import { verifyDns } from '../../app/domain/dns';
import { dnsCheckerOf } from '../../engines/dns';
import { endpoint } from '../../http/endpoint';
import { orgSlug } from '../../http/schemas';
import { verifyDnsResponse } from './verification-schemas';
import { jwtAuth } from '../../http/auth/jwt';

export const handler = endpoint('POST /api/domain/verify-dns/{org_id}', { authenticator: jwtAuth, path: z.object({ org_id: orgSlug }), response: verifyDnsResponse }, async ({ path, container }) => {
  const { httpStatus, body } = await verifyDns(container, path.org_id, dnsCheckerOf(container));
  return { statusCode: httpStatus, body };
});
