/** The onboarding use cases other app folders may use: this folder's public face. */
export { commitProductSnapshot, readAndSaveCatalogue } from './discover-products';
export { scrapeMapped, storeRobotsTxtOf } from './scrape-website';
