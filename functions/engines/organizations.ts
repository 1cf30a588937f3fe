/** Organization records (D8, D11, D29): name, provider id, member cache, payment customer id. */
import { createOrganizationRepository } from '../adapters/dynamodb/organization-repo';
import { perContainer } from './per-container';

export const organizationsOf = perContainer(({ dynamo }) => createOrganizationRepository(dynamo.db, dynamo.table), { needsSecrets: false });
