/**
 * What makes a ScrapedPage of a fetched store page, in ONE place: the built-in scraper and
 * the site mapper (which captures pages during its own fetch, so onboarding fetches each page
 * once) both use it, so the two give identical pages for the same response.
 *
 * - `scrapeRefusal`: why a response is not a page (blocked, not 200, off-site, not HTML);
 * - `createPageConverter`: an analyzed page (core `analyzePage`/`analyzeDocument`: title,
 *   description, main HTML and fingerprint from one parse) → ScrapedPage, main HTML turned into
 *   markdown by the service's one converter (core/text/markdown.ts). Only the markdown is
 *   kept: no HTML outlives the conversion.
 */
import type TurndownService from 'turndown';
import { createTurndown, htmlToMarkdown } from '../../../core/text/markdown';
import type { PageAnalysis } from '../../../core/crawl/fingerprint';
import { blockedReason, isHtmlContentType } from '../../../core/crawl/responses';
import { sameSite } from '../../../core/crawl/url';
import type { MappedUrl, ScrapedPage } from '../../../core/site/types';
import type { FetchResponse } from '../../../ports';

/** The reason the built-in scraper makes no page of this response for `url`, or null when it does. */
export function scrapeRefusal(res: FetchResponse, url: string): string | null {
  const blocked = blockedReason(res);
  if (blocked) return `blocked: ${blocked}`;
  if (res.status !== 200) return `HTTP ${res.status}`;
  if (!sameSite(res.url, url)) return `redirected off-site to ${res.url}`;
  if (!isHtmlContentType(res.headers['content-type'])) {
    return `not HTML (${res.headers['content-type'] ?? 'no content type'})`;
  }
  return null;
}

/** Analyzed page of a mapped URL (fetched with `statusCode`) → ScrapedPage. */
export type PageConverter = (mapped: MappedUrl, analysis: PageAnalysis, statusCode: number) => ScrapedPage;

/** A converter with its own turndown instance (create one per scrape or map, reuse it per page). */
export function createPageConverter(turndown: TurndownService = createTurndown()): PageConverter {
  return (mapped, analysis, statusCode) => ({
    url: mapped.url,
    kind: mapped.kind,
    title: analysis.title,
    description: analysis.description,
    markdown: htmlToMarkdown(analysis.mainHtml, turndown),
    fingerprint: analysis.fingerprint,
    statusCode,
    ...(mapped.lastmod ? { lastmod: mapped.lastmod } : {}),
  });
}

export { createTurndown, htmlToMarkdown } from '../../../core/text/markdown';
