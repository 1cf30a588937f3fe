/**
 * Generated AI-site files are stored per producing step ("parts": 2a's main site, 3b's
 * product llms files, ...) and every step publishes all parts together. When two steps
 * finish at once, the one whose publish could have missed the other's part sees it changed
 * and publishes again, so the release that ends up live holds every part.
 */
import { createHash } from 'node:crypto';
import { artifactKeys } from '../core/artifacts';
import type { SiteFile } from '../core/site/types';
import type { Container } from '../container';
import { deploySite, type DeployResult } from './deploy-site';

const MAX_ROUNDS = 5;

export async function saveSitePart(container: Container, orgSlug: string, part: string, files: SiteFile[]): Promise<void> {
  await container.artifacts.put(artifactKeys.sitePart(orgSlug, part), files);
}

async function loadParts(container: Container, orgSlug: string): Promise<{ files: SiteFile[]; version: string }> {
  const keys = await container.artifacts.list(artifactKeys.siteParts(orgSlug));
  const parts = await Promise.all(keys.map((k) => container.artifacts.get<SiteFile[]>(k)));
  const files = parts.flatMap((p) => p ?? []);
  const version = createHash('sha256').update(JSON.stringify(parts)).digest('hex');
  return { files, version };
}

/** Publishes every stored part as one release (replacing the previous one). */
export async function publishSiteParts(container: Container, orgSlug: string): Promise<DeployResult> {
  let { files, version } = await loadParts(container, orgSlug);
  for (let round = 1; ; round++) {
    const result = await deploySite(container, { orgSlug, files, mode: 'replace' });
    const latest = await loadParts(container, orgSlug);
    if (latest.version === version || round >= MAX_ROUNDS) return result;
    ({ files, version } = latest);
  }
}
