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
  call<T>(label: string, messages: ChatMessage[], parse: (content: string) => Parsed<T>, gate?: Gate): Promise<Parsed<T>>;
  stats(): ChatClientStats;
}

interface CallFailure {
  reason: string;
  retryable: boolean;
  retryAfterMs?: number;
}

class CallError extends Error {
  constructor(readonly failure: CallFailure) {
    super(failure.reason);
  }
}

const MAX_RESPONSE_CHARS = 4 * 1024 * 1024;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
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

export function parseRetryAfter(value: string | null): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : undefined;
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
  const scrub = (text: string) => (apiKey && apiKey.length >= 4 ? text.split(apiKey).join('[redacted]') : text);

  function backoff(retry: number, retryAfterMs?: number): number {
    const exp = Math.min(retryMaxMs, retryBaseMs * 2 ** (retry - 1));
    const jittered = exp / 2 + random() * (exp / 2); // "equal jitter"
    return Math.min(retryMaxMs, Math.max(jittered, retryAfterMs ?? 0));
  }

  /** One HTTP attempt: the message content, or a CallError. */
  async function requestOnce(messages: ChatMessage[]): Promise<string> {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (apiKey) headers.authorization = `Bearer ${apiKey}`;
    const body = JSON.stringify({ model, messages, temperature, response_format: { type: 'json_object' } });
    let status: number;
    let text: string;
    let retryAfter: string | null = null;
    try {
      const res = await fetchImpl(endpoint, { method: 'POST', headers, body, signal: AbortSignal.timeout(timeoutMs) });
      status = res.status;
      retryAfter = res.headers.get('retry-after');
      text = await res.text();
    } catch (err) {
      const e = err as Error;
      const timedOut = e?.name === 'TimeoutError' || e?.name === 'AbortError';
      const cause = (e as { cause?: { code?: string; message?: string } })?.cause;
      const detail = timedOut ? `timed out after ${timeoutMs} ms` : `network error: ${cause?.code ?? cause?.message ?? e?.message ?? String(err)}`;
      throw new CallError({ reason: scrub(detail), retryable: true });
    }
    if (status === 401 || status === 403) throw new CallError({ reason: `HTTP ${status} from the model API (credentials rejected; not retried)`, retryable: false });
    if (status === 429 || status === 408 || status >= 500) {
      throw new CallError({ reason: `HTTP ${status} from the model API`, retryable: true, retryAfterMs: parseRetryAfter(retryAfter) });
    }
    if (status < 200 || status >= 300) throw new CallError({ reason: `HTTP ${status} from the model API (not retried)`, retryable: false });
    if (text.length > MAX_RESPONSE_CHARS) throw new CallError({ reason: 'model response too large', retryable: true });
    let content: unknown;
    try {
      const json = JSON.parse(text) as { choices?: Array<{ message?: { content?: unknown } }> };
      content = json?.choices?.[0]?.message?.content;
    } catch {
      throw new CallError({ reason: 'model API response is not JSON', retryable: true });
    }
    if (typeof content !== 'string' || !content.trim()) throw new CallError({ reason: 'model response has no choices[0].message.content', retryable: true });
    return content;
  }

  async function call<T>(label: string, messages: ChatMessage[], parse: (content: string) => Parsed<T>, gate: Gate = clientGate): Promise<Parsed<T>> {
    let last: CallFailure = { reason: 'no attempt made', retryable: false };
    for (let attempt = 0; attempt <= maxRetries; attempt++) {
      if (attempt > 0) {
        const delay = backoff(attempt, last.retryAfterMs);
        log.debug('model call retrying', { part: label, attempt: attempt + 1, delayMs: Math.round(delay), reason: last.reason, model, host });
        await sleep(delay);
      }
      counters.calls++;
      try {
        const content = await gate(() => requestOnce(messages));
        const parsed = parse(content);
        if (parsed.ok) return parsed;
        counters.failures++;
        last = { reason: parsed.error, retryable: true };
      } catch (err) {
        counters.failures++;
        last = err instanceof CallError ? err.failure : { reason: scrub(`unexpected error: ${(err as Error)?.message ?? String(err)}`), retryable: true };
        if (!last.retryable) break;
      }
    }
    const tries = maxRetries + 1;
    return { ok: false, error: last.retryable ? `${last.reason} (after ${tries} attempt${tries === 1 ? '' : 's'})` : last.reason };
  }

  return { model, host, call, stats: () => ({ ...counters }) };
}
