import { AppError } from '../core/errors';
import type { LogLevel } from '../logger';

export type ErrorShape = 'status' | 'detail';

/** The error body in a route's shape: `{status:'error', error}`, or `{detail}` (the ai-website operation); no shape is the first. */
export const errorBody = (shape: ErrorShape | undefined, message: string): { detail: string } | { status: 'error'; error: string } =>
  (shape === 'detail' ? { detail: message } : { status: 'error', error: message });

/** Maps an error to its HTTP answer by the error's stable class; anything unknown is a 500 that reveals nothing. */
export function errorResponse(error: unknown, shape: ErrorShape): {
  statusCode: number; body: unknown; headers: Record<string, string>; logLevel: LogLevel;
} {
  if (error instanceof AppError) {
    return { statusCode: error.status, body: errorBody(shape, error.message), headers: error.headers, logLevel: levelOf(error.status) };
  }
  return { statusCode: 500, body: errorBody(shape, 'internal error'), headers: {}, logLevel: 'error' };
}

/** Server faults are errors; refused credentials and rate limits are worth a warning; other 4xx are routine. */
function levelOf(status: number): LogLevel {
  if (status >= 500) return 'error';
  if (status === 401 || status === 403 || status === 429) return 'warn';
  return 'info';
}
