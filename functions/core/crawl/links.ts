/**
 * Same-site link extraction from an HTML page: every `a[href]` (and `area[href]`), resolved
 * against the document base (`<base href>` when present, itself resolved against the page
 * URL), http(s) only, normalized (see url.ts), on the same site as `site`, de-duplicated, in
 * document order.
 */
import type { CheerioAPI } from 'cheerio';
import { parseHtml } from './fingerprint';
import { normalizeUrl, onOrigin, sameSite } from './url';

export interface ExtractLinksOptions {
  /** The site links must belong to; defaults to the page URL. Same-site links are re-homed onto it. */
  site?: string;
}

export function extractLinks(html: string, pageUrl: string, options: ExtractLinksOptions = {}): string[] {
  return extractLinksFrom(parseHtml(html), pageUrl, options);
}

/** Same, on an already-parsed document (the mapper parses once for links and fingerprint). */
export function extractLinksFrom($: CheerioAPI, pageUrl: string, options: ExtractLinksOptions = {}): string[] {
  const base = documentBase($, pageUrl);
  if (!base) return [];
  const site = options.site ?? pageUrl;
  const siteOrigin = safeUrl(site);
  if (!siteOrigin) return [];

  const seen = new Set<string>();
  const links: string[] = [];
  $('a[href], area[href]').each((_, element) => {
    const href = $(element).attr('href')?.trim();
    if (!href || href.startsWith('#')) return;
    if (/^(?:javascript|mailto|tel|sms|data|blob|ftp|file):/i.test(href)) return;
    const normalized = normalizeUrl(href, base);
    if (!normalized || !sameSite(normalized, siteOrigin)) return;
    const rehomed = onOrigin(normalized, siteOrigin);
    if (seen.has(rehomed)) return;
    seen.add(rehomed);
    links.push(rehomed);
  });
  return links;
}

/** `<base href>` resolved against the page URL (first one wins, as in browsers), else the page URL. */
function documentBase($: CheerioAPI, pageUrl: string): URL | null {
  const page = safeUrl(pageUrl);
  if (!page) return null;
  const href = $('base[href]').first().attr('href')?.trim();
  if (!href) return page;
  try {
    const base = new URL(href, page);
    return base.protocol === 'http:' || base.protocol === 'https:' ? base : page;
  } catch {
    return page;
  }
}

function safeUrl(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}
