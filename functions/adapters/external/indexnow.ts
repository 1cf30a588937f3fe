/**
 * IndexNow client: one submission (core/indexnow/submission.ts builds them) per POST.
 *
 *   POST {INDEXNOW_ENDPOINT, default https://api.indexnow.org/indexnow}
 *   Content-Type: application/json; charset=utf-8
 *   {"host":"www.example.com","key":"<key>","keyLocation":"https://www.example.com/<key>.txt","urlList":[...]}
 *
 * Outcomes (indexnow.org/documentation; ../shared/reference/web-protocols.md §1):
 * - 200 (received) and 202 (received, key validation pending) are success; 202 is not retried;
 * - 400 bad request, 403 key not valid (the key file at keyLocation is missing or is not exactly
 *   the key), 422 URLs not on the host / bad keyLocation / key not fitting the schema, and any
 *   other 4xx: not retried (sending the same request again cannot succeed);
 * - 429 (too many requests) and 5xx, timeouts and network errors: retried with exponential
 *   backoff and jitter, Retry-After honoured up to the cap (vendor-request.ts `withRetries`).
 * HTTP and network outcomes are results (`{ok: false, status, reason}`), never thrown.
 *
 * The endpoint is operator configuration (a local fake in tests), so it is fetched with the
 * plain provider fetch, not the guarded client. The key is public by design (the key file
 * serves it), but logs carry only the host, the URL count and the outcome: neither the key
 * nor the URL list nor a full response body.
 */
import { INDEXNOW_MAX_URLS_PER_SUBMISSION, type IndexNowSubmission } from '../../core/indexnow/submission';
import type { Logger } from '../../logger';
import type { ProviderFetch } from './provider-fetch';
import { AttemptError, describeFetchError, parseRetryAfter, withRetries, type RetryPolicy } from './vendor-request';

/** The shared endpoint: participating engines share what it receives. */
export const DEFAULT_INDEXNOW_ENDPOINT = 'https://api.indexnow.org/indexnow';

export type IndexNowResult =
  | { ok: true; status: number; attempts: number; urlCount: number }
  /** `status` is the last HTTP status, undefined when no answer came (network error, timeout) or nothing was sent. */
  | { ok: false; status?: number; reason: string; attempts: number; urlCount: number };

export interface IndexNowClient {
  /** The endpoint submissions go to. */
  readonly endpoint: string;
  submit(submission: IndexNowSubmission): Promise<IndexNowResult>;
}

export interface IndexNowClientOptions {
  /** INDEXNOW_ENDPOINT; unset or empty: the public endpoint. */
  endpoint?: string;
  fetchImpl?: ProviderFetch;
  log: Logger;
  /** Per attempt. Default 15 000. */
  timeoutMs?: number;
  /** Default: 3 retries, 2 s base, 30 s cap (IndexNow asks for exponential back-off on 429). */
  retry?: RetryPolicy;
}

/** What each refusal means, for the reason. */
const STATUS_MEANING: Record<number, string> = {
  400: 'bad request: the submission is not in the IndexNow format',
  403: 'key not valid: the key file at keyLocation was not found or does not contain exactly the key',
  405: 'method not allowed',
  413: 'request too large',
  422: "unprocessable: URLs don't belong to the host, or the key / keyLocation does not match",
  429: 'too many requests',
};

const MAX_SNIPPET = 200;

