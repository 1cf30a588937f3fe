/**
 * The scraper port lives in functions/ports.ts. Two adapters: the built-in one (guarded
 * fetch + cheerio + turndown) and Firecrawl's batch-scrape API.
 */
export type { ScrapeResult, Scraper } from '../../../ports';
