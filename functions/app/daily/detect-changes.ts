/**
 * Daily batch 1a: map the store (robots.txt, sitemaps, links; 5,000-page cap), compare with
 * the stored site map by the noise-free fingerprint (D32), scrape only NEW and CHANGED pages,
 * and merge them into the stored page set (unchanged pages kept, removed pages dropped).
 * Nothing is regenerated or deployed here: the merged deploy does that once, after 1b.
 * The store's agent files are probed again, and a changed set of them, or changed
 * `<image:image>` entries of its sitemap, is a change too (D115): the stored map is rewritten,
 * so the inputs' digest moves and the site is regenerated and published.
 *
 * Order makes a retry lose nothing: the changed URLs go to the run record first, then the
 * new page set (its digest first, see site-inputs.ts), so the deploy still sees the change
 * even when a retry finds the store already matching the stored map.
 */
import { artifactKeys } from '../../core/artifacts';
import { diffSiteMap, hasChanges, mergePages, mergeSiteMap } from '../../core/daily/changes';
import { UpstreamError, ValidationError } from '../../core/errors';
import type { MappedUrl } from '../../core/site/types';
import type { Container } from '../../container';
import { scraperOf } from '../../engines/scraper';
import { siteMapperOf } from '../../engines/site-mapper';
import { requireBusiness } from '../business';
import { scrapeMapped, storeRobotsTxtOf } from '../onboarding';
import { agentFilesAfter, probeStoreAgentFiles, sameAgentFiles, saveSiteInput, saveStoreSitemap, type ScrapeArtifact } from '../site';


export async function detectChanges(container: Container, orgSlug: string, executionId: string) {
  const business = await requireBusiness(container, orgSlug);
  const stored = await container.artifacts.get<ScrapeArtifact>(artifactKeys.scrape(orgSlug));
  if (!stored) throw new ValidationError(`no stored site map for ${orgSlug}: onboarding's website scrape (1a) has not run`);
  const scraper = scraperOf(container);
  const [map, probe] = await Promise.all([
    siteMapperOf(container).map(business.url, { capturePages: scraper.name === 'builtin' }),
    probeStoreAgentFiles(container.fetchUrl, business.url),
  ]);
  // An empty map is a store that could not be read today, never "every page was removed".
  if (map.urls.length === 0) throw new UpstreamError(`could not map ${business.url}: ${map.errors[0]?.reason ?? 'no pages found'}`);

  const diff = diffSiteMap(stored.urls, map.urls);
  const wanted = new Set([...diff.added, ...diff.changed]);
  const { scraped, fetched } = await scrapeMapped(scraper, map, wanted);
  const urls = mergeSiteMap(stored.urls, map.urls);
  const agentFiles = agentFilesAfter(stored.agentFiles, probe);
  const agentFilesChanged = !sameAgentFiles(stored.agentFiles, agentFiles);
  const imagesChanged = imagesKey(stored.urls) !== imagesKey(urls);
  const counts = {
    pages_mapped: map.urls.length,
    pages_fetched: map.fetched + fetched + probe.requests,
    pages_new: diff.added.length,
    pages_changed: diff.changed.length,
    pages_removed: diff.removed.length,
    pages_unchanged: diff.unchanged.length,
    pages_scraped: scraped.pages.length,
    scrape_failures: scraped.failures.length,
    scraper: scraper.name,
    truncated: map.truncated,
    agent_files: agentFiles.map((f) => f.path),
    agent_files_changed: agentFilesChanged,
    images_changed: imagesChanged,
  };
  if (!hasChanges(diff) && !agentFilesChanged && !imagesChanged) return { ...counts, changed: false, changed_urls: 0 };

  const changedUrls = [...diff.added, ...diff.changed, ...diff.removed];
  if (changedUrls.length) await container.dailyRuns.addChangedUrls(executionId, orgSlug, changedUrls);
  const storeRobotsTxt = storeRobotsTxtOf(map) ?? stored.storeRobotsTxt;
  const artifact: ScrapeArtifact = {
    mappedAt: container.clock.now().toISOString(), urls, pages: mergePages(stored.pages, scraped.pages, urls), storeRobotsTxt, agentFiles,
  };
  await saveSiteInput(container, orgSlug, business.id, 'scrape', artifact);
  await saveStoreSitemap(container, orgSlug, business.id, urls, storeRobotsTxt);
  return { ...counts, changed: true, changed_urls: changedUrls.length };
}

/** The sitemap image entries of a site map, comparable as one string (whatever the map's order). */
const imagesKey = (urls: readonly MappedUrl[]): string =>
  JSON.stringify(urls.flatMap((u) => (u.images?.length ? [[u.url, u.images]] : [])).sort((a, b) => String(a[0]).localeCompare(String(b[0]))));
