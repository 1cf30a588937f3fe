/**
 * The one "vendor JSON request with retries" of the provider clients: the model chat client
 * (model/chat-client.ts) and the AI-platform clients (platforms/) both use it.
 *
 * - `requestJson`: one HTTP attempt to an operator-configured vendor URL (plain
 *   ProviderFetch, not the guarded client), classified: 429, 408, 5xx, network errors,
 *   timeouts, oversized and non-JSON bodies are retryable; 401/403 and other 4xx are not.
 * - `withRetries`: exponential backoff with "equal jitter", capped, Retry-After honoured
 *   (up to the cap); sleep and jitter are injectable so tests never wait.
 * - `createScrubber`: the key never reaches a reason or a log line, whatever a server or
 *   the runtime echoes (also in its URL-encoded form, for vendors that take it in the query).
 */
import type { ProviderFetch } from './provider-fetch';

/** Why one attempt failed, and whether another attempt may succeed. */
export interface AttemptFailure {
  reason: string;
  retryable: boolean;
  /** The server's Retry-After, ms. */
  retryAfterMs?: number;
  /** The HTTP status, when the server answered. */
  status?: number;
}

export class AttemptError extends Error {
  constructor(readonly failure: AttemptFailure) {
    super(failure.reason);
  }
}

export interface RetryPolicy {
  /** Retries after the first attempt. Default 2. */
  maxRetries?: number;
  /** First backoff delay; doubles per retry, with jitter. Default 1000. */
  retryBaseMs?: number;
  /** Cap of one backoff delay (also of a Retry-After). Default 20 000. */
  retryMaxMs?: number;
  /** Jitter source, [0, 1). Default Math.random. */
  random?: () => number;
  /** Default: a real timer. */
  sleep?: (ms: number) => Promise<void>;
}

export type RetryOutcome<T> =
  | { ok: true; value: T; attempts: number }
  /** `reason` is the last failure's, with "(after N attempts)" when it was retryable. */
  | { ok: false; failure: AttemptFailure; reason: string; attempts: number };

export const realSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export function parseRetryAfter(value: string | null): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : undefined;
}

/** Delay before retry number `retry` (1-based): equal jitter over an exponential step, at least Retry-After, capped. */
function backoffDelay(retry: number, retryAfterMs: number | undefined, policy: RetryPolicy = {}): number {
  const base = policy.retryBaseMs ?? 1000;
  const max = policy.retryMaxMs ?? 20_000;
  const random = policy.random ?? Math.random;
  const exp = Math.min(max, base * 2 ** (retry - 1));
  const jittered = exp / 2 + random() * (exp / 2);
  return Math.min(max, Math.max(jittered, retryAfterMs ?? 0));
}

/**
 * Runs `attempt` until it resolves, throws a non-retryable AttemptError, or `maxRetries`
 * retries are spent. Any other thrown error counts as a retryable failure (`describe`
 * turns it into a reason; default: its message).
 */
export async function withRetries<T>(
  attempt: (attemptNumber: number) => Promise<T>,
  policy: RetryPolicy = {},
  hooks: {
    onRetry?: (info: { attempt: number; delayMs: number; failure: AttemptFailure }) => void;
    onFailure?: (failure: AttemptFailure) => void;
    describe?: (err: unknown) => string;
  } = {},
): Promise<RetryOutcome<T>> {
  const maxRetries = Math.max(0, policy.maxRetries ?? 2);
  const sleep = policy.sleep ?? realSleep;
  let last: AttemptFailure = { reason: 'no attempt made', retryable: false };
  let attempts = 0;
  for (let n = 0; n <= maxRetries; n++) {
    if (n > 0) {
      const delayMs = backoffDelay(n, last.retryAfterMs, policy);
      hooks.onRetry?.({ attempt: n + 1, delayMs, failure: last });
      await sleep(delayMs);
    }
    attempts++;
    try {
      return { ok: true, value: await attempt(n + 1), attempts };
    } catch (err) {
      last = err instanceof AttemptError
        ? err.failure
        : { reason: hooks.describe ? hooks.describe(err) : `unexpected error: ${(err as Error)?.message ?? String(err)}`, retryable: true };
      hooks.onFailure?.(last);
      if (!last.retryable) break;
    }
  }
  const reason = last.retryable ? `${last.reason} (after ${attempts} attempt${attempts === 1 ? '' : 's'})` : last.reason;
  return { ok: false, failure: last, reason, attempts };
}

