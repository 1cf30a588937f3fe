/** GET /api/domain/start-certificate/{org_id}/{execution_id} (JWT): a start-certificate execution read back (D20). */
import { START_CERTIFICATE_WORKFLOW } from '../../app/domain/operation-run';
import { startCertificateResponse } from './certificate-schemas';
import { domainStatusHandler } from './operation-http';

export const handler = domainStatusHandler(START_CERTIFICATE_WORKFLOW, startCertificateResponse);
