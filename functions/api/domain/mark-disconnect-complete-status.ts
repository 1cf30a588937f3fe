/** GET /api/domain/mark-disconnect-complete/{org_id}/{execution_id} (JWT): a domain-disconnect execution's answer read back (D20). */
import { DOMAIN_DISCONNECT_WORKFLOW } from '../../app/domain/operation-run';
import { disconnectResponse } from './connection-schemas';
import { domainStatusHandler } from './operation-http';

export const handler = domainStatusHandler(DOMAIN_DISCONNECT_WORKFLOW, disconnectResponse);
