/**
 * Onboarding 1a: map the store (robots.txt, sitemaps, HTML links; up to 5,000 pages) and
 * scrape its pages. The mapped URLs with their fingerprints are the stored site map the
 * daily change detection compares against; scraped pages feed the AI site (2a).
 * Safe to retry: it overwrites its own artifact and fields.
 */
import { mapSite } from '../adapters/external/mapper';
import { artifactKeys } from '../core/artifacts';
import { NotFoundError, UpstreamError } from '../core/errors';
import type { MappedUrl, ScrapedPage } from '../core/site/types';
import type { Container } from '../container';
import { scraperOf } from '../engines/scraper';

export interface ScrapeArtifact {
  mappedAt: string;
  urls: MappedUrl[];
  pages: ScrapedPage[];
  storeRobotsTxt: string | null;
}

export interface ScrapeSummary {
  mapped: number;
  scraped: number;
  failed: number;
  truncated: boolean;
  scraper: string;
  pagesFetched: number;
}

export async function scrapeWebsite(container: Container, orgSlug: string, options: { maxPages?: number } = {}): Promise<ScrapeSummary> {
  const business = await container.businesses.get(orgSlug);
  if (!business) throw new NotFoundError(`business ${orgSlug} not found`);
  const map = await mapSite(container.fetchUrl, business.url, { maxPages: options.maxPages });
  if (map.urls.length === 0) {
    const reason = map.errors[0]?.reason ?? 'no pages found';
    throw new UpstreamError(`could not map ${business.url}: ${reason}`);
  }
  const scraper = scraperOf(container);
  const scraped = await scraper.scrape(map.urls);
  const storeRobotsTxt = await fetchRobotsTxt(container, business.url);

  const artifact: ScrapeArtifact = { mappedAt: container.clock.now().toISOString(), urls: map.urls, pages: scraped.pages, storeRobotsTxt };
  await container.artifacts.put(artifactKeys.scrape(orgSlug), artifact);
  await container.aiSites.patch(orgSlug, business.id, {
    storeSitemapUrls: map.urls.map((u) => (u.lastmod ? { loc: u.url, lastmod: u.lastmod } : { loc: u.url })),
    ...(storeRobotsTxt ? { storeRobotsTxt } : {}),
  });
  return {
    mapped: map.urls.length,
    scraped: scraped.pages.length,
    failed: scraped.failures.length,
    truncated: map.truncated,
    scraper: scraper.name,
    pagesFetched: map.fetched,
  };
}

async function fetchRobotsTxt(container: Container, origin: string): Promise<string | null> {
  try {
    const res = await container.fetchUrl(`${origin}/robots.txt`, { maxBytes: 512 * 1024 });
    return res.status === 200 ? res.text() : null;
  } catch {
    return null;
  }
}
