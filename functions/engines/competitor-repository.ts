/** The competitors of each business (explore routes, onboarding 1d, the visibility labels). */
import { createCompetitorRepository } from '../adapters/dynamodb/competitor-repo';
import { memoPerContainer } from './repositories';

export const competitorRepositoryOf = memoPerContainer(({ dynamo }) => createCompetitorRepository(dynamo.db, dynamo.table));
