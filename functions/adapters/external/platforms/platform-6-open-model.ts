/**
 * platform_6, "open-model assistant": an open model served behind an OpenAI-compatible
 * chat-completions endpoint (vLLM, Ollama, a hosted open-model API), given the top results
 * of the service's web search API (config.search, Brave Search API shape:
 * search/brave.ts) as context, the way such an assistant answers with search on.
 *
 *   SEARCH_API_URL / SEARCH_API_KEY   the web search API (required here)
 *   PLATFORM_6_API_URL  e.g. http://127.0.0.1:11434/v1   (`/chat/completions` is appended; wire format: chat-completions.ts)
 *   PLATFORM_6_API_KEY  optional (Authorization: Bearer when set; local servers need none)
 *   PLATFORM_6_MODEL    required (an open model has no default name)
 *
 * 1. GET {SEARCH_API_URL}/res/v1/web/search?q=<prompt>&count=5   (retried like any vendor call)
 * 2. POST {url}/chat/completions
 *    {"model": "...", "temperature": 0.3, "messages": [
 *      {"role": "system", "content": "<instructions + the numbered results: title, URL, snippet>"},
 *      {"role": "user", "content": "<prompt>"}]}
 *
 * Answer: choices[0].message.content (`<think>` removed). Cited: the result URLs given to
 * the model that the answer references (by `[n]` or by URL), in the order it does.
 * Retrieved: the other results the model was given. Cost unit `tokens+web_searches`: usage.total_tokens + 1 search request.
 */
import type { PlatformClient } from '../../../core/visibility/platform-answer';
import type { SearchResult } from '../search/types';
import { createBraveSearchApi } from '../search/brave';
import { SearchError, type SearchErrorKind } from '../search/errors';
import { AttemptError } from '../vendor-request';
import { askChatCompletions } from './chat-completions';
import { createPlatformClient, missingReason, unconfiguredClient, type PlatformDeps, type PlatformSettings, type PlatformSpec } from './shared';

export const PLATFORM_6: PlatformSpec = { n: 6, kind: 'open-model assistant', keyRequired: false, defaultModel: null, modelRequired: true };
/** Results given to the model. */
export const PLATFORM_6_SEARCH_RESULTS = 5;
/** The search API takes queries up to 400 characters. */
const MAX_QUERY_CHARS = 400;

export interface SearchSettings {
  apiUrl?: string;
  apiKey?: string;
}

export function createPlatform6Client(settings: PlatformSettings | undefined, search: SearchSettings | undefined, deps: PlatformDeps): PlatformClient {
  const searchUrl = search?.apiUrl?.trim();
  const missing = [
    ...(settings?.apiUrl?.trim() ? [] : ['PLATFORM_6_API_URL']),
    ...(settings?.model?.trim() ? [] : ['PLATFORM_6_MODEL']),
    ...(searchUrl ? [] : ['SEARCH_API_URL']),
  ];
  if (missing.length || !searchUrl) return unconfiguredClient('platform_6', PLATFORM_6.kind, settings?.model?.trim() || null, missingReason(missing));
  const searchKey = search?.apiKey?.trim() || undefined;
  const searchApi = createBraveSearchApi({ apiUrl: searchUrl, apiKey: searchKey, fetchImpl: deps.fetchImpl, timeoutMs: deps.timeoutMs });

  return createPlatformClient(PLATFORM_6, settings, deps, async (prompt, ctx, s) => {
    const results = await ctx.retry('web search', async () => {
      try {
        return await searchApi.search(prompt.slice(0, MAX_QUERY_CHARS), { limit: PLATFORM_6_SEARCH_RESULTS });
      } catch (err) {
        throw searchFailure(err, ctx.scrub);
      }
    });
    const { text, model, totalTokens } = await askChatCompletions(ctx, {
      ...s,
      params: { temperature: 0.3 },
      messages: [{ role: 'system', content: systemMessage(results) }, { role: 'user', content: prompt }],
    });
    const urls = results.map((r) => r.url);
    const cited = referencedUrls(text, urls);
    return {
      text,
      citations: cited,
      retrieved: urls,
      model,
      costUnits: totalTokens + 1,
      costUnit: 'tokens+web_searches',
      obtainedVia: `web search API (${results.length} result${results.length === 1 ? '' : 's'}) + chat completions of an open model`,
    };
  }, [searchKey]);
}

export function systemMessage(results: SearchResult[]): string {
  const intro = 'You are a helpful assistant with web search. Answer the user\'s question directly and concretely. '
    + 'Use the web search results below where they help; when you use one, cite it by its number in square brackets, e.g. [2].';
  if (!results.length) return `${intro}\n\nThe web search returned no results for this question.`;
  const list = results.map((r, i) => `[${i + 1}] ${r.title}\nURL: ${r.url}${r.snippet ? `\n${r.snippet}` : ''}`).join('\n\n');
  return `${intro}\n\nWeb search results:\n\n${list}`;
}

/** The given URLs the text references (`[n]`, `[1, 3]` or the URL itself), in order of first reference. */
export function referencedUrls(text: string, urls: string[]): string[] {
  return referenceOrder(text, urls).map((i) => urls[i]);
}

/** The given URLs, those the text references (`[n]`, `[1, 3]` or the URL itself) first in order of first reference. */
export function orderByReference(text: string, urls: string[]): string[] {
  const referenced = referenceOrder(text, urls);
  return [...referenced.map((i) => urls[i]), ...urls.filter((_, i) => !referenced.includes(i))];
}

/** Indexes of the URLs the text references, in order of first reference. */
function referenceOrder(text: string, urls: string[]): number[] {
  const firstAt = new Map<number, number>();
  const note = (index: number, at: number) => {
    if (index >= 0 && index < urls.length && !firstAt.has(index)) firstAt.set(index, at);
  };
  for (const m of text.matchAll(/\[(\d+(?:\s*,\s*\d+)*)\]/g)) {
    for (const n of m[1].split(',')) note(Number(n.trim()) - 1, m.index ?? 0);
  }
  urls.forEach((url, i) => {
    const at = text.indexOf(url.replace(/\/$/, ''));
    if (at >= 0 && (!firstAt.has(i) || at < firstAt.get(i)!)) firstAt.set(i, at);
  });
  return [...firstAt.entries()].sort((a, b) => a[1] - b[1]).map(([i]) => i);
}

/** Search failures another attempt cannot fix: a bad SEARCH_API_URL, a rejected key, a refused request (4xx but 408 and 429). */
const FINAL_SEARCH_FAILURES: ReadonlySet<SearchErrorKind> = new Set<SearchErrorKind>(['unconfigured', 'unauthorized', 'refused']);

/**
 * A search failure as an attempt failure, by the SearchError's kind: 408, 429 (Retry-After
 * honoured), 5xx, timeouts, network and shape errors are retried; the final kinds are not.
 * Anything else thrown is unexpected and retried. The reason is the (scrubbed) message.
 */
function searchFailure(err: unknown, scrub: (text: string) => string): AttemptError {
  const reason = `web search: ${scrub((err as Error)?.message ?? String(err))}`;
  if (!(err instanceof SearchError)) return new AttemptError({ reason, retryable: true });
  return new AttemptError({
    reason,
    retryable: !FINAL_SEARCH_FAILURES.has(err.kind),
    status: err.httpStatus,
    retryAfterMs: err.retryAfterSeconds === undefined ? undefined : err.retryAfterSeconds * 1000,
  });
}
