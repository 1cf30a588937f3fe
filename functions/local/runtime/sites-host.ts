/**
 * The local AI-site host (S3 + CloudFront on AWS): the Host header `{slug}.{AI_SITE_DOMAIN}`
 * picks the site, and the site's current release under DATA_DIR is served.
 *
 * Like the AI-site distribution's access logs on AWS, every answered request is offered to
 * the server-side visit recorder (app/visits/record.ts) once the response has finished: AI-crawler
 * page requests are stored as visits (`source: server`) in the background, everything else is
 * dropped without I/O, and a recording failure never touches the response.
 */
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join, normalize, sep } from 'node:path';
import { contentTypeOf } from '../../core/site/content-types';
import { mayBecomeVisit } from '../../core/visits/requests';
import { recordServedRequest, type ServedRequestSeen } from '../../app/visits/record';
import { getContainer } from '../../container';
import type { RunningServer } from './api-server';
import { closeServer } from './close-server';
import { listen } from './listen';


export interface SitesHostOptions {
  sitesDir: string;
  aiSiteDomain: string;
  port?: number;
  /** Server-side visit recording (default: the installed container's visit store); false: off. */
  recordVisit?: VisitRecorder | false;
}

export type VisitRecorder = (seen: ServedRequestSeen) => void;

/** Records into the container the process has installed (none installed: nothing is recorded). */
export const recordIntoContainer: VisitRecorder = (seen) => recordServedRequest(getContainer, seen);

const headerOf = (value: string | string[] | undefined): string | null => (Array.isArray(value) ? value.join(', ') : value ?? null);

/** The Content-Type among writeHead's optional arguments (a header object or a flat [name, value, ...] list). */
function contentTypeIn(args: unknown[]): string | null {
  for (const arg of args) {
    if (Array.isArray(arg)) {
      for (let i = 0; i + 1 < arg.length; i += 2) if (String(arg[i]).toLowerCase() === 'content-type') return String(arg[i + 1]);
    } else if (arg && typeof arg === 'object') {
      for (const [name, value] of Object.entries(arg)) if (name.toLowerCase() === 'content-type') return headerOf(value as string | string[]);
    }
  }
  return null;
}

/**
 * Offers a request to the visit recorder once its response has finished (what an access log
 * line is on AWS). Only requests that can become a visit are observed (a GET from a counted
 * agent): a human's or a POST is served untouched. Never throws and never delays the response.
 */
export function recordWhenFinished(req: IncomingMessage, res: ServerResponse, recorder: VisitRecorder | false | undefined): void {
  if (recorder === false) return;
  if (!mayBecomeVisit(req.method, headerOf(req.headers['user-agent']), headerOf(req.headers['signature-agent']))) return;
  const record = recorder ?? recordIntoContainer;
  const at = new Date();
  // Headers given to writeHead are not readable back through getHeader: note the Content-Type on the way.
  let writtenType: string | null = null;
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    try {
      writtenType = contentTypeIn(args.slice(1)) ?? writtenType;
    } catch {
      // only an observation
    }
    return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as ServerResponse['writeHead'];
  res.once('finish', () => {
    try {
      record({
        host: req.headers.host ?? '',
        path: req.url ?? '/',
        method: req.method ?? 'GET',
        status: res.statusCode,
        contentType: writtenType ?? headerOf(res.getHeader('content-type') as string | string[] | undefined),
        userAgent: headerOf(req.headers['user-agent']),
        signatureAgent: headerOf(req.headers['signature-agent']),
        peer: req.socket.remoteAddress ?? null,
        forwardedFor: headerOf(req.headers['x-forwarded-for']),
        referrer: headerOf(req.headers.referer),
        at,
        scheme: 'http',
      });
    } catch {
      // recording is best effort: the response is already sent
    }
  });
}

/** `demo-store.localhost:8081` → `demo-store` (null when the host is not an AI-site host). */
export function siteSlugOfHost(host: string | undefined, aiSiteDomain: string): string | null {
  const name = (host ?? '').toLowerCase().replace(/:\d+$/, '');
  const suffix = `.${aiSiteDomain.toLowerCase()}`;
  if (!name.endsWith(suffix)) return null;
  const slug = name.slice(0, -suffix.length);
  return /^[a-z0-9][a-z0-9_-]*$/.test(slug) ? slug : null;
}

export async function startSitesHost(options: SitesHostOptions): Promise<RunningServer> {
  const server = createServer(async (req, res) => {
    recordWhenFinished(req, res, options.recordVisit);
    const slug = siteSlugOfHost(req.headers.host, options.aiSiteDomain);
    const notFound = (why: string) => {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
      res.end(`Not found: ${why}\n`);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' });
      return res.end();
    }
    if (!slug) return notFound(`no AI site for host ${req.headers.host ?? '(none)'}`);
    const release = await currentRelease(options.sitesDir, slug);
    if (!release) return notFound(`no AI site has been deployed for ${slug}`);
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    } catch {
      return notFound('malformed path');
    }
    const file = await resolveFile(release, pathname);
    if (!file) return notFound(pathname);
    res.writeHead(200, {
      'Content-Type': contentTypeOf(file.path),
      'Content-Length': String(file.size),
      // Short edge cache, like the CloudFront behaviour: content changes daily at most.
      'Cache-Control': 'public, max-age=300',
    });
    if (req.method === 'HEAD') return res.end();
    createReadStream(file.path).pipe(res);
  });
  const port = await listen(server, options.port);
  return {
    server,
    port,
    url: `http://{slug}.${options.aiSiteDomain}:${port}`,
    close: () => closeServer(server),
  };
}

/** The release directory the site's `current` pointer names (switched atomically by deploys). */
async function currentRelease(sitesDir: string, slug: string): Promise<string | null> {
  try {
    const id = (await readFile(join(sitesDir, slug, 'current'), 'utf8')).trim();
    return id ? join(sitesDir, slug, 'releases', id) : null;
  } catch {
    return null;
  }
}

/** `/x/` → `/x/index.html`; `/ai/<path>` falls back to `/<path>` (D28). Never leaves the release. */
async function resolveFile(root: string, pathname: string): Promise<{ path: string; size: number } | null> {
  const candidates = [pathname];
  if (pathname.startsWith('/ai/')) candidates.push(pathname.slice(3));
  for (const candidate of candidates) {
    for (const p of candidate.endsWith('/') ? [`${candidate}index.html`] : [candidate, `${candidate}/index.html`]) {
      const full = normalize(join(root, p));
      if (!full.startsWith(root + sep)) continue;
      try {
        const info = await stat(full);
        if (info.isFile()) return { path: full, size: info.size };
      } catch {
        // try the next candidate
      }
    }
  }
  return null;
}
