/**
 * The competitor engines of a container: the repository, the search API (null when not
 * configured), the favicon service template and the optional model refiner. Built once per
 * container (WeakMap), like the generator and the scraper engines.
 *
 * Settings are read through `competitorSettings`, which tolerates a Config without the
 * fields (`search: {apiUrl, apiKey}` from SEARCH_API_URL/SEARCH_API_KEY, `faviconServiceUrl`
 * from FAVICON_SERVICE_URL). When the container itself provides `competitors` (a
 * repository), that one is used.
 */
import { createDocumentClient } from '../adapters/dynamodb/client';
import { createCompetitorRepository } from '../adapters/dynamodb/competitor-repo';
import { createSearchApi, type SearchApi, type SearchSettings } from '../adapters/external/search';
import { createModelRefiner, type CandidateRefiner } from '../adapters/external/search/model-refiner';
import { DEFAULT_FAVICON_SERVICE_URL, isFaviconTemplate } from '../core/competitors/rules';
import type { CompetitorRepository } from '../core/competitors/types';
import type { Config } from '../config';
import type { Container } from '../container';
import { createLogger } from '../logger';

export interface CompetitorEngines {
  repo: CompetitorRepository;
  /** Null without SEARCH_API_URL: discovery is skipped, research answers 503. */
  search: SearchApi | null;
  /** Favicon service URL template with `{domain}`. */
  faviconTemplate: string;
  /** Null without LLM_BASE_URL: the search ranking is kept as it is. */
  refiner: CandidateRefiner | null;
}

export interface CompetitorSettings {
  search: SearchSettings;
  faviconServiceUrl?: string;
}

export function competitorSettings(config: Config): CompetitorSettings {
  return { search: config.search, faviconServiceUrl: config.faviconServiceUrl };
}

const built = new WeakMap<Container, CompetitorEngines>();

export function competitorEnginesOf(container: Container): CompetitorEngines {
  let engines = built.get(container);
  if (!engines) {
    const { config } = container;
    const settings = competitorSettings(config);
    const log = createLogger({ component: 'competitors' });
    if (settings.faviconServiceUrl && !isFaviconTemplate(settings.faviconServiceUrl)) {
      log.warn('FAVICON_SERVICE_URL is not an http(s) URL with {domain}; using the default favicon service', { default: DEFAULT_FAVICON_SERVICE_URL });
    }
    const provided = (container as Container & { competitors?: CompetitorRepository }).competitors;
    const llmBaseUrl = config.llm.baseUrl?.trim();
    engines = {
      repo: provided ?? createCompetitorRepository(createDocumentClient({ region: config.region, endpoint: config.dynamodbEndpoint }), config.tableName),
      search: createSearchApi(settings.search),
      faviconTemplate: isFaviconTemplate(settings.faviconServiceUrl) ? settings.faviconServiceUrl : DEFAULT_FAVICON_SERVICE_URL,
      refiner: llmBaseUrl ? createModelRefiner({ baseUrl: llmBaseUrl, apiKey: config.llm.apiKey, model: config.llm.model, log }) : null,
    };
    built.set(container, engines);
  }
  return engines;
}
