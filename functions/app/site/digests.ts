/**
 * The live release's digests (core/site/digests.ts), kept beside it so batch 3 can tell what
 * a day's execution changed on the site without reading any release: every publish saves
 * them with its release id; a reader that finds them missing or naming another release (a
 * publish that stopped before saving, a site published before digests existed) computes
 * them from the live release once and saves them.
 */
import { artifactKeys } from '../../core/artifacts';
import { digestChanges, siteDigests, type SiteDigests } from '../../core/site/digests';
import type { AiSiteRecord } from '../../core/model';
import type { Container } from '../../container';

interface StoredDigests {
  release_id: string;
  digests: SiteDigests;
}

export async function savePublishedDigests(container: Container, orgSlug: string, releaseId: string, digests: SiteDigests): Promise<void> {
  await container.artifacts.put(artifactKeys.siteDigests(orgSlug), { release_id: releaseId, digests } satisfies StoredDigests);
}

/** The digests of the release live now; empty when nothing is published. `known`: the AI-site record the caller just read. */
export async function publishedDigests(container: Container, orgSlug: string, known?: AiSiteRecord | null): Promise<SiteDigests> {
  const [site, stored] = await Promise.all([
    known === undefined ? container.aiSites.get(orgSlug) : known,
    container.artifacts.get<StoredDigests>(artifactKeys.siteDigests(orgSlug)),
  ]);
  if (!site?.releaseId) return {};
  if (stored?.release_id === site.releaseId) return stored.digests;
  const live = await container.siteStore.readCurrent(orgSlug);
  if (!live) return {};
  const digests = siteDigests(live.files);
  await savePublishedDigests(container, orgSlug, live.releaseId, digests);
  return digests;
}

/**
 * The site as it stood when an execution took the business's day (written once: a retried
 * start keeps the first), or as it was last announced when an earlier execution's changes were
 * never announced (its batch 3 failed): this execution announces those too.
 */
export async function saveDailyBaseline(container: Container, orgSlug: string, executionId: string, from?: SiteDigests): Promise<void> {
  const key = artifactKeys.dailyBaseline(orgSlug, executionId);
  if (await container.artifacts.get(key)) return;
  const unannounced = from ? null : await container.artifacts.get<SiteDigests>(artifactKeys.unannouncedBaseline(orgSlug));
  await container.artifacts.put(key, from ?? unannounced ?? await publishedDigests(container, orgSlug));
  if (unannounced) await container.artifacts.delete(artifactKeys.unannouncedBaseline(orgSlug));
}

/**
 * Ends an execution's baseline. When its changes were not announced (batch 3 failed, or the
 * day never reached it) and the site did change since, the baseline is kept as the one the
 * next execution starts from, so a failed notification is made up for, never lost.
 */
export async function settleDailyBaseline(container: Container, orgSlug: string, executionId: string, announced: boolean): Promise<void> {
  const baseline = await dailyBaseline(container, orgSlug, executionId);
  if (baseline && !announced) {
    const { changed, removed } = digestChanges(baseline, await publishedDigests(container, orgSlug));
    const key = artifactKeys.unannouncedBaseline(orgSlug);
    // An older unannounced baseline covers more: it stays.
    if ((changed.length > 0 || removed.length > 0) && !(await container.artifacts.get(key))) await container.artifacts.put(key, baseline);
  }
  await deleteDailyBaseline(container, orgSlug, executionId);
}

export const dailyBaseline = (container: Container, orgSlug: string, executionId: string) =>
  container.artifacts.get<SiteDigests>(artifactKeys.dailyBaseline(orgSlug, executionId));

export const deleteDailyBaseline = (container: Container, orgSlug: string, executionId: string) =>
  container.artifacts.delete(artifactKeys.dailyBaseline(orgSlug, executionId));
