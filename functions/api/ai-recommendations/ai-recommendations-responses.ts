/**
 * Response contract of GET /api/ai-recommendations/{business_id} (D25, D160): the stored AI-bot
 * visits (core/visits/visit.ts VisitRecord) and the range's counts (app/visits/record.ts listVisits).
 */
import * as z from 'zod/mini';
import { BOT_PLATFORM_IDS, PLATFORM_KEYS } from '../../core/constants';
import type { BotPurpose } from '../../core/site/ai-bots';
import type { PageType, VisitSource, VisitVia } from '../../core/visits/visit';
import { count, nullableString } from '../../http/schemas';

const visitSource = z.enum(['beacon', 'server'] as const satisfies readonly VisitSource[]);

/** One AI recommendation = one AI-crawler visit: the webhook's request fields and what the service adds. */
const visit = z.object({
  id: z.string(),
  created_at: z.string().check(z.describe('when the request happened (ISO, UTC)')),
  entity_id: z.string(),
  ai_site_id: z.string(),
  platform_id: z.enum(BOT_PLATFORM_IDS),
  platform_name: z.string(),
  page_url: z.string(),
  page_type: z.enum(['ai_site', 'boosted_page'] as const satisfies readonly PageType[]),
  page_title: nullableString,
  user_agent: z.string(),
  ip_address: nullableString,
  referrer: nullableString,
  screen_width: z.nullable(z.int()),
  screen_height: z.nullable(z.int()),
  language: nullableString,
  timezone: nullableString,
  source: visitSource.check(z.describe('the path that recorded it first: the /tracking.js beacon or the server side')),
  sources: z.array(visitSource).check(z.describe('every path that saw it')),
  bot: nullableString.check(z.describe('the classifier\'s token (GPTBot, generic, ...)')),
  purpose: z.nullable(z.enum(['training', 'search', 'user-fetch', 'agent', 'crawler'] as const satisfies readonly BotPurpose[])),
  vendor: nullableString,
  alt_platform_id: z.nullable(z.enum(PLATFORM_KEYS)),
  host: z.string(),
  path: z.string().check(z.describe('the normalized path the visit was deduplicated by')),
  via: z.enum(['ai_site_host', 'proxy', 'store_domain'] as const satisfies readonly VisitVia[]),
  visit_class: z.enum(['ai', 'unidentified']).check(z.describe('ai; unidentified only in the unidentified=true list (a crawler no table or list names). Search-engine visits are counted in search_engines, never listed')),
  verified: z.nullable(z.boolean()).check(z.describe('true: from an address its vendor publishes; false: a claim from elsewhere (listed only with verified=false, never counted); null: the vendor publishes no addresses, or they could not be fetched')),
}).check(z.meta({ id: 'Visit' }));

export const visitsResponse = z.object({
  business_id: z.string(),
  from: z.string().check(z.describe('first UTC day of the range, YYYY-MM-DD')),
  to: z.string().check(z.describe('last UTC day of the range, YYYY-MM-DD (inclusive)')),
  total: count.check(z.describe('AI visits of the whole range')),
  by_platform: z.record(z.enum(BOT_PLATFORM_IDS), count).check(z.describe('AI visits of the whole range per platform key, unknown included')),
  search_engines: count.check(z.describe('classic search-engine crawling of the range, in neither total nor by_platform (D160)')),
  verified: count.check(z.describe('of total: visits from an address their vendor publishes (D193)')),
  unverifiable: count.check(z.describe('of total: visits of vendors that publish no addresses (or whose list could not be fetched)')),
  unverified: count.check(z.describe('claims of a vendor\'s agent from outside its published addresses: in neither total nor by_platform')),
  unverified_by_platform: z.record(z.enum(BOT_PLATFORM_IDS), count).check(z.describe('unverified per platform key')),
  unidentified: count.check(z.describe('crawlers no table or list names, stored with platform unknown (spec): in neither total nor by_platform; unidentified=true lists them')),
  visits: z.array(visit).check(z.describe('one page, newest first')),
  next_cursor: nullableString.check(z.describe('the cursor of the next page; null on the last')),
});
