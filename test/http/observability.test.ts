/**
 * Logs and metrics in-process (D172): the same calls print readable lines locally (text) and
 * Powertools JSON + EMF on Lambda (json); secrets are masked before either sees them. The
 * whole path on a real bundle and the layer is in test/infra/powertools-layer.test.ts.
 */
import { configureLogging, createLogger, readableLine, setLogSink } from '../../functions/logger';
import { countMetric, flushMetrics, setMetricMetadata } from '../../functions/metrics';
import { loadConfig } from '../../functions/config';
import { lambdaTask } from '../../functions/invocation';

let written: string[];
let previousSink: ReturnType<typeof setLogSink>;
beforeEach(() => {
  written = [];
  previousSink = setLogSink(null);
  jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => { written.push(String(chunk)); return true; });
  jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => { written.push(String(chunk)); return true; });
});
afterEach(() => {
  jest.restoreAllMocks();
  setLogSink(previousSink);
  configureLogging({ level: 'info', format: 'text' });
  flushMetrics();
});

test('text: one readable line per event, fields as key=value, secrets masked', () => {
  configureLogging({ level: 'info', format: 'text' });
  createLogger({ task: 'deploy', org: 'acme' }).warn('step failed', { api_key: 'k-123', note: 'Bearer abc.def.ghi', attempts: 2 });
  expect(written).toHaveLength(1);
  expect(written[0]).toMatch(/^\d\d:\d\d:\d\d WARN  step failed  task=deploy org=acme api_key=\[redacted\] note="Bearer \[redacted\]" attempts=2\n$/);
  expect(readableLine({ level: 'info', msg: 'done', fields: {} }, new Date('2026-11-26T10:11:12Z'))).toBe('10:11:12 INFO  done');
});

test('text: a metric prints at once as a readable line with its dimensions', () => {
  configureLogging({ level: 'info', format: 'text' });
  countMetric('VisibilityChecks', 3, { platform: 'chatgpt', outcome: 'checked' });
  expect(written.join('')).toMatch(/INFO  metric  component=metrics metric=VisibilityChecks value=3 platform=chatgpt outcome=checked\n$/);
});

test('json: Powertools lines; metrics wait for the end of the invocation, one EMF blob per dimension set', () => {
  configureLogging({ level: 'info', format: 'json' });
  setMetricMetadata({ business: 'acme', correlation_id: 'exec-1' });
  createLogger({ request_id: 'r1' }).info('request', { authorization: 'Bearer abc.def.ghi', status: 200 });
  countMetric('VisibilityChecks', 1, { platform: 'chatgpt', outcome: 'checked' });
  countMetric('VisibilityChecks', 1, { platform: 'chatgpt', outcome: 'checked' });
  countMetric('VisibilityChecks', 1, { platform: 'gemini', outcome: 'failed' });
  countMetric('ArticlesCreated', 12);
  countMetric('ArticlesCreated', 0); // nothing to count: no datapoint
  expect(written).toHaveLength(1);
  expect(JSON.parse(written[0])).toMatchObject({ level: 'INFO', message: 'request', service: 'ai-visibility', request_id: 'r1', authorization: '[redacted]', status: 200 });

  flushMetrics();
  const blobs = written.slice(1).map((line) => JSON.parse(line));
  expect(blobs).toHaveLength(3);
  const byDimensions = Object.fromEntries(blobs.map((b) => [JSON.stringify(b._aws.CloudWatchMetrics[0].Dimensions), b]));
  expect(byDimensions['[["service"]]']).toMatchObject({ ArticlesCreated: 12, business: 'acme', correlation_id: 'exec-1' });
  expect(byDimensions['[["service","platform","outcome"]]']).toBeDefined();
  const chatgpt = blobs.find((b) => b.platform === 'chatgpt');
  expect(chatgpt).toMatchObject({ outcome: 'checked', VisibilityChecks: 2, business: 'acme' });
  expect(chatgpt._aws.CloudWatchMetrics[0]).toMatchObject({ Namespace: 'AiVisibility', Metrics: [{ Name: 'VisibilityChecks', Unit: 'Count' }] });
  expect(blobs.find((b) => b.platform === 'gemini')).toMatchObject({ outcome: 'failed', VisibilityChecks: 1 });

  written.length = 0;
  flushMetrics(); // the next invocation starts empty
  expect(written).toEqual([]);
});

test('the level from the settings holds in both formats', () => {
  configureLogging({ level: 'warn', format: 'json' });
  createLogger().info('hidden');
  configureLogging({ level: 'warn', format: 'text' });
  createLogger().info('hidden');
  expect(written).toEqual([]);
});

test('LOG_LEVEL and LOG_FORMAT are validated settings; the format defaults to json on Lambda, text elsewhere (D172)', () => {
  expect(() => loadConfig({ LOG_FORMAT: 'xml' })).toThrow(/LOG_FORMAT/);
  expect(() => loadConfig({ LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL/);
  expect(loadConfig({ AWS_LAMBDA_FUNCTION_NAME: 'f' }).logFormat).toBe('json');
  expect(loadConfig({}).logFormat).toBe('text');
});

test('a task that throws still writes its metrics, with the execution as correlation id and the business (D172)', async () => {
  configureLogging({ level: 'info', format: 'json' });
  const task = lambdaTask(async (_event: { execution_id: string; org_slug: string }) => {
    countMetric('Deploys', 1);
    throw new Error('boom');
  });
  await expect(task({ execution_id: 'exec-9', org_slug: 'acme' })).rejects.toThrow('boom');
  const blobs = written.map((line) => JSON.parse(line)).filter((b) => b._aws?.CloudWatchMetrics);
  expect(blobs).toHaveLength(1);
  expect(blobs[0]).toMatchObject({ Deploys: 1, correlation_id: 'exec-9', business: 'acme' });
});
