/** Builds CloudFront standard log lines (legacy standard logging, 33 fields) for tests. */
import { gzipSync } from 'node:zlib';
import { STANDARD_LOG_FIELDS } from '../../functions/core/visits/access-log';

export interface LogLineInput {
  time: string;
  clientIp: string;
  /** The Host the viewer sent (x-host-header). */
  host: string;
  path: string;
  userAgent: string;
  status?: number;
  method?: string;
  contentType?: string;
  referrer?: string;
  forwardedFor?: string;
  distributionHost?: string;
}

/** CloudFront's encoding of a header value in the log: spaces and other specials percent-encoded. */
const enc = (v: string | undefined) => (v ? encodeURI(v).replace(/%5B/g, '[').replace(/%5D/g, ']') : '-');

export function cloudFrontLogLine(input: LogLineInput): string {
  const at = new Date(input.time).toISOString();
  const values: Record<string, string> = {
    date: at.slice(0, 10),
    time: at.slice(11, 19),
    'x-edge-location': 'FRA56-P1',
    'sc-bytes': '5120',
    'c-ip': input.clientIp,
    'cs-method': input.method ?? 'GET',
    'cs(Host)': input.distributionHost ?? 'd111111abcdef8.cloudfront.net',
    'cs-uri-stem': input.path,
    'sc-status': String(input.status ?? 200),
    'cs(Referer)': enc(input.referrer),
    'cs(User-Agent)': enc(input.userAgent),
    'cs-uri-query': '-',
    'cs(Cookie)': '-',
    'x-edge-result-type': 'Miss',
    'x-edge-request-id': 'SOX4xwn4XV6Q4rgb7XiVGOHms_BGlTAC4KyHmureZmBNrjGdRLiNIQ==',
    'x-host-header': input.host,
    'cs-protocol': 'https',
    'cs-bytes': '230',
    'time-taken': '0.041',
    'x-forwarded-for': input.forwardedFor ?? '-',
    'ssl-protocol': 'TLSv1.3',
    'ssl-cipher': 'TLS_AES_128_GCM_SHA256',
    'x-edge-response-result-type': 'Miss',
    'cs-protocol-version': 'HTTP/2.0',
    'fle-status': '-',
    'fle-encrypted-fields': '-',
    'c-port': '51234',
    'time-to-first-byte': '0.040',
    'x-edge-detailed-result-type': 'Miss',
    'sc-content-type': input.contentType ?? 'text/html; charset=utf-8',
    'sc-content-len': '5000',
    'sc-range-start': '-',
    'sc-range-end': '-',
  };
  return STANDARD_LOG_FIELDS.map((f) => values[f]).join('\t');
}

export function cloudFrontLogFile(lines: string[]): string {
  return `#Version: 1.0\n#Fields: ${STANDARD_LOG_FIELDS.join(' ')}\n${lines.join('\n')}\n`;
}

export const gzipLogFile = (lines: string[]): Buffer => gzipSync(Buffer.from(cloudFrontLogFile(lines)));
