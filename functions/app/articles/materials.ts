/**
 * What articles are written from (spec: the AI site's own content, not the original website):
 * the live release's sources (core/articles/site-sources.ts), every path it serves, the store
 * snapshot and its fact sheets.
 *
 * The sources are parsed from a release once and stored beside it, by release id: a daily
 * run's article items run at once, each in its own task, and a 20,000-product release is
 * 65,000 files (1.4 GB of heap to read and parse), so the plan step prepares them
 * (`prepareArticleSources`) and every item reads one artifact instead of the whole release.
 */
import { artifactKeys } from '../../core/artifacts';
import { articleCatalogue, type ArticleCatalogue } from '../../core/articles/compose';
import { takenSlugs } from '../../core/articles/slugs';
import { articleSourcesReader, isSourcePage, type ArticleSources } from '../../core/articles/site-sources';
import { contentTypeOf } from '../../core/site/content-types';
import { SITE_PATHS } from '../../core/site/paths';
import { ValidationError } from '../../core/errors';
import { inferIndustry } from '../../core/generate/industry';
import { normalizeSpace } from '../../core/generate/text';
import type { Business } from '../../core/model';
import type { SiteNarrative, StoreSnapshot } from '../../core/site/types';
import type { Container } from '../../container';
import { requireBusiness } from '../business';
import { loadSnapshot } from '../site';

/** Everything an entity's articles are written from, loaded once for all the entities of a batch. */
export interface ArticleSite {
  business: Business;
  snapshot: StoreSnapshot;
  /** Every slug the live release's paths use (an article's slug must collide with none): read once per site, not per entity (a 20,000-product store's release has several files per product). */
  takenSlugs: ReadonlySet<string>;
  sources: ArticleSources;
  catalogue: ArticleCatalogue;
  industry: string;
}

/** One release's parsed sources, as stored (one per organization: the newest release read replaces the last). */
interface ParsedRelease {
  release_id: string;
  paths: string[];
  sources: ArticleSources;
}

/**
 * Releases parsed in this process, by release id: a release never changes, so the items a
 * warm task (or the local runtime, or the route called again) runs read each once. Bounded by
 * the paths they hold (oldest out first), so a few large sites cannot fill the memory.
 */
const parsedReleases = new Map<string, { parsed: Promise<ParsedRelease>; paths: number }>();
const PARSED_PATHS_KEPT = 100_000;

async function liveParsedRelease(container: Container, orgSlug: string): Promise<ParsedRelease> {
  const pinned = await container.siteStore.currentReleaseId(orgSlug);
  if (!pinned) throw new ValidationError(`the AI site of ${orgSlug} is not deployed yet: articles are written from its content`);
  return parsedRelease(container, orgSlug, pinned);
}

async function parsedRelease(container: Container, orgSlug: string, pinned: string): Promise<ParsedRelease> {
  const key = `${orgSlug}@${pinned}`;
  const cached = parsedReleases.get(key);
  if (cached) return cached.parsed;
  const entry = { parsed: storedOrParsed(container, orgSlug, pinned), paths: 0 };
  parsedReleases.set(key, entry);
  try {
    const parsed = await entry.parsed;
    entry.paths = parsed.paths.length;
    let total = [...parsedReleases.values()].reduce((n, e) => n + e.paths, 0);
    for (const [oldKey, old] of parsedReleases) {
      if (total <= PARSED_PATHS_KEPT || oldKey === key) break;
      parsedReleases.delete(oldKey);
      total -= old.paths;
    }
    return parsed;
  } catch (err) {
    // A failed read is not kept: the next caller tries again.
    parsedReleases.delete(key);
    throw err;
  }
}

/** The stored sources of the release, or the release read, parsed and its sources stored (a repeat stores the same). */
async function storedOrParsed(container: Container, orgSlug: string, releaseId: string): Promise<ParsedRelease> {
  const stored = await container.artifacts.get<ParsedRelease>(artifactKeys.articleSources(orgSlug));
  if (stored?.release_id === releaseId) return stored;
  const parsed = await parseRelease(container, orgSlug, releaseId);
  await container.artifacts.put(artifactKeys.articleSources(orgSlug), parsed);
  return parsed;
}

/** Pages read at once while parsing: a few MB, never the release's 65,000 files (D204). */
const PAGES_READ_AT_ONCE = 64;

/** The release's sources, read page by page: only the pages articles quote, in path order. */
async function parseRelease(container: Container, orgSlug: string, releaseId: string): Promise<ParsedRelease> {
  const gone = () => new ValidationError(`the AI site of ${orgSlug} changed while it was read (release ${releaseId} is gone): try again`);
  const release = await container.siteStore.openRelease(orgSlug, releaseId);
  if (!release) throw gone();
  const paths = await release.paths();
  const has = new Set(paths);
  const text = async (path: string): Promise<string> => {
    const content = await release.read(path);
    if (content === null) throw gone();
    return content;
  };
  let dataJson: unknown = null;
  try {
    dataJson = has.has(SITE_PATHS.dataJson) ? JSON.parse(await text(SITE_PATHS.dataJson)) : null;
  } catch (err) {
    if (err instanceof ValidationError) throw err; // unreadable JSON is no data; a vanished release is an error
  }
  const reader = articleSourcesReader(has.has(SITE_PATHS.llmsTxt) ? await text(SITE_PATHS.llmsTxt) : '', dataJson);
  const pages = paths.filter(isSourcePage).sort((a, b) => a.localeCompare(b));
  for (let i = 0; i < pages.length; i += PAGES_READ_AT_ONCE) {
    const batch = pages.slice(i, i + PAGES_READ_AT_ONCE);
    const contents = await Promise.all(batch.map(text));
    batch.forEach((path, j) => reader.add({ path, content: contents[j] as string, contentType: contentTypeOf(path) }));
  }
  return { release_id: releaseId, paths, sources: reader.finish() };
}

/** Parses the live release's sources once for the article items about to run (they read the stored result); nothing to parse before the first deploy. */
export async function prepareArticleSources(container: Container, orgSlug: string): Promise<void> {
  const pinned = await container.siteStore.currentReleaseId(orgSlug);
  if (pinned) await parsedRelease(container, orgSlug, pinned);
}

export async function loadArticleSite(container: Container, orgSlug: string): Promise<ArticleSite> {
  const business = await requireBusiness(container, orgSlug);
  const [snapshot, narrative, { paths, sources }] = await Promise.all([
    loadSnapshot(container, orgSlug, business),
    container.artifacts.get<SiteNarrative>(artifactKeys.narrative(orgSlug)),
    liveParsedRelease(container, orgSlug),
  ]);
  return {
    business, snapshot, sources, takenSlugs: takenSlugs(paths),
    catalogue: articleCatalogue(snapshot.products, sources, business.name),
    industry: normalizeSpace(narrative?.industry ?? '') || inferIndustry(snapshot).industry,
  };
}
