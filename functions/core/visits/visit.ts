/**
 * One AI recommendation = one AI-crawler visit (spec: `ai_recommendations`). Stored per
 * visit: the recording webhook's request fields, `created_at` (UTC), `entity_id`,
 * `ai_site_id`, `platform_id` (or `unknown`) and `platform_name`, plus what the service
 * adds: which path saw it (`source`, and `sources` once both did), the classifier's verdict
 * (`bot`, `purpose`, `vendor`, `alt_platform_id`) and the normalized `path` the dedupe key
 * was built from (D1xx, docs/decisions.md).
 */
import type { PlatformKey } from '../constants';
import type { BotPlatformId, BotPurpose, VisitClass } from '../site/ai-bots';

export type { VisitClass };

/** `beacon`: `/tracking.js` posted it; `server`: the AI-site host, the CDN proxy or the access logs saw the request. */
export type VisitSource = 'beacon' | 'server';

/** `ai_site`: a page of the AI site (its host, or `/ai/...` on the customer domain); `boosted_page`: a store page served through the proxy. */
export type PageType = 'ai_site' | 'boosted_page';
export const PAGE_TYPES: readonly PageType[] = ['ai_site', 'boosted_page'];

/** How the request reached the service: the AI-site host itself, or the customer's (or distribution's) domain through the proxy. */
export type VisitVia = 'ai_site_host' | 'proxy' | 'store_domain';

export interface VisitRecord {
  id: string;
  created_at: string;
  entity_id: string;
  ai_site_id: string;
  platform_id: BotPlatformId;
  platform_name: string;
  page_url: string;
  page_type: PageType;
  page_title: string | null;
  user_agent: string;
  ip_address: string | null;
  referrer: string | null;
  screen_width: number | null;
  screen_height: number | null;
  language: string | null;
  timezone: string | null;
  /** The path that recorded the visit first. */
  source: VisitSource;
  /** Every path that saw it (the beacon and the server converge on one record). */
  sources: VisitSource[];
  /** The classifier's token (`GPTBot`, `generic`, `ChatGPT agent`). */
  bot: string | null;
  purpose: BotPurpose | null;
  vendor: string | null;
  alt_platform_id: PlatformKey | null;
  host: string;
  /** The normalized path of the dedupe key. */
  path: string;
  via: VisitVia;
  visit_class: VisitClass;
  /**
   * Checked against the vendor's published addresses (D193): true from one of them; false
   * from elsewhere (a spoof: stored apart, never counted); null when the vendor publishes
   * none, its list was never fetched, or no observed address. Absent on visits recorded
   * before the check existed (read as null).
   */
  verified: boolean | null;
}

/**
 * AI visits per platform key (all 8 and `unknown`, zeros included); classic search-engine
 * visits apart; of the counted AI visits, those from a vendor's published address
 * (`verified`); and the claims from outside a vendor's published addresses, never counted
 * (`unverified`, per platform in `unverifiedByPlatform`).
 */
export type VisitCounts = {
  total: number;
  byPlatform: Record<BotPlatformId, number>;
  searchEngines: number;
  verified: number;
  unverified: number;
  unverifiedByPlatform: Record<BotPlatformId, number>;
  /** Crawlers no table or list names (issue 46): stored and listed apart, never counted as AI visits. */
  unidentified: number;
};
