/**
 * The local AI-site host (S3 + CloudFront on AWS): the Host header `{slug}.{AI_SITE_DOMAIN}`
 * picks the site, and the site's current release under DATA_DIR is served.
 */
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join, normalize, sep } from 'node:path';
import { contentTypeOf } from '../core/site/content-types';
import type { RunningServer } from './api-server';
import { closeServer } from './close-server';
import { listen } from './listen';


export interface SitesHostOptions {
  sitesDir: string;
  aiSiteDomain: string;
  port?: number;
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
