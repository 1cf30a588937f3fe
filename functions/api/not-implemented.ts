/**
 * Shared module of every manifest route whose behaviour is not built yet: the route's
 * auth class (and org isolation) is enforced like everywhere else, then it answers 501
 * naming what is missing. Nothing pretends to work.
 */
import { NotImplementedError } from '../core/errors';
import { endpoint, routeOfEvent } from '../http/endpoint';

export const handler = endpoint(routeOfEvent, {}, async ({ route }) => {
  throw new NotImplementedError(route.summary);
});
