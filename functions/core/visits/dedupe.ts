/**
 * The dedupe rule: one crawler visit seen by several paths (the JS beacon, the AI-site host,
 * the CDN proxy, the access logs of both CloudFront distributions) is counted once.
 *
 * Key = sha256(organization, normalized path, User-Agent family, visitor address), and the
 * visit is stored under (UTC 5-minute bucket of the request time, key) with a conditional
 * put, so whichever path writes first wins and the others find it:
 * - organization, not host: the AI-site host, the distribution domain and the connected
 *   custom domain of one business all name the same site (a request through the proxy is
 *   also a request to the AI-site host: both hops converge);
 * - normalized path: no query or fragment, percent-encoding canonical, so the beacon's
 *   `location.href` and the log's `cs-uri-stem` agree;
 * - User-Agent family: the classifier's token (`gptbot`), so version drift between the HTTP
 *   header and `navigator.userAgent` does not matter; a generic bot's family is its
 *   User-Agent without digits;
 * - visitor address: the bot's address (through a proxy hop, the address the proxy appended
 *   to X-Forwarded-For);
 * - request time, not arrival time: the access logs carry when the request happened, so a
 *   log delivered an hour (or a day) late still lands in the bucket the beacon used.
 * Boundaries: a visit is also a duplicate when its key exists in the neighbouring bucket on
 * its nearer side, so two sightings less than half a bucket (2.5 min) apart always meet,
 * even across a boundary. The same bot fetching the same path from the same address again
 * within the window counts once.
 */
import { createHash } from 'node:crypto';
import type { UserAgentClass } from '../site/ai-bots';

export const VISIT_BUCKET_SECONDS = 300;

export interface VisitBuckets {
  /** Start of the request's bucket, `YYYY-MM-DDTHH:MM:SSZ`. */
  bucket: string;
  /** The neighbouring bucket on the nearer side of the request time. */
  neighbour: string;
}

const isoSeconds = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

export function visitBuckets(at: Date): VisitBuckets {
  const size = VISIT_BUCKET_SECONDS * 1000;
  const ms = at.getTime();
  const start = Math.floor(ms / size) * size;
  const neighbour = ms - start < size / 2 ? start - size : start + size;
  return { bucket: isoSeconds(start), neighbour: isoSeconds(neighbour) };
}

/** `/a%2fb/?q#f`, `https://x/a b` → a canonical path: decoded where safe, re-encoded one way, no query or fragment. */
export function normalizeVisitPath(pathOrUrl: string): string {
  let path = pathOrUrl.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path)) {
    try {
      path = new URL(path).pathname;
    } catch {
      path = path.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '');
    }
  }
  path = path.replace(/[?#].*$/s, '');
  if (!path.startsWith('/')) path = `/${path}`;
  const segments = path.split('/').map((segment) => {
    let decoded = segment;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      // keep a malformed escape as it came
    }
    // `/` inside a segment stays encoded, so /a%2Fb and /a/b remain different paths.
    return encodeURIComponent(decoded).replace(/%(?:2[46-9A-C]|3[ABD]|40)/gi, (m) => decodeURIComponent(m));
  });
  return segments.join('/').slice(0, 1024);
}

/**
 * The family the dedupe key uses: the classifier's token, or, for an agent only known as
 * automated (its token says what kind, not which agent), its User-Agent without version numbers.
 */
export function userAgentFamily(userAgent: string, verdict: Pick<UserAgentClass, 'token' | 'kind'>): string {
  if (verdict.token && verdict.kind !== 'automated') return verdict.token.toLowerCase();
  return `generic:${userAgent.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ').trim().slice(0, 256)}`;
}

export interface DedupeParts {
  orgSlug: string;
  path: string;
  family: string;
  /** The canonical visitor address (clientIdentity). */
  address: string;
}

export function visitDedupeKey(parts: DedupeParts): string {
  return createHash('sha256')
    .update([parts.orgSlug, parts.path, parts.family, parts.address].join('\n'))
    .digest('hex')
    .slice(0, 32);
}

/** The stored visit's id: its key within its bucket. */
export function visitId(key: string, bucket: string): string {
  return createHash('sha256').update(`${bucket}\n${key}`).digest('hex').slice(0, 32);
}
