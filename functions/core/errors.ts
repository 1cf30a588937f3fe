/**
 * Domain errors with stable names. The `name` is the contract: the HTTP error mapping
 * (functions/http/error-response.ts) and the state machines' Retry/Catch `ErrorEquals`
 * both match on it, so never rename one without updating both.
 */
export abstract class AppError extends Error {
  abstract readonly status: number;
  /** Extra response headers (e.g. Retry-After). */
  headers: Record<string, string> = {};
  constructor(message: string) {
    super(message);
  }
}

/** Input that fails validation: names the offending field in the message. */
export class ValidationError extends AppError {
  override readonly name = 'ValidationError';
  readonly status = 400;
}

/** Missing, malformed, expired or wrongly signed credentials. */
export class UnauthorizedError extends AppError {
  override readonly name = 'UnauthorizedError';
  readonly status = 401;
}

/** Authenticated, but not allowed: another organization, or a wrong key. */
export class ForbiddenError extends AppError {
  override readonly name = 'ForbiddenError';
  readonly status = 403;
}

export class NotFoundError extends AppError {
  override readonly name = 'NotFoundError';
  readonly status = 404;
}

/** Already exists, a limit is reached, or an operation is already running. */
export class ConflictError extends AppError {
  override readonly name = 'ConflictError';
  readonly status = 409;
}

export class RateLimitedError extends AppError {
  override readonly name = 'RateLimitedError';
  readonly status = 429;
  constructor(message: string, readonly retryAfterSeconds: number) {
    super(message);
    this.headers['Retry-After'] = String(retryAfterSeconds);
  }
}


/** An outside service the operation needs has no configuration here. */
export class ProviderNotConfiguredError extends AppError {
  override readonly name = 'ProviderNotConfiguredError';
  readonly status = 503;
}

/** An outside service failed or could not be reached. */
export class UpstreamError extends AppError {
  override readonly name = 'UpstreamError';
  readonly status = 502;
}

/** A URL that the guarded client refuses to fetch (private address, bad scheme, ...). */
export class BlockedUrlError extends AppError {
  override readonly name = 'BlockedUrlError';
  readonly status = 400;
}

/**
 * A workflow step whose inputs are still being produced by another step; the state
 * machine retries it later (ASL `Retry` on `InputsNotReady`).
 */
export class InputsNotReadyError extends AppError {
  override readonly name = 'InputsNotReady';
  readonly status = 409;
}

/**
 * A copy of a workflow step delivered while another invocation holds the step (D234, D237):
 * it did no work; the state machine asks again (ASL `Retry` on `StepClaimed`) until the
 * holder's outcome is recorded or its claim is gone.
 */
export class StepClaimedError extends AppError {
  override readonly name = 'StepClaimed';
  readonly status = 409;
}
