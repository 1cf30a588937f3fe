/**
 * Structured logs, one line per event. Values under secret-looking keys are redacted and
 * bearer tokens / API keys inside strings are masked before any output sees them, so a log
 * line can never carry a credential even when a caller logs a whole header map by mistake.
 *
 * Two outputs for the same calls (LOG_FORMAT): `json` on Lambda, through Powertools for AWS
 * Lambda's Logger (service, cold start, function and request ids, X-Ray trace id, one JSON
 * object per line for CloudWatch Logs Insights); `text` locally, one readable line. Tests
 * capture the events as JSON lines through `setLogSink`.
 */
import { powertoolsLogger } from './powertools';

/** Each level's rank; the levels and their order (LOG_LEVELS) are its keys. */
const RANK = { debug: 10, info: 20, warn: 30, error: 40 } as const;
export type LogLevel = keyof typeof RANK;
export const LOG_LEVELS = Object.keys(RANK) as readonly LogLevel[];
export type LogFormat = 'json' | 'text';
export const LOG_FORMATS: readonly LogFormat[] = ['json', 'text'];

/** LOG_FORMAT's default: `json` on Lambda (its runtime sets AWS_LAMBDA_FUNCTION_NAME), `text` elsewhere. */
export const defaultLogFormat = (env: Record<string, string | undefined>): LogFormat => (env.AWS_LAMBDA_FUNCTION_NAME ? 'json' : 'text');

const SECRET_KEY = /authorization|api[-_]?key|token|secret|password|signature|cookie|credential/i;
const SECRET_VALUE = /(Bearer\s+)[A-Za-z0-9._~+/=-]+|(whsec_|sk_(?:live|test)_)[A-Za-z0-9+/=_]+/g;

export function redact(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return value.replace(SECRET_VALUE, (_m, bearer, prefix) => `${bearer ?? prefix}[redacted]`);
  if (depth > 6 || value === null || typeof value !== 'object') return value;
  if (value instanceof Error) return { name: value.name, message: redact(value.message), stack: value.stack && redact(value.stack) };
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = SECRET_KEY.test(k) ? '[redacted]' : redact(v, depth + 1);
  return out;
}

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
}

/** One event with its fields already redacted. */
interface LogEvent {
  level: LogLevel;
  msg: string;
  fields: Record<string, unknown>;
}

export type LogSink = (line: string) => void;
let sink: LogSink | null = null;
/** Tests capture events (as JSON lines) through this; null restores the configured output. */
export function setLogSink(next: LogSink | null): LogSink | null {
  const previous = sink;
  sink = next;
  return previous;
}

let threshold: number = RANK.info;
// Until the settings say otherwise.
let format: LogFormat = defaultLogFormat(process.env);

/** Set once by the composition root from the LOG_LEVEL and LOG_FORMAT settings. */
export function configureLogging(settings: { level: LogLevel; format: LogFormat }): void {
  threshold = RANK[settings.level] ?? RANK.info;
  format = settings.format;
  if (format === 'json') powertoolsLogger().setLogLevel(settings.level.toUpperCase() as Uppercase<LogLevel>);
}

export const logFormat = (): LogFormat => format;

export function createLogger(base: Record<string, unknown> = {}): Logger {
  const write = (level: LogLevel, msg: string, fields?: Record<string, unknown>) => {
    if (RANK[level] < threshold) return;
    emit({ level, msg: redact(msg) as string, fields: redact({ ...base, ...fields }) as Record<string, unknown> });
  };
  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    child: (fields) => createLogger({ ...base, ...fields }),
  };
}

/**
 * A line another thread of this process wrote (the local runtime's task workers, through
 * their sink) goes out here as if written here: the same output, the same test sink. It was
 * filtered and redacted where it was written.
 */
export function relayLogLine(line: string): void {
  const { time: _time, level, msg, ...fields } = JSON.parse(line) as { time: string; level: LogLevel; msg: string };
  emit({ level, msg, fields });
}

function emit(event: LogEvent): void {
  if (sink) sink(JSON.stringify({ time: new Date().toISOString(), level: event.level, msg: event.msg, ...event.fields }));
  else if (format === 'json') powertoolsLogger()[event.level](event.msg, event.fields);
  else process.stdout.write(readableLine(event) + '\n');
}

/** `12:03:04 WARN  step failed  task=deploy org=acme error={"name":"Error",...}` */
export function readableLine({ level, msg, fields }: LogEvent, at = new Date()): string {
  const pairs = Object.entries(fields)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${typeof v === 'string' && !/\s/.test(v) ? v : JSON.stringify(v)}`);
  return [at.toISOString().slice(11, 19), level.toUpperCase().padEnd(5), msg, ...(pairs.length ? [' ' + pairs.join(' ')] : [])].join(' ');
}
