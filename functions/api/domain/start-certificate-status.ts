/** GET /api/domain/start-certificate/{org_id}/{execution_id} (JWT): a start-certificate execution read back (D20). */
import { START_CERTIFICATE_WORKFLOW } from '../../app/domain-certificate-run';
import { certificateStatusHandler } from './certificate-http';

export const handler = certificateStatusHandler(START_CERTIFICATE_WORKFLOW);
