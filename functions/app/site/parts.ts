/**
 * Generated AI-site files are stored per producing step ("parts": 2a's main site, 3b's
 * product llms files, ...) and every step publishes all parts together. When two steps
 * finish at once, the one whose publish could have missed the other's part sees it changed
 * and publishes again, so the release that ends up live holds every part.
 */
import { artifactKeys } from '../../core/artifacts';
import type { Container } from '../../container';
import { requireBusiness } from '../business';
import { deploySite, type DeployRequest, type DeployResult } from './deploy';
import { deleteSitePart, loadSitePart, openSitePart, PartChangedError, saveSitePart } from './part-store';

export { deleteSitePart, saveSitePart };

const MAX_ROUNDS = 5;
/** The part of files deployed through POST /api/cron/deploy-site: published last, so its files win on a shared path. */
export const DEPLOYED_PART = 'deployed';

/** The parts' version tokens, as one comparable string (cheap: no part is read). A deleted part leaves it, so its deletion is a change. */
async function partsVersion(container: Container, orgSlug: string): Promise<string> {
  const versions = await container.artifacts.versions(artifactKeys.siteParts(orgSlug));
  return JSON.stringify(Object.entries(versions).sort());
}

/** Publishes every stored part as one release (replacing the previous one), and records which part versions it published. */
export async function publishSiteParts(
  container: Container,
  orgSlug: string,
  extra: Pick<DeployRequest, 'storeSitemapUrls' | 'checkDates'> = {},
  /** The parts' version as the caller just read it (saves reading it again). */
  knownVersion?: string,
): Promise<DeployResult> {
  const deployedKey = artifactKeys.sitePart(orgSlug, DEPLOYED_PART);
  // Version first, then contents: a part written in between only causes one more round.
  let version = knownVersion ?? await partsVersion(container, orgSlug);
  for (let round = 1; ; round++) {
    const keys = (await container.artifacts.list(artifactKeys.siteParts(orgSlug))).sort((a, b) => Number(a === deployedKey) - Number(b === deployedKey));
    const parts = (await Promise.all(keys.map((key) => openSitePart(container, orgSlug, key.slice(key.lastIndexOf('/') + 1))))).filter((p) => p !== null);
    let result: DeployResult;
    try {
      result = await deploySite(container, { orgSlug, files: [], sources: parts, mode: 'replace', ...extra });
    } catch (err) {
      // A part rewritten twice while it was read: read the parts again.
      if (err instanceof PartChangedError && round < MAX_ROUNDS) continue;
      throw err;
    }
    const after = await partsVersion(container, orgSlug);
    if (after === version || round >= MAX_ROUNDS) {
      const business = await requireBusiness(container, orgSlug);
      await container.aiSites.patch(orgSlug, business.id, { publishedParts: version });
      return result;
    }
    version = after;
  }
}

/**
 * POST /api/cron/deploy-site: the caller's files join (`merge`) or become (`replace`) the
 * deployed part, and every part is published together, so neither this publish nor a later
 * one of the generated parts drops the other's files.
 */
export async function deployFilesAsPart(container: Container, request: DeployRequest): Promise<DeployResult> {
  const previous = request.mode === 'replace' ? [] : (await loadSitePart(container, request.orgSlug, DEPLOYED_PART)) ?? [];
  const byPath = new Map([...previous, ...request.files].map((f) => [f.path, f]));
  await saveSitePart(container, request.orgSlug, DEPLOYED_PART, [...byPath.values()]);
  return publishSiteParts(container, request.orgSlug, { storeSitemapUrls: request.storeSitemapUrls });
}

/**
 * Publishes the parts only when one was written since the last publish; null when the live
 * release already holds them all. Only the pages that changed get the new check date (D180).
 */
export async function publishChangedSiteParts(container: Container, orgSlug: string): Promise<DeployResult | null> {
  const [site, version] = await Promise.all([container.aiSites.get(orgSlug), partsVersion(container, orgSlug)]);
  if (site?.releaseId && site.publishedParts === version) return null;
  return publishSiteParts(container, orgSlug, { checkDates: 'changed' }, version);
}
