/**
 * Response contracts of the explore routes (spec: Competitors; the views in competitor-view.ts).
 * Not a handler.
 */
import * as z from 'zod/mini';
import type { CompetitorSource } from '../../core/competitors/types';

const source = z.enum(['auto_discovered', 'user_added'] as const satisfies readonly CompetitorSource[]);

const listed = {
  id: z.string().check(z.describe('competitor id (UUID)')),
  name: z.string(),
  url: z.string().check(z.describe('the competitor website\'s origin')),
  favicon_url: z.string(),
};

/** A competitor as listed (GET /api/explore/competitors). */
const competitor = z.object({ ...listed, source }).check(z.meta({ id: 'Competitor' }));

/** POST /api/explore/add-competitor → 201. */
export const addCompetitorResponse = z.object({
  status: z.literal('success'),
  competitor: z.object({ ...listed, description: z.string(), source: z.literal('user_added') }),
});

/** GET /api/explore/competitors: oldest first. */
export const listCompetitorsResponse = z.object({
  status: z.literal('success'),
  competitors: z.array(competitor),
  count: z.int().check(z.minimum(0)),
});

/** GET /api/explore/competitor/{competitor_id}: the summary plus the detail. */
export const competitorDetailResponse = z.object({
  status: z.literal('success'),
  competitor: z.object({
    ...listed,
    description: z.string(),
    scraped_content: z.string().check(z.describe('main text of the crawled page, for chat context')),
    source,
    products: z.array(z.string()).check(z.describe('product or service names found on the page; possibly empty')),
    target_market: z.string().check(z.describe('the audience the site says it serves; empty when it says none')),
    created_at: z.string(),
  }).check(z.meta({ id: 'CompetitorDetail' })),
});
