import { AppError } from '../core/errors';
import type { LogLevel } from '../logger';

export type ErrorShape = 'status' | 'detail';

/** Maps an error to its HTTP answer by the error's stable class; anything unknown is a 500 that reveals nothing. */
export function errorResponse(error: unknown, shape: ErrorShape): {
  statusCode: number; body: unknown; headers: Record<string, string>; logLevel: LogLevel;
} {
  if (error instanceof AppError) {
    const body = shape === 'detail' ? { detail: error.message } : { status: 'error', error: error.message };
    return { statusCode: error.status, body, headers: error.headers, logLevel: levelOf(error.status) };
  }
  const body = shape === 'detail' ? { detail: 'internal error' } : { status: 'error', error: 'internal error' };
  return { statusCode: 500, body, headers: {}, logLevel: 'error' };
}

/** Server faults are errors; refused credentials and rate limits are worth a warning; other 4xx are routine. */
function levelOf(status: number): LogLevel {
  if (status >= 500) return 'error';
  if (status === 401 || status === 403 || status === 429) return 'warn';
  return 'info';
}
