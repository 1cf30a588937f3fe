/**
 * HTML rendering shared by every page of the AI site: escaping, JSON-LD embedding, dates,
 * and the page shell (head metadata, header, footer, tracking script).
 */
import { SITE_PATHS, aiHref } from './paths';

export const CONTENT_TYPES = {
  html: 'text/html; charset=utf-8',
  text: 'text/plain; charset=utf-8',
  markdown: 'text/markdown; charset=utf-8',
  json: 'application/json; charset=utf-8',
  javascript: 'text/javascript; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
} as const;

export const MAX_TITLE_LENGTH = 70;
export const MAX_DESCRIPTION_LENGTH = 160;

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML content and double- or single-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch] ?? ch);
}

/** Reverses `escapeHtml` and numeric character references (for re-reading our own HTML). */
export function decodeHtmlEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos|#39|nbsp);/gi, (whole, name: string) => {
    const lower = name.toLowerCase();
    if (lower.startsWith('#x')) return safeCodePoint(parseInt(lower.slice(2), 16), whole);
    if (lower.startsWith('#')) return safeCodePoint(parseInt(lower.slice(1), 10), whole);
    return ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' } as Record<string, string>)[lower] ?? whole;
  });
}

function safeCodePoint(code: number, fallback: string): string {
  return Number.isInteger(code) && code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : fallback;
}

/**
 * JSON for a `<script type="application/ld+json">` block: `<` is written `\u003c` (so no
 * `</script>` or `<!--` can close or confuse the block) and U+2028/U+2029 are escaped.
 * `JSON.parse` of the block gives back the original data.
 */
export function jsonLdText(data: unknown): string {
  return JSON.stringify(data)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** Collapses whitespace (newlines included) into single spaces. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Cuts `text` to at most `max` characters at a word boundary, ending with `…` when cut. */
export function truncate(text: string, max: number): string {
  const clean = oneLine(text);
  if (clean.length <= max) return clean;
  if (max <= 1) return clean.slice(0, max);
  const cut = clean.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  const head = space > max / 2 ? cut.slice(0, space) : cut;
  return `${head.replace(/[\s,;:.\-–—]+$/, '')}…`;
}

/**
 * A page title of at most 70 characters that always includes the store name:
 * `<page> | <store>`, the page part cut first; a very long store name is cut too.
 */
export function pageTitle(page: string, storeName: string): string {
  const store = truncate(storeName, 40);
  const head = oneLine(page);
  if (!head || head === store) return truncate(store, MAX_TITLE_LENGTH);
  const room = MAX_TITLE_LENGTH - store.length - 3;
  return `${truncate(head, room)} | ${store}`;
}

const MONTHS = [
  'January', 'February', 'March', 'April', 'May', 'June',
  'July', 'August', 'September', 'October', 'November', 'December',
];

function parseInstant(iso: string): Date {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) throw new Error(`not an ISO timestamp: ${JSON.stringify(iso)}`);
  return date;
}

