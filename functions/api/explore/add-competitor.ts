/**
 * POST /api/explore/add-competitor (JWT): body `{url}`; the organization comes from the token.
 * 400 invalid or refused URL (or the business's own), 404 no business, 409 duplicate or
 * 2 user-added already, 502 site unreadable even with the live crawl fallback (D15).
 */
import * as z from 'zod/mini';
import { addCompetitor } from '../../app/competitors';
import { endpoint } from '../../http/endpoint';
import { requiredText } from '../../http/schemas';
import { competitorSummaryView } from './competitor-view';
import { addCompetitorResponse } from './explore-responses';
import { jwtAuth } from '../../http/auth/jwt';

const body = z.object({ url: requiredText('url', 2048) });

export const handler = endpoint('POST /api/explore/add-competitor', { authenticator: jwtAuth, body, response: addCompetitorResponse }, async ({ body, auth, container }) => {
  const competitor = await addCompetitor(container, auth.orgId, body.url);
  return {
    statusCode: 201,
    body: {
      status: 'success',
      competitor: competitorSummaryView(competitor),
    },
  };
});
