/**
 * THE HTML → Markdown converter of the service, used for every piece of store HTML: scraped
 * pages (adapters/external/scraper/page.ts), product `body_html` (core/products/catalog.ts) and
 * collection descriptions (adapters/external/storefront.ts).
 *
 * turndown (its build without a bundled DOM) over core/text/mini-dom.ts, so the same converter
 * fits in every Lambda bundle. What it guarantees:
 * - lists stay lists (`- item`, `1. item`), headings, emphasis, links and images are kept;
 * - inline and void elements never split a word (`I<meta charset=utf-8>deal` → `Ideal`,
 *   `<b>Bold</b>er` → `**Bold**er`): only block elements and `<br>` break text;
 * - character references are decoded (`&amp;` → `&`, `&eacute;` → `é`, `&#8217;` → `’`);
 * - scripts, styles and form controls are dropped; inline `data:` images are dropped.
 */
import TurndownService from 'turndown/lib/turndown.browser.cjs.js';
import { parseHtmlFragment } from './mini-dom';

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
  service.remove(['script', 'style', 'noscript', 'template', 'button', 'select', 'input', 'textarea', 'title', 'head'] as TurndownService.Filter);
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
      // extractMainContent made page hrefs absolute; anything else (javascript:, relative links
      // of a description, which would resolve against the wrong host) keeps its text only.
      if (!/^(?:https?:|mailto:|tel:)/i.test(href)) return text;
      return `[${text}](${href.replace(/[()\s]/g, encodeURIComponent)})`;
    },
  });
  return service;
}

let shared: TurndownService | null = null;

/** Store HTML → tidy markdown (blank-line runs collapsed, trailing spaces trimmed). */
export function htmlToMarkdown(html: string | null | undefined, service?: TurndownService): string {
  if (!html || !html.trim()) return '';
  const converter = service ?? (shared ??= createTurndown());
  const root = parseHtmlFragment(html);
  return (converter.turndown(root as unknown as TurndownService.Node) as string)
    .split('\n')
    .map((line) => line.replace(/[ \t]+$/, ''))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
