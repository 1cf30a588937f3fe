/**
 * The OpenAI-compatible chat-completions wire format of platform_6 (an open model behind any
 * OpenAI-compatible server). platform_4 spoke it too until Perplexity retired Sonar chat
 * completions (27 September 2026; it now speaks the Agent API, see platform-4-perplexity.ts).
 *
 *   POST {url}/chat/completions   Authorization: Bearer <key>   (only when a key is set)
 *   {"model": "...", <params, e.g. "temperature": 0.3>, "messages": [{"role": "user", "content": "<prompt>"}]}
 *
 *   200 {"model": "...", "choices": [{"message": {"role": "assistant", "content": "..."}}],
 *        "usage": {"prompt_tokens": 9, "completion_tokens": 200, "total_tokens": 209}, ...vendor fields}
 *
 * Answer: choices[0].message.content, a reasoning model's `<think>` block removed (an empty
 * answer is the shared `ask` wrapper's "no text" failure). Tokens: usage.total_tokens (0 when
 * absent). A 200 body without `choices[]` is malformed and retried like any vendor call.
 */
import * as z from 'zod/mini';
import { endpointUrl, parseBody, stripThinking, type ConfiguredSettings, type PlatformContext } from './shared';
import type { ChatMessage } from '../../../core/generate/model-prompts';

/** What every chat completion has. */
const chatCompletionSchema = z.object({
  model: z.optional(z.nullable(z.string())),
  choices: z.array(z.object({ message: z.optional(z.object({ content: z.optional(z.nullable(z.string())) })) })),
  usage: z.optional(z.nullable(z.object({ total_tokens: z.optional(z.number()) }))),
});

/** The platform's settings (`apiUrl` ends before `/chat/completions`; `apiKey` is sent as Bearer when set) and what to send. */
export interface ChatCompletionCall extends ConfiguredSettings {
  messages: ChatMessage[];
  /** Other body fields (e.g. temperature), sent between `model` and `messages`. */
  params?: Record<string, unknown>;
}

export interface ChatCompletion {
  /** choices[0].message.content without `<think>…</think>`. */
  text: string;
  model: string | null;
  totalTokens: number;
}

const parseChatCompletion = parseBody(chatCompletionSchema, 'no choices[] in the chat completion');

/** One chat completion (with the platform's retries): the answer text, model and tokens. */
export async function askChatCompletions(ctx: PlatformContext, call: ChatCompletionCall): Promise<ChatCompletion> {
  const body = await ctx.request(
    {
      url: endpointUrl(call.apiUrl, '/chat/completions'),
      method: 'POST',
      headers: call.apiKey ? { authorization: `Bearer ${call.apiKey}` } : {},
      body: { model: call.model, ...call.params, messages: call.messages },
    },
    parseChatCompletion,
  );
  return {
    text: stripThinking(body.choices[0]?.message?.content ?? ''),
    model: body.model ?? null,
    totalTokens: body.usage?.total_tokens ?? 0,
  };
}
