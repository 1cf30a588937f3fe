/** AI-bot visits (AI recommendations): the webhook, the read route, the server-side recorders and the access-log ingest. */
import { createVisitRepository } from '../adapters/dynamodb/visit-repo';
import { perContainer } from './per-container';

export const visitRepositoryOf = perContainer(({ dynamo, clock }) => createVisitRepository(dynamo.db, dynamo.table, clock), { needsSecrets: false });
