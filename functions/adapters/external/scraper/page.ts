/**
 * What makes a ScrapedPage of a fetched store page, in ONE place: the built-in scraper and
 * the site mapper (which captures pages during its own fetch, so onboarding fetches each page
 * once) both use it, so the two give identical pages for the same response.
 *
 * - `scrapeRefusal`: why a response is not a page (blocked, not 200, off-site, not HTML);
 * - `createPageConverter`: an analyzed page (core `analyzePage`/`analyzeDocument`: title,
 *   description, main HTML and fingerprint from one parse) → ScrapedPage, main HTML turned into
 *   markdown by turndown. Only the markdown is kept: no HTML outlives the conversion.
 */
import TurndownService from 'turndown';
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

/** Turndown set up for AI-readable markdown: ATX headings, fenced code, `-` bullets. */
export function createTurndown(): TurndownService {
  const service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    fence: '```',
    bulletListMarker: '-',
    emDelimiter: '*',
    strongDelimiter: '**',
    hr: '---',
    linkStyle: 'inlined',
  });
  // Interactive controls are not content (extractMainContent already dropped scripts etc.).
  service.remove(['script', 'style', 'noscript', 'template', 'button', 'select', 'input', 'textarea']);
  // `- item` / `1. item` with one space (turndown's default pads markers to four columns).
  service.addRule('listItem', {
    filter: 'li',
    replacement: (content, node, options) => {
      const parent = node.parentNode as unknown as { nodeName: string; getAttribute(name: string): string | null; children: ArrayLike<unknown> } | null;
      let prefix = `${options.bulletListMarker ?? '-'} `;
      if (parent?.nodeName === 'OL') {
        const start = Number(parent.getAttribute('start') ?? '1');
        const index = Array.prototype.indexOf.call(parent.children, node);
        prefix = `${(Number.isFinite(start) ? start : 1) + index}. `;
      }
      const body = content.replace(/^\n+/, '').replace(/\n+$/, '\n').replace(/\n/gm, `\n${' '.repeat(prefix.length)}`);
      return prefix + body + (node.nextSibling && !/\n$/.test(body) ? '\n' : '');
    },
  });
  service.addRule('images', {
    filter: 'img',
    replacement: (_content, node) => {
      const element = node as unknown as { getAttribute(name: string): string | null };
      const src = (element.getAttribute('src') ?? '').trim();
      // Inline data URIs are megabytes of base64 and no use to a reader: dropped.
      if (!src || /^data:/i.test(src)) return '';
      const alt = (element.getAttribute('alt') ?? '').replace(/[[\]\n]/g, ' ').trim();
      return `![${alt}](${src})`;
    },
  });
  service.addRule('links', {
    filter: (node) => node.nodeName === 'A' && Boolean(node.getAttribute('href')),
    replacement: (content, node) => {
      const href = (node.getAttribute('href') ?? '').trim();
      const text = content.replace(/\s+/g, ' ').trim();
      if (!text) return '';
      // extractMainContent made hrefs absolute; anything else (javascript:, bad URLs) was removed.
      if (!/^(?:https?:|mailto:|tel:)/i.test(href)) return text;
      return `[${text}](${href.replace(/[()\s]/g, encodeURIComponent)})`;
    },
  });
  return service;
}

/** Main HTML → tidy markdown (blank-line runs collapsed, trailing spaces trimmed). */
export function htmlToMarkdown(html: string, service: TurndownService = createTurndown()): string {
  return service
    .turndown(html)
    .split('\n')
    .map((line) => line.replace(/[ \t]+$/, ''))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
