/**
 * What every Lambda invocation does around its work, API route or task alike: on Lambda the
 * Powertools logger learns the invocation's context (cold start, function, request id), the
 * metrics learn which business and correlation id they belong to, and the buffered metrics
 * are written when the work ends, whether it succeeded or threw.
 */
import type { Context } from 'aws-lambda';
import { logFormat } from './logger';
import { flushMetrics, setMetricMetadata } from './metrics';
import { startInvocationLogs } from './powertools';

interface InvocationScope {
  /** The id that ties this invocation's lines together: the API request id or the workflow execution id. */
  correlationId?: string;
  /** The business the invocation works for, when it works for one. */
  business?: string;
}

/** Call first thing in an invocation (the endpoint middleware, `lambdaTask`). */
export function beginInvocation(context: Context | undefined, scope: InvocationScope): void {
  // Only a real Lambda context: the local runtime serves many requests at once from one process.
  if (logFormat() === 'json' && context?.awsRequestId) startInvocationLogs(context, scope.correlationId);
  setMetricMetadata({ correlation_id: scope.correlationId, business: scope.business });
}

/** Call when the invocation's work is over (success or failure). */
export function endInvocation(): void {
  flushMetrics();
}

/**
 * A Step Functions task Lambda: the state machine's input names the execution and, for
 * per-business steps, the business; both reach every log line and metric of the invocation.
 */
export function lambdaTask<E, R>(work: (event: E, context?: Context) => Promise<R>): (event: E, context?: Context) => Promise<R> {
  return async (event, context) => {
    const input = (event ?? {}) as { execution_id?: unknown; org_slug?: unknown };
    beginInvocation(context, {
      correlationId: typeof input.execution_id === 'string' ? input.execution_id : context?.awsRequestId,
      business: typeof input.org_slug === 'string' ? input.org_slug : undefined,
    });
    try {
      return await work(event, context);
    } finally {
      endInvocation();
    }
  };
}
