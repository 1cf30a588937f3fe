/**
 * The daily timestamp refresh (spec: daily schedule "refreshes timestamps"), reconciled with
 * honest dates (D112). Pure and idempotent: only the check date changes.
 *
 * In every HTML file:
 * - the `Last checked: <Month D, YYYY>` line inside `<footer>` becomes today's;
 * - when the year changed since the last check, a year written as `(YYYY)`, `in YYYY`,
 *   `for YYYY` or `of YYYY` in `<title>` and `og:title` moves to the new year (a bare number
 *   such as a model name "Model 2025" is left alone).
 * Never touched: `article:modified_time`, JSON-LD `dateModified`, the footer's `Last updated`
 * line, data.json and the sitemap: they say when the content changed, and a refresh is no change.
 * The content hash (core/site/dates.ts) ignores both dates and the title year, so a refreshed
 * page still counts as unchanged.
 */
import { LAST_CHECKED_PATTERN, isoSeconds, lastCheckedLine, utcYear } from './html';
import type { SiteFile } from './types';

const FOOTER = /<footer\b[^>]*>[\s\S]*?<\/footer>/gi;
const TITLE = /(<title>)([\s\S]*?)(<\/title>)/gi;
const OG_TITLE = /(<meta\s+property="og:title"\s+content=")([^"]*)(")/gi;

function refreshYearInTitle(title: string, oldYear: number, newYear: number): string {
  const pattern = new RegExp(`(\\(|\\b(?:in|for|of) )${oldYear}(\\)|\\b)`, 'gi');
  return title.replace(pattern, (_, before: string, after: string) => `${before}${newYear}${after}`);
}

function refreshHtml(content: string, now: string): string {
  const footer = new RegExp(FOOTER.source, 'i').exec(content)?.[0] ?? '';
  const previous = new RegExp(LAST_CHECKED_PATTERN.source).exec(footer);
  if (!previous) return content;
  let out = content.replace(FOOTER, (f) => f.replace(new RegExp(LAST_CHECKED_PATTERN.source, 'g'), lastCheckedLine(now)));
  const oldYear = Number(/\d{4}$/.exec(previous[0])?.[0]);
  const newYear = utcYear(now);
  if (oldYear && oldYear !== newYear) {
    out = out.replace(TITLE, (_, a: string, t: string, c: string) => `${a}${refreshYearInTitle(t, oldYear, newYear)}${c}`);
    out = out.replace(OG_TITLE, (_, a: string, t: string, c: string) => `${a}${refreshYearInTitle(t, oldYear, newYear)}${c}`);
  }
  return out;
}

function isHtml(file: SiteFile): boolean {
  return file.path.endsWith('.html') || file.contentType.startsWith('text/html');
}

/** New file list with refreshed check dates; unchanged files are the same objects. */
export function refreshTimestamps(files: readonly SiteFile[], now: string): SiteFile[] {
  isoSeconds(now); // validates `now`
  return files.map((file) => {
    if (!isHtml(file)) return file;
    const content = refreshHtml(file.content, now);
    return content === file.content ? file : { ...file, content };
  });
}
