/**
 * The search adapter's failures, typed: callers branch on `kind` (and `httpStatus`,
 * `retryAfterSeconds`), never on the message. The message is for people and stays as it
 * is (`search API (host) rate limit or quota reached (HTTP 429); retry after 7 s`).
 *
 * A SearchError is an UpstreamError (name `UpstreamError`, HTTP 502 through
 * http/error-response.ts), so code that only knows "an outside service failed" is unchanged.
 */
import { UpstreamError } from '../../../core/errors';

export type SearchErrorKind =
  /** SEARCH_API_URL is not a valid URL: nothing was sent. */
  | 'unconfigured'
  /** 401/403: the key was rejected (or is missing). */
  | 'unauthorized'
  /** 429: rate limit or quota; `retryAfterSeconds` when the server said. */
  | 'rate_limited'
  /** Another 4xx (408 excepted): the request itself was refused. */
  | 'refused'
  /** No answer in time: our timeout, or the server's 408. */
  | 'timeout'
  /** Network failure: no answer at all. */
  | 'unreachable'
  /** 5xx. */
  | 'failed'
  /** A 2xx answer that is not JSON or not in the expected shape. */
  | 'malformed';

export interface SearchErrorDetails {
  /** The search API's HTTP status when it answered with an error status (not this error's own `status`, 502). */
  httpStatus?: number;
  /** The server's Retry-After in whole seconds, when it sent one (429). */
  retryAfterSeconds?: number;
}

export class SearchError extends UpstreamError {
  readonly httpStatus: number | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(readonly kind: SearchErrorKind, message: string, details: SearchErrorDetails = {}) {
    super(message);
    this.httpStatus = details.httpStatus;
    this.retryAfterSeconds = details.retryAfterSeconds;
  }
}
