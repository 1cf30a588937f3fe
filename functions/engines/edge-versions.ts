/** The edge-function rollout's data (issue 15): the current version, attached versions, the lease, the local counter. */
import { createEdgeVersionRepository } from '../adapters/dynamodb/edge-version-repo';
import { perContainer } from './per-container';

export const edgeVersionsOf = perContainer(({ dynamo }) => createEdgeVersionRepository(dynamo.db, dynamo.table), { needsSecrets: false });
