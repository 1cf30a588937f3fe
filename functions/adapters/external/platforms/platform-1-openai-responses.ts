/**
 * platform_1, "general chat assistant": the vendor's Responses API with its web search tool.
 * Sources checked: https://platform.openai.com/docs/api-reference/responses/create and
 * https://platform.openai.com/docs/guides/tools-web-search (wire format: responses-api.ts).
 *
 *   PLATFORM_1_API_URL  https://api.openai.com/v1      (`/responses` is appended)
 *   PLATFORM_1_API_KEY  required (Authorization: Bearer)
 *   PLATFORM_1_MODEL    default gpt-4.1-mini
 *
 *   POST {url}/responses  {"model": "...", "input": "<prompt>", "tools": [{"type": "web_search"}]}
 *
 * Cited: the `url_citation` annotations of the answer. Cost unit `tokens+web_searches`: input
 * + output tokens plus one per `web_search_call` item (the per-call web search fee).
 */
import type { PlatformClient } from '../../../core/visibility/platform-answer';
import { askResponses } from './responses-api';
import { createPlatformClient, type PlatformDeps, type PlatformSettings, type PlatformSpec } from './shared';

export const PLATFORM_1: PlatformSpec = { n: 1, kind: 'general chat assistant', keyRequired: true, defaultModel: 'gpt-4.1-mini' };

/** The Responses request body for one prompt (the synchronous call's body, and each batch line's `body`). */
export function platform1Body(prompt: string, model: string | null): Record<string, unknown> {
  return { model, input: prompt, tools: [{ type: 'web_search' }] };
}

export function createPlatform1Client(settings: PlatformSettings | undefined, deps: PlatformDeps): PlatformClient {
  return createPlatformClient(PLATFORM_1, settings, deps, (prompt, ctx, s) => askResponses('platform_1', {
    endpoint: s.apiUrl,
    apiKey: s.apiKey!,
    body: platform1Body(prompt, s.model),
    obtainedVia: 'responses API + web_search tool',
  }, ctx));
}
