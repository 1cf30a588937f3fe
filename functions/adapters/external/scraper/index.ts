/**
 * Picks the scraper from configuration. Firecrawl is used only when BOTH its URL and its key
 * are set: the provider URL is operator configuration, and defaulting it would send the key
 * to a host nobody configured, while a URL without a key can only fail with 401 on every
 * run. A half-configured provider therefore falls back to the built-in scraper, which needs
 * nothing but the guarded client and always works.
 */
import type { HttpFetcher } from '../../../ports';
import { createBuiltinScraper } from './builtin';
import { createFirecrawlScraper } from './firecrawl';
import type { Scraper } from './types';

export type { Scraper, ScrapeResult } from './types';

export function createScraper(settings: { scrapeApiUrl?: string; scrapeApiKey?: string }, fetchUrl: HttpFetcher): Scraper {
  const apiUrl = settings.scrapeApiUrl?.trim();
  const apiKey = settings.scrapeApiKey?.trim();
  if (apiUrl && apiKey) return createFirecrawlScraper({ apiUrl, apiKey });
  return createBuiltinScraper(fetchUrl);
}
