/** GET /api/domain/update-edge-function/{execution_id} (KEY): an edge rollout's response read back (D20): 200 once finished, 202 while running, 404 unknown. */
import { readEdgeRollout } from '../../app/edge/rollout-run';
import { endpoint } from '../../http/endpoint';
import { executionIdPath } from '../../http/workflow-http';
import { edgeRolloutResponse, toApiResult } from './update-edge-function';
import { keyAuth } from '../../http/auth/key';

export const handler = endpoint('GET /api/domain/update-edge-function/{execution_id}', { authenticator: keyAuth,
  path: executionIdPath,
  response: edgeRolloutResponse,
}, async ({ path, container }) =>
  toApiResult(await readEdgeRollout(container, path.execution_id)));
