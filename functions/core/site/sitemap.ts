/**
 * The unified `/sitemap.xml` (spec: Path routing, rule 4; D23; reference/web-protocols.md §3).
 *
 * One sitemap lists three kinds of URL:
 * - the store's own URLs (`metadata.storeSitemapUrls`, absolute, their lastmod kept when it
 *   is a W3C datetime);
 * - the AI pages: `/ai/products/*`, `/ai/collections/*`, `/ai/<faq-slug>/`, the other
 *   `/ai/**` pages, and AI articles (root `/<slug>/` on the AI host) in their `/ai/<slug>/`
 *   form, which resolves on both hosts (D28);
 * - the AI text files `/llms.txt` and `/llms/*.txt`.
 * Every AI URL is absolute on `metadata.publicOrigin`. Markdown replicas, data.json and the
 * key files are not listed (they are not pages for search engines).
 *
 * Past 50,000 URLs or 50 MB it becomes a `<sitemapindex>` at `/sitemap.xml` whose parts live
 * at `/ai/sitemaps/sitemap-<n>.xml`: below the index's directory, and on an AI path so they
 * also resolve on the customer domain.
 */
import { SITEMAP_MAX_BYTES, SITEMAP_MAX_URLS } from '../constants';
import { CONTENT_TYPES, isoSeconds } from './html';
import { SITE_PATHS, absoluteUrl, aiHref, urlPathOfFile } from './paths';
import type { DeployMetadata, SiteFile, SitemapImage } from './types';
import { asFacts, type FileFacts } from './file-facts';

export const SITEMAP_NAMESPACE = 'http://www.sitemaps.org/schemas/sitemap/0.9';
/** sitemaps.org: `<loc>` must be less than 2,048 characters. */
export const MAX_LOC_LENGTH = 2047;

export interface SitemapEntry {
  loc: string;
  lastmod?: string;
  /** `<image:image>` entries (the store's, kept: D114). */
  images?: SitemapImage[];
}

export const IMAGE_NAMESPACE = 'http://www.google.com/schemas/sitemap-image/1.1';
/** Google's image sitemap extension: at most 1,000 images per `<url>`. */
const MAX_IMAGES_PER_URL = 1000;

export interface SitemapLimits {
  maxUrls: number;
  maxBytes: number;
}

const DEFAULT_LIMITS: SitemapLimits = { maxUrls: SITEMAP_MAX_URLS, maxBytes: SITEMAP_MAX_BYTES };

const W3C_DATETIME = /^\d{4}(?:-\d{2}(?:-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2}))?)?)?$/;

/** A W3C datetime for `<lastmod>`: kept when already one, converted when parseable, else undefined. */
export function w3cLastmod(value: string | undefined | null): string | undefined {
  if (!value) return undefined;
  const text = value.trim();
  if (W3C_DATETIME.test(text) && !Number.isNaN(new Date(text.length === 4 ? `${text}-01-01` : text.length === 7 ? `${text}-01` : text).getTime())) return text;
  const parsed = new Date(text);
  return Number.isNaN(parsed.getTime()) ? undefined : isoSeconds(parsed.toISOString());
}

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[ch] as string);
}

/** An absolute http(s) URL under 2,048 characters, percent-encoded when needed; else null. */
export function sitemapLoc(url: string): string | null {
  const text = url.trim();
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  const loc = /^[\x21-\x7e]+$/.test(text) ? text : parsed.href;
  return loc.length <= MAX_LOC_LENGTH ? loc : null;
}

/**
 * An AI page's lastmod: its `article:modified_time`, which moves only with its content (D112).
 * Files that carry no date (text files) get no lastmod: a deploy time would claim a change.
 */
/** The URL path (routed form) under which an AI file is listed, or null when it is not listed. */
export function sitemapPathOfFile(file: { path: string }, paths: ReadonlySet<string>): string | null {
  const { path } = file;
  if (path === SITE_PATHS.llmsTxt) return path;
  if (/^\/llms\/(?:catalog\/)?[^/]+\.txt$/.test(path)) return path;
  if (!path.endsWith('/index.html')) return null;
  if (path === SITE_PATHS.rootIndex) return null; // the same page as /ai/
  if (path.startsWith('/ai/')) return urlPathOfFile(path);
  // A root-level page (an AI article): listed as /ai/<slug>/ unless an /ai/ file shadows it.
  if (paths.has(`/ai${path}`)) return null;
  return aiHref(urlPathOfFile(path));
}

