/**
 * AI crawlers named by a maintained public list, vendored with its source, commit and date
 * (vendored/ai-robots-txt.json, refreshed by bin/refresh-ai-crawlers.ts, never fetched at
 * request time): an agent the vendor table (ai-bots.ts) does not know counts as an AI visit
 * when the list names it (issue 35: positive identification, where `isbot` says only "a bot").
 *
 * A name is matched as a product token: the whole name, not inside a longer word
 * ("Bravebot/1.0" yes, "NotBravebot" no). Names that are everyday words of unrelated
 * software's User-Agents are left out (UNMATCHED).
 */
import listed from './vendored/ai-robots-txt.json';

export interface RobotsJson {
  [name: string]: { function?: string; operator?: string; description?: string };
}

export interface VendoredAiCrawlers {
  source: string;
  commit: string;
  committed_at: string;
  refreshed_at: string;
  agents: Array<{ name: string; function: string }>;
}

/** The vendored form of the list's robots.json. */
export function vendoredAiCrawlers(robots: RobotsJson, at: { commit: string; committedAt: string; refreshedAt: string }): VendoredAiCrawlers {
  return {
    source: 'https://github.com/ai-robots-txt/ai.robots.txt (robots.json)',
    commit: at.commit,
    committed_at: at.committedAt,
    refreshed_at: at.refreshedAt,
    agents: Object.entries(robots).map(([name, entry]) => ({ name, function: entry.function ?? '' })),
  };
}

/**
 * Names of the list that are words other software puts in its User-Agent: "Code" (the
 * editor's Electron shell), "Spider", "OpenAI" (its SDKs name the vendor), "Operator", and
 * names of three letters or fewer.
 */
const UNMATCHED = new Set(['code', 'spider', 'openai', 'operator']);

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The list's names that are matched, longest first (a longer name wins over its prefix). */
export const LISTED_AI_CRAWLERS: readonly string[] = [...new Set((listed as VendoredAiCrawlers).agents.map((a) => a.name.replace(/\/[\d.]+$/, '')))]
  .filter((name) => name.length > 3 && !UNMATCHED.has(name.toLowerCase()))
  .sort((a, b) => b.length - a.length || (a < b ? -1 : 1));

/** One pattern for every listed name, as a product token (no lookbehind: the tracking script runs it too). */
export const LISTED_AI_CRAWLER_PATTERN = new RegExp(`(?:^|[^A-Za-z0-9_-])(${LISTED_AI_CRAWLERS.map(escape).join('|')})(?![A-Za-z0-9_-])`, 'i');

/** The listed name the User-Agent carries, or null. */
export function listedAiCrawler(userAgent: string): string | null {
  const match = LISTED_AI_CRAWLER_PATTERN.exec(userAgent);
  if (!match) return null;
  const lower = match[1]!.toLowerCase();
  return LISTED_AI_CRAWLERS.find((name) => name.toLowerCase() === lower) ?? match[1]!;
}
