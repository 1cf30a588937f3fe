/**
 * Optional model step of competitor discovery: given the search candidates, the model
 * keeps the direct competitors and orders them. It can only choose among the candidates
 * (any other domain in its answer is dropped), so it can never invent a competitor.
 */
import { extractJson } from '../generate/model-output';
import type { Candidate, BusinessContext } from './candidates';

export interface RefineMessage {
  role: 'system' | 'user';
  content: string;
}

const MAX_SNIPPET = 200;

export function refineMessages(business: BusinessContext & { description?: string }, candidates: Candidate[]): RefineMessage[] {
  const lines = candidates.map((c, i) => `${i + 1}. domain: ${c.domain} | title: ${oneLine(c.title, 120)} | snippet: ${oneLine(c.snippet, MAX_SNIPPET)}`);
  const about = [
    `Business: ${oneLine(business.name, 120)} (${business.url})`,
    business.industry ? `Industry: ${oneLine(business.industry, 80)}` : '',
    business.categories?.length ? `Categories: ${business.categories.slice(0, 8).map((c) => oneLine(c, 40)).join(', ')}` : '',
    business.description ? `About: ${oneLine(business.description, 300)}` : '',
  ].filter(Boolean);
  return [
    {
      role: 'system',
      content: 'You pick the direct competitors of an online business from web search results. Answer with a JSON object only.',
    },
    {
      role: 'user',
      content: [
        ...about,
        '',
        'Search results, one website per line:',
        ...lines,
        '',
        'Task: keep only websites that sell similar products or services to the same kind of customers (direct competitors).',
        'Drop marketplaces, media and review sites, directories, suppliers, and the business itself.',
        'Order them from the closest competitor to the least close. Use the domains exactly as listed.',
        'Answer: {"competitors": ["domain", ...]}',
      ].join('\n'),
    },
  ];
}

/** The candidates the model kept, in its order; null when the answer is unusable or empty. */
export function parseRefinement(content: string, candidates: Candidate[]): Candidate[] | null {
  const json = extractJson(content);
  if (!json.ok) return null;
  const list = (json.value as { competitors?: unknown }).competitors;
  if (!Array.isArray(list)) return null;
  const byDomain = new Map(candidates.map((c) => [c.domain.toLowerCase(), c]));
  const kept: Candidate[] = [];
  for (const entry of list) {
    const domain = typeof entry === 'string' ? entry : entry && typeof entry === 'object' ? (entry as { domain?: unknown }).domain : null;
    if (typeof domain !== 'string') continue;
    const candidate = byDomain.get(domain.trim().toLowerCase().replace(/^https?:\/\//, '').replace(/\/.*$/, '').replace(/^www\./, ''));
    if (candidate && !kept.includes(candidate)) kept.push(candidate);
  }
  return kept.length > 0 ? kept : null;
}

function oneLine(text: string, max: number): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}