/** Every entry of the unified sitemap, deduplicated, store URLs first. */
export function collectSitemapEntries(items: ReadonlyArray<SiteFile | FileFacts>, metadata: DeployMetadata): SitemapEntry[] {
  const files = asFacts(items);
  const entries: SitemapEntry[] = [];
  const seen = new Set<string>();
  const add = (url: string, lastmod: string | undefined, images?: readonly SitemapImage[]) => {
    const loc = sitemapLoc(url);
    if (!loc || seen.has(loc)) return;
    seen.add(loc);
    const kept = (images ?? []).flatMap((image) => {
      const imageLoc = sitemapLoc(image.loc);
      return imageLoc ? [{ ...image, loc: imageLoc }] : [];
    }).slice(0, MAX_IMAGES_PER_URL);
    entries.push({ loc, ...(lastmod ? { lastmod } : {}), ...(kept.length ? { images: kept } : {}) });
  };
  for (const item of metadata.storeSitemapUrls) add(item.loc, w3cLastmod(item.lastmod), item.images);
  const paths = new Set(files.map((f) => f.path));
  const ai = files
    .map((file) => ({ file, urlPath: sitemapPathOfFile(file, paths) }))
    .filter((x): x is { file: FileFacts; urlPath: string } => x.urlPath !== null)
    .sort((a, b) => sortKey(a.urlPath).localeCompare(sortKey(b.urlPath)));
  for (const { file, urlPath } of ai) add(absoluteUrl(metadata.publicOrigin, urlPath), w3cLastmod(file.modified));
  return entries;
}

/** llms.txt, the AI home, then the rest alphabetically. */
function sortKey(urlPath: string): string {
  if (urlPath === SITE_PATHS.llmsTxt) return '0';
  if (urlPath === '/ai/') return '1';
  return `2${urlPath}`;
}

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';

function imageElement(image: SitemapImage): string {
  return `<image:image><image:loc>${escapeXml(image.loc)}</image:loc>${image.title ? `<image:title>${escapeXml(image.title)}</image:title>` : ''}${image.caption ? `<image:caption>${escapeXml(image.caption)}</image:caption>` : ''}</image:image>`;
}

function urlElement(entry: SitemapEntry): string {
  return `<url><loc>${escapeXml(entry.loc)}</loc>${entry.lastmod ? `<lastmod>${escapeXml(entry.lastmod)}</lastmod>` : ''}${(entry.images ?? []).map(imageElement).join('')}</url>\n`;
}

/** The image namespace is declared only when an entry has images (the file stays as before otherwise). */
function urlset(elements: string[], withImages = elements.some((e) => e.includes('<image:image>'))): string {
  return `${XML_HEAD}<urlset xmlns="${SITEMAP_NAMESPACE}"${withImages ? ` xmlns:image="${IMAGE_NAMESPACE}"` : ''}>\n${elements.join('')}</urlset>\n`;
}

const URLSET_OVERHEAD = Buffer.byteLength(urlset([], true), 'utf8');

function latest(lastmods: Array<string | undefined>, fallback: string): string {
  let best: { time: number; text: string } | null = null;
  for (const text of lastmods) {
    if (!text) continue;
    const time = new Date(text).getTime();
    if (!Number.isNaN(time) && (!best || time > best.time)) best = { time, text };
  }
  return best ? best.text : isoSeconds(fallback);
}

/**
 * `/sitemap.xml`, plus `/ai/sitemaps/sitemap-<n>.xml` parts when the URLs do not fit one
 * file. `limits` exists for tests; production uses the sitemaps.org limits.
 */
export function buildSitemap(
  files: ReadonlyArray<SiteFile | FileFacts>,
  metadata: DeployMetadata,
  limits: SitemapLimits = DEFAULT_LIMITS,
): SiteFile[] {
  const entries = collectSitemapEntries(files, metadata);
  const elements = entries.map(urlElement);
  const sizes = elements.map((e) => Buffer.byteLength(e, 'utf8'));
  const total = URLSET_OVERHEAD + sizes.reduce((a, b) => a + b, 0);
  if (elements.length <= limits.maxUrls && total <= limits.maxBytes) {
    return [{ path: SITE_PATHS.sitemap, content: urlset(elements), contentType: CONTENT_TYPES.xml }];
  }

  const parts: Array<{ from: number; to: number }> = [];
  let from = 0;
  let bytes = URLSET_OVERHEAD;
  for (let i = 0; i < elements.length; i += 1) {
    const size = sizes[i] as number;
    if (URLSET_OVERHEAD + size > limits.maxBytes) throw new Error(`sitemap entry too large for one sitemap file: ${entries[i]?.loc}`);
    if (i - from >= limits.maxUrls || bytes + size > limits.maxBytes) {
      parts.push({ from, to: i });
      from = i;
      bytes = URLSET_OVERHEAD;
    }
    bytes += size;
  }
  if (from < elements.length) parts.push({ from, to: elements.length });
  if (parts.length > limits.maxUrls) throw new Error(`too many sitemap parts: ${parts.length}`);

  const out: SiteFile[] = [];
  const indexItems: string[] = [];
  parts.forEach((part, i) => {
    const path = SITE_PATHS.sitemapPart(i + 1);
    out.push({ path, content: urlset(elements.slice(part.from, part.to)), contentType: CONTENT_TYPES.xml });
    const lastmod = latest(entries.slice(part.from, part.to).map((e) => e.lastmod), metadata.deployedAt);
    indexItems.push(`<sitemap><loc>${escapeXml(absoluteUrl(metadata.publicOrigin, path))}</loc><lastmod>${escapeXml(lastmod)}</lastmod></sitemap>\n`);
  });
  const index = `${XML_HEAD}<sitemapindex xmlns="${SITEMAP_NAMESPACE}">\n${indexItems.join('')}</sitemapindex>\n`;
  return [{ path: SITE_PATHS.sitemap, content: index, contentType: CONTENT_TYPES.xml }, ...out];
}
