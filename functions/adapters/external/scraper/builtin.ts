/**
 * The built-in scraper: the guarded client fetches each page, core extracts the main content
 * (title, description, cleaned main HTML and the fingerprint, in one parse), turndown turns
 * the main HTML into markdown (page.ts, shared with the mapper's page capture). No outside
 * service, no API key.
 */
import pLimit from 'p-limit';
import { analyzePage } from '../../../core/crawl/fingerprint';
import type { MappedUrl, ScrapedPage } from '../../../core/site/types';
import type { HttpFetcher } from '../../../ports';
import { createPageConverter, scrapeRefusal, type PageConverter } from './page';
import type { Scraper, ScrapeResult } from './types';

export { createTurndown, htmlToMarkdown } from './page';

export interface BuiltinScraperOptions {
  /** Pages fetched at once (default 4); `scrape(…, { concurrency })` overrides it per call. */
  concurrency?: number;
  /** Per-page deadline (the fetcher's default otherwise). */
  timeoutMs?: number;
}

const HTML_ACCEPT = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1';

export function createBuiltinScraper(fetchUrl: HttpFetcher, options: BuiltinScraperOptions = {}): Scraper {
  const convert = createPageConverter();
  return {
    name: 'builtin',
    async scrape(urls: MappedUrl[], callOptions = {}): Promise<ScrapeResult> {
      const limit = pLimit(Math.max(1, callOptions.concurrency ?? options.concurrency ?? 4));
      const outcomes = await Promise.all(urls.map((mapped) => limit(() => scrapeOne(fetchUrl, convert, mapped, options.timeoutMs))));
      const result: ScrapeResult = { pages: [], failures: [] };
      for (const outcome of outcomes) {
        if ('reason' in outcome) result.failures.push(outcome);
        else result.pages.push(outcome);
      }
      return result;
    },
  };
}

async function scrapeOne(
  fetchUrl: HttpFetcher,
  convert: PageConverter,
  mapped: MappedUrl,
  timeoutMs: number | undefined,
): Promise<ScrapedPage | { url: string; reason: string }> {
  const url = mapped.url;
  let res;
  try {
    res = await fetchUrl(url, { headers: { accept: HTML_ACCEPT }, ...(timeoutMs ? { timeoutMs } : {}) });
  } catch (err) {
    return { url, reason: err instanceof Error ? err.message : String(err) };
  }
  const refused = scrapeRefusal(res, url);
  if (refused) return { url, reason: refused };
  return convert(mapped, analyzePage(res.text(), res.url), res.status);
}
