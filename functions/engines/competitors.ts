/**
 * The competitor engines of a container: its repository, the search API (null when not
 * configured), the favicon service template and the optional model refiner. Built once per
 * container, like the other engines.
 */
import { createSearchApi, type SearchApi } from '../adapters/external/search';
import { createModelRefiner, type CandidateRefiner } from '../adapters/external/search/model-refiner';
import { DEFAULT_FAVICON_SERVICE_URL, isFaviconTemplate } from '../core/competitors/rules';
import type { CompetitorRepository } from '../core/competitors/types';
import { createLogger } from '../logger';
import { perContainer } from './per-container';
import { competitorRepositoryOf } from './competitor-repository';

export interface CompetitorEngines {
  repo: CompetitorRepository;
  /** Null without SEARCH_API_URL: discovery is skipped, research answers 503. */
  search: SearchApi | null;
  /** Favicon service URL template with `{domain}`. */
  faviconTemplate: string;
  /** Null without LLM_BASE_URL: the search ranking is kept as it is. */
  refiner: CandidateRefiner | null;
}

export const competitorEnginesOf = perContainer((container): CompetitorEngines => {
  const { config } = container;
  const log = createLogger({ component: 'competitors' });
  if (config.faviconServiceUrl && !isFaviconTemplate(config.faviconServiceUrl)) {
    log.warn('FAVICON_SERVICE_URL is not an http(s) URL with {domain}; using the default favicon service', { default: DEFAULT_FAVICON_SERVICE_URL });
  }
  const llmBaseUrl = config.llm.baseUrl?.trim();
  return {
    repo: competitorRepositoryOf(container),
    search: createSearchApi(config.search),
    faviconTemplate: isFaviconTemplate(config.faviconServiceUrl) ? config.faviconServiceUrl : DEFAULT_FAVICON_SERVICE_URL,
    refiner: llmBaseUrl ? createModelRefiner({ baseUrl: llmBaseUrl, apiKey: config.llm.apiKey, model: config.llm.model, log }) : null,
  };
});
