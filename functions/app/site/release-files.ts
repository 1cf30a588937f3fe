/**
 * The files of one release, produced one at a time from the content sources (D204): a store's
 * 65,000 files at 20,000 products are never all in memory, only a source's batch (a part's
 * chunk) and each file's facts and digest.
 *
 * The same steps, file by file, that `finalizeSite` takes on an array (core/site/build.ts):
 *   - a later source wins on a shared path (the deployed part over the generated ones), known
 *     before any file is read from the sources' path lists;
 *   - offer slots get the current catalogue's prices (D36), check dates move to the publish
 *     date (D112), the public origin is resolved, related links to pages the release will not
 *     serve are dropped (D150);
 *   - D180: a page whose content did not change since the live release keeps its published
 *     bytes, the live page read only when its digest says so;
 *   - files at generated paths are dropped (the live AI home's date is kept), then the AI home,
 *     sitemap(s), robots.txt and favicon are built from the content's facts.
 */
import { artifactKeys } from '../../core/artifacts';
import { generatedSiteFiles, isGenerated } from '../../core/site/build';
import { pageDatesOf, type PageDate } from '../../core/site/dates';
import { digestOf, type SiteDigests } from '../../core/site/digests';
import { factsOf, type FileFacts } from '../../core/site/file-facts';
import { OFFER_SLOT_MARK, refreshOfferSlots } from '../../core/site/offer-slots';
import { SITE_PATHS, resolvePublicOrigin } from '../../core/site/paths';
import { refreshTimestamps, unchangedPageOr } from '../../core/site/refresh';
import { servedPaths, withoutDeadRelatedLinksIn } from '../../core/site/related-links';
import type { DeployMetadata, SiteFile } from '../../core/site/types';
import type { Container } from '../../container';
import type { ReleaseReader } from '../../ports';
import type { CatalogArtifact } from './inputs';

/** Content files in batches, with their paths known first (a stored part's head, an array). */
export interface ContentSource {
  /** Its files' paths, in the order `batches` yields them. */
  paths: readonly string[];
  batches(): AsyncIterable<SiteFile[]>;
}

export const filesSource = (files: SiteFile[]): ContentSource => ({
  paths: files.map((f) => f.path),
  async *batches() {
    yield files;
  },
});

/** The live release a publish compares its pages with (D180): its digests, and its pages by path. */
export interface LivePages {
  digests: SiteDigests;
  reader: ReleaseReader;
}

/** What a release's files add up to once all were produced: their paths and digests. */
export interface ReleaseSummary {
  paths: string[];
  digests: SiteDigests;
}

export interface ReleaseFilesOptions {
  metadata: DeployMetadata;
  storeRobotsTxt?: string;
  /** Absent: every page gets the publish date as its check date (D112). */
  live?: LivePages | null;
}

/** Each path's winning position in the concatenated sources: the last one (a later source wins). */
function winningPositions(sources: readonly ContentSource[]): Map<string, number> {
  const winner = new Map<string, number>();
  let position = 0;
  for (const source of sources) for (const path of source.paths) winner.set(path, position++);
  return winner;
}

/**
 * Offer slots refreshed from the current catalogue, read once and only when a page holds a
 * slot; with no catalogue stored, the slots keep what their page was built with.
 */
function currentOffers(container: Container, orgSlug: string): (files: SiteFile[]) => Promise<SiteFile[]> {
  let catalog: Promise<CatalogArtifact | null> | null = null;
  return async (files) => {
    if (!files.some((f) => f.content.includes(OFFER_SLOT_MARK))) return files;
    catalog ??= container.artifacts.get<CatalogArtifact>(artifactKeys.catalog(orgSlug));
    const products = (await catalog)?.products;
    return products ? refreshOfferSlots(files, products) : files;
  };
}

async function unchangedOr(file: SiteFile, digest: string | null, live: LivePages, now: string): Promise<SiteFile> {
  if (digest === null || live.digests[file.path] !== digest) return file;
  const published = await live.reader.read(file.path);
  return published === null ? file : unchangedPageOr(file, { ...file, content: published }, now);
}

/**
 * The release's files, one at a time, for `SiteStore.publish`. `summary` is filled as they
 * are produced: complete once the stream ended.
 */
export async function* releaseFiles(
  container: Container, orgSlug: string, sources: readonly ContentSource[], options: ReleaseFilesOptions, summary: ReleaseSummary,
): AsyncGenerator<SiteFile> {
  const { metadata, live } = options;
  const now = metadata.deployedAt;
  const winner = winningPositions(sources);
  const served = servedPaths([...winner.keys()].filter((p) => !isGenerated(p)));
  const offers = currentOffers(container, orgSlug);
  const facts: FileFacts[] = [];
  let liveAiHome: PageDate | undefined;

  const finished = async (file: SiteFile): Promise<SiteFile> => {
    const digest = digestOf(file);
    const out = live ? await unchangedOr(file, digest, live, now) : file;
    summary.paths.push(out.path);
    if (digest !== null) summary.digests[out.path] = digest;
    return out;
  };

  let position = 0;
  for (const source of sources) {
    for await (const batch of source.batches()) {
      for (const file of refreshTimestamps(await offers(batch), now)) {
        if (winner.get(file.path) !== position++) continue;
        if (isGenerated(file.path)) {
          if (file.path === SITE_PATHS.aiHome) liveAiHome = pageDatesOf([file])[SITE_PATHS.aiHome];
          continue;
        }
        const resolved = resolvePublicOrigin(file.content, metadata.publicOrigin);
        const content = withoutDeadRelatedLinksIn(resolved === file.content ? file : { ...file, content: resolved }, served);
        facts.push(factsOf(content));
        yield await finished(content);
      }
    }
  }
  for (const file of generatedSiteFiles(facts, metadata, liveAiHome, { storeRobotsTxt: options.storeRobotsTxt })) yield await finished(file);
}
