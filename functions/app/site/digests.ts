/**
 * The live release's digests (core/site/digests.ts), kept beside it so batch 3 can tell what
 * a day's execution changed on the site without reading any release: every publish saves
 * them with its release id; a reader that finds them missing or naming another release (a
 * publish that stopped before saving, a site published before digests existed) computes
 * them from the live release once and saves them.
 */
import { artifactKeys } from '../../core/artifacts';
import { siteDigests, type SiteDigests } from '../../core/site/digests';
import type { SiteFile } from '../../core/site/types';
import type { Container } from '../../container';

interface StoredDigests {
  release_id: string;
  digests: SiteDigests;
}

export async function savePublishedDigests(container: Container, orgSlug: string, releaseId: string, files: readonly SiteFile[]): Promise<void> {
  await container.artifacts.put(artifactKeys.siteDigests(orgSlug), { release_id: releaseId, digests: siteDigests(files) } satisfies StoredDigests);
}

/** The digests of the release live now; empty when nothing is published. */
export async function publishedDigests(container: Container, orgSlug: string): Promise<SiteDigests> {
  const [site, stored] = await Promise.all([
    container.aiSites.get(orgSlug),
    container.artifacts.get<StoredDigests>(artifactKeys.siteDigests(orgSlug)),
  ]);
  if (!site?.releaseId) return {};
  if (stored?.release_id === site.releaseId) return stored.digests;
  const live = await container.siteStore.readCurrent(orgSlug);
  if (!live) return {};
  await savePublishedDigests(container, orgSlug, live.releaseId, live.files);
  return siteDigests(live.files);
}

/** The site as it stood when an execution took the business's day (written once: a retried start keeps the first). */
export async function saveDailyBaseline(container: Container, orgSlug: string, executionId: string, from?: SiteDigests): Promise<void> {
  const key = artifactKeys.dailyBaseline(orgSlug, executionId);
  if (await container.artifacts.get(key)) return;
  await container.artifacts.put(key, from ?? await publishedDigests(container, orgSlug));
}

export const dailyBaseline = (container: Container, orgSlug: string, executionId: string) =>
  container.artifacts.get<SiteDigests>(artifactKeys.dailyBaseline(orgSlug, executionId));

export const deleteDailyBaseline = (container: Container, orgSlug: string, executionId: string) =>
  container.artifacts.delete(artifactKeys.dailyBaseline(orgSlug, executionId));
