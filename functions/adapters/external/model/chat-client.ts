/**
 * One OpenAI-compatible chat-completions call with retries: the one HTTP client shared by
 * the model engine (model-engine.ts) and the model prompt generator (prompt-model.ts):
 *
 * - POST `{baseUrl}/chat/completions` with `{model, messages, temperature,
 *   response_format: {type: 'json_object'}}`; the key only in the Authorization header.
 * - Retried with exponential backoff and "equal jitter" (capped, Retry-After honoured) on
 *   429, 408, 5xx, network errors, timeouts, oversized or non-JSON responses and output
 *   that `parse` rejects; 401/403 and other 4xx are not retried.
 * - The key is scrubbed from every reason; reasons never carry it.
 */
import type { Logger } from '../../../logger';
import type { ChatMessage } from '../../../core/generate/model-prompts';
import type { Parsed } from '../../../core/generate/model-output';
import type { ProviderFetch } from '../provider-fetch';
import { AttemptError, createScrubber, requestJson, withRetries } from '../vendor-request';
import { countMetric } from '../../../metrics';

export { parseRetryAfter } from '../vendor-request';

export type FetchLike = ProviderFetch;

export interface ChatClientOptions {
  /** e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1; `/chat/completions` is appended. */
  baseUrl: string;
  /** Optional: local servers often need none. */
  apiKey?: string;
  model: string;
  log: Logger;
  fetchImpl?: FetchLike;
  /** Per attempt, covering the whole response. Default 60 000. */
  timeoutMs?: number;
  /** Retries after the first attempt. Default 2. */
  maxRetries?: number;
  /** First backoff delay; doubles per retry, with jitter. Default 1000. */
  retryBaseMs?: number;
  /** Cap of one backoff delay (also of a Retry-After). Default 20 000. */
  retryMaxMs?: number;
  /** HTTP requests in flight at once through this client. Default 4. */
  maxConcurrency?: number;
  /** Jitter source, [0, 1). Default Math.random. */
  random?: () => number;
  temperature?: number;
}

export interface ChatClientStats {
  /** HTTP requests sent (retries included). */
  calls: number;
  /** Attempts that failed: HTTP error, network error, timeout or invalid output. */
  failures: number;
}

export interface ChatClient {
  readonly model: string;
  /** The API host, for logs (never the key). */
  readonly host: string;
  /**
   * Attempts until `parse` accepts the content, a non-retryable error, or `maxRetries` retries.
   * `gate` bounds the requests in flight; default: the client's own (`maxConcurrency`).
   */
  call<T>(label: string, messages: ChatMessage[], parse: (content: string) => Parsed<T>, gate?: Gate, onUsage?: (tokens: number) => void): Promise<Parsed<T>>;
  stats(): ChatClientStats;
}

/** Runs a task when a slot is free. */
export type Gate = <T>(task: () => Promise<T>) => Promise<T>;

/** A tiny concurrency gate: tasks beyond `max` wait for a slot, in submission order. */
export function createGate(max: number): Gate {
  let active = 0;
  const queue: Array<() => void> = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (active >= max) await new Promise<void>((resolve) => queue.push(resolve));
    active++;
    try {
      return await task();
    } finally {
      active--;
      queue.shift()?.();
    }
  };
}

export function createChatClient(options: ChatClientOptions): ChatClient {
  const {
    apiKey,
    model,
    log,
    timeoutMs = 60_000,
    maxRetries = 2,
    retryBaseMs = 1000,
    retryMaxMs = 20_000,
    random = Math.random,
    temperature = 0.2,
  } = options;
  const fetchImpl: FetchLike = options.fetchImpl ?? ((url, init) => fetch(url, init));
  const endpoint = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  let host = '';
  try { host = new URL(options.baseUrl).host; } catch { host = '(invalid base url)'; }
  const clientGate = createGate(Math.max(1, options.maxConcurrency ?? 4));
  const counters: ChatClientStats = { calls: 0, failures: 0 };
  /** Never let the key into a message, whatever a server or runtime echoes. */
  const scrub = createScrubber(apiKey);

  /** One HTTP attempt: the message content, or an AttemptError. `onUsage` gets the tokens the API reports (`usage.total_tokens`). */
  async function requestOnce(messages: ChatMessage[], onUsage?: (tokens: number) => void): Promise<string> {
    const json = await requestJson(
      {
        url: endpoint,
        method: 'POST',
        headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
        body: { model, messages, temperature, response_format: { type: 'json_object' } },
        timeoutMs,
      },
      { fetchImpl, label: 'the model API', scrub },
    ) as { choices?: Array<{ message?: { content?: unknown } }>; usage?: { total_tokens?: unknown } } | null;
    const tokens = json?.usage?.total_tokens;
    if (onUsage && typeof tokens === 'number' && Number.isFinite(tokens)) onUsage(tokens);
    const content = json?.choices?.[0]?.message?.content;
    if (typeof content !== 'string' || !content.trim()) throw new AttemptError({ reason: 'model response has no choices[0].message.content', retryable: true });
    return content;
  }

  async function call<T>(label: string, messages: ChatMessage[], parse: (content: string) => Parsed<T>, gate: Gate = clientGate, onUsage?: (tokens: number) => void): Promise<Parsed<T>> {
    const outcome = await withRetries(
      async () => {
        counters.calls++;
        const content = await gate(() => requestOnce(messages, onUsage));
        const parsed = parse(content);
        if (!parsed.ok) throw new AttemptError({ reason: parsed.error, retryable: true });
        return parsed;
      },
      { maxRetries, retryBaseMs, retryMaxMs, random },
      {
        onRetry: ({ attempt, delayMs, failure }) => log.debug('model call retrying', { part: label, attempt, delayMs: Math.round(delayMs), reason: failure.reason, model, host }),
        onFailure: () => { counters.failures++; },
        describe: (err) => scrub(`unexpected error: ${(err as Error)?.message ?? String(err)}`),
      },
    );
    if (outcome.ok) return outcome.value;
    countMetric('VendorErrors', 1, { vendor: 'model' });
    return { ok: false, error: outcome.reason };
  }

  return { model, host, call, stats: () => ({ ...counters }) };
}
