/**
 * The store's URLs for the unified sitemap (spec: `store_sitemap_urls`), as 1a records them
 * and as every publish reads them. `loc` and `lastmod` stay on the AI-site record (what the
 * deploy-site route and older readers use); the store's `<image:image>` entries live in the
 * `store-sitemap/<slug>` artifact (D115): 5,000 URLs with images would press DynamoDB's
 * 400 KB item limit. A publish joins the two by URL.
 */
import { artifactKeys } from '../../core/artifacts';
import type { MappedUrl, SitemapImage, StoreSitemapUrl } from '../../core/site/types';
import type { Container } from '../../container';

/** Google's image sitemap extension allows 1,000 images per URL. */
export const STORE_SITEMAP_MAX_IMAGES_PER_URL = 1_000;
/** Image entries kept over the whole store (≈ 5 MB of sitemap at most), first URLs first. */
export const STORE_SITEMAP_MAX_IMAGES = 25_000;

export interface StoreSitemapImagesArtifact {
  /** Store URL → its image entries, only for URLs that have some. */
  images: Record<string, SitemapImage[]>;
}

/** The image entries of the mapped URLs, bounded per URL and in all. */
export function storeSitemapImagesOf(urls: readonly MappedUrl[]): StoreSitemapImagesArtifact {
  const images: Record<string, SitemapImage[]> = {};
  let left = STORE_SITEMAP_MAX_IMAGES;
  for (const u of urls) {
    if (left <= 0) break;
    if (!u.images?.length || images[u.url]) continue;
    const kept = u.images.slice(0, Math.min(STORE_SITEMAP_MAX_IMAGES_PER_URL, left));
    images[u.url] = kept;
    left -= kept.length;
  }
  return { images };
}

/**
 * Records the store's sitemap URLs after 1a (onboarding or daily): the images artifact first,
 * then `storeSitemapUrls` (and the store's robots.txt) on the AI-site record.
 */
export async function saveStoreSitemap(container: Container, orgSlug: string, entityId: string, urls: readonly MappedUrl[], storeRobotsTxt: string | null): Promise<void> {
  await container.artifacts.put(artifactKeys.storeSitemapImages(orgSlug), storeSitemapImagesOf(urls));
  await container.aiSites.patch(orgSlug, entityId, {
    storeSitemapUrls: urls.map((u) => (u.lastmod ? { loc: u.url, lastmod: u.lastmod } : { loc: u.url })),
    ...(storeRobotsTxt ? { storeRobotsTxt } : {}),
  });
}

/** The store URLs with the image entries 1a recorded for them (none when no artifact exists yet). */
export async function withStoreImages(container: Container, orgSlug: string, urls: ReadonlyArray<{ loc: string; lastmod?: string }>): Promise<StoreSitemapUrl[]> {
  const stored = await container.artifacts.get<StoreSitemapImagesArtifact>(artifactKeys.storeSitemapImages(orgSlug));
  const images = stored?.images ?? {};
  return urls.map((u) => {
    const own = Object.prototype.hasOwnProperty.call(images, u.loc) ? images[u.loc] : undefined;
    return own?.length ? { ...u, images: own } : { ...u };
  });
}
