/**
 * CloudFront standard log files (legacy standard logging, delivered to S3): W3C extended
 * format, tab-separated, gzip, one file per distribution and period
 * (`<prefix><distribution-id>.YYYY-MM-DD-HH.<unique-id>.gz`). Lines starting with `#` are
 * directives; `#Fields:` names the columns in order (33 fields today, fewer in old files),
 * so columns are read by name, never by position. `-` is an empty value. Times are UTC.
 *
 * Values are URL-encoded by CloudFront (a space in a User-Agent is `%20`), and some
 * characters are encoded twice; like AWS's own Athena examples (`url_decode(url_decode(…))`)
 * the User-Agent is decoded until no escape is left (at most twice). `cs-uri-stem` is kept
 * as logged: the dedupe key normalizes paths. The host the viewer asked for is
 * `x-host-header` (the customer's domain or the AI-site host); `cs(Host)` is always the
 * distribution's own `*.cloudfront.net` name and is only the fallback.
 */

/** The legacy standard log's columns, used when a file has no `#Fields:` directive. */
export const STANDARD_LOG_FIELDS = [
  'date', 'time', 'x-edge-location', 'sc-bytes', 'c-ip', 'cs-method', 'cs(Host)', 'cs-uri-stem', 'sc-status',
  'cs(Referer)', 'cs(User-Agent)', 'cs-uri-query', 'cs(Cookie)', 'x-edge-result-type', 'x-edge-request-id',
  'x-host-header', 'cs-protocol', 'cs-bytes', 'time-taken', 'x-forwarded-for', 'ssl-protocol', 'ssl-cipher',
  'x-edge-response-result-type', 'cs-protocol-version', 'fle-status', 'fle-encrypted-fields', 'c-port',
  'time-to-first-byte', 'x-edge-detailed-result-type', 'sc-content-type', 'sc-content-len', 'sc-range-start',
  'sc-range-end',
] as const;

const REQUIRED = ['date', 'time', 'c-ip', 'cs-method', 'cs-uri-stem', 'sc-status', 'cs(User-Agent)'] as const;

export interface AccessLogEntry {
  /** When CloudFront finished the request (UTC, second precision). */
  time: Date;
  /** The Host the viewer sent (lower case, no port), or the distribution domain when not logged. */
  host: string;
  /** The distribution's own domain (`cs(Host)`). */
  distributionHost: string | null;
  method: string;
  /** `cs-uri-stem`, as logged. */
  path: string;
  query: string | null;
  status: number;
  userAgent: string;
  clientIp: string;
  forwardedFor: string | null;
  referrer: string | null;
  contentType: string | null;
  /** `http`, `https`, `ws` or `wss`. */
  protocol: string;
}

/** Decodes percent-escapes; a value with a malformed escape is kept as it is. */
function decodeOnce(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

const ESCAPE = /%[0-9a-f]{2}/i;

export function decodeLogValue(value: string, maxRounds = 2): string {
  let out = value;
  for (let i = 0; i < maxRounds && ESCAPE.test(out); i++) out = decodeOnce(out);
  return out;
}

const valueOf = (raw: string | undefined): string | null => (raw === undefined || raw === '-' || raw === '' ? null : raw);

export interface AccessLogParser {
  /** One line of the file: an entry, or null for a directive, a blank line or a line that is not a request. */
  line(text: string): AccessLogEntry | null;
  /** Lines that had the wrong number of columns or unreadable required values. */
  readonly skipped: number;
}

export function createAccessLogParser(): AccessLogParser {
  let fields: readonly string[] = STANDARD_LOG_FIELDS;
  let index = new Map(fields.map((f, i) => [f, i]));
  let skipped = 0;
  return {
    get skipped() {
      return skipped;
    },
    line(text) {
      const line = text.replace(/\r$/, '');
      if (!line.trim()) return null;
      if (line.startsWith('#')) {
        const m = /^#Fields:\s*(.+)$/i.exec(line);
        if (m) {
          fields = m[1].trim().split(/\s+/);
          index = new Map(fields.map((f, i) => [f, i]));
        }
        return null;
      }
      const cols = line.split('\t');
      if (cols.length !== fields.length || REQUIRED.some((f) => !index.has(f))) {
        skipped++;
        return null;
      }
      const get = (name: string) => {
        const i = index.get(name);
        return i === undefined ? null : valueOf(cols[i]);
      };
      const time = new Date(`${get('date')}T${get('time')}Z`);
      const status = Number(get('sc-status'));
      const method = get('cs-method');
      const path = get('cs-uri-stem');
      const clientIp = get('c-ip');
      if (Number.isNaN(time.getTime()) || !Number.isInteger(status) || !method || !path || !clientIp) {
        skipped++;
        return null;
      }
      const distributionHost = get('cs(Host)')?.toLowerCase() ?? null;
      const host = (get('x-host-header') ?? distributionHost ?? '').toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
      const userAgent = get('cs(User-Agent)');
      const referrer = get('cs(Referer)');
      const forwardedFor = get('x-forwarded-for');
      return {
        time,
        host,
        distributionHost,
        method: method.toUpperCase(),
        path,
        query: get('cs-uri-query'),
        status,
        userAgent: userAgent ? decodeLogValue(userAgent) : '',
        clientIp,
        forwardedFor: forwardedFor ? decodeLogValue(forwardedFor, 1) : null,
        referrer: referrer ? decodeLogValue(referrer, 1) : null,
        contentType: get('sc-content-type'),
        protocol: (get('cs-protocol') ?? 'https').toLowerCase(),
      };
    },
  };
}

/** Every entry of a whole file's text (tests, small files); the ingest streams lines instead. */
export function parseAccessLog(text: string): { entries: AccessLogEntry[]; skipped: number } {
  const parser = createAccessLogParser();
  const entries: AccessLogEntry[] = [];
  for (const line of text.split('\n')) {
    const entry = parser.line(line);
    if (entry) entries.push(entry);
  }
  return { entries, skipped: parser.skipped };
}
