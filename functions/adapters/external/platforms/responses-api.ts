/**
 * The OpenAI Responses wire format, spoken by four platforms (1, 5, 7, and 4 through
 * Perplexity's Agent API): one request builder and one parser, each platform module only
 * says what it sends.
 *
 *   POST {url}/responses   Authorization: Bearer <key>
 *   {"model": "...", "input": "<prompt>", "tools": [{"type": "web_search"}]}
 *
 *   200 {"model": "...", "status": "completed",
 *        "output": [{"type": "web_search_call", ...},
 *                   {"type": "message", "role": "assistant", "content": [
 *                     {"type": "output_text", "text": "...", "annotations": [
 *                       {"type": "url_citation", "url": "https://...", "title": "...", "start_index": 0, "end_index": 10}]}]}],
 *        "usage": {"input_tokens": 12, "output_tokens": 340, "total_tokens": 352},
 *        "citations": ["https://..."]}            ← xAI only: every source the search saw
 *   Perplexity's Agent API has no `web_search_call` item: each search is an output item
 *   {"type": "search_results", "queries": [...], "results": [{"url": "https://...", ...}]}.
 *
 * Answer: every `message` item's `output_text` parts, in order (joined by a blank line when
 * there are several messages). Cited: the `url_citation` annotations in order. Retrieved: the
 * top-level `citations[]` when the vendor sends it (xAI: every source the search saw, cited
 * or not), else the `search_results` items' URLs (Perplexity). Cost unit
 * `tokens+web_searches`: input + output tokens plus one per `web_search_call` or
 * `search_results` output item (the vendors bill each search call apart from the tokens).
 */
import * as z from 'zod/mini';
import { endpointUrl, parseBody, PlatformStop, sum, type AnswerParts, type PlatformContext } from './shared';

const annotationSchema = z.object({ type: z.string(), url: z.optional(z.string()) });
const contentSchema = z.object({ type: z.string(), text: z.optional(z.string()), refusal: z.optional(z.string()), annotations: z.optional(z.array(annotationSchema)) });
const searchResultSchema = z.object({ url: z.optional(z.nullable(z.string())) });
const outputItemSchema = z.object({ type: z.string(), content: z.optional(z.array(contentSchema)), results: z.optional(z.nullable(z.array(searchResultSchema))) });

export const responsesSchema = z.object({
  model: z.optional(z.nullable(z.string())),
  status: z.optional(z.nullable(z.string())),
  output: z.array(outputItemSchema),
  usage: z.optional(z.nullable(z.object({ input_tokens: z.optional(z.number()), output_tokens: z.optional(z.number()) }))),
  citations: z.optional(z.nullable(z.array(z.unknown()))),
  error: z.optional(z.nullable(z.object({ code: z.optional(z.nullable(z.union([z.string(), z.number()]))), message: z.optional(z.nullable(z.string())) }))),
});

export type ResponsesBody = z.infer<typeof responsesSchema>;

export interface ResponsesCall {
  /** Base URL ending before `/responses`, e.g. https://api.openai.com/v1. */
  endpoint: string;
  apiKey: string;
  body: Record<string, unknown>;
  obtainedVia: string;
}

export const parseResponsesBody: (json: unknown) => ResponsesBody = parseBody(responsesSchema, 'no output[] in the Responses body');

/** Tokens in + out plus one per web search call. */
export const RESPONSES_COST_UNIT = 'tokens+web_searches';

/** The search items of a response (`web_search_call`, or Perplexity's `search_results`): one billed search call each. */
export function webSearchCalls(body: ResponsesBody): number {
  return body.output.filter((item) => item.type === 'web_search_call' || item.type === 'search_results').length;
}

/** The URLs of the `search_results` items (Perplexity's Agent API), in the order the answer's [n] markers number them. */
function searchResultUrls(body: ResponsesBody): string[] {
  return body.output.flatMap((item) => (item.type === 'search_results' ? (item.results ?? []).flatMap((r) => (r.url ? [r.url] : [])) : []));
}

/** Answer parts from a Responses body; a failed/refused response is a PlatformStop. */
export function answerFromResponses(platform: string, body: ResponsesBody, obtainedVia: string): AnswerParts {
  if (body.status === 'failed' || body.status === 'cancelled') {
    throw new PlatformStop('failed', `${platform}: the response ${body.status === 'failed' ? 'failed' : 'was cancelled'}${body.error?.code ? ` (${body.error.code})` : ''}`);
  }
  const texts: string[] = [];
  const citations: unknown[] = [];
  let refusal: string | undefined;
  for (const item of body.output) {
    if (item.type !== 'message') continue;
    const parts: string[] = [];
    for (const part of item.content ?? []) {
      if (part.type === 'refusal') refusal ??= part.refusal;
      if (part.type !== 'output_text' || !part.text) continue;
      parts.push(part.text);
      for (const a of part.annotations ?? []) if (a.type === 'url_citation' && a.url) citations.push(a.url);
    }
    if (parts.length) texts.push(parts.join(''));
  }
  const text = texts.join('\n\n').trim();
  if (!text) {
    throw new PlatformStop('failed', `${platform}: the response has no output_text${refusal !== undefined ? ' (the model refused)' : body.status && body.status !== 'completed' ? ` (status ${body.status})` : ''}`);
  }
  return {
    text,
    citations,
    retrieved: body.citations ?? searchResultUrls(body),
    model: body.model ?? null,
    costUnits: sum(body.usage?.input_tokens, body.usage?.output_tokens, webSearchCalls(body)),
    costUnit: RESPONSES_COST_UNIT,
    obtainedVia,
  };
}

/** The whole exchange for one prompt. */
export async function askResponses(platform: string, call: ResponsesCall, ctx: PlatformContext): Promise<AnswerParts> {
  const body = await ctx.request(
    { url: endpointUrl(call.endpoint, '/responses'), method: 'POST', headers: { authorization: `Bearer ${call.apiKey}` }, body: call.body },
    parseResponsesBody,
  );
  return answerFromResponses(platform, body, call.obtainedVia);
}
