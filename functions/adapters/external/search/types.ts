/**
 * The web search port (business prompts and competitors). One adapter: the Brave Search
 * API (./brave.ts). Absent configuration means no SearchApi at all (`null`): callers skip
 * their step with a reason, they never invent results.
 */
import type { SearchResult } from '../../../core/competitors/types';

export type { SearchResult };

export interface SearchOptions {
  /** Results wanted (the provider may return fewer). */
  limit: number;
}

export interface SearchApi {
  readonly name: string;
  /** UpstreamError on provider failures (401/403 credentials, 429 rate limit, 5xx, timeout). */
  search(query: string, options: SearchOptions): Promise<SearchResult[]>;
}
