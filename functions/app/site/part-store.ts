/**
 * Storing one part of an AI site's generated files (app/site/parts.ts publishes them all
 * together). Its own module so that steps which only store a part (an article create) do not
 * carry the site builder into their bundles.
 */
import { artifactKeys } from '../../core/artifacts';
import type { SiteFile } from '../../core/site/types';
import type { Container } from '../../container';

export async function saveSitePart(container: Container, orgSlug: string, part: string, files: SiteFile[]): Promise<void> {
  await container.artifacts.put(artifactKeys.sitePart(orgSlug, part), files);
}

/**
 * Deletes one part (a retired article's): the next publish of the parts leaves its files out,
 * and sees the deletion as a change (the part leaves the parts' versions). Deleting a part that
 * is already gone does nothing.
 */
export async function deleteSitePart(container: Container, orgSlug: string, part: string): Promise<void> {
  await container.artifacts.delete(artifactKeys.sitePart(orgSlug, part));
}
