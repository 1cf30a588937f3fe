/**
 * GET /api/ai-recommendations/{business_id}?from=&to=&limit=&cursor= (JWT, same org; D25):
 * the AI-bot visits of a date range. `from`/`to` are ISO dates (UTC days, inclusive;
 * default the last 30 days, at most 365 days apart). `total` and `by_platform` (all 8
 * platform keys and `unknown`) cover the whole range; `visits` is one page, newest first,
 * with `next_cursor` for the next page (null on the last). `search_engines` counts classic
 * search-engine crawling (Googlebot, bingbot, ...) beside them, in neither (D160). Visits are
 * checked against their vendor's published addresses (D193): `verified` of `total` came from
 * one; claims from elsewhere are counted in `unverified` only, and `verified=false` lists them.
 * Crawlers no table or list names are stored with platform `unknown` (spec) and counted in
 * `unidentified` only; `unidentified=true` lists them (issue 46).
 */
import * as z from 'zod/mini';
import { listVisits } from '../../app/visits/record';
import { endpoint } from '../../http/endpoint';
import { orgSlug } from '../../http/schemas';
import { visitsResponse } from './ai-recommendations-responses';
import { jwtAuth } from '../../http/auth/jwt';

export const MAX_PAGE_SIZE = 500;

const limit = z.optional(z.string().check(
  z.refine((v) => /^\d{1,4}$/.test(v) && Number(v) >= 1 && Number(v) <= MAX_PAGE_SIZE, `must be an integer from 1 to ${MAX_PAGE_SIZE}`),
));

export const handler = endpoint('GET /api/ai-recommendations/{business_id}', { authenticator: jwtAuth,
  path: z.object({ business_id: orgSlug }),
  query: z.object({
    from: z.optional(z.string()),
    to: z.optional(z.string()),
    limit,
    cursor: z.optional(z.string().check(z.maxLength(2048))),
    verified: z.optional(z.enum(['false'], { error: 'verified must be false (list the unverified claims), or absent' })),
    unidentified: z.optional(z.enum(['true'], { error: 'unidentified must be true (list the bots no table or list names), or absent' })),
  }),
  response: visitsResponse,
}, async ({ path, query, container }) => ({
  body: await listVisits(container, path.business_id, {
    from: query.from || null,
    to: query.to || null,
    limit: query.limit ? Number(query.limit) : undefined,
    cursor: query.cursor || null,
    unverified: query.verified === 'false',
    unidentified: query.unidentified === 'true',
  }),
}));
