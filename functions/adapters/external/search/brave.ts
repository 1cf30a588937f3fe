/**
 * Search adapter for the Brave Search API (https://api-dashboard.search.brave.com/docs):
 *
 *   GET {SEARCH_API_URL}/res/v1/web/search?q=<query>&count=<1..20>
 *   Accept: application/json
 *   X-Subscription-Token: <SEARCH_API_KEY>
 *
 *   200 {"type":"search","query":{...},"web":{"type":"search","results":[
 *         {"title":"...","url":"https://...","description":"... <strong>hl</strong> ..."}, ...]}}
 *
 * SEARCH_API_URL is the API origin (`https://api.search.brave.com`); a value that already
 * ends in `/res/v1/web/search` is used as it is. It is operator configuration, not user
 * input, so it is fetched with the platform's fetch (not the guarded client); the key
 * travels only in its header and never appears in an error. Errors are SearchErrors
 * (./errors.ts, UpstreamErrors with a `kind`): 401/403 (key rejected), 429 (rate limit,
 * with Retry-After), other 4xx, 5xx, timeouts, network failures and malformed bodies. No retries here: callers run several queries and
 * tolerate a failed one, and an API Lambda has no time to wait out a rate limit.
 */
import * as z from 'zod/mini';
import { SearchError } from './errors';
import type { SearchApi, SearchResult } from './types';
import type { ProviderFetch } from '../provider-fetch';

export const BRAVE_SEARCH_PATH = '/res/v1/web/search';
/** The API answers at most 20 results per request. */
export const BRAVE_MAX_COUNT = 20;

export type SearchFetch = ProviderFetch;

export interface BraveSearchOptions {
  apiUrl: string;
  apiKey?: string;
  /** Per request. Default 8 000. */
  timeoutMs?: number;
  fetchImpl?: SearchFetch;
}

const resultSchema = z.object({ title: z.string(), url: z.string(), description: z.optional(z.string()) });
const responseSchema = z.object({ web: z.optional(z.object({ results: z.optional(z.array(z.unknown())) })) });

export function createBraveSearchApi(options: BraveSearchOptions): SearchApi {
  const base = options.apiUrl.trim().replace(/\/+$/, '');
  const endpoint = base.endsWith(BRAVE_SEARCH_PATH) ? base : `${base}${BRAVE_SEARCH_PATH}`;
  const timeoutMs = options.timeoutMs ?? 8_000;
  const fetchImpl: SearchFetch = options.fetchImpl ?? ((url, init) => fetch(url, init));
  let host = '(invalid SEARCH_API_URL)';
  try {
    host = new URL(endpoint).host;
  } catch {
    // reported on the first search
  }

  return {
    name: 'brave',
    async search(query, { limit }) {
      const count = Math.min(BRAVE_MAX_COUNT, Math.max(1, Math.floor(limit)));
      let url: URL;
      try {
        url = new URL(endpoint);
      } catch {
        throw new SearchError('unconfigured', 'search API: SEARCH_API_URL is not a valid URL');
      }
      url.searchParams.set('q', query);
      url.searchParams.set('count', String(count));
      const headers: Record<string, string> = { accept: 'application/json' };
      if (options.apiKey) headers['x-subscription-token'] = options.apiKey;

      let status: number;
      let text: string;
      let retryAfter: string | null;
      try {
        const res = await fetchImpl(url.href, { method: 'GET', headers, signal: AbortSignal.timeout(timeoutMs) });
        status = res.status;
        retryAfter = res.headers.get('retry-after');
        text = await res.text();
      } catch (err) {
        const e = err as Error & { cause?: { code?: string } };
        if (e?.name === 'TimeoutError' || e?.name === 'AbortError') throw new SearchError('timeout', `search API (${host}) timed out after ${timeoutMs} ms`);
        throw new SearchError('unreachable', `search API (${host}) unreachable: ${e?.cause?.code ?? 'network error'}`);
      }
      const httpStatus = { httpStatus: status };
      if (status === 401 || status === 403) throw new SearchError('unauthorized', `search API (${host}) rejected the API key (HTTP ${status}); check SEARCH_API_KEY`, httpStatus);
      if (status === 429) {
        const seconds = retryAfter && /^\d+$/.test(retryAfter.trim()) ? retryAfter.trim() : undefined;
        const wait = seconds === undefined ? '' : `; retry after ${seconds} s`;
        throw new SearchError('rate_limited', `search API (${host}) rate limit or quota reached (HTTP 429)${wait}`, {
          ...httpStatus,
          retryAfterSeconds: seconds === undefined ? undefined : Number(seconds),
        });
      }
      if (status >= 500) throw new SearchError('failed', `search API (${host}) failed (HTTP ${status})`, httpStatus);
      if (status < 200 || status >= 300) throw new SearchError(status === 408 ? 'timeout' : 'refused', `search API (${host}) refused the request (HTTP ${status})`, httpStatus);

      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        throw new SearchError('malformed', `search API (${host}) answered with invalid JSON`);
      }
      const parsed = responseSchema.safeParse(json);
      if (!parsed.success) throw new SearchError('malformed', `search API (${host}) answered in an unexpected shape (no web.results)`);
      const results: SearchResult[] = [];
      for (const raw of parsed.data.web?.results ?? []) {
        const item = resultSchema.safeParse(raw);
        if (!item.success || !/^https?:\/\//i.test(item.data.url)) continue;
        results.push({ title: plain(item.data.title), url: item.data.url, snippet: plain(item.data.description ?? '') });
        if (results.length >= count) break;
      }
      return results;
    },
  };
}

/** Brave marks query terms with <strong>; results are plain text here. */
function plain(text: string): string {
  return text
    .replace(/<[^>]*>/g, '')
    .replace(/&(amp|lt|gt|quot|#39|#x27|nbsp);/g, (_m, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#x27': "'", nbsp: ' ' })[e] ?? '')
    .replace(/\s+/g, ' ')
    .trim();
}
