/** The store mapper of this deployment (robots.txt, sitemaps, links) over the guarded client. */
import { createSiteMapper } from '../adapters/external/mapper';
import { perContainer } from './per-container';

export const siteMapperOf = perContainer(({ fetchUrl }) => createSiteMapper(fetchUrl));
