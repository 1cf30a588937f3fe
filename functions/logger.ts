/**
 * Structured JSON logs, one line per event. Values under secret-looking keys are
 * redacted and bearer tokens / API keys inside strings are masked, so a log line can
 * never carry a credential even when a caller logs a whole header map by mistake.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const LEVELS: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

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

export type LogSink = (line: string) => void;
let sink: LogSink = (line) => process.stdout.write(line + '\n');
/** Tests capture log lines through this. */
export function setLogSink(next: LogSink): LogSink {
  const previous = sink;
  sink = next;
  return previous;
}

let threshold = LEVELS.info;
/** Set once by the composition root from the LOG_LEVEL setting. */
export function setLogLevel(level: LogLevel): void {
  threshold = LEVELS[level] ?? LEVELS.info;
}

export function createLogger(base: Record<string, unknown> = {}): Logger {
  const write = (lvl: LogLevel, msg: string, fields?: Record<string, unknown>) => {
    if (LEVELS[lvl] < threshold) return;
    const entry = redact({ time: new Date().toISOString(), level: lvl, msg, ...base, ...fields });
    sink(JSON.stringify(entry));
  };
  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    child: (fields) => createLogger({ ...base, ...fields }),
  };
}
