/**
 * POST /api/domain/mark-disconnect-complete/{org_id} (JWT): the original DNS records are
 * restored. Runs the domain-disconnect workflow (D20): `proxy_status` → DISCONNECTED, the
 * site's public origin back to the AI-site host and the site redeployed; the distribution
 * and the certificate stay for a reconnect.
 */
import { DOMAIN_DISCONNECT_WORKFLOW } from '../../app/domain/operation-run';
import { disconnectResponse } from './connection-schemas';
import { domainPostHandler } from './operation-http';

export const handler = domainPostHandler('POST /api/domain/mark-disconnect-complete/{org_id}', DOMAIN_DISCONNECT_WORKFLOW, disconnectResponse);
