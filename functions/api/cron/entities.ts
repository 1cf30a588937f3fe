/**
 * GET /api/cron/entities (KEY): the businesses the daily schedule processes, one page at a
 * time by organization slug (`?cursor=` from the previous page's `next_cursor`, `?limit=`
 * up to 1000, default 100). The state machine's fan-out reads the same listing.
 */
import { listEntities } from '../../app/daily/entities';
import { endpoint } from '../../http/endpoint';
import { entitiesQuery, entitiesResponse } from './daily-schemas';
import { keyAuth } from '../../http/auth/key';

export const handler = endpoint('GET /api/cron/entities', { authenticator: keyAuth, query: entitiesQuery, response: entitiesResponse }, async ({ query, container }) => {
  const limit = query.limit === undefined ? 100 : Number(query.limit);
  return { body: await listEntities(container, { cursor: query.cursor ?? null, limit }) };
});
