/**
 * POST /api/domain/complete-certificate/{org_id} (JWT): checks the TXT records on the domain's
 * authoritative servers (409 naming the missing ones, state unchanged), completes and finalizes
 * the ACME order, imports the certificate and attaches it to the distribution with the custom
 * domains (`proxy_status` → SSL_VALIDATED). Runs as a complete-certificate execution (D20).
 */
import { COMPLETE_CERTIFICATE_WORKFLOW } from '../../app/domain/operation-run';
import { completeCertificateResponse } from './certificate-schemas';
import { domainPostHandler } from './operation-http';

export const handler = domainPostHandler('POST /api/domain/complete-certificate/{org_id}', COMPLETE_CERTIFICATE_WORKFLOW, completeCertificateResponse);
