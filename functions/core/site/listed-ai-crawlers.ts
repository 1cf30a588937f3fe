/**
 * AI crawlers named by maintained public lists, vendored with their source, commit and date
 * (vendored/*.json, the lists and their refresh in ai-crawler-lists.ts and
 * bin/refresh-ai-crawlers.ts, never fetched at request time): an agent the vendor table
 * (ai-bots.ts) does not know counts as an AI visit when a list names it (issue 35: positive
 * identification, where `isbot` says only "a bot"). ai.robots.txt is the main list; the
 * registries device-detector and crawler-user-agents add the long tail (issue 46), their AI
 * entries only.
 *
 * A name is matched as a product token: the whole name, not inside a longer word
 * ("Bravebot/1.0" yes, "NotBravebot" no). Names that are everyday words of unrelated
 * software's User-Agents are left out (UNMATCHED).
 */
import type { VendoredAiCrawlers } from './ai-crawler-lists';
import aiRobotsTxt from './vendored/ai-robots-txt.json';
import deviceDetector from './vendored/device-detector.json';
import crawlerUserAgents from './vendored/crawler-user-agents.json';

export interface VendoredList {
  /** How a verdict names the list ("listed by ai.robots.txt"). */
  label: string;
  list: VendoredAiCrawlers;
}

/** Every vendored list, ai.robots.txt first (its spelling of a name wins). */
export const VENDORED_LISTS: readonly VendoredList[] = [
  { label: 'ai.robots.txt', list: aiRobotsTxt },
  { label: 'device-detector', list: deviceDetector },
  { label: 'crawler-user-agents', list: crawlerUserAgents },
];

/** A listed name and the lists that name it. */
export interface ListedAiCrawler {
  name: string;
  /** Labels of the lists, in VENDORED_LISTS order. */
  listedBy: readonly string[];
}

/**
 * Names of the lists that are words other software puts in its User-Agent: "Code" (the
 * editor's Electron shell), "Spider", "OpenAI" (its SDKs name the vendor), "Operator", and
 * names of three letters or fewer.
 */
const UNMATCHED = new Set(['code', 'spider', 'openai', 'operator']);

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The matched names of the given lists, keyed by lower case, each with the lists that name it. */
export function listedNames(lists: readonly VendoredList[]): Map<string, ListedAiCrawler> {
  const byName = new Map<string, { name: string; listedBy: string[] }>();
  for (const { label, list } of lists) {
    for (const agent of list.agents) {
      const name = agent.name.replace(/\/[\d.]+$/, '');
      if (name.length <= 3 || UNMATCHED.has(name.toLowerCase())) continue;
      const entry = byName.get(name.toLowerCase()) ?? byName.set(name.toLowerCase(), { name, listedBy: [] }).get(name.toLowerCase())!;
      if (!entry.listedBy.includes(label)) entry.listedBy.push(label);
    }
  }
  return byName;
}

/** One pattern for the names, as product tokens, longest first (no lookbehind: the tracking script runs it too). */
export function listedPattern(names: readonly string[]): RegExp {
  const longestFirst = [...names].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
  // A build number may follow the name ("TSM-turingos-1253296984"); a word may not ("NotBravebot", "Bravebot-Pro").
  return new RegExp(`(?:^|[^A-Za-z0-9_-])(${longestFirst.map(escape).join('|')})(?![A-Za-z0-9_]|-[A-Za-z])`, 'i');
}

const LISTED = listedNames(VENDORED_LISTS);

/** The lists' names that are matched, longest first (a longer name wins over its prefix). */
export const LISTED_AI_CRAWLERS: readonly string[] = [...LISTED.values()].map((e) => e.name).sort((a, b) => b.length - a.length || (a < b ? -1 : 1));

export const LISTED_AI_CRAWLER_PATTERN = listedPattern(LISTED_AI_CRAWLERS);

/** The listed name the User-Agent carries (with the lists that name it), or null. */
export function listedAiCrawler(userAgent: string): ListedAiCrawler | null {
  const match = LISTED_AI_CRAWLER_PATTERN.exec(userAgent);
  return match ? LISTED.get(match[1]!.toLowerCase()) ?? null : null;
}
