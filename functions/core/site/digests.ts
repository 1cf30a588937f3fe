/**
 * What a reader of the AI site would notice, page by page: a digest per announced path
 * (pages, markdown replicas, llms files, data.json), so two releases compare without
 * reading either again. Dates that move without a change (the footer's check date, a
 * title's year: the daily refresh) never count: an HTML page's digest is its content-hash
 * meta (core/site/dates.ts), or its content with those dates set to one placeholder.
 * Sitemaps, robots.txt, the tracking script, the favicon and key files are plumbing, never
 * announced to search engines.
 */
import { contentHash, HASH_DATE, HASH_META } from './dates';
import { refreshTimestamps } from './refresh';
import type { SiteFile } from './types';

/** Path → digest of the announced files of one release. */
export type SiteDigests = Record<string, string>;

/** Pages, markdown replicas, the llms files and data.json: what search engines are told about. */
export function isAnnouncedPath(path: string): boolean {
  return path.endsWith('.html') || path.endsWith('.md') || path.startsWith('/llms') || path === '/data.json';
}

/** One file's digest, or null for a file that is never announced. */
export function digestOf(file: SiteFile): string | null {
  if (!isAnnouncedPath(file.path)) return null;
  const meta = file.path.endsWith('.html') ? HASH_META.exec(file.content)?.[1] : undefined;
  return meta ?? contentHash(refreshTimestamps([file], HASH_DATE)[0].content);
}

export function siteDigests(files: readonly SiteFile[]): SiteDigests {
  const out: SiteDigests = {};
  for (const file of files) {
    const digest = digestOf(file);
    if (digest !== null) out[file.path] = digest;
  }
  return out;
}

/** Paths added or changed from `before` to `after`, and paths gone, each sorted. */
export function digestChanges(before: SiteDigests, after: SiteDigests): { changed: string[]; removed: string[] } {
  const changed = Object.keys(after).filter((path) => before[path] !== after[path]).sort();
  const removed = Object.keys(before).filter((path) => !(path in after)).sort();
  return { changed, removed };
}
