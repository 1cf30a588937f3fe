/**
 * Onboarding 2a (after 1a): generate the AI site from the scraped pages and the catalogue,
 * store it as the `main` part and publish it with any other parts (3b's product files).
 */
import { artifactKeys } from '../../core/artifacts';
import { siteFiles } from '../../core/site/build';
import { pageDatesOf } from '../../core/site/dates';
import type { SiteNarrative } from '../../core/site/types';
import type { Container } from '../../container';
import { generatorOf } from '../../engines/generator';
import { publishSiteParts, saveSitePart } from './parts';
import { openSitePart } from './part-store';
import { siteIdentity } from './identity';
import { requireBusiness } from '../business';
import { mainPartInputs } from './inputs';
import { loadSnapshot } from './snapshot';

export interface CreateSiteSummary {
  files: number;
  releaseId: string;
  deploymentUrl: string;
  engine: SiteNarrative['engine'];
}

export async function createAiWebsite(container: Container, orgSlug: string): Promise<CreateSiteSummary> {
  const { engine } = await renderMainPart(container, orgSlug);
  const release = await publishSiteParts(container, orgSlug);
  return { files: release.fileCount, releaseId: release.releaseId, deploymentUrl: release.deploymentUrl, engine };
}

/**
 * The last built main part's page dates: its pages keep their modified dates unless their
 * content changed (D112). Only the dates are kept, so the previous part's files (a store's
 * worth of pages) are garbage before the new ones are built.
 */
async function previousPageDates(container: Container, orgSlug: string): Promise<ReturnType<typeof pageDatesOf>> {
  const dates: ReturnType<typeof pageDatesOf> = {};
  const previous = await openSitePart(container, orgSlug, 'main');
  for await (const batch of previous?.batches() ?? []) Object.assign(dates, pageDatesOf(batch));
  return dates;
}

/**
 * The `main` part (llms.txt, data.json, Q&A pages, replicas, ...) from the stored pages and
 * catalogue, with the generator's 3 parallel model calls (or the offline engine); saved,
 * not published. Onboarding 2a and the daily merged deploy both build it here.
 */
export async function renderMainPart(container: Container, orgSlug: string): Promise<{ files: number; engine: SiteNarrative['engine'] }> {
  const inputs = mainPartInputs(await container.aiSites.get(orgSlug));
  const snapshot = await loadSnapshot(container, orgSlug);
  const narrative = await generatorOf(container).generateNarrative(snapshot);
  const identity = await siteIdentity(container, orgSlug);
  const previousPages = await previousPageDates(container, orgSlug);
  const articles = await container.articles.list(orgSlug);
  // Stored as they are built: the 45,000 files of a 20,000-product store are never all held (D204).
  const files = siteFiles(snapshot, narrative, {
    articleSlugs: articles.map((a) => a.slug),
    previousPages,
    now: container.clock.now().toISOString(),
    indexNowKey: identity.indexNowKey,
    trackingEndpoint: `${container.config.apiPublicUrl}/webhooks/ai-recommendation-store`,
  });
  await container.artifacts.put(artifactKeys.narrative(orgSlug), narrative);
  const paths = await saveSitePart(container, orgSlug, 'main', files);
  const business = await requireBusiness(container, orgSlug);
  await container.aiSites.patch(orgSlug, business.id, { mainPartBuiltFrom: inputs });
  return { files: paths.length, engine: narrative.engine };
}
