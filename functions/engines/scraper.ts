/** The scraper of this deployment: the paid batch-scrape service when configured, else built in. */
import { createScraper, type Scraper } from '../adapters/external/scraper';
import type { Container } from '../container';

const chosen = new WeakMap<Container, Scraper>();

export function scraperOf(container: Container): Scraper {
  let scraper = chosen.get(container);
  if (!scraper) {
    const { scrape } = container.config;
    scraper = createScraper({ scrapeApiUrl: scrape.apiUrl, scrapeApiKey: scrape.apiKey }, container.fetchUrl);
    chosen.set(container, scraper);
  }
  return scraper;
}
