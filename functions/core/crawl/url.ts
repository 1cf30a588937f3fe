/**
 * URL rules of the crawler: one spelling per page (for de-duplication), what counts as the
 * same site, and what kind of store page a URL is. Pure functions, no I/O.
 *
 * Normalization policy (`normalizeUrl`):
 * - scheme and host lower-cased, default ports dropped, fragment dropped (the WHATWG parser
 *   does the first three; we only ever compare `href`s it produced);
 * - runs of `/` in the path collapsed to one (`/a//b` → `/a/b`);
 * - trailing slash: removed from every path except the root (`/pages/about/` →
 *   `/pages/about`, `/` stays `/`). Store platforms serve both spellings of the same page and
 *   list the slash-less one in their sitemaps and canonical links, so that one wins;
 * - tracking parameters removed (`utm_*`, the platform's search/recommendation trackers
 *   `_pos`, `_sid`, `_ss`, `_psq`, `_fid`, ad click ids); on product URLs `variant` is removed
 *   too: `/products/x?variant=1` is the same product page with another pre-selected option and
 *   sitemaps only list the canonical URL. Everywhere else `variant` is kept (it may matter);
 * - the remaining query parameters are kept (`?page=2`, `?from=1&to=9` are different
 *   documents) and sorted by name, stably, so parameter order does not make duplicates;
 * - an empty query (`?`) is dropped.
 */
import type { PageKind } from '../site/types';

/** Exact tracking parameter names dropped everywhere (lower-case comparison). */
export const TRACKING_PARAMS: ReadonlySet<string> = new Set([
  '_pos', '_sid', '_ss', '_psq', '_fid',
  'gclid', 'gbraid', 'wbraid', 'fbclid', 'msclkid', 'dclid', 'yclid', 'twclid', 'ttclid',
  'mc_cid', 'mc_eid', '_ga', '_gl', '_kx', 'srsltid',
]);

/** Parameters dropped only on product pages (see the policy above). */
const PRODUCT_ONLY_PARAMS: ReadonlySet<string> = new Set(['variant']);

function isTrackingParam(name: string, productPath: boolean): boolean {
  const lower = name.toLowerCase();
  return lower.startsWith('utm_') || TRACKING_PARAMS.has(lower) || (productPath && PRODUCT_ONLY_PARAMS.has(lower));
}

/**
 * The one spelling of a URL used for de-duplication, or null when it is not an absolute
 * http(s) URL (`mailto:`, `javascript:`, garbage). `base` resolves relative references.
 */
