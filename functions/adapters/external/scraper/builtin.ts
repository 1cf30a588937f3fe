/**
 * The built-in scraper: the guarded client fetches each page, core extracts the main content
 * (title, description, cleaned main HTML and the fingerprint, in one parse), turndown turns
 * the main HTML into markdown. No outside service, no API key.
 */
import pLimit from 'p-limit';
import TurndownService from 'turndown';
import { analyzePage, blockedReason, isHtmlContentType } from '../../../core/crawl/fingerprint';
import { sameSite } from '../../../core/crawl/url';
import type { MappedUrl, ScrapedPage } from '../../../core/site/types';
import type { HttpFetcher } from '../guarded-fetch';
import type { Scraper, ScrapeResult } from './types';

export interface BuiltinScraperOptions {
  /** Pages fetched at once (default 4); `scrape(…, { concurrency })` overrides it per call. */
  concurrency?: number;
  /** Per-page deadline (the fetcher's default otherwise). */
  timeoutMs?: number;
}

const HTML_ACCEPT = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1';

export function createBuiltinScraper(fetchUrl: HttpFetcher, options: BuiltinScraperOptions = {}): Scraper {
  const turndown = createTurndown();
  return {
    name: 'builtin',
    async scrape(urls: MappedUrl[], callOptions = {}): Promise<ScrapeResult> {
      const limit = pLimit(Math.max(1, callOptions.concurrency ?? options.concurrency ?? 4));
      const outcomes = await Promise.all(urls.map((mapped) => limit(() => scrapeOne(fetchUrl, turndown, mapped, options.timeoutMs))));
      const result: ScrapeResult = { pages: [], failures: [] };
      for (const outcome of outcomes) {
        if ('reason' in outcome) result.failures.push(outcome);
        else result.pages.push(outcome);
      }
      return result;
    },
  };
}

async function scrapeOne(
  fetchUrl: HttpFetcher,
  turndown: TurndownService,
  mapped: MappedUrl,
  timeoutMs: number | undefined,
): Promise<ScrapedPage | { url: string; reason: string }> {
  const url = mapped.url;
  let res;
  try {
    res = await fetchUrl(url, { headers: { accept: HTML_ACCEPT }, ...(timeoutMs ? { timeoutMs } : {}) });
  } catch (err) {
    return { url, reason: err instanceof Error ? err.message : String(err) };
  }
  const blocked = blockedReason(res);
  if (blocked) return { url, reason: `blocked: ${blocked}` };
  if (res.status !== 200) return { url, reason: `HTTP ${res.status}` };
  if (!sameSite(res.url, url)) return { url, reason: `redirected off-site to ${res.url}` };
  if (!isHtmlContentType(res.headers['content-type'])) {
    return { url, reason: `not HTML (${res.headers['content-type'] ?? 'no content type'})` };
  }
  const page = analyzePage(res.text(), res.url);
  return {
    url,
    kind: mapped.kind,
    title: page.title,
    description: page.description,
    markdown: htmlToMarkdown(page.mainHtml, turndown),
    fingerprint: page.fingerprint,
    statusCode: res.status,
    ...(mapped.lastmod ? { lastmod: mapped.lastmod } : {}),
  };
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
