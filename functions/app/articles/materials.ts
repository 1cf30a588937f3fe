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
import { readArticleSources, siteContentOf, type ArticleSources } from '../../core/articles/site-sources';
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
  /** Every path the live release serves (an article's slug must collide with none). */
  paths: string[];
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

// Its own function: the release's files (the bulk) are garbage once it returns; only the sources stay.
async function parseRelease(container: Container, orgSlug: string, releaseId: string): Promise<ParsedRelease> {
  const release = await container.siteStore.readRelease(orgSlug, releaseId);
  if (!release) throw new ValidationError(`the AI site of ${orgSlug} changed while it was read (release ${releaseId} is gone): try again`);
  return { release_id: releaseId, paths: release.files.map((f) => f.path), sources: readArticleSources(siteContentOf(release.files)) };
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
    business, snapshot, paths, sources,
    catalogue: articleCatalogue(snapshot.products, sources, business.name),
    industry: normalizeSpace(narrative?.industry ?? '') || inferIndustry(snapshot).industry,
  };
}
