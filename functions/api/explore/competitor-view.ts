/**
 * A competitor as the explore endpoints answer with it (snake_case, no internal fields).
 * Not a handler: shared by add-competitor and get-competitor.
 */
import type { Competitor } from '../../core/competitors/types';

/** POST /api/explore/add-competitor's `competitor`. */
export function competitorSummaryView(c: Competitor) {
  return {
    id: c.id,
    name: c.name,
    url: c.url,
    description: c.description,
    favicon_url: c.faviconUrl,
    source: c.source,
  };
}

/** GET /api/explore/competitor/{competitor_id}'s `competitor`: the summary plus the detail, in this key order. */
export function competitorDetailView(c: Competitor) {
  const { source, ...head } = competitorSummaryView(c);
  return {
    ...head,
    scraped_content: c.scrapedContent,
    source,
    products: c.products,
    target_market: c.targetMarket,
    created_at: c.createdAt,
  };
}