export function normalizeUrl(input: string, base?: string | URL): string | null {
  let url: URL;
  try {
    url = base === undefined ? new URL(input.trim()) : new URL(input.trim(), base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (!url.hostname) return null;
  url.hash = '';
  url.username = '';
  url.password = '';

  let path = url.pathname.replace(/\/{2,}/g, '/');
  if (path.length > 1 && path.endsWith('/')) path = path.replace(/\/+$/, '') || '/';
  url.pathname = path;

  if (url.href.includes('?')) {
    const productPath = pageKind(url) === 'product';
    const kept = [...url.searchParams.entries()].filter(([name]) => !isTrackingParam(name, productPath));
    // Array.prototype.sort is stable: repeated names keep their relative order.
    kept.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    url.search = kept.length ? new URLSearchParams(kept).toString() : '';
  }
  return url.href;
}

/** Host for site comparison: lower-case, without a leading `www.`, without IPv6 brackets. */
export function siteHost(url: string | URL): string | null {
  try {
    const parsed = typeof url === 'string' ? new URL(url) : url;
    return parsed.hostname.toLowerCase().replace(/^\[|\]$/g, '').replace(/^www\./, '');
  } catch {
    return null;
  }
}

/**
 * True when both URLs belong to the same site: same host, treating `www.` and the naked
 * domain as one; http and https count as one site; an explicit non-default port must match
 * (another port is another server). Other subdomains are other sites.
 */
export function sameSite(a: string | URL, b: string | URL): boolean {
  let ua: URL;
  let ub: URL;
  try {
    ua = typeof a === 'string' ? new URL(a) : a;
    ub = typeof b === 'string' ? new URL(b) : b;
  } catch {
    return false;
  }
  const schemes = ['http:', 'https:'];
  if (!schemes.includes(ua.protocol) || !schemes.includes(ub.protocol)) return false;
  return siteHost(ua) === siteHost(ub) && ua.port === ub.port;
}

/**
 * Re-homes a same-site URL onto the site's origin (its scheme and exact host), so that
 * `http://www.shop.example/x` and `https://shop.example/x` are one entry for a site mapped
 * from `https://shop.example`. Returns the URL unchanged when it is not on the same site.
 */
export function onOrigin(url: string, origin: string | URL): string {
  const o = typeof origin === 'string' ? new URL(origin) : origin;
  if (!sameSite(url, o)) return url;
  const u = new URL(url);
  u.protocol = o.protocol;
  u.host = o.host;
  return u.href;
}

/** A leading market/locale segment: `/en`, `/en-ca`, `/fr-CA`, `/zh-hant-tw` is not one. */
const LOCALE_SEGMENT = /^[a-z]{2}(?:-[a-z]{2})?$/i;

/**
 * Store page kind by path (a locale prefix such as `/en-ca` is skipped):
 * `/` home; `/products/x` and `/collections/c/products/x` product; `/collections/x` collection;
 * `/pages/x` page; `/blogs/x` (and `/blogs/x/tagged/t`) blog; `/blogs/x/y` article; else other.
 */
export function pageKind(url: string | URL): PageKind {
  let pathname: string;
  try {
    pathname = (typeof url === 'string' ? new URL(url) : url).pathname;
  } catch {
    return 'other';
  }
  let segments = pathname.split('/').filter(Boolean).map(safeDecode);
  if (segments.length > 0 && LOCALE_SEGMENT.test(segments[0]) && (segments.length === 1 || isKnownRoot(segments[1]))) {
    segments = segments.slice(1);
  }
  if (segments.length === 0) return 'home';
  const [root, , third] = segments;
  switch (root.toLowerCase()) {
    case 'products':
      return segments.length === 2 ? 'product' : 'other';
    case 'collections':
      if (segments.length === 2) return 'collection';
      if (segments.length === 4 && third.toLowerCase() === 'products') return 'product';
      return 'other';
    case 'pages':
      return segments.length === 2 ? 'page' : 'other';
    case 'blogs':
      if (segments.length === 2) return 'blog';
      if (segments.length === 4 && third.toLowerCase() === 'tagged') return 'blog';
      if (segments.length === 3) return 'article';
      return 'other';
    default:
      return 'other';
  }
}

function isKnownRoot(segment: string): boolean {
  return ['products', 'collections', 'pages', 'blogs'].includes(segment.toLowerCase());
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** File extensions that are never HTML pages: not worth a request when only HTML is wanted. */
const NON_HTML_EXTENSIONS = new Set([
  'jpg', 'jpeg', 'png', 'gif', 'webp', 'avif', 'svg', 'ico', 'bmp', 'tif', 'tiff',
  'pdf', 'zip', 'gz', 'tgz', 'rar', '7z', 'dmg', 'exe',
  'mp3', 'mp4', 'm4v', 'mov', 'webm', 'avi', 'wav', 'ogg',
  'css', 'js', 'mjs', 'json', 'xml', 'txt', 'csv', 'rss', 'atom',
  'woff', 'woff2', 'ttf', 'otf', 'eot',
]);

/** True when the URL's last path segment has an extension that is never an HTML page. */
export function hasNonHtmlExtension(url: string | URL): boolean {
  try {
    const pathname = (typeof url === 'string' ? new URL(url) : url).pathname;
    const match = /\.([a-z0-9]{1,6})$/i.exec(pathname);
    return match !== null && NON_HTML_EXTENSIONS.has(match[1].toLowerCase());
  } catch {
    return false;
  }
}
