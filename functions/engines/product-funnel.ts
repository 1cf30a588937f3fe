/** The per-product AI funnel's day items (D170): the visit recorders, the report store and the funnel routes. */
import { createProductFunnelRepository } from '../adapters/dynamodb/product-funnel-repo';
import { perContainer } from './per-container';

export const productFunnelRepositoryOf = perContainer(({ dynamo }) => createProductFunnelRepository(dynamo.db, dynamo.table), { needsSecrets: false });
