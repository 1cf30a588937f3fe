/** The edge-function rollout's data (issue 15): the current version, attached versions, the lease, the local counter. */
import { createEdgeVersionRepository } from '../adapters/dynamodb/edge-version-repo';
import { memoPerContainer } from './repositories';

export const edgeVersionsOf = memoPerContainer(({ dynamo }) => createEdgeVersionRepository(dynamo.db, dynamo.table));
