/**
 * Slugs and paths of AI articles (DECISIONS D28). An article lives at root `/<slug>/` on the
 * AI-site host (`/<slug>/index.html`) and is reachable as `/ai/<slug>/` on both hosts: the AI
 * host answers `/ai/<slug>/` with `/ai/<slug>/index.html` when that file exists and with
 * `/<slug>/index.html` otherwise. So a slug must never be
 * - a name the AI site uses itself under `/ai/` or at the root (`RESERVED_AI_NAMES`, and the
 *   root files `ROOT_FILE_NAMES`: `/llms.txt`, `/sitemap.xml`, `/robots.txt`, `/data.json`,
 *   `/index.html`, `/tracking.js`, `/favicon.svg`, `/indexing-key.txt` ...);
 * - a Q&A slug (`/ai/<faq-slug>/` would shadow the article's `/ai/<slug>/` form), a product or
 *   collection slug, a replica page slug or another article's slug: everything in `taken`
 *   (`takenSlugs(paths of the site's files)` lists them).
 *
 * Rules: the slugified title (paths.ts `slugify`: lower-case ASCII, accents folded, `&` →
 * `and`) without the year the daily refresh moves ("… in 2026?" → no year: the URL stays right
 * when the title's year moves on January 1), at most `MAX_ARTICLE_SLUG_LENGTH` characters cut
 * at a word boundary; a collision gets `-2`, `-3`, ... (the base cut shorter when the suffix
 * would pass the limit).
 */
import { RESERVED_AI_NAMES, slugify } from '../site/paths';

export const MAX_ARTICLE_SLUG_LENGTH = 80;

/** Base names of the AI site's root files and directories (`/llms.txt` → `llms`). */
const ROOT_FILE_NAMES: readonly string[] = [
  'llms', 'llms-full', 'sitemap', 'robots', 'data', 'index', 'tracking', 'favicon', 'indexing-key', 'ai', 'pages', 'sitemaps',
  'well-known', 'agents', 'article', 'articles',
];

/** Every name an article slug may never take, whatever the site holds. */
export const ARTICLE_RESERVED_SLUGS: ReadonlySet<string> = new Set([...RESERVED_AI_NAMES, ...ROOT_FILE_NAMES]);

/** The year of a title in the forms the daily refresh moves: `(2026)`, `in 2026`, `for 2026`, `of 2026`. */
const TITLE_YEAR = /\s*(?:\((?:19|20)\d{2}\)|\b(?:in|for|of) (?:19|20)\d{2}\b)/gi;

/** The title without its refreshable year ("What are the trends in 2026?" → "What are the trends?"). */
export function titleWithoutYear(title: string): string {
  return title.replace(TITLE_YEAR, '').replace(/\s+([?!.,])/g, '$1').trim();
}

/** `text` cut to at most `max` characters at a hyphen when possible. */
function cutSlug(slug: string, max: number): string {
  if (slug.length <= max) return slug;
  const cut = slug.slice(0, max + 1);
  const hyphen = cut.lastIndexOf('-');
  return (hyphen > max / 2 ? cut.slice(0, hyphen) : cut.slice(0, max)).replace(/-+$/, '');
}

/** The slug of a new article (see the header); `taken` holds every slug the site already uses. */
export function articleSlug(title: string, taken: Pick<ReadonlySet<string>, 'has'>): string {
  const base = cutSlug(slugify(titleWithoutYear(title), 'question'), MAX_ARTICLE_SLUG_LENGTH);
  const free = (slug: string) => !taken.has(slug) && !ARTICLE_RESERVED_SLUGS.has(slug);
  if (free(base)) return base;
  for (let n = 2; ; n += 1) {
    const suffix = `-${n}`;
    const slug = `${cutSlug(base, MAX_ARTICLE_SLUG_LENGTH - suffix.length)}${suffix}`;
    if (free(slug)) return slug;
  }
}

/** The article's URL path on the AI-site host: `/<slug>/` (the spec's `article_path`). */
export function articlePath(slug: string): string {
  return `/${slug}/`;
}

/** The article's file: `/<slug>/index.html`. */
export function articleFilePath(slug: string): string {
  return `${articlePath(slug)}index.html`;
}

/** The slug of an `article_path` (`/<slug>/` or `/ai/<slug>/`), or null when it is not one. */
export function slugOfArticlePath(path: string): string | null {
  const m = /^\/(?:ai\/)?([a-z0-9]+(?:-[a-z0-9]+)*)\/?$/.exec(path);
  return m ? (m[1] as string) : null;
}

/**
 * Every slug the site's files use, for `articleSlug`'s `taken`: Q&A slugs (`/ai/<slug>/`),
 * product and collection slugs, replica and product-file slugs, articles (`/<slug>/`) and the
 * base names of root files (`/<key>.txt` → the key).
 */
export function takenSlugs(paths: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const path of paths) {
    let m: RegExpExecArray | null;
    if ((m = /^\/ai\/(?:products|collections)\/([^/]+)\//.exec(path))) out.add(m[1] as string);
    else if ((m = /^\/ai\/([^/]+)\/index\.html$/.exec(path))) out.add(m[1] as string);
    else if ((m = /^\/pages\/([^/]+)\.md$/.exec(path))) out.add(m[1] as string);
    else if ((m = /^\/llms\/([^/]+)\.txt$/.exec(path))) out.add(m[1] as string);
    else if ((m = /^\/([^/]+)\/index\.html$/.exec(path))) out.add(m[1] as string);
    else if ((m = /^\/([^/.]+)(?:\.[^/]*)?$/.exec(path))) out.add(m[1] as string);
  }
  return out;
}
