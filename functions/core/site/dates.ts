/**
 * When an AI page last changed (D112). A page's modified date moves only when its content
 * changed: the sitemap `<lastmod>`, `article:modified_time`, the JSON-LD `dateModified` and the
 * footer's "Last updated" all carry that one date; the footer's "Last checked" (and the year in
 * titles) carry the build/check date, which may move every day without claiming a change.
 *
 * How a build knows: every HTML page carries `<meta name="ai-site:content-hash">`, a hash of the
 * page rendered with placeholder dates (so dates never count as content). The caller passes the
 * previous release's pages (`pageDatesOf(previousFiles)`); the build stays pure.
 * - same hash as before → the previous modified date is kept;
 * - a new page → the source's own date when the page replicates a source that has one (product
 *   `updated_at`, sitemap `lastmod`), else now;
 * - a changed page → the source's date when it is later than the previous modified date (the
 *   source changed), else now (our generated content changed).
 * A source date in the future is never used (it becomes now).
 */
import { createHash } from 'node:crypto';
import { isoSeconds } from './html';
import type { SiteFile } from './types';

/** Date used for both dates when rendering a page for its hash. */
export const HASH_DATE = '2000-01-01T00:00:00Z';

export interface PageDate {
  hash: string;
  /** ISO timestamp (whole seconds, UTC). */
  modified: string;
}

/** Previous pages by file path. */
export type PageDates = Readonly<Record<string, PageDate>>;

export function contentHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}

function validInstant(value: string | null | undefined): number | null {
  if (!value) return null;
  const time = new Date(value).getTime();
  return Number.isNaN(time) ? null : time;
}

/**
 * The date a source gives for its content (a product's `updated_at`), as an ISO timestamp in
 * whole seconds; null when it gives none, an unreadable one, or one after `now` (not believed).
 * Where there is none, a node says nothing rather than claim a change (D112): the JSON-LD
 * `dateModified` of a data.json node is omitted, never set to the build time.
 */
export function sourceDate(value: string | null | undefined, now: string): string | null {
  const source = validInstant(value);
  const nowTime = validInstant(now);
  if (source === null || (nowTime !== null && source > nowTime)) return null;
  return isoSeconds(new Date(source).toISOString());
}

/** The latest of some ISO dates (null among them ignored), or null when there is none. */
export function latestDate(dates: ReadonlyArray<string | null | undefined>): string | null {
  let best: { time: number; iso: string } | null = null;
  for (const d of dates) {
    const time = validInstant(d);
    if (time !== null && (!best || time > best.time)) best = { time, iso: d as string };
  }
  return best ? best.iso : null;
}

/** The modified date of a page (see the rules above). */
export function decideModified(hash: string, previous: PageDate | undefined, source: string | null | undefined, now: string): string {
  const sourceIso = sourceDate(source, now);
  if (previous && previous.hash === hash && validInstant(previous.modified) !== null) return isoSeconds(previous.modified);
  if (!previous) return sourceIso ?? isoSeconds(now);
  const prevTime = validInstant(previous.modified);
  if (sourceIso && prevTime !== null && (validInstant(sourceIso) as number) > prevTime) return sourceIso;
  return isoSeconds(now);
}

/** The content hash an HTML page carries (its content rendered with placeholder dates). */
export const HASH_META = /<meta\s+name="ai-site:content-hash"\s+content="([0-9a-f]+)"/i;
const MODIFIED_META = /<meta\s+property="article:modified_time"\s+content="([^"]+)"/i;

/**
 * A copy of an ASCII value read out of a page. A regex capture is a slice that keeps the whole
 * page alive in V8, so a map of captures kept past its release (the dates a rebuild keeps)
 * would hold every page of it: 320 MB at 20,000 products.
 */
const detached = (text: string): string => Buffer.from(text, 'latin1').toString('latin1');

/** The dates of the HTML pages of a (previous) release, for `BuildSiteOptions.previousPages`. */
export function pageDatesOf(files: readonly SiteFile[]): Record<string, PageDate> {
  const out: Record<string, PageDate> = {};
  for (const file of files) {
    if (!file.path.endsWith('.html')) continue;
    const hash = HASH_META.exec(file.content)?.[1];
    const modified = MODIFIED_META.exec(file.content)?.[1];
    if (hash && modified && validInstant(modified) !== null) out[file.path] = { hash: detached(hash), modified: detached(modified) };
  }
  return out;
}

/**
 * A title's refreshable year (`(YYYY)`, `in YYYY`, `for YYYY`, `of YYYY`: what the daily refresh,
 * refresh.ts, moves in titles, h1s and headlines) replaced by the placeholder date's year, for
 * hashing: the refresh's year move is no content change. A bare number ("Model 2025") stays.
 */
export function neutralTitleYear(text: string): string {
  const year = String(new Date(HASH_DATE).getUTCFullYear());
  return text.replace(/(\(|\b(?:in|for|of) )(?:19|20)\d{2}(\)|\b)/gi, (_, before: string, after: string) => `${before}${year}${after}`);
}

/**
 * Renders a page whose content is `render(modified, checked)`: hashed with placeholder dates,
 * dated by `decideModified`, checked `now`. `neutral` is true for the hash's render: text that
 * the daily refresh may move (a title's year, `neutralTitleYear`) is to be written neutral.
 */
export function datedContent(
  render: (dates: { modified: string; checked: string; hash: string; neutral: boolean }) => string,
  previous: PageDate | undefined,
  sourceDate: string | null | undefined,
  now: string,
): { content: string; modified: string; hash: string } {
  const hash = contentHash(render({ modified: HASH_DATE, checked: HASH_DATE, hash: '', neutral: true }));
  const modified = decideModified(hash, previous, sourceDate, now);
  return { content: render({ modified, checked: isoSeconds(now), hash, neutral: false }), modified, hash };
}
