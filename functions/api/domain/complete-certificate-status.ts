/** GET /api/domain/complete-certificate/{org_id}/{execution_id} (JWT): a complete-certificate execution read back (D20). */
import { COMPLETE_CERTIFICATE_WORKFLOW } from '../../app/domain/operation-run';
import { completeCertificateResponse } from './certificate-schemas';
import { domainStatusHandler } from './operation-http';

export const handler = domainStatusHandler(COMPLETE_CERTIFICATE_WORKFLOW, completeCertificateResponse);
