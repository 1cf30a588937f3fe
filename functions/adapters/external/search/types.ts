/** The web search port lives in functions/ports.ts; one adapter here: the Brave Search API (./brave.ts). */
export type { SearchApi, SearchOptions, SearchResult } from '../../../ports';
