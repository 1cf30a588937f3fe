/**
 * No dead "Related articles" links (issue 20): an article's related links are written when it
 * is created, and an article they point at may leave later (its product left the catalogue,
 * D150). Every publish drops, from each page's "Related articles" list, the links whose
 * target the release does not serve (and the section when none is left), so no page of the
 * site points at a 404 or keeps naming what left. Pure.
 */
import { urlPathOfFile } from './paths';
import type { SiteFile } from './types';

const RELATED = /(<section>\n<h2>Related articles<\/h2>\n<ul>\n)([\s\S]*?)(\n<\/ul>\n<\/section>\n?)/;
const ITEM_HREF = /^<li><a href="([^"]+)">/;

/** The URL paths a release of these file paths answers: each file's, and `/ai/<x>/` for a root-level `/<x>/` (D28). */
export function servedPaths(paths: Iterable<string>): Set<string> {
  const served = new Set<string>();
  for (const filePath of paths) {
    const path = urlPathOfFile(filePath);
    served.add(path);
    if (!path.startsWith('/ai/')) served.add(`/ai${path}`);
  }
  return served;
}

/** One page without its links to paths the release does not serve (`served`: `servedPaths`). */
export function withoutDeadRelatedLinksIn(file: SiteFile, served: ReadonlySet<string>): SiteFile {
  const match = file.path.endsWith('.html') ? RELATED.exec(file.content) : null;
  if (!match) return file;
  const items = (match[2] as string).split('\n');
  const live = items.filter((item) => {
    const href = ITEM_HREF.exec(item)?.[1];
    return !href || !href.startsWith('/') || served.has(href);
  });
  if (live.length === items.length) return file;
  const section = live.length ? `${match[1]}${live.join('\n')}${match[3]}` : '';
  return { ...file, content: file.content.replace(match[0], section) };
}

export function withoutDeadRelatedLinks(files: readonly SiteFile[]): SiteFile[] {
  let served: Set<string> | null = null;
  return files.map((file) => {
    if (!file.path.endsWith('.html') || !RELATED.test(file.content)) return file;
    served ??= servedPaths(files.map((f) => f.path));
    return withoutDeadRelatedLinksIn(file, served);
  });
}
