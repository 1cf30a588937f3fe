/**
 * Batch 3's clients, built once per container: IndexNow (INDEXNOW_ENDPOINT, default the
 * public endpoint) and the webmaster console (WEBMASTER_API_URL, WEBMASTER_CREDENTIALS).
 */
import { createIndexNowClient, type IndexNowClient } from '../adapters/external/indexnow';
import { createWebmasterClient, type WebmasterClient } from '../adapters/external/webmaster';
import { createLogger } from '../logger';
import { perContainer } from './per-container';

export interface SearchNotifyEngines {
  indexNow: IndexNowClient;
  webmaster: WebmasterClient;
}

export const searchNotifyEnginesOf = perContainer((container): SearchNotifyEngines => {
  const log = createLogger({ component: 'search-notify' });
  const { config } = container;
  return {
    indexNow: createIndexNowClient({ endpoint: config.indexNowEndpoint, log }),
    webmaster: createWebmasterClient({ apiUrl: config.webmaster.apiUrl, credentials: config.webmaster.credentials, log }),
  };
});

export type { SitemapResubmission, WebmasterClient } from '../adapters/external/webmaster';
