/**
 * The OpenAI-compatible chat-completions wire format, spoken by two platforms (6: an open
 * model; 4: an answer engine behind a Sonar-compatible server, D220): one request and one
 * parser; each platform module says what it sends and reads its vendor's extras (platform_4:
 * `citations`, `search_results`).
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

/** What every chat completion has; a vendor with extra fields extends it (z.extend). */
export const chatCompletionSchema = z.object({
  model: z.optional(z.nullable(z.string())),
  choices: z.array(z.object({ message: z.optional(z.object({ content: z.optional(z.nullable(z.string())) })) })),
  usage: z.optional(z.nullable(z.object({ total_tokens: z.optional(z.number()) }))),
});

export type ChatCompletionBody = z.output<typeof chatCompletionSchema>;

/** The platform's settings (`apiUrl` ends before `/chat/completions`; `apiKey` is sent as Bearer when set) and what to send. */
export interface ChatCompletionCall extends ConfiguredSettings {
  messages: ChatMessage[];
  /** Other body fields (e.g. temperature), sent between `model` and `messages`. */
  params?: Record<string, unknown>;
}

export interface ChatCompletion<B extends ChatCompletionBody> {
  /** The whole parsed body, for the vendor's own fields. */
  body: B;
  /** choices[0].message.content without `<think>…</think>`. */
  text: string;
  model: string | null;
  totalTokens: number;
}

/** The 200 body parser for a (possibly extended) chat-completion schema. */
export function chatCompletionParser<S extends z.ZodMiniType<ChatCompletionBody>>(schema: S): (json: unknown) => z.output<S> {
  return parseBody(schema, 'no choices[] in the chat completion');
}

const parseChatCompletion = chatCompletionParser(chatCompletionSchema);

/** One chat completion (with the platform's retries): the answer text, model and tokens, and the parsed body. */
export function askChatCompletions(ctx: PlatformContext, call: ChatCompletionCall): Promise<ChatCompletion<ChatCompletionBody>>;
export function askChatCompletions<B extends ChatCompletionBody>(ctx: PlatformContext, call: ChatCompletionCall, parse: (json: unknown) => B): Promise<ChatCompletion<B>>;
export async function askChatCompletions(
  ctx: PlatformContext,
  call: ChatCompletionCall,
  parse: (json: unknown) => ChatCompletionBody = parseChatCompletion,
): Promise<ChatCompletion<ChatCompletionBody>> {
  const body = await ctx.request(
    {
      url: endpointUrl(call.apiUrl, '/chat/completions'),
      method: 'POST',
      headers: call.apiKey ? { authorization: `Bearer ${call.apiKey}` } : {},
      body: { model: call.model, ...call.params, messages: call.messages },
    },
    parse,
  );
  return {
    body,
    text: stripThinking(body.choices[0]?.message?.content ?? ''),
    model: body.model ?? null,
    totalTokens: body.usage?.total_tokens ?? 0,
  };
}
