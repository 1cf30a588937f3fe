/**
 * platform_4, "answer engine": the vendor's (Perplexity) search-grounded answers, in one of two
 * wire formats chosen by PLATFORM_4_API_URL (D220):
 *
 * 1. The Agent API, when the URL is the vendor's own host or ends in `/v1` (Perplexity retired
 *    Sonar chat completions on 27 September 2026; the Agent API replaces them). Sources checked:
 *    https://docs.perplexity.ai/docs/agent-api/migrate-from-sonar/how-to and the migration
 *    skill's references (perplexityai/api-platform-developers, skills/migrate-sonar-to-agent-api).
 *
 *    PLATFORM_4_API_URL  https://api.perplexity.ai/v1   (`/agent` is appended; the bare host gets `/v1/agent`)
 *    POST {url}/agent  {"model": "perplexity/sonar", "input": "<prompt>", "tools": [{"type": "web_search"}]}
 *    200 {"object": "response", "status": "completed", "model": "perplexity/sonar",
 *         "output": [{"type": "search_results", "queries": ["..."], "results": [{"url": "https://...", ...}]},
 *                    {"type": "message", "content": [{"type": "output_text", "text": "... [1][2]", "annotations": []}]}],
 *         "usage": {"input_tokens": 9, "output_tokens": 200, "total_tokens": 209}}
 *
 *    The body is strict (any unknown field is a 400), so only these three are sent; a bare model
 *    does not search, so the tool is listed. A failed or cancelled run answers HTTP 200 with its
 *    `status` (responses-api.ts stops on it). Answer: the `message` text. Cited: the
 *    `url_citation` annotations when there are any (often none), else the `search_results`
 *    the text refers to by `[n]`. Retrieved: the other results. Cost unit `tokens+web_searches`.
 *
 * 2. Sonar chat completions, for any other URL: a Sonar-compatible server (an AI gateway that
 *    still serves the chat form for Perplexity models). Sources checked:
 *    https://docs.perplexity.ai/api-reference/chat-completions-post.
 *
 *    POST {url}/chat/completions  {"model": "sonar", "messages": [{"role": "user", "content": "<prompt>"}]}
 *    200 {"model": "sonar", "choices": [{"message": {"content": "... [1][2]"}}], "citations": ["https://..."],
 *         "search_results": [{"url": "https://..."}], "usage": {"total_tokens": 209}}
 *
 *    Answer: choices[0].message.content (`<think>` removed). Cited: `citations[]` (or
 *    `search_results[].url` when absent) referred to by `[n]`. Cost: usage.total_tokens.
 *
 *   PLATFORM_4_API_KEY  required (Authorization: Bearer)
 *   PLATFORM_4_MODEL    default perplexity/sonar; each format is sent its own name for the
 *                       model (`sonar` ↔ `perplexity/sonar`, the migration guide's mapping)
 */
import * as z from 'zod/mini';
import type { PlatformClient } from '../../../core/visibility/platform-answer';
import { askChatCompletions, chatCompletionParser, chatCompletionSchema } from './chat-completions';
import { answerFromResponses, parseResponsesBody } from './responses-api';
import { createPlatformClient, endpointUrl, referencedIndexes, type AnswerParts, type ConfiguredSettings, type PlatformContext, type PlatformDeps, type PlatformSettings, type PlatformSpec } from './shared';

export const PLATFORM_4: PlatformSpec = { n: 4, kind: 'answer engine', keyRequired: true, defaultModel: 'perplexity/sonar' };

/** The vendor's own API host: it serves only the Agent API now. */
const VENDOR_HOST = 'api.perplexity.ai';
/** The Sonar model name and its Agent API slug (the migration guide's mapping). */
const SONAR = 'sonar';
const AGENT_SONAR = 'perplexity/sonar';

/** The Agent API's URL for the configured one, or null when the URL names a Sonar-compatible server. */
export function agentApiUrl(apiUrl: string): string | null {
  const url = new URL(apiUrl);
  const path = url.pathname.replace(/\/+$/, '');
  if (path.endsWith('/v1')) return endpointUrl(apiUrl, '/agent');
  return url.hostname === VENDOR_HOST ? endpointUrl(apiUrl, '/v1/agent') : null;
}

/** The Agent API request for one prompt: the model, the prompt, and the web search tool. */
function platform4Body(prompt: string, model: string | null): Record<string, unknown> {
  const configured = model ?? AGENT_SONAR;
  return { model: configured === SONAR ? AGENT_SONAR : configured, input: prompt, tools: [{ type: 'web_search' }] };
}

async function askAgentApi(url: string, prompt: string, ctx: PlatformContext, s: ConfiguredSettings): Promise<AnswerParts> {
  const body = await ctx.request({ url, method: 'POST', headers: { authorization: `Bearer ${s.apiKey}` }, body: platform4Body(prompt, s.model) }, parseResponsesBody);
  const answer = answerFromResponses('platform_4', body, 'agent API + web_search tool');
  if (answer.citations.length) return answer;
  // No annotations: the text's [n] markers number the search results (which answerFromResponses put in `retrieved`).
  const results = answer.retrieved;
  return { ...answer, citations: referencedIndexes(answer.text, results.length).map((i) => results[i]) };
}

/** A chat completion plus the vendor's sources. */
const parseCompletion = chatCompletionParser(z.extend(chatCompletionSchema, {
  citations: z.optional(z.nullable(z.array(z.unknown()))),
  search_results: z.optional(z.nullable(z.array(z.object({ url: z.optional(z.string()) })))),
}));

async function askSonarChat(prompt: string, ctx: PlatformContext, s: ConfiguredSettings): Promise<AnswerParts> {
  const model = s.model === AGENT_SONAR || s.model === null ? SONAR : s.model;
  const { body, text, model: answered, totalTokens } = await askChatCompletions(ctx, { ...s, model, messages: [{ role: 'user', content: prompt }] }, parseCompletion);
  const results = (body.search_results ?? []).map((r) => r.url);
  const numbered: unknown[] = body.citations ?? results;
  return {
    text,
    citations: referencedIndexes(text, numbered.length).map((i) => numbered[i]),
    retrieved: [...numbered, ...results],
    model: answered,
    costUnits: totalTokens,
    costUnit: 'tokens',
    obtainedVia: 'chat completions of a search-grounded model',
  };
}

export function createPlatform4Client(settings: PlatformSettings | undefined, deps: PlatformDeps): PlatformClient {
  return createPlatformClient(PLATFORM_4, settings, deps, (prompt, ctx, s) => {
    const agent = agentApiUrl(s.apiUrl);
    return agent ? askAgentApi(agent, prompt, ctx, s) : askSonarChat(prompt, ctx, s);
  });
}
