/**
 * Which server-side requests are visits, and whose address a request carries. Shared by the
 * local AI-site host, the local CDN proxy and the access-log ingest, so the three agree.
 *
 * A request counts when it is a successful GET of a document:
 * - method GET (HEAD probes and other methods are not reads of a page);
 * - status 2xx or 304 (redirects would count the target twice; errors are no visit);
 * - not the service's own plumbing: `/tracking.js`, `/robots.txt`, sitemaps,
 *   `/indexing-key.txt`, favicons (also under `/ai/`, which the AI host maps to the root);
 * - a document: by the response's Content-Type when known (HTML, plain text, markdown,
 *   JSON), else by the path (no extension, or .html/.htm/.txt/.md/.json). Scripts, styles,
 *   images and fonts fetched by a rendering crawler are sub-resources of the page visit.
 */
import { clientIdentity, parseClientAddress } from '../net/client-address';
import { classifyUserAgent } from '../site/ai-bots';

const PLUMBING = /^\/(?:tracking\.js|robots\.txt|indexing-key\.txt|favicon\.(?:ico|svg|png)|sitemap[\w.-]*\.xml)$/i;
const DOCUMENT_TYPE = /^(?:text\/(?:html|plain|markdown|x-markdown)|application\/(?:json|ld\+json|xhtml\+xml))\b/i;
const DOCUMENT_EXTENSION = /\.(?:html?|txt|md|json)$/i;
const ANY_EXTENSION = /\.[a-z0-9]{1,8}$/i;

export interface ServedRequest {
  method: string;
  /** The request path (query allowed; it is ignored). */
  path: string;
  status: number;
  /** The response's Content-Type, when known. */
  contentType?: string | null;
}

/**
 * Before a response exists: whether the request can become a visit at all (a GET from an
 * agent the classifier counts), so a host observes only those and leaves humans alone.
 */
export function mayBecomeVisit(method: string | undefined, userAgent: string | null | undefined, signatureAgent?: string | null): boolean {
  return (method ?? 'GET').toUpperCase() === 'GET' && classifyUserAgent(userAgent, { signatureAgent }).visitClass !== null;
}

export function isCountedRequest(request: ServedRequest): boolean {
  if (request.method.toUpperCase() !== 'GET') return false;
  if (!((request.status >= 200 && request.status < 300) || request.status === 304)) return false;
  const path = request.path.replace(/[?#].*$/s, '') || '/';
  const rooted = path.startsWith('/ai/') ? path.slice(3) : path;
  if (PLUMBING.test(path) || PLUMBING.test(rooted)) return false;
  const type = (request.contentType ?? '').trim();
  if (type && type !== '-') return DOCUMENT_TYPE.test(type);
  const last = path.slice(path.lastIndexOf('/') + 1);
  return !ANY_EXTENSION.test(last) || DOCUMENT_EXTENSION.test(last);
}

/**
 * The visitor's address: the peer, or, for a hop from a proxy in front (the customer's CDN
 * distribution in front of the AI-site host), the address the proxy appended last to
 * X-Forwarded-For. `trustForwarded` is set only where such a hop is expected; elsewhere a
 * client-supplied X-Forwarded-For is ignored.
 */
export function visitorAddress(peer: string | null | undefined, forwardedFor: string | null | undefined, trustForwarded: boolean): string {
  if (trustForwarded && forwardedFor && forwardedFor.trim() && forwardedFor.trim() !== '-') {
    const entries = forwardedFor.split(',').map((e) => e.trim()).filter(Boolean);
    const address = parseClientAddress(entries[entries.length - 1]);
    if (address) return address;
  }
  return clientIdentity(peer);
}
