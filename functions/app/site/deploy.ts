/**
 * Publishing an AI site: content files + metadata → index, sitemap and robots.txt →
 * one atomic release, recorded on the `ai_sites` record. Used by the deploy-site route,
 * by onboarding and by the daily schedule.
 */
import { finalizeSite, refreshTimestamps } from '../../core/site/build';
import { artifactKeys } from '../../core/artifacts';
import { OFFER_SLOT_MARK, refreshOfferSlots } from '../../core/site/offer-slots';
import { keepUnchangedPages } from '../../core/site/refresh';
import { unresolvePublicOrigin } from '../../core/site/paths';
import type { DeployMetadata, SiteFile } from '../../core/site/types';
import { aiSiteOrigin, type Container } from '../../container';
import type { PublishedRelease } from '../../ports';
import { requireBusiness } from '../business';
import { savePublishedDigests } from './digests';
import type { CatalogArtifact } from './inputs';
import { withStoreImages } from './store-sitemap';
import { countMetric } from '../../metrics';

export interface DeployRequest {
  orgSlug: string;
  files: SiteFile[];
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

/**
 * Prices and stock on pages not rebuilt from the catalogue (a family page's members) are
 * rewritten from the current catalogue on every publish (D36, core/site/offer-slots.ts); the
 * catalogue is read only when a page holds such a slot.
 */
async function withCurrentOffers(container: Container, orgSlug: string, files: SiteFile[]): Promise<SiteFile[]> {
  if (!files.some((f) => f.content.includes(OFFER_SLOT_MARK))) return files;
  const catalog = await container.artifacts.get<CatalogArtifact>(artifactKeys.catalog(orgSlug));
  // No catalogue to read (it was never stored): the slots keep what their page was built with.
  return catalog ? refreshOfferSlots(files, catalog.products) : files;
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
  const checkAll = request.checkDates !== 'changed';
  const current = request.mode === 'replace' && checkAll ? null : await container.siteStore.readCurrent(orgSlug);
  // The files kept from the current release name the origin they were published under; when
  // that changes (a domain connected or disconnected) their AI URLs move to the new one.
  const publishedOrigin = typeof site?.publishedOrigin === 'string' ? site.publishedOrigin : deploymentUrl;
  const kept = request.mode === 'replace' ? [] : (current?.files ?? []).map((file) => (publishedOrigin === metadata.publicOrigin ? file : { ...file, content: unresolvePublicOrigin(file.content, publishedOrigin) }));
  // The `Last checked` line and the title year move to the publish date (D112); modified dates
  // do not. A publish of changed parts moves them only on the pages that changed (D180).
  const content = await withCurrentOffers(container, orgSlug, [...kept, ...request.files]);
  const built = finalizeSite(refreshTimestamps(content, deployedAt), metadata, {
    storeRobotsTxt: request.storeRobotsTxt ?? site?.storeRobotsTxt,
  });
  const files = checkAll || !current ? built : keepUnchangedPages(built, current.files, deployedAt);
  const release = await container.siteStore.publish(orgSlug, files);
  countMetric('Deploys', 1);
  await savePublishedDigests(container, orgSlug, release.releaseId, files);
  await container.aiSites.patch(orgSlug, business.id, {
    projectName: orgSlug,
    deploymentUrl,
    deployedAt,
    ...(checkAll || !current ? { checkedAt: deployedAt } : {}),
    releaseId: release.releaseId,
    fileCount: release.fileCount,
    sourceUrl: business.url,
    publishedOrigin: metadata.publicOrigin,
    ...(request.storeSitemapUrls ? { storeSitemapUrls: request.storeSitemapUrls } : {}),
    ...(request.storeRobotsTxt ? { storeRobotsTxt: request.storeRobotsTxt } : {}),
  });
  return { ...release, deploymentUrl, deployedAt, paths: files.map((f) => f.path) };
}
