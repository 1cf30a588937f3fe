/** The scraper of this deployment: the paid batch-scrape service when configured, else built in. */
import { createScraper } from '../adapters/external/scraper';
import { perContainer } from './per-container';

export const scraperOf = perContainer(({ config, fetchUrl }) =>
  createScraper({ scrapeApiUrl: config.scrape.apiUrl, scrapeApiKey: config.scrape.apiKey }, fetchUrl));
