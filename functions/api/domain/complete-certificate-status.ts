/** GET /api/domain/complete-certificate/{org_id}/{execution_id} (JWT): a complete-certificate execution read back (D20). */
import { COMPLETE_CERTIFICATE_WORKFLOW } from '../../app/domain-certificate-run';
import { certificateStatusHandler } from './certificate-http';

export const handler = certificateStatusHandler(COMPLETE_CERTIFICATE_WORKFLOW);
