/**
 * Business metrics (D172): counts with a few low-cardinality dimensions, one namespace. On
 * Lambda (LOG_FORMAT=json) they are buffered per invocation and written as CloudWatch EMF
 * blobs when the invocation ends (`flushMetrics`, called by functions/invocation.ts), so a
 * day of checks costs a handful of log lines, not one per check; locally each count prints
 * as a readable line at once. The business is never a dimension (10,000 businesses would be
 * 10,000 custom metrics per name); it rides along as EMF metadata, searchable in Logs Insights.
 */
import { createLogger, logFormat } from './logger';
import { publishEmf } from './powertools';

const METRIC_DIMENSIONS = {
  /** Articles the gate let through and the day saved. */
  ArticlesCreated: [],
  /** Store pages fetched and turned into markdown (onboarding and daily change detection). */
  PagesScraped: [],
  /** AI-site releases made current. */
  Deploys: [],
  /** One visibility check on one AI platform; outcome: answered, failed, skipped. */
  VisibilityChecks: ['platform', 'outcome'],
  /** A vendor call that failed after its retries: vendor is the platform key, `judge`, `model` or `indexnow`. */
  VendorErrors: ['vendor'],
  /** AI-agent visits recorded, by the platform the agent belongs to. */
  AiVisits: ['platform'],
  /** Claims of a vendor's agent from outside its published addresses (D193): recorded apart, never counted. */
  AiVisitsUnverified: ['platform'],
  /** Crawlers no table or list names (issue 46): stored apart, never AI visits. */
  UnidentifiedBotVisits: [],
  /** Identity-provider webhook deliveries refused; reason: unsigned, bad-signature. */
  WebhookRejections: ['reason'],
} as const satisfies Record<string, readonly string[]>;

type MetricName = keyof typeof METRIC_DIMENSIONS;
type DimensionsOf<N extends MetricName> = { [K in (typeof METRIC_DIMENSIONS)[N][number]]: string };

const buffered = new Map<string, { dimensions: Record<string, string>; counts: Map<string, number> }>();
let metadata: Record<string, string> = {};
const log = createLogger({ component: 'metrics' });

/** Counts `value` for the metric; its dimensions are exactly those METRIC_DIMENSIONS names. */
export function countMetric<N extends MetricName>(name: N, value: number, ...dims: keyof DimensionsOf<N> extends never ? [] : [DimensionsOf<N>]): void {
  if (!(value > 0)) return;
  const dimensions: Record<string, string> = { ...(dims[0] ?? {}) };
  if (logFormat() !== 'json') {
    // No invocation metadata here: the local runtime serves many requests at once from one process.
    log.info('metric', { metric: name, value, ...dimensions });
    return;
  }
  const key = JSON.stringify(Object.entries(dimensions).sort());
  const set = buffered.get(key) ?? { dimensions, counts: new Map<string, number>() };
  set.counts.set(name, (set.counts.get(name) ?? 0) + value);
  buffered.set(key, set);
}

/** Metadata written beside this invocation's metrics (the business, the execution). */
export function setMetricMetadata(next: Record<string, string | undefined>): void {
  metadata = Object.fromEntries(Object.entries(next).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== ''));
}

/** Writes the invocation's buffered counts, one EMF blob per dimension set, and starts afresh. */
export function flushMetrics(): void {
  for (const { dimensions, counts } of buffered.values()) publishEmf(dimensions, counts, metadata);
  buffered.clear();
  metadata = {};
}
