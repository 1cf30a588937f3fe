/** GET /api/domain/mark-step-complete/{org_id}/{execution_id} (JWT): a domain-connect execution's answer read back (D20). */
import { DOMAIN_CONNECT_WORKFLOW } from '../../app/domain/operation-run';
import { connectResponse } from './connection-schemas';
import { domainStatusHandler } from './operation-http';

export const handler = domainStatusHandler(DOMAIN_CONNECT_WORKFLOW, connectResponse);
