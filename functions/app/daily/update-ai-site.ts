/**
 * The daily merged deploy (spec: "1 deploy"): after 1a and 1b, the articles of products the
 * catalogue no longer holds are retired (retire-articles.ts: their parts deleted, so this
 * deploy drops them), the main part is regenerated (the generator's 3 parallel model calls)
 * only when its inputs changed, from the merged page set and the fresh catalogue, and every
 * part is published in ONE release only when a part changed since the last publish. No
 * change, no regeneration, no deploy.
 */
import type { Container } from '../../container';
import { mainPartIsCurrent, publishChangedSiteParts, renderMainPart } from '../site';
import type { SkippedDailyStep } from './business-run';
import { retireArticlesOfRemovedProducts } from './retire-articles';

export async function updateAiSite(container: Container, orgSlug: string): Promise<Record<string, unknown> | SkippedDailyStep> {
  // First: the main part's build lists the articles (their slugs stay out of its Q&A paths),
  // and a deleted part makes the publish below happen.
  const retired = await retireArticlesOfRemovedProducts(container, orgSlug);
  const site = await container.aiSites.get(orgSlug);
  const regenerated = mainPartIsCurrent(site) ? null : await renderMainPart(container, orgSlug);
  const release = await publishChangedSiteParts(container, orgSlug);
  const articles = { articles_retired: retired.retired, retired_for_products: retired.products };
  if (!regenerated && !release) {
    return { skipped: 'nothing changed since the last deploy', result: { regenerated: false, files_regenerated: 0, deployed: false, deploys: 0, release_id: site?.releaseId ?? null, ...articles } };
  }
  return {
    regenerated: regenerated !== null,
    files_regenerated: regenerated?.files ?? 0,
    engine: regenerated?.engine ?? null,
    deployed: release !== null,
    deploys: release ? 1 : 0,
    release_id: release?.releaseId ?? site?.releaseId ?? null,
    file_count: release?.fileCount ?? site?.fileCount ?? null,
    ...articles,
  };
}
