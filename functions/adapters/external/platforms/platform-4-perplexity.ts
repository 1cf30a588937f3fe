/**
 * platform_4, "answer engine": the vendor's (Perplexity) Agent API with its `web_search` tool.
 * Perplexity retired Sonar chat completions (`POST /chat/completions`) on 27 September 2026;
 * the Agent API is its replacement. Sources checked:
 * https://docs.perplexity.ai/docs/agent-api/migrate-from-sonar/how-to and the migration
 * skill's references (perplexityai/api-platform-developers, skills/migrate-sonar-to-agent-api).
 *
 *   PLATFORM_4_API_URL  https://api.perplexity.ai      (`/v1/agent` is appended)
 *   PLATFORM_4_API_KEY  required (Authorization: Bearer)
 *   PLATFORM_4_MODEL    default perplexity/sonar (the Sonar slug `sonar` is read as perplexity/sonar)
 *
 *   POST {url}/v1/agent  {"model": "perplexity/sonar", "input": "<prompt>", "tools": [{"type": "web_search"}]}
 *
 *   200 {"id": "resp_...", "object": "response", "status": "completed", "model": "perplexity/sonar",
 *        "output": [{"type": "search_results", "queries": ["..."], "results": [{"id": 1, "url": "https://...", "title": "...", "snippet": "..."}]},
 *                   {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "... [1][2]", "annotations": []}]}],
 *        "usage": {"input_tokens": 9, "output_tokens": 200, "total_tokens": 209}}
 *
 * The body is strict: any field the API does not know is a 400, so only these three are sent.
 * Web search is not automatic on a bare model: the tool must be listed. A failed or cancelled
 * run still answers HTTP 200, with `status` saying so (responses-api.ts stops on it).
 *
 * Answer: the `message` items' output_text (responses-api.ts). Cited: the `url_citation`
 * annotations when there are any (Perplexity often sends none), else the `search_results`
 * the text refers to by `[n]`, in order of first reference. Retrieved: every other search
 * result. Cost unit `tokens+web_searches`, one search per `search_results` item.
 */
import type { PlatformClient } from '../../../core/visibility/platform-answer';
import { answerFromResponses, parseResponsesBody, searchResultUrls } from './responses-api';
import { createPlatformClient, endpointUrl, referencedIndexes, type PlatformDeps, type PlatformSettings, type PlatformSpec } from './shared';

export const PLATFORM_4: PlatformSpec = { n: 4, kind: 'answer engine', keyRequired: true, defaultModel: 'perplexity/sonar' };

/** Sonar model names an operator may still have configured, and their Agent API slugs (the migration guide's mapping). */
const SONAR_SLUGS: Readonly<Record<string, string>> = { sonar: 'perplexity/sonar' };

/** The Agent API request for one prompt: the model, the prompt, and the web search tool. */
export function platform4Body(prompt: string, model: string | null): Record<string, unknown> {
  const configured = model ?? PLATFORM_4.defaultModel!;
  return { model: SONAR_SLUGS[configured] ?? configured, input: prompt, tools: [{ type: 'web_search' }] };
}

export function createPlatform4Client(settings: PlatformSettings | undefined, deps: PlatformDeps): PlatformClient {
  return createPlatformClient(PLATFORM_4, settings, deps, async (prompt, ctx, s) => {
    const body = await ctx.request(
      { url: endpointUrl(s.apiUrl, '/v1/agent'), method: 'POST', headers: { authorization: `Bearer ${s.apiKey}` }, body: platform4Body(prompt, s.model) },
      parseResponsesBody,
    );
    const answer = answerFromResponses('platform_4', body, 'agent API + web_search tool');
    if (answer.citations.length) return answer;
    const results = searchResultUrls(body);
    return { ...answer, citations: referencedIndexes(answer.text, results.length).map((i) => results[i]) };
  });
}
