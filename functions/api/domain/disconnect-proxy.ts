/**
 * POST /api/domain/disconnect-proxy/{org_id} (JWT, DEPLOYED): the DNS records that restore
 * the original configuration (the proxy's records to remove, then the ones captured when the
 * connection started). Nothing changes until mark-disconnect-complete.
 */
import * as z from 'zod/mini';
import { disconnectRecords } from '../../app/domain/disconnect';
import { endpoint } from '../../http/endpoint';
import { orgSlug } from '../../http/schemas';
import { disconnectRecordsResponse } from './connection-schemas';
import { jwtAuth } from '../../http/auth/jwt';

export const handler = endpoint('POST /api/domain/disconnect-proxy/{org_id}', { authenticator: jwtAuth, path: z.object({ org_id: orgSlug }), response: disconnectRecordsResponse }, async ({ path, container }) => {
  const { httpStatus, body } = await disconnectRecords(container, path.org_id);
  return { statusCode: httpStatus, body };
});
