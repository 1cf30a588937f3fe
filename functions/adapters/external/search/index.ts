/**
 * Picks the search API from configuration (SEARCH_API_URL, SEARCH_API_KEY). Without a URL
 * there is no search API (`null`): steps that need one are skipped with that reason, and
 * nothing is ever made up. The key is optional so a keyless self-hosted server can be used;
 * the Brave API itself answers 401 without one, which surfaces as a SearchError (an
 * UpstreamError) of kind `unauthorized`.
 */
import { createBraveSearchApi, type SearchFetch } from './brave';
import type { SearchApi } from './types';

export type { SearchApi, SearchOptions, SearchResult } from './types';
export { createBraveSearchApi } from './brave';
export { SearchError, type SearchErrorKind } from './errors';

export interface SearchSettings {
  apiUrl?: string;
  apiKey?: string;
}


export function createSearchApi(settings: SearchSettings | undefined, deps: { fetchImpl?: SearchFetch; timeoutMs?: number } = {}): SearchApi | null {
  const apiUrl = settings?.apiUrl?.trim();
  if (!apiUrl) return null;
  return createBraveSearchApi({ apiUrl, apiKey: settings?.apiKey?.trim() || undefined, ...deps });
}
