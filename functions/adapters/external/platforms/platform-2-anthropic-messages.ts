/**
 * platform_2, "second chat assistant": the vendor's (Anthropic) Messages API with its
 * server-side web search tool.
 * Sources checked: https://docs.anthropic.com/en/api/messages and
 * https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/web-search-tool.
 *
 *   PLATFORM_2_API_URL  https://api.anthropic.com      (`/v1/messages` is appended)
 *   PLATFORM_2_API_KEY  required (x-api-key; anthropic-version: 2023-06-01)
 *   PLATFORM_2_WORKSPACE_ID  set for Claude Platform on AWS (D235): the same Messages and Message
 *                       Batches API at https://aws-external-anthropic.<region>.api.aws, billed through
 *                       AWS Marketplace with no monthly spend limit; the workspace API key goes as a
 *                       bearer token and the workspace in `anthropic-workspace-id`
 *                       (docs.aws.amazon.com/claude-platform/latest/userguide/authentication.html,
 *                       .../making-requests.html)
 *   PLATFORM_2_MODEL    default claude-sonnet-5-5 (claude-sonnet-4-5 retires on 2026-11-30; Anthropic names
 *                       Claude Sonnet 5.5 its replacement: platform.claude.com/docs/en/models/sonnet-4-5/overview)
 *
 *   POST {url}/v1/messages
 *   {"model": "...", "max_tokens": 2048, "messages": [{"role": "user", "content": "<prompt>"}],
 *    "tools": [{"type": "web_search_20250305", "name": "web_search", "max_uses": 5}]}
 *
 *   200 {"model": "...", "stop_reason": "end_turn", "content": [
 *         {"type": "server_tool_use", "name": "web_search", ...},
 *         {"type": "web_search_tool_result", "content": [{"type": "web_search_result", "url": "...", "title": "..."}]},
 *         {"type": "text", "text": "...", "citations": [{"type": "web_search_result_location", "url": "...", "cited_text": "..."}]}],
 *       "usage": {"input_tokens": 9, "output_tokens": 120, "server_tool_use": {"web_search_requests": 1}}}
 *
 * Answer: the `text` blocks concatenated (the API splits text at citation boundaries).
 * Cited: the URLs the text cites (`web_search_result_location`). Retrieved: the search
 * results the model was given (`web_search_tool_result`) that the text does not cite. Cost unit `tokens+web_searches`: input + output tokens plus
 * one per web search request (the vendor bills searches separately, per request).
 */
import * as z from 'zod/mini';
import type { PlatformClient } from '../../../core/visibility/platform-answer';
import { createPlatformClient, parseBody, endpointUrl, sum, type AnswerParts, type PlatformDeps, type PlatformSettings, type PlatformSpec } from './shared';

export const PLATFORM_2: PlatformSpec = { n: 2, kind: 'second chat assistant', keyRequired: true, defaultModel: 'claude-sonnet-5-5' };
export const ANTHROPIC_VERSION = '2023-06-01';
export const PLATFORM_2_MAX_TOKENS = 2048;
export const PLATFORM_2_MAX_SEARCHES = 5;

const blockSchema = z.object({
  type: z.string(),
  text: z.optional(z.string()),
  citations: z.optional(z.nullable(z.array(z.object({ type: z.string(), url: z.optional(z.string()) })))),
  /** web_search_tool_result: the results, or an error object. */
  content: z.optional(z.unknown()),
});
const resultSchema = z.object({ type: z.string(), url: z.optional(z.string()) });
const messageSchema = z.object({
  model: z.optional(z.nullable(z.string())),
  content: z.array(blockSchema),
  usage: z.optional(z.object({
    input_tokens: z.optional(z.number()),
    output_tokens: z.optional(z.number()),
    server_tool_use: z.optional(z.nullable(z.object({ web_search_requests: z.optional(z.number()) }))),
  })),
});

/**
 * The credentials of a request: the Claude API's `x-api-key`, or, with a workspace configured,
 * Claude Platform on AWS's workspace API key as a bearer token and the workspace it targets.
 */
export function anthropicHeaders(apiKey: string, workspaceId: string | undefined): Record<string, string> {
  const id = workspaceId?.trim();
  return id
    ? { authorization: `Bearer ${apiKey}`, 'anthropic-workspace-id': id, 'anthropic-version': ANTHROPIC_VERSION }
    : { 'x-api-key': apiKey, 'anthropic-version': ANTHROPIC_VERSION };
}

/** The Messages request body for one prompt (the synchronous call's body, and each batch request's `params`). */
export function platform2Body(prompt: string, model: string | null): Record<string, unknown> {
  return {
    model,
    max_tokens: PLATFORM_2_MAX_TOKENS,
    messages: [{ role: 'user', content: prompt }],
    tools: [{ type: 'web_search_20250305', name: 'web_search', max_uses: PLATFORM_2_MAX_SEARCHES }],
  };
}

export const parsePlatform2Message = parseBody(messageSchema, 'no content[] in the Messages body');

/** A Messages body's answer parts (the synchronous answer, or a batch result's `message`). */
export function platform2Answer(message: z.infer<typeof messageSchema>, via = 'messages API'): AnswerParts {
  let text = '';
  const cited: string[] = [];
  const results: string[] = [];
  for (const block of message.content) {
    if (block.type === 'text' && block.text) {
      text += block.text;
      for (const c of block.citations ?? []) if (c.type === 'web_search_result_location' && c.url) cited.push(c.url);
    } else if (block.type === 'web_search_tool_result' && Array.isArray(block.content)) {
      for (const raw of block.content) {
        const r = resultSchema.safeParse(raw);
        if (r.success && r.data.type === 'web_search_result' && r.data.url) results.push(r.data.url);
      }
    }
  }
  const searches = message.usage?.server_tool_use?.web_search_requests ?? 0;
  return {
    text,
    citations: cited,
    retrieved: results,
    model: message.model ?? null,
    costUnits: sum(message.usage?.input_tokens, message.usage?.output_tokens, searches),
    costUnit: 'tokens+web_searches',
    obtainedVia: `${via} + web_search tool (${searches} search${searches === 1 ? '' : 'es'})`,
  };
}

export function createPlatform2Client(settings: PlatformSettings | undefined, deps: PlatformDeps): PlatformClient {
  return createPlatformClient(PLATFORM_2, settings, deps, async (prompt, ctx, s) => platform2Answer(await ctx.request(
    { url: endpointUrl(s.apiUrl, '/v1/messages'), method: 'POST', headers: anthropicHeaders(s.apiKey!, settings?.workspaceId), body: platform2Body(prompt, s.model) },
    parsePlatform2Message,
  )));
}