export function createIndexNowClient(options: IndexNowClientOptions): IndexNowClient {
  const endpoint = options.endpoint?.trim() || DEFAULT_INDEXNOW_ENDPOINT;
  const fetchImpl: ProviderFetch = options.fetchImpl ?? ((url, init) => fetch(url, init));
  const timeoutMs = options.timeoutMs ?? 15_000;
  const retry: RetryPolicy = { maxRetries: 3, retryBaseMs: 2_000, retryMaxMs: 30_000, ...options.retry };
  let label = endpoint;
  try {
    label = new URL(endpoint).host;
  } catch {
    // refused on submit
  }

  return {
    endpoint,
    async submit(submission) {
      const urlCount = Array.isArray(submission?.urlList) ? submission.urlList.length : 0;
      const log = options.log.child({ indexnow_endpoint: label, host: submission?.host, urls: urlCount });
      const invalid = invalidSubmission(submission);
      if (invalid) {
        log.warn('IndexNow submission not sent', { reason: invalid });
        return { ok: false, reason: invalid, attempts: 0, urlCount };
      }
      try {
        const parsed = new URL(endpoint);
        if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new Error('not http(s)');
      } catch {
        const reason = `INDEXNOW_ENDPOINT is not a valid http(s) URL: ${JSON.stringify(endpoint)}`;
        log.warn('IndexNow submission not sent', { reason });
        return { ok: false, reason, attempts: 0, urlCount };
      }
      const body = JSON.stringify({ host: submission.host, key: submission.key, keyLocation: submission.keyLocation, urlList: submission.urlList });

      const outcome = await withRetries(
        async () => {
          let status: number;
          let text = '';
          let retryAfter: string | null = null;
          try {
            const res = await fetchImpl(endpoint, {
              method: 'POST',
              headers: { 'content-type': 'application/json; charset=utf-8', accept: '*/*' },
              body,
              signal: AbortSignal.timeout(timeoutMs),
            });
            status = res.status;
            retryAfter = res.headers.get('retry-after');
            text = await res.text().catch(() => '');
          } catch (err) {
            throw new AttemptError({ reason: `IndexNow (${label}): ${describeFetchError(err, timeoutMs)}`, retryable: true });
          }
          if (status === 200 || status === 202) return status;
          const meaning = STATUS_MEANING[status] ?? (status >= 500 ? 'server error' : 'refused');
          const detail = snippet(text, submission.key);
          const reason = `IndexNow (${label}) answered HTTP ${status}: ${meaning}${detail ? ` (${detail})` : ''}`;
          const retryable = status === 429 || status >= 500;
          throw new AttemptError({ reason, retryable, status, retryAfterMs: retryable ? parseRetryAfter(retryAfter) : undefined });
        },
        retry,
        {
          onRetry: ({ attempt, delayMs, failure }) => log.info('IndexNow submission retried', { attempt, delay_ms: Math.round(delayMs), status: failure.status, reason: failure.reason }),
        },
      );

      if (outcome.ok) {
        log.info('IndexNow submission accepted', { status: outcome.value, attempts: outcome.attempts });
        return { ok: true, status: outcome.value, attempts: outcome.attempts, urlCount };
      }
      log.warn('IndexNow submission failed', { status: outcome.failure.status, attempts: outcome.attempts, reason: outcome.reason });
      return { ok: false, status: outcome.failure.status, reason: outcome.reason, attempts: outcome.attempts, urlCount };
    },
  };
}

/** Why a submission cannot be sent as it is (the shape only; the protocol rules are core's), or undefined. */
function invalidSubmission(submission: IndexNowSubmission): string | undefined {
  if (!submission || typeof submission !== 'object') return 'no submission';
  if (typeof submission.host !== 'string' || !submission.host) return 'the submission has no host';
  if (typeof submission.key !== 'string' || !submission.key) return 'the submission has no key';
  if (typeof submission.keyLocation !== 'string' || !submission.keyLocation) return 'the submission has no keyLocation';
  if (!Array.isArray(submission.urlList) || submission.urlList.length === 0) return 'the submission has no URLs';
  if (submission.urlList.length > INDEXNOW_MAX_URLS_PER_SUBMISSION) {
    return `the submission has ${submission.urlList.length} URLs; IndexNow takes at most ${INDEXNOW_MAX_URLS_PER_SUBMISSION} per request`;
  }
  return undefined;
}

/** The start of a response body, on one line, for a reason (engines' bodies are usually empty or a short message). */
function snippet(text: string, key: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (!line) return '';
  const cut = line.length > MAX_SNIPPET ? `${line.slice(0, MAX_SNIPPET)}…` : line;
  return key ? cut.split(key).join('[key]') : cut;
}
