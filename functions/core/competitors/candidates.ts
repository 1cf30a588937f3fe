/**
 * From a business to search queries, and from search results to ranked competitor
 * candidates (one per website). Pure.
 */
import { competitorDomain, isExcludedPlatform } from './domain';
import type { SearchResult } from './types';

export interface BusinessContext {
  name: string;
  /** Website origin of the business. */
  url: string;
  /** Inferred industry (from the stored narrative), e.g. "specialty coffee". */
  industry?: string;
  /** Product categories (narrative categories, collections or product types). */
  categories?: string[];
}

const MAX_TERM = 60;

/**
 * Queries that surface competing websites: by industry and category when known (they find
 * rivals the business has never heard of), and by name and domain (what search engines
 * answer best for "competitors of X").
 */
export function discoveryQueries(ctx: BusinessContext, max = 4): string[] {
  const name = term(ctx.name);
  const host = hostOf(ctx.url);
  const industry = term(ctx.industry ?? '');
  const categories = (ctx.categories ?? []).map(term).filter(Boolean);
  const queries = [
    industry && `best ${industry} online stores`,
    categories[0] && `buy ${categories[0]} online`,
    name && `${name} competitors`,
    host && `sites like ${host}`,
    industry && name && `${industry} brands like ${name}`,
    categories[1] && `buy ${categories[1]} online`,
  ].filter((q): q is string => Boolean(q));
  const seen = new Set<string>();
  return queries.filter((q) => {
    const key = q.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  }).slice(0, max);
}

export interface Candidate {
  /** Duplicate key (core/competitors/domain.ts). */
  domain: string;
  /** Home page to crawl: the origin of the first result seen for this website. */
  url: string;
  title: string;
  snippet: string;
  /** Result lists (queries) this website appeared in. */
  hits: number;
  /** Best (lowest) position in any result list. */
  bestRank: number;
}

export interface CandidateFilter {
  /** The business's own website: never its own competitor. */
  businessUrl: string;
  /** Duplicate keys already stored (or otherwise unwanted). */
  excludeDomains?: Iterable<string>;
}

/**
 * One candidate per website, without the business itself, marketplaces, social networks,
 * aggregators and websites already stored; ranked by how many queries found it, then by
 * its best position.
 */
export function rankCandidates(resultLists: SearchResult[][], filter: CandidateFilter): Candidate[] {
  const own = safeDomain(filter.businessUrl);
  const excluded = new Set(filter.excludeDomains ?? []);
  const byDomain = new Map<string, Candidate & { order: number }>();
  let order = 0;
  for (const results of resultLists) {
    const seenInList = new Set<string>();
    results.forEach((result, rank) => {
      const url = httpUrl(result.url);
      if (!url) return;
      const domain = competitorDomain(url);
      if (domain === own || excluded.has(domain) || isExcludedPlatform(domain)) return;
      const known = byDomain.get(domain);
      if (known) {
        if (!seenInList.has(domain)) known.hits++;
        known.bestRank = Math.min(known.bestRank, rank);
      } else {
        byDomain.set(domain, { domain, url: url.origin, title: result.title, snippet: result.snippet, hits: 1, bestRank: rank, order: order++ });
      }
      seenInList.add(domain);
    });
  }
  return [...byDomain.values()]
    .sort((a, b) => b.hits - a.hits || a.bestRank - b.bestRank || a.order - b.order)
    .map(({ order: _order, ...candidate }) => candidate);
}

function httpUrl(raw: string): URL | null {
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

function safeDomain(url: string): string | null {
  try {
    return competitorDomain(url);
  } catch {
    return null;
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return '';
  }
}

/** A search term: one line, no quotes or operators, bounded. */
function term(text: string): string {
  return text.replace(/["'`]+/g, '').replace(/\s+/g, ' ').trim().slice(0, MAX_TERM).trim();
}
