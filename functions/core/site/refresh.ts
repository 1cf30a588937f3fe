/**
 * The daily timestamp refresh (spec: daily schedule "refreshes timestamps"). Pure and
 * idempotent: only dates change.
 *
 * In every HTML file:
 * - `<meta property="article:modified_time">` becomes `now`;
 * - the `Last updated: <Month D, YYYY>` line inside `<footer>` becomes today's;
 * - JSON-LD `"dateModified"` values equal to the page's previous modified time follow it
 *   (a product's own update time, which differs, is left alone);
 * - when the year changed, a year written as `(YYYY)`, `in YYYY`, `for YYYY` or `of YYYY` in
 *   `<title>` and `og:title` moves to the new year (a bare number such as a model name
 *   "Model 2025" is left alone).
 * In `/data.json`, `"dateModified"` values equal to the document's previous top-level
 * `dateModified` follow it. Other files are returned unchanged. The sitemap reads lastmod from
 * `article:modified_time`, so rebuild it (`finalizeSite`) after a refresh.
 */
import { LAST_UPDATED_PATTERN, isoSeconds, lastUpdatedLine, utcYear } from './html';
import { SITE_PATHS } from './paths';
import type { SiteFile } from './types';

const MODIFIED_META = /(<meta\s+property="article:modified_time"\s+content=")([^"]*)(")/gi;
const FOOTER = /<footer\b[^>]*>[\s\S]*?<\/footer>/gi;
const TITLE = /(<title>)([\s\S]*?)(<\/title>)/gi;
const OG_TITLE = /(<meta\s+property="og:title"\s+content=")([^"]*)(")/gi;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function replaceDateModified(text: string, oldValue: string, newValue: string): string {
  const pattern = new RegExp(`("dateModified"\\s*:\\s*")${escapeRegExp(oldValue)}(")`, 'g');
  return text.replace(pattern, `$1${newValue}$2`);
}

function refreshYearInTitle(title: string, oldYear: number, newYear: number): string {
  const pattern = new RegExp(`(\\(|\\b(?:in|for|of) )${oldYear}(\\)|\\b)`, 'gi');
  return title.replace(pattern, (_, before: string, after: string) => `${before}${newYear}${after}`);
}

function refreshHtml(content: string, now: string): string {
  const modified = isoSeconds(now);
  const previous = new RegExp(MODIFIED_META.source, 'i').exec(content)?.[2];
  let out = content.replace(MODIFIED_META, (_, a: string, _old: string, c: string) => `${a}${modified}${c}`);
  out = out.replace(FOOTER, (footer) => footer.replace(new RegExp(LAST_UPDATED_PATTERN.source, 'g'), lastUpdatedLine(now)));
  if (previous && previous !== modified) {
    out = out.replace(/(<script type="application\/ld\+json">)([\s\S]*?)(<\/script>)/gi, (_, a: string, json: string, c: string) => `${a}${replaceDateModified(json, previous, modified)}${c}`);
  }
  const oldTime = previous ? new Date(previous) : null;
  if (oldTime && !Number.isNaN(oldTime.getTime())) {
    const oldYear = oldTime.getUTCFullYear();
    const newYear = utcYear(now);
    if (oldYear !== newYear) {
      out = out.replace(TITLE, (_, a: string, t: string, c: string) => `${a}${refreshYearInTitle(t, oldYear, newYear)}${c}`);
      out = out.replace(OG_TITLE, (_, a: string, t: string, c: string) => `${a}${refreshYearInTitle(t, oldYear, newYear)}${c}`);
    }
  }
  return out;
}

function refreshDataJson(content: string, now: string): string {
  let previous: unknown;
  try {
    previous = (JSON.parse(content) as { dateModified?: unknown }).dateModified;
  } catch {
    return content;
  }
  if (typeof previous !== 'string') return content;
  const modified = isoSeconds(now);
  return previous === modified ? content : replaceDateModified(content, previous, modified);
}

function isHtml(file: SiteFile): boolean {
  return file.path.endsWith('.html') || file.contentType.startsWith('text/html');
}

/** New file list with refreshed dates; unchanged files are the same objects. */
export function refreshTimestamps(files: readonly SiteFile[], now: string): SiteFile[] {
  isoSeconds(now); // validates `now`
  return files.map((file) => {
    let content = file.content;
    if (isHtml(file)) content = refreshHtml(file.content, now);
    else if (file.path === SITE_PATHS.dataJson) content = refreshDataJson(file.content, now);
    return content === file.content ? file : { ...file, content };
  });
}
