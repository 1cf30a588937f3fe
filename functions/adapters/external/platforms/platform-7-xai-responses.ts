/**
 * platform_7, "assistant of a social network": the vendor's (xAI) Responses API with its
 * server-side `web_search` agent tool.
 * Sources checked: https://docs.x.ai/docs/guides/tools/search-tools,
 * https://docs.x.ai/developers/tools/citations and the REST reference (POST /v1/responses).
 *
 *   PLATFORM_7_API_URL  https://api.x.ai/v1      (`/responses` is appended)
 *   PLATFORM_7_API_KEY  required (Authorization: Bearer)
 *   PLATFORM_7_MODEL    default grok-4.3 (grok-4-1-fast was retired on 2026-05-15; xAI names grok-4.3 its
 *                       replacement: docs.x.ai/developers/migration/may-15-retirement)
 *
 *   POST {url}/responses  {"model": "...", "input": "<prompt>", "tools": [{"type": "web_search"}]}
 *
 * Not the older chat-completions `search_parameters` ("Live Search"): xAI deprecated it and
 * now answers it with `410 Gone` ("Live search is deprecated. Please switch to the Agent
 * Tools API"), see https://github.com/vercel/ai/pull/15713.
 *
 * Cited: the answer's `url_citation` annotations (inline citations are on by default on
 * this endpoint). Retrieved: the top-level `citations[]`, which lists every source the
 * search looked at (the sources list the product shows under an answer), cited or not.
 * Cost unit `tokens+web_searches` (responses-api.ts).
 */
import type { PlatformClient } from '../../../core/visibility/platform-answer';
import { askResponses } from './responses-api';
import { createPlatformClient, type PlatformDeps, type PlatformSettings, type PlatformSpec } from './shared';

export const PLATFORM_7: PlatformSpec = { n: 7, kind: 'assistant of a social network', keyRequired: true, defaultModel: 'grok-4.3' };

export function createPlatform7Client(settings: PlatformSettings | undefined, deps: PlatformDeps): PlatformClient {
  return createPlatformClient(PLATFORM_7, settings, deps, (prompt, ctx, s) => askResponses('platform_7', {
    endpoint: s.apiUrl,
    apiKey: s.apiKey!,
    body: { model: s.model, input: prompt, tools: [{ type: 'web_search' }] },
    obtainedVia: 'responses API + web_search agent tool',
  }, ctx));
}