/** `2026-06-03T14:05:09.123Z` → `2026-06-03T14:05:09Z` (UTC, whole seconds). */
export function isoSeconds(iso: string): string {
  return parseInstant(iso).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** `2026-06-03T14:05:09Z` → `June 3, 2026` (UTC calendar date). */
export function humanDate(iso: string): string {
  const date = parseInstant(iso);
  return `${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()}`;
}

export function utcYear(iso: string): number {
  return parseInstant(iso).getUTCFullYear();
}

/** The footer line with the page's modified date (D112: it moves only with the content). */
export function lastUpdatedLine(iso: string): string {
  return `Last updated: ${humanDate(iso)}`;
}

/** The footer line the daily refresh rewrites: when the page was last checked against its sources. */
export function lastCheckedLine(iso: string): string {
  return `Last checked: ${humanDate(iso)}`;
}

export const LAST_CHECKED_PATTERN = /Last checked: (January|February|March|April|May|June|July|August|September|October|November|December) \d{1,2}, \d{4}/;

export const LAST_UPDATED_PATTERN = /Last updated: (January|February|March|April|May|June|July|August|September|October|November|December) \d{1,2}, \d{4}/;

export interface PageShell {
  storeName: string;
  /** Store origin: the header's "store" link. */
  storeUrl: string;
  /** Page heading part of the title; `pageTitle` adds the store name. */
  title: string;
  description: string;
  /**
   * Absolute URL: the store page the AI page replicates, or the page's own URL
   * (`selfUrl`, resolved on the public origin at publish time) for content of its own.
   */
  canonical: string;
  /** ISO timestamp of the last change of the page's content (D112). */
  modifiedTime: string;
  /** ISO timestamp of the build or daily check; defaults to `modifiedTime`. */
  checkedTime?: string;
  /** core/site/dates.ts `contentHash` of the page rendered with placeholder dates. */
  contentHash?: string;
  /** JSON-LD objects, one script block each. */
  jsonLd: unknown[];
  /** Escaped HTML for `<main>`. */
  body: string;
  /** Open Graph type: `article` unless given (product pages: `product`). */
  ogType?: string;
  /** More `<meta property>` pairs (e.g. `product:price:amount`), escaped here. */
  extraMeta?: Array<[string, string]>;
}

const STYLE = [
  'body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.6;color:#1f2328;max-width:46rem;margin:0 auto;padding:1rem 1.25rem}',
  'header,footer{font-size:.9rem;color:#57606a}',
  'header nav a{margin-right:1rem}',
  'footer{border-top:1px solid #d0d7de;margin-top:2.5rem;padding-top:1rem}',
  'a{color:#0a58ca}',
  'h1{line-height:1.25}',
  'dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}',
  'dt{font-weight:600}',
  'dd{margin:0}',
].join('');

/** A complete HTML document with every tag the AI site promises on every page. */
export function renderPage(shell: PageShell): string {
  const title = pageTitle(shell.title, shell.storeName);
  const description = truncate(shell.description || shell.title, MAX_DESCRIPTION_LENGTH);
  const modified = isoSeconds(shell.modifiedTime);
  const jsonLd = shell.jsonLd
    .map((data) => `<script type="application/ld+json">${jsonLdText(data)}</script>`)
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<meta name="description" content="${escapeHtml(description)}">
<link rel="canonical" href="${escapeHtml(shell.canonical)}">
<meta name="robots" content="index, follow">
<meta property="og:type" content="${escapeHtml(shell.ogType ?? 'article')}">
<meta property="og:title" content="${escapeHtml(title)}">
<meta property="og:description" content="${escapeHtml(description)}">
<meta property="og:url" content="${escapeHtml(shell.canonical)}">
<meta property="og:site_name" content="${escapeHtml(oneLine(shell.storeName))}">
<meta property="article:modified_time" content="${modified}">
${shell.contentHash ? `<meta name="ai-site:content-hash" content="${escapeHtml(shell.contentHash)}">\n` : ''}${(shell.extraMeta ?? []).map(([property, content]) => `<meta property="${escapeHtml(property)}" content="${escapeHtml(content)}">\n`).join('')}<link rel="icon" href="${aiHref(SITE_PATHS.favicon)}" type="image/svg+xml">
<style>${STYLE}</style>
${jsonLd}
</head>
<body>
<header>
<nav><a href="${aiHref('/')}">${escapeHtml(oneLine(shell.storeName))}: AI guide</a><a href="${aiHref('/ai/questions/')}">Questions and answers</a><a href="${aiHref(SITE_PATHS.llmsTxt)}">llms.txt</a><a href="${escapeHtml(`${shell.storeUrl.replace(/\/+$/, '')}/`)}">Visit the store</a></nav>
</header>
<main>
${shell.body}
</main>
<footer>
<p>${lastUpdatedLine(shell.modifiedTime)}</p>
<p>${lastCheckedLine(shell.checkedTime ?? shell.modifiedTime)}</p>
</footer>
<script src="${aiHref(SITE_PATHS.trackingJs)}" defer></script>
</body>
</html>
`;
}

/** `<ul>` of links, already-escaped labels are escaped here. */
export function linkList(items: Array<{ href: string; label: string; note?: string }>): string {
  if (items.length === 0) return '';
  const lines = items.map(
    (item) => `<li><a href="${escapeHtml(item.href)}">${escapeHtml(item.label)}</a>${item.note ? `: ${escapeHtml(item.note)}` : ''}</li>`,
  );
  return `<ul>\n${lines.join('\n')}\n</ul>`;
}

/** Plain text split on blank lines into escaped `<p>` elements. */
export function paragraphs(text: string): string {
  return text
    .split(/\n\s*\n/)
    .map((part) => oneLine(part))
    .filter(Boolean)
    .map((part) => `<p>${escapeHtml(part)}</p>`)
    .join('\n');
}