/** Masks every secret (and its URL-encoded form) in a text. Secrets shorter than 4 characters are ignored. */
export function createScrubber(...secrets: Array<string | undefined>): (text: string) => string {
  const needles = [...new Set(secrets.flatMap((s) => (s && s.length >= 4 ? [s, encodeURIComponent(s)] : [])))]
    .sort((a, b) => b.length - a.length);
  return (text) => needles.reduce((out, needle) => out.split(needle).join('[redacted]'), text);
}

/** A fetch failure as a reason: a timeout, or the network error's code. */
export function describeFetchError(err: unknown, timeoutMs: number): string {
  const e = err as Error & { cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return `timed out after ${timeoutMs} ms`;
  return `network error: ${e?.cause?.code ?? e?.cause?.message ?? e?.message ?? String(err)}`;
}

export interface JsonRequest {
  url: string;
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** Serialized as JSON. */
  body?: unknown;
  /** Per attempt, covering the whole response. */
  timeoutMs: number;
}

export interface JsonRequestContext {
  fetchImpl?: ProviderFetch;
  /** Who answered, for reasons: `HTTP 503 from <label>`. */
  label: string;
  scrub?: (text: string) => string;
  /** Default 4 MiB. */
  maxChars?: number;
}

const MAX_RESPONSE_CHARS = 4 * 1024 * 1024;

/**
 * One attempt with any body: the text of a 2xx answer, or an AttemptError classifying the
 * failure. For what is not JSON both ways: a multipart file upload, a JSONL results file.
 */
export interface RawRequest extends Omit<JsonRequest, 'body'> {
  /** Sent as it is (a multipart body is built by the caller, with its content-type header). */
  body?: string;
  /** Sent as `accept` (default application/json). */
  accept?: string;
}

export async function requestText(req: RawRequest, ctx: JsonRequestContext): Promise<{ status: number; text: string; headers: { get(name: string): string | null } }> {
  const fetchImpl: ProviderFetch = ctx.fetchImpl ?? ((url, init) => fetch(url, init));
  const scrub = ctx.scrub ?? ((t: string) => t);
  const headers: Record<string, string> = { accept: req.accept ?? 'application/json', ...req.headers };
  let status: number;
  let text: string;
  let answered: { get(name: string): string | null };
  try {
    const res = await fetchImpl(req.url, { method: req.method, headers, body: req.body, signal: AbortSignal.timeout(req.timeoutMs) });
    status = res.status;
    answered = res.headers;
    text = await res.text();
  } catch (err) {
    throw new AttemptError({ reason: scrub(describeFetchError(err, req.timeoutMs)), retryable: true });
  }
  if (status === 401 || status === 403) {
    throw new AttemptError({ reason: `HTTP ${status} from ${ctx.label} (credentials rejected; not retried)`, retryable: false, status });
  }
  if (status === 429 || status === 408 || status >= 500) {
    throw new AttemptError({ reason: `HTTP ${status} from ${ctx.label}`, retryable: true, retryAfterMs: parseRetryAfter(answered.get('retry-after')), status });
  }
  if (status < 200 || status >= 300) throw new AttemptError({ reason: `HTTP ${status} from ${ctx.label} (not retried)`, retryable: false, status });
  if (text.length > (ctx.maxChars ?? MAX_RESPONSE_CHARS)) throw new AttemptError({ reason: `response from ${ctx.label} is too large`, retryable: true, status });
  return { status, text, headers: answered };
}

/** One attempt: the parsed JSON body of a 2xx answer, or an AttemptError classifying the failure. */
export async function requestJson(req: JsonRequest, ctx: JsonRequestContext): Promise<unknown> {
  const { status, text } = await requestText({
    ...req,
    headers: { ...(req.body !== undefined ? { 'content-type': 'application/json' } : {}), ...req.headers },
    body: req.body === undefined ? undefined : JSON.stringify(req.body),
  }, ctx);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new AttemptError({ reason: `response from ${ctx.label} is not JSON`, retryable: true, status });
  }
}
