/**
 * Sitemaps protocol (sitemaps.org) parsing: `<urlset>` and `<sitemapindex>`, nothing else.
 * Namespace prefixes, whitespace around values, CDATA and a BOM are tolerated; entries whose
 * `<loc>` is not an absolute http(s) URL are dropped; a `<lastmod>` that is not a W3C
 * datetime is dropped (the entry is kept). Anything whose root is not one of the two
 * elements (an HTML error page, an RSS feed, broken XML) is refused with an UpstreamError.
 */
import { XMLParser } from 'fast-xml-parser';
import { SITEMAP_MAX_BYTES, SITEMAP_MAX_URLS } from '../constants';
import { UpstreamError } from '../errors';
import type { SitemapImage } from '../site/types';

export interface SitemapEntry {
  loc: string;
  lastmod?: string;
  /** Google image extension entries (`<image:image>`), kept for the unified sitemap (D114). */
  images?: SitemapImage[];
}

export type { SitemapImage };

/** Google's image sitemap extension: at most 1,000 images per `<url>`. */
const MAX_IMAGES_PER_URL = 1000;

export interface ParsedSitemap {
  kind: 'urlset' | 'sitemapindex';
  entries: SitemapEntry[];
  /** True when the file had more than SITEMAP_MAX_URLS entries and the rest was ignored. */
  truncated: boolean;
}

/** W3C Datetime profiles (YYYY, YYYY-MM, YYYY-MM-DD, with time and zone). */
const W3C_DATETIME = /^\d{4}(?:-\d{2}(?:-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2}))?)?)?$/;

const parser = new XMLParser({
  removeNSPrefix: true,
  ignoreAttributes: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  trimValues: true,
  parseTagValue: false,
  // Entity expansion keeps the library's bounded defaults (DOCTYPE bombs are refused).
  isArray: (name) => name === 'url' || name === 'sitemap' || name === 'image',
});

/** Parses one sitemap document. Throws UpstreamError when it is neither urlset nor index. */
export function parseSitemap(xml: string | Buffer): ParsedSitemap {
  const size = typeof xml === 'string' ? Buffer.byteLength(xml, 'utf8') : xml.length;
  if (size > SITEMAP_MAX_BYTES) throw new UpstreamError(`sitemap is larger than ${SITEMAP_MAX_BYTES} bytes`);
  const text = (typeof xml === 'string' ? xml : xml.toString('utf8')).replace(/^\uFEFF/, '').trim();
  if (!text.startsWith('<')) throw new UpstreamError('not a sitemap: the document is not XML');

  // A simple DOCTYPE (an HTML error page's `<!doctype html>`) says nothing about the root, and
  // the parser would read a lower-case one as an element: drop it before parsing.
  const withoutDoctype = text.replace(/^(<\?xml[^>]*\?>\s*)?<!doctype\s[^[>]*>/i, '$1');
  let doc: Record<string, unknown>;
  try {
    doc = parser.parse(withoutDoctype) as Record<string, unknown>;
  } catch (err) {
    throw new UpstreamError(`not a sitemap: invalid XML (${(err as Error).message.split('\n')[0]})`);
  }
  const roots = Object.keys(doc).filter((k) => !k.startsWith('?') && !k.startsWith('!') && k !== '#text');
  if (roots.length !== 1) throw new UpstreamError(`not a sitemap: expected one root element, found ${roots.length}`);
  const root = roots[0];
  if (root !== 'urlset' && root !== 'sitemapindex') {
    throw new UpstreamError(`not a sitemap: root element is <${root.slice(0, 40)}>`);
  }
  const body = doc[root];
  const items = body && typeof body === 'object' ? (body as Record<string, unknown>)[root === 'urlset' ? 'url' : 'sitemap'] : undefined;
  const list = Array.isArray(items) ? items : [];

  const entries: SitemapEntry[] = [];
  let truncated = false;
  for (const item of list) {
    if (!item || typeof item !== 'object') continue;
    const record = item as Record<string, unknown>;
    const loc = textOf(record.loc);
    if (!loc || !isAbsoluteHttpUrl(loc)) continue;
    if (entries.length >= SITEMAP_MAX_URLS) {
      truncated = true;
      break;
    }
    const lastmod = textOf(record.lastmod);
    const images = imagesOf(record.image);
    entries.push({ loc, ...(lastmod && W3C_DATETIME.test(lastmod) ? { lastmod } : {}), ...(images.length ? { images } : {}) });
  }
  return { kind: root, entries, truncated };
}

/** `<image:image>` children (namespace prefix removed): loc required, title/caption kept. */
function imagesOf(value: unknown): SitemapImage[] {
  const out: SitemapImage[] = [];
  for (const item of Array.isArray(value) ? value : []) {
    if (!item || typeof item !== 'object' || out.length >= MAX_IMAGES_PER_URL) continue;
    const record = item as Record<string, unknown>;
    const loc = textOf(record.loc);
    if (!loc || !isAbsoluteHttpUrl(loc)) continue;
    const title = textOf(record.title);
    const caption = textOf(record.caption);
    out.push({ loc, ...(title ? { title } : {}), ...(caption ? { caption } : {}) });
  }
  return out;
}

/** True for a `lastmod` value in one of the W3C datetime profiles. */
export function isW3cDatetime(value: string): boolean {
  return W3C_DATETIME.test(value);
}

function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() || undefined;
  if (typeof value === 'number') return String(value);
  if (value && typeof value === 'object' && '#text' in value) return textOf((value as Record<string, unknown>)['#text']);
  return undefined;
}

function isAbsoluteHttpUrl(value: string): boolean {
  if (value.length >= 2048 + 1024) return false; // the protocol says < 2,048; be a little lenient
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
