/**
 * Competitors of a business: the stored record and the repository port. The record lives
 * in the organization's partition (`COMPETITOR#<id>`), so org isolation is structural.
 */

export type CompetitorSource = 'auto_discovered' | 'user_added';

export interface Competitor {
  /**
   * UUID. Name-based (UUID v5 of org + domain, see `competitorId`), so one domain can be
   * stored only once per organization even when two requests race: the repository's
   * conditional put refuses the second.
   */
  id: string;
  orgSlug: string;
  name: string;
  /** Website origin that was crawled, e.g. `https://www.rival.example`. */
  url: string;
  /** Duplicate key: registrable domain (no scheme, `www.` or path), plus a non-default port. */
  domain: string;
  description: string;
  faviconUrl: string;
  /** Main text of the crawled page (markdown-like), for chat context. */
  scrapedContent: string;
  source: CompetitorSource;
  /** Product (or service) names found on the page; possibly empty. */
  products: string[];
  /** The audience the site says it serves, in its own words; empty when it says none. */
  targetMarket: string;
  createdAt: string;
}

export type CompetitorCounts = Record<CompetitorSource, number>;

export type AddCompetitorOutcome = 'added' | 'duplicate' | 'limit';

export interface CompetitorRepository {
  /** Every competitor of the organization, oldest first (strongly consistent read). */
  list(orgSlug: string): Promise<Competitor[]>;
  get(orgSlug: string, id: string): Promise<Competitor | null>;
  /**
   * Saves a competitor, atomically within its source's limit (`COMPETITOR_LIMITS`) and once
   * per website, however many adds run at once: `added`; `duplicate` when the website is
   * stored or being added by another request; `limit` when its source has no free slot.
   */
  add(competitor: Competitor): Promise<AddCompetitorOutcome>;
  /** Deletes one competitor and gives its slot back (no error when it is already gone). */
  remove(orgSlug: string, id: string): Promise<void>;
  countBySource(orgSlug: string): Promise<CompetitorCounts>;
  /** The competitor whose duplicate key equals `domain` (see core/competitors/domain.ts). */
  findByDomain(orgSlug: string, domain: string): Promise<Competitor | null>;
}

/** One web search result (what the search API port returns). */
export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
}
