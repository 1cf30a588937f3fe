/** The competitors of each business (explore routes, onboarding 1d, the visibility labels). */
import { createCompetitorRepository } from '../adapters/dynamodb/competitor-repo';
import { perContainer } from './per-container';

export const competitorRepositoryOf = perContainer(({ dynamo }) => createCompetitorRepository(dynamo.db, dynamo.table), { needsSecrets: false });
