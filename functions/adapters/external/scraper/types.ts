/**
 * The scraper port: turns mapped store URLs into ScrapedPages (main content as markdown plus
 * the core fingerprint). Two adapters: the built-in one (guarded fetch + cheerio + turndown)
 * and Firecrawl's batch-scrape API. Per-URL problems are `failures`; only a provider-level
 * failure (the whole batch cannot run) throws.
 */
import type { MappedUrl, ScrapedPage } from '../../../core/site/types';

export interface ScrapeResult {
  pages: ScrapedPage[];
  failures: Array<{ url: string; reason: string }>;
}

export interface Scraper {
  readonly name: 'builtin' | 'firecrawl';
  scrape(urls: MappedUrl[], options?: { concurrency?: number }): Promise<ScrapeResult>;
}
