/** The site use cases other app folders may use: this folder's public face. */
export { renderMainPart } from './create';
export { deploySite } from './deploy';
export { dailyBaseline, deleteDailyBaseline, publishedDigests, saveDailyBaseline, settleDailyBaseline } from './digests';
export { aiSiteHostOf } from './identity';
export { mainPartIsCurrent, productPartIsCurrent, saveSiteInput } from './inputs';
export type { CatalogArtifact, ScrapeArtifact } from './inputs';
export { deleteSitePart, openSitePart, saveSitePart } from './part-store';
export { publishChangedSiteParts, publishSiteParts } from './parts';
export { renderProductPart } from './product-llms-files';
export { resubmitSitemap, submitIndexNow } from './search-notify';
export { loadSnapshot, snapshotBusiness } from './snapshot';
export { agentFilesAfter, probeStoreAgentFiles, sameAgentFiles } from './store-agent-files';
export { saveStoreSitemap } from './store-sitemap';
