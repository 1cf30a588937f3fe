/**
 * Publishing an AI site: content files + metadata → index, sitemap and robots.txt →
 * one atomic release, recorded on the `ai_sites` record. Used by the deploy-site route,
 * by onboarding and by the daily schedule.
 */
import { unresolvePublicOrigin } from '../../core/site/paths';
import type { DeployMetadata, SiteFile } from '../../core/site/types';
import { aiSiteOrigin, type Container } from '../../container';
import type { PublishedRelease } from '../../ports';
import { requireBusiness } from '../business';
import type { AiSiteRecord } from '../../core/model';
import { publishedDigests, savePublishedDigests } from './digests';
import { filesSource, releaseFiles, type ContentSource, type LivePages, type ReleaseSummary } from './release-files';
import { withStoreImages } from './store-sitemap';
import { countMetric } from '../../metrics';

export interface DeployRequest {
  orgSlug: string;
  files: SiteFile[];
  /** Stored parts, published before `files` (a later one wins on a shared path), read a chunk at a time. */
  sources?: ContentSource[];
  /** `merge` (default) keeps the current release's files that are not replaced; `replace` publishes only these. */
  mode?: 'merge' | 'replace';
  /** Replaces the stored `store_sitemap_urls` when given. */
  storeSitemapUrls?: Array<{ loc: string; lastmod?: string }>;
  storeRobotsTxt?: string;
  /**
   * `all` (default): every page's `Last checked` moves to the publish date; `changed`: only the
   * pages whose content changed do, the others keep their bytes (D180).
   */
  checkDates?: 'all' | 'changed';
}

export interface DeployResult extends PublishedRelease {
  deploymentUrl: string;
  deployedAt: string;
  paths: string[];
}

/** The live release's digests and pages (D180), or null when there is none to compare with. */
async function livePages(container: Container, orgSlug: string, site: AiSiteRecord | null): Promise<LivePages | null> {
  if (!site?.releaseId) return null;
  const [digests, reader] = await Promise.all([publishedDigests(container, orgSlug, site), container.siteStore.openRelease(orgSlug, site.releaseId)]);
  return reader && { digests, reader };
}

export async function deploySite(container: Container, request: DeployRequest): Promise<DeployResult> {
  const { orgSlug } = request;
  const business = await requireBusiness(container, orgSlug);
  // The store's sitemap URLs (up to 5,000) are read only when the request brings none.
  const site = await container.aiSites.get(orgSlug, request.storeSitemapUrls ? {} : { lists: ['storeSitemapUrls'] });
  const deployedAt = container.clock.now().toISOString();
  const deploymentUrl = aiSiteOrigin(container.config, orgSlug);
  // The record holds loc/lastmod; the store's image entries come from 1a's artifact (D115).
  const storeSitemapUrls = await withStoreImages(container, orgSlug, request.storeSitemapUrls ?? site?.storeSitemapUrls ?? []);

  const metadata: DeployMetadata = {
    orgSlug,
    businessName: business.name,
    sourceUrl: business.url,
    // Search engines get the URL form that resolves on the host submitted (D28): the
    // customer domain once the proxy serves it, the AI-site host until then.
    publicOrigin: site?.publicOrigin ?? deploymentUrl,
    storeSitemapUrls,
    deployedAt,
  };
  // A merge republishes the live files (the domain's connect and disconnect): read whole.
  const current = request.mode === 'replace' ? null : await container.siteStore.readCurrent(orgSlug);
  // The files kept from the current release name the origin they were published under; when
  // that changes (a domain connected or disconnected) their AI URLs move to the new one.
  const publishedOrigin = typeof site?.publishedOrigin === 'string' ? site.publishedOrigin : deploymentUrl;
  const kept = (current?.files ?? []).map((file) => (publishedOrigin === metadata.publicOrigin ? file : { ...file, content: unresolvePublicOrigin(file.content, publishedOrigin) }));
  // The `Last checked` line and the title year move to the publish date (D112); modified dates
  // do not. A publish of changed parts moves them only on the pages that changed (D180).
  const live = request.checkDates === 'changed' ? await livePages(container, orgSlug, site) : null;
  const summary: ReleaseSummary = { paths: [], digests: {} };
  const sources = [filesSource(kept), ...(request.sources ?? []), filesSource(request.files)];
  const release = await container.siteStore.publish(orgSlug, releaseFiles(container, orgSlug, sources, {
    metadata, live, storeRobotsTxt: request.storeRobotsTxt ?? site?.storeRobotsTxt,
  }, summary));
  countMetric('Deploys', 1);
  await savePublishedDigests(container, orgSlug, release.releaseId, summary.digests);
  await container.aiSites.patch(orgSlug, business.id, {
    projectName: orgSlug,
    deploymentUrl,
    deployedAt,
    ...(live ? {} : { checkedAt: deployedAt }),
    releaseId: release.releaseId,
    fileCount: release.fileCount,
    sourceUrl: business.url,
    publishedOrigin: metadata.publicOrigin,
    ...(request.storeSitemapUrls ? { storeSitemapUrls: request.storeSitemapUrls } : {}),
    ...(request.storeRobotsTxt ? { storeRobotsTxt: request.storeRobotsTxt } : {}),
  });
  return { ...release, deploymentUrl, deployedAt, paths: summary.paths };
}
