/**
 * platform_4, "answer engine": the vendor's (Perplexity) search-grounded chat completions.
 * Sources checked: https://docs.perplexity.ai/api-reference/chat-completions-post and
 * https://docs.perplexity.ai/docs/sonar/openai-compatibility.
 *
 *   PLATFORM_4_API_URL  https://api.perplexity.ai      (`/chat/completions` is appended; wire format: chat-completions.ts)
 *   PLATFORM_4_API_KEY  required (Authorization: Bearer)
 *   PLATFORM_4_MODEL    default sonar
 *
 *   POST {url}/chat/completions  {"model": "sonar", "messages": [{"role": "user", "content": "<prompt>"}]}
 *
 *   200 {"model": "sonar", "choices": [{"message": {"role": "assistant", "content": "... [1][2]"}}],
 *        "citations": ["https://..."], "search_results": [{"title": "...", "url": "https://...", "date": "..."}],
 *        "usage": {"prompt_tokens": 9, "completion_tokens": 200, "total_tokens": 209}}
 *
 * Answer: choices[0].message.content (a reasoning model's `<think>` block removed).
 * Sources: `citations[]` (numbered as the text's [n]), or `search_results[].url` (the newer
 * field, numbered the same way) when `citations` is absent. Cited: the sources the text
 * refers to by `[n]`, in order of first reference. Retrieved: every other source and search
 * result. Cost: usage.total_tokens.
 */
import * as z from 'zod/mini';
import type { PlatformClient } from '../../../core/visibility/platform-answer';
import { askChatCompletions, chatCompletionParser, chatCompletionSchema } from './chat-completions';
import { createPlatformClient, referencedIndexes, type PlatformDeps, type PlatformSettings, type PlatformSpec } from './shared';

export const PLATFORM_4: PlatformSpec = { n: 4, kind: 'answer engine', keyRequired: true, defaultModel: 'sonar' };

/** A chat completion plus the vendor's sources. */
const parseCompletion = chatCompletionParser(z.extend(chatCompletionSchema, {
  citations: z.optional(z.nullable(z.array(z.unknown()))),
  search_results: z.optional(z.nullable(z.array(z.object({ url: z.optional(z.string()) })))),
}));

export function createPlatform4Client(settings: PlatformSettings | undefined, deps: PlatformDeps): PlatformClient {
  return createPlatformClient(PLATFORM_4, settings, deps, async (prompt, ctx, s) => {
    const { body, text, model, totalTokens } = await askChatCompletions(
      ctx,
      { ...s, messages: [{ role: 'user', content: prompt }] },
      parseCompletion,
    );
    const results = (body.search_results ?? []).map((r) => r.url);
    const numbered: unknown[] = body.citations ?? results;
    const cited = referencedIndexes(text, numbered.length).map((i) => numbered[i]);
    return {
      text,
      citations: cited,
      retrieved: [...numbered, ...results],
      model,
      costUnits: totalTokens,
      costUnit: 'tokens',
      obtainedVia: 'chat completions of a search-grounded model',
    };
  });
}
