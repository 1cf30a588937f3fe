/**
 * The daily timestamp refresh (spec: daily schedule "refreshes timestamps"), reconciled with
 * honest dates (D112). Pure and idempotent: only the check date changes.
 *
 * In every HTML file:
 * - the `Last checked: <Month D, YYYY>` line inside `<footer>` becomes today's;
 * - when the year changed since the last check, a year written as `(YYYY)`, `in YYYY`,
 *   `for YYYY` or `of YYYY` in `<title>` and `og:title`, and on an AI article (JSON-LD
 *   `Article`) in its `<h1>` and `"headline"` too, so its question is stated one way
 *   everywhere (a bare number such as a model name "Model 2025" is left alone; a product
 *   page's h1 is the merchant's name and is never renamed).
 * Never touched: `article:modified_time`, JSON-LD `dateModified`, the footer's `Last updated`
 * line, data.json and the sitemap: they say when the content changed, and a refresh is no change.
 * The content hash (core/site/dates.ts) ignores both dates and the title year (a page is
 * hashed with its title, h1 and headline year neutral), so a refreshed page still counts as
 * unchanged; the AI home, which lists pages by their h1, hashes those labels year-neutral too.
 */
import { LAST_CHECKED_PATTERN, isoSeconds, lastCheckedLine, utcYear } from './html';
import type { SiteFile } from './types';

const FOOTER = /<footer\b[^>]*>[\s\S]*?<\/footer>/gi;
const TITLE = /(<title>)([\s\S]*?)(<\/title>)/gi;
const OG_TITLE = /(<meta\s+property="og:title"\s+content=")([^"]*)(")/gi;
const H1 = /(<h1\b[^>]*>)([\s\S]*?)(<\/h1>)/gi;
const JSON_LD = /(<script\s+type="application\/ld\+json">)([\s\S]*?)(<\/script>)/gi;
/** A `"headline"` string of a JSON-LD node (escapes kept as they are: a year has none). */
const HEADLINE = /("headline"\s*:\s*")((?:[^"\\]|\\.)*)(")/g;
/** An AI article's JSON-LD node. */
const ARTICLE_NODE = /"@type"\s*:\s*"Article"/;

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
    const move = (_: string, a: string, t: string, c: string) => `${a}${refreshYearInTitle(t, oldYear, newYear)}${c}`;
    out = out.replace(TITLE, move).replace(OG_TITLE, move);
    // The h1 and headline are an AI article's question; elsewhere they may be a name the
    // merchant chose ("Wall Calendar (2025)"), which no refresh renames.
    if (ARTICLE_NODE.test(content)) {
      out = out.replace(H1, move);
      out = out.replace(JSON_LD, (_, a: string, json: string, c: string) => `${a}${json.replace(HEADLINE, move)}${c}`);
    }
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

/**
 * D180: a page whose content did not change keeps the bytes it was published with, its check
 * date included, so a publish rewrites only what changed (and a release of shared objects,
 * D179, uploads only those). "Unchanged": the previous file, refreshed to `now`, is the new one.
 * Returns `previous` (the same path's published page) when only its check date would move, else `file`.
 */
export function unchangedPageOr(file: SiteFile, previous: SiteFile | undefined, now: string): SiteFile {
  if (!previous || previous.content === file.content || !isHtml(file)) return file;
  return refreshHtml(previous.content, now) === file.content ? previous : file;
}
