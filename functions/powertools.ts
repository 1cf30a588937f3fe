/**
 * The Powertools for AWS Lambda (TypeScript) instances of a Lambda process: one Logger (it
 * carries the invocation's Lambda context: cold start, function name, request id) and the
 * metrics namespace. Loaded from a Lambda layer on AWS (lib/layers.ts), so they cost the
 * route bundles nothing; locally and in tests from node_modules.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { Context } from 'aws-lambda';

/** The `service` key of every log line and the default dimension of every metric. */
const SERVICE_NAME = 'ai-visibility';
/** One CloudWatch namespace for every business metric of the service. */
const METRICS_NAMESPACE = 'AiVisibility';

let logger: Logger | null = null;
export const powertoolsLogger = (): Logger => (logger ??= new Logger({ serviceName: SERVICE_NAME }));

/**
 * Starts the log lines of one invocation: the Lambda context (cold start, function, request
 * id) and the correlation id on every line, the previous invocation's keys dropped.
 */
export function startInvocationLogs(context: Context, correlationId: string | undefined): void {
  const root = powertoolsLogger();
  root.resetKeys();
  root.addContext(context);
  if (correlationId) root.setCorrelationId(correlationId);
}

/** Writes one EMF blob: the counts of one dimension set, the invocation's metadata beside them. */
export function publishEmf(dimensions: Record<string, string>, counts: Map<string, number>, metadata: Record<string, string>): void {
  const metrics = new Metrics({ namespace: METRICS_NAMESPACE, serviceName: SERVICE_NAME, defaultDimensions: dimensions });
  for (const [name, value] of counts) metrics.addMetric(name, MetricUnit.Count, value);
  for (const [key, value] of Object.entries(metadata)) metrics.addMetadata(key, value);
  metrics.publishStoredMetrics();
}
