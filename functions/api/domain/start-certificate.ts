/**
 * POST /api/domain/start-certificate/{org_id} (JWT): analyses the business URL's domain, checks
 * CAA, captures the original records, creates one ACME DNS-01 order for the certificate names
 * and answers the TXT records to add (`proxy_status` → SSL_VALIDATING). Runs as a
 * start-certificate execution (D20): its response within 20 s, else 202 and the read-back URL.
 */
import { START_CERTIFICATE_WORKFLOW } from '../../app/domain/operation-run';
import { startCertificateResponse } from './certificate-schemas';
import { domainPostHandler } from './operation-http';

export const handler = domainPostHandler('POST /api/domain/start-certificate/{org_id}', START_CERTIFICATE_WORKFLOW, startCertificateResponse);
