/**
 * Onboarding 1a: map the store (robots.txt, sitemaps, HTML links; up to 5,000 pages) and
 * scrape its pages. The mapped URLs with their fingerprints are the stored site map the
 * daily change detection compares against; scraped pages feed the AI site (2a).
 *
 * With the built-in scraper, the mapper makes the pages from its own fetch (`capturePages`),
 * so each store page is fetched once; the scraper fetches only mapped URLs the mapper did not
 * settle (not fetched, or the fetch itself failed). With Firecrawl, the mapper maps and the
 * provider scrapes every mapped URL. Safe to retry: it overwrites its own artifact and fields.
 */
import { UpstreamError } from '../../core/errors';
import type { Container } from '../../container';
import type { MapSiteResult, ScrapeResult, Scraper } from '../../ports';
import { siteMapperOf } from '../../engines/site-mapper';
import { scraperOf } from '../../engines/scraper';
import { requireBusiness } from '../business';
import { probeStoreAgentFiles, saveSiteInput, saveStoreSitemap, type ScrapeArtifact } from '../site';
import { countMetric } from '../../metrics';

/** The size limit the stored copy of the store's robots.txt has always had. */
const ROBOTS_TXT_MAX_BYTES = 512 * 1024;


export interface ScrapeSummary {
  mapped: number;
  scraped: number;
  failed: number;
  truncated: boolean;
  scraper: string;
  /** Requests 1a made to the store: robots.txt, sitemaps, pages (mapper and built-in scraper) and the agent-file probes. A provider's own fetches are not counted. */
  pagesFetched: number;
  /** Paths of the agent files the store serves (`/llms.txt`, `/agents.md`, ...), linked from our llms.txt. */
  agentFiles: string[];
}

export async function scrapeWebsite(container: Container, orgSlug: string, options: { maxPages?: number } = {}): Promise<ScrapeSummary> {
  const business = await requireBusiness(container, orgSlug);
  const scraper = scraperOf(container);
  const capturePages = scraper.name === 'builtin';
  // The store's own agent files are probed alongside the map (a handful of HEAD requests).
  const [map, probe] = await Promise.all([
    siteMapperOf(container).map(business.url, { maxPages: options.maxPages, capturePages }),
    probeStoreAgentFiles(container.fetchUrl, business.url),
  ]);
  if (map.urls.length === 0) {
    const reason = map.errors[0]?.reason ?? 'no pages found';
    throw new UpstreamError(`could not map ${business.url}: ${reason}`);
  }
  const { scraped, fetched } = await scrapeMapped(scraper, map);
  const agentFiles = probe.files;
  // The mapper already read robots.txt: no second request for the stored copy.
  const storeRobotsTxt = storeRobotsTxtOf(map);

  const artifact: ScrapeArtifact = { mappedAt: container.clock.now().toISOString(), urls: map.urls, pages: scraped.pages, storeRobotsTxt, agentFiles };
  await saveSiteInput(container, orgSlug, business.id, 'scrape', artifact);
  await saveStoreSitemap(container, orgSlug, business.id, map.urls, storeRobotsTxt);
  return {
    mapped: map.urls.length,
    scraped: scraped.pages.length,
    failed: scraped.failures.length,
    truncated: map.truncated,
    scraper: scraper.name,
    pagesFetched: map.fetched + fetched + probe.requests,
    agentFiles: agentFiles.map((f) => f.path),
  };
}

/** The store's robots.txt as the mapper read it, when it answered and is of a size worth keeping; else null. */
export function storeRobotsTxtOf(map: MapSiteResult): string | null {
  return map.robotsTxt !== null && Buffer.byteLength(map.robotsTxt) <= ROBOTS_TXT_MAX_BYTES ? map.robotsTxt : null;
}

/**
 * The pages of the mapped URLs (or of `only` among them): the mapper's captured ones
 * (built-in scraper), completed by scraping only the URLs it did not settle; or all of them
 * by the scraper (Firecrawl). `fetched`: store requests the built-in scraper made here.
 */
export async function scrapeMapped(scraper: Scraper, map: MapSiteResult, only?: ReadonlySet<string>): Promise<{ scraped: ScrapeResult; fetched: number }> {
  const result = await settlePages(scraper, map, only);
  countMetric('PagesScraped', result.scraped.pages.length);
  return result;
}

async function settlePages(scraper: Scraper, map: MapSiteResult, only?: ReadonlySet<string>): Promise<{ scraped: ScrapeResult; fetched: number }> {
  const wanted = only ? map.urls.filter((u) => only.has(u.url)) : map.urls;
  if (!map.captured) {
    const scraped = wanted.length > 0 ? await scraper.scrape(wanted) : { pages: [], failures: [] };
    return { scraped, fetched: scraper.name === 'builtin' ? wanted.length : 0 };
  }
  const captured = only
    ? { pages: map.captured.pages.filter((p) => only.has(p.url)), failures: map.captured.failures.filter((f) => only.has(f.url)) }
    : map.captured;
  const settled = new Set([...captured.pages.map((p) => p.url), ...captured.failures.map((f) => f.url)]);
  const rest = wanted.filter((u) => !settled.has(u.url));
  if (rest.length === 0) return { scraped: captured, fetched: 0 };
  const more = await scraper.scrape(rest);
  // Both lists in map order, as a scrape of every mapped URL would give them.
  const order = new Map(map.urls.map((u, i) => [u.url, i]));
  const byMapOrder = (a: { url: string }, b: { url: string }) => (order.get(a.url) ?? 0) - (order.get(b.url) ?? 0);
  return {
    scraped: {
      pages: [...captured.pages, ...more.pages].sort(byMapOrder),
      failures: [...captured.failures, ...more.failures].sort(byMapOrder),
    },
    fetched: rest.length,
  };
}
