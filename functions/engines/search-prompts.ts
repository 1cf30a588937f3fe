/**
 * Search-API prompts (10 of the 50 business prompts at onboarding): the questions real
 * searchers ask about the store's topic, taken from the search API's results for that
 * topic. Only question-shaped result titles count; when there are fewer, fewer are
 * returned and the generator writes the rest (nothing is made up in the API's name).
 */
import type { Container } from '../container';
import type { SearchPromptSource } from '../core/prompts/types';
import { competitorEnginesOf } from './competitors';

const QUESTION = /^(what|which|where|who|how|why|when|is|are|can|do|does|should|best)\b.{8,}$/i;

export function questionFromTitle(title: string): string | null {
  const text = title.replace(/\s+[|–—-]\s+[^|–—-]+$/, '').replace(/\s+/g, ' ').trim();
  if (!QUESTION.test(text)) return null;
  return /\?$/.test(text) ? text : /^best\b/i.test(text) ? `What are the ${text.charAt(0).toLowerCase()}${text.slice(1)}?` : `${text}?`;
}

export function searchPromptSourceOf(container: Container): SearchPromptSource | undefined {
  const search = competitorEnginesOf(container).search;
  if (!search) return undefined;
  return {
    async fetchQueries(topic, limit) {
      const results = await search.search(topic, { limit: 20 });
      const questions = results.map((r) => questionFromTitle(r.title)).filter((q): q is string => q !== null);
      return [...new Set(questions)].slice(0, limit);
    },
  };
}
