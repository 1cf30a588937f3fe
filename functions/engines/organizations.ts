/** Organization records (D8, D11, D29): name, provider id, member cache, payment customer id. */
import { createOrganizationRepository } from '../adapters/dynamodb/organization-repo';
import { memoPerContainer } from './repositories';

export const organizationsOf = memoPerContainer(({ dynamo }) => createOrganizationRepository(dynamo.db, dynamo.table));
