/**
 * The local CDN (CloudFront + Lambda@Edge on AWS), on PROXY_PORT. For each request:
 *   1. the Host picks the distribution (`resolveHost`: a distribution domain, later also a
 *      connected customer domain); unknown hosts get a plain-text 404;
 *   2. the request becomes a CloudFront origin-request event, field for field as AWS sends
 *      it (uri and querystring as received, headers as `{key, value}` lists under lowercase
 *      names, the store as `origin.custom` with its `x-ai-site-host` custom header);
 *   3. the very same edge-function handler (edge-function/index.ts) runs on it;
 *   4. the request goes to the origin the handler chose: the AI origin is the local AI-site
 *      host (127.0.0.1:sitesPort) with the Host the handler set; the store origin gets the
 *      viewer's Host (the Managed-AllViewer policy on AWS), except a store on loopback,
 *      which gets its own `host:port`. Origin custom headers are added, as CloudFront does.
 *      The store origin obeys the fetch policy (D24): its URL is checked and its connection
 *      resolves through the guarded lookup, so a stored or edited origin can never make the
 *      proxy reach a private, loopback or metadata address the policy refuses;
 *   5. status, headers and body stream back, with `x-edge-route: ai|store`;
 *   6. once the response has finished, the request is offered to the server-side visit
 *      recorder (what the distribution's access log is on AWS): AI-crawler page requests
 *      become visits in the background, never slowing or failing the response.
 */
import { randomUUID } from 'node:crypto';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { CloudFrontHeaders, CloudFrontRequest, CloudFrontRequestEvent, CloudFrontResultResponse } from 'aws-lambda';
import { handler as edgeHandler } from '../../../edge-function/index';
import { createUrlGuard, guardedLookup } from '../../adapters/external/guarded-fetch';
import { BlockedUrlError } from '../../core/errors';
import { AI_SITE_HOST_HEADER, type HostResolver, type ResolvedHost } from '../../core/proxy/types';
import type { RunningServer } from './api-server';
import { closeServer } from './close-server';
import { listen } from './listen';
import { recordWhenFinished, type VisitRecorder } from './sites-host';

export interface CdnProxyOptions {
  port?: number;
  resolveHost: HostResolver;
  /** The local AI-site host's port (it serves every `{slug}.{AI_SITE_DOMAIN}`). */
  sitesPort: number;
  /** Origin read timeout (CloudFront's default is 30 s). */
  readTimeoutMs?: number;
  /** ALLOW_PRIVATE_NETWORK: whether store origins on loopback/private addresses may be reached. */
  allowPrivateNetwork: boolean;
  /** Server-side visit recording (default: the installed container's visit store); false: off. */
  recordVisit?: VisitRecorder | false;
}

/** Hop-by-hop and connection headers CloudFront never hands to the edge function or origin as-is. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'expect']);
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

export const EDGE_ROUTE_HEADER = 'x-edge-route';

export async function startCdnProxy(options: CdnProxyOptions): Promise<RunningServer> {
  const guard: OriginGuard = { check: createUrlGuard(options), lookup: guardedLookup(options.allowPrivateNetwork) };
  const server = createServer((req, res) => {
    recordWhenFinished(req, res, options.recordVisit);
    proxy(req, res, options, guard).catch((err: Error) => {
      if (!res.headersSent) text(res, 502, `local CDN proxy: ${err.message}\n`);
      else res.destroy(err);
    });
  });
  server.keepAliveTimeout = 5000;
  const port = await listen(server, options.port);
  return {
    server,
    port,
    url: `http://{distribution-domain}:${port}`,
    close: () => closeServer(server),
  };
}

interface OriginGuard {
  check: ReturnType<typeof createUrlGuard>;
  lookup: LookupFunction;
}

async function proxy(req: IncomingMessage, res: ServerResponse, options: CdnProxyOptions, guard: OriginGuard): Promise<void> {
  const host = req.headers.host ?? '';
  const distribution = host ? await options.resolveHost(host) : null;
  if (!distribution) {
    return text(res, 404, `Not found: no CDN distribution serves the host ${host || '(none)'} on this local CDN proxy.\n`
      + 'Use the distribution domain that get-proxy reports (cdn_domain), e.g. Host: e….cdn.localhost\n');
  }
  const event = toOriginRequestEvent(req, distribution, host);
  const result = await edgeHandler(event);
  if (isGeneratedResponse(result)) return writeGenerated(res, result);
  const out = (result ?? event.Records[0].cf.request) as CloudFrontRequest;
  const origin = out.origin?.custom;
  if (!origin) return text(res, 502, 'local CDN proxy: the edge function returned a request without a custom origin\n');

  const route: 'ai' | 'store' = origin.domainName.toLowerCase() === distribution.aiSiteHost.toLowerCase() ? 'ai' : 'store';
  const headers = fromCloudFrontHeaders(out.headers);
  for (const [name, list] of Object.entries(origin.customHeaders ?? {})) {
    for (const { value } of list) headers[name.toLowerCase()] = value;
  }
  const path = `${origin.path ?? ''}${out.uri}${out.querystring ? `?${out.querystring}` : ''}`;
  let target: { protocol: 'http' | 'https'; hostname: string; port: number; lookup?: LookupFunction };
  if (route === 'ai') {
    // The local AI-site host stands in for `https://<aiSiteHost>`; Host stays what the handler set.
    target = { protocol: 'http', hostname: '127.0.0.1', port: options.sitesPort };
  } else {
    try {
      await guard.check(`${origin.protocol}://${hostWithPort(origin.domainName, origin.port, origin.protocol)}/`);
    } catch (err) {
      if (err instanceof BlockedUrlError) return text(res, 502, `local CDN proxy: the store origin is refused: ${err.message}\n`, 'store');
      throw err;
    }
    target = { protocol: origin.protocol, hostname: origin.domainName, port: origin.port, lookup: guard.lookup };
    if (LOOPBACK.has(origin.domainName.toLowerCase())) headers.host = hostWithPort(origin.domainName, origin.port, origin.protocol);
  }
  await forward(req, res, { ...target, method: out.method, path, headers, route, readTimeoutMs: options.readTimeoutMs ?? 30_000 });
}

/** A Node request → the CloudFront origin-request event of the distribution it reached. */
export function toOriginRequestEvent(req: IncomingMessage, distribution: ResolvedHost, viewerHost: string): CloudFrontRequestEvent {
  const raw = req.url ?? '/';
  const q = raw.indexOf('?');
  const uri = q === -1 ? raw : raw.slice(0, q);
  const querystring = q === -1 ? '' : raw.slice(q + 1);
  const clientIp = (req.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
  const headers: CloudFrontHeaders = {};
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const key = req.rawHeaders[i];
    const name = key.toLowerCase();
    if (HOP_BY_HOP.has(name)) continue;
    (headers[name] ??= []).push({ key, value: req.rawHeaders[i + 1] });
  }
  const forwardedFor = headers['x-forwarded-for']?.[0]?.value;
  headers['x-forwarded-for'] = [{ key: 'X-Forwarded-For', value: forwardedFor ? `${forwardedFor}, ${clientIp}` : clientIp }];
  headers.via = [{ key: 'Via', value: '2.0 local.cloudfront.localhost (CloudFront)' }];

  const store = new URL(distribution.storeOrigin);
  const protocol = store.protocol === 'https:' ? 'https' : 'http';
  return {
    Records: [{
      cf: {
        config: {
          distributionDomainName: viewerHost.toLowerCase().replace(/:\d+$/, ''),
          distributionId: distribution.distributionId ?? 'ELOCALCDN',
          eventType: 'origin-request',
          requestId: randomUUID(),
        },
        request: {
          clientIp,
          method: (req.method ?? 'GET').toUpperCase(),
          uri,
          querystring,
          headers,
          origin: {
            custom: {
              customHeaders: { [AI_SITE_HOST_HEADER]: [{ key: AI_SITE_HOST_HEADER, value: distribution.aiSiteHost }] },
              domainName: store.hostname,
              keepaliveTimeout: 5,
              path: store.pathname.replace(/\/+$/, ''),
              port: store.port ? Number(store.port) : protocol === 'https' ? 443 : 80,
              protocol,
              readTimeout: 30,
              sslProtocols: ['TLSv1.2'],
            },
          },
        },
      },
    }],
  };
}

function fromCloudFrontHeaders(headers: CloudFrontHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, list] of Object.entries(headers)) {
    if (!list.length) continue;
    out[name] = list.length === 1 ? list[0].value : list.map((h) => h.value);
  }
  return out;
}

const hostWithPort = (hostname: string, port: number, protocol: string) =>
  (port === (protocol === 'https' ? 443 : 80) ? hostname : `${hostname}:${port}`);

interface ForwardTarget {
  protocol: 'http' | 'https';
  hostname: string;
  port: number;
  method: string;
  path: string;
  headers: OutgoingHttpHeaders;
  route: 'ai' | 'store';
  readTimeoutMs: number;
  /** The guarded DNS lookup (store origins). */
  lookup?: LookupFunction;
}

function forward(req: IncomingMessage, res: ServerResponse, target: ForwardTarget): Promise<void> {
  return new Promise((resolve) => {
    const send = target.protocol === 'https' ? httpsRequest : httpRequest;
    const upstream = send({
      protocol: `${target.protocol}:`,
      hostname: target.hostname.replace(/^\[|\]$/g, ''),
      port: target.port,
      method: target.method,
      path: target.path,
      headers: target.headers,
      ...(target.lookup ? { lookup: target.lookup } : {}),
    }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, responseHeaders(answer.headers, target.route));
      answer.pipe(res);
      answer.on('end', resolve);
      answer.on('error', () => { res.destroy(); resolve(); });
    });
    upstream.setTimeout(target.readTimeoutMs, () => upstream.destroy(Object.assign(new Error('origin read timeout'), { code: 'ETIMEDOUT' })));
    upstream.on('error', (err: NodeJS.ErrnoException) => {
      if (!res.headersSent) {
        const status = err.code === 'ETIMEDOUT' ? 504 : 502;
        text(res, status, `local CDN proxy: the ${target.route} origin ${target.hostname}:${target.port} failed: ${err.message}\n`, target.route);
      } else {
        res.destroy();
      }
      resolve();
    });
    req.pipe(upstream);
  });
}

function responseHeaders(headers: IncomingHttpHeaders, route: 'ai' | 'store'): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name)) continue;
    out[name] = value;
  }
  out.via = '1.1 local.cloudfront.localhost (CloudFront)';
  out['x-cache'] = 'Miss from cloudfront';
  out[EDGE_ROUTE_HEADER] = route;
  return out;
}

function isGeneratedResponse(result: unknown): result is CloudFrontResultResponse {
  return Boolean(result && typeof result === 'object' && 'status' in result && !('uri' in result));
}

function writeGenerated(res: ServerResponse, result: CloudFrontResultResponse): void {
  const headers: OutgoingHttpHeaders = {};
  for (const [name, list] of Object.entries(result.headers ?? {})) {
    headers[name.toLowerCase()] = list.length === 1 ? list[0].value : list.map((h) => h.value);
  }
  headers[EDGE_ROUTE_HEADER] = 'edge';
  res.writeHead(Number(result.status), result.statusDescription, headers);
  res.end(result.body === undefined ? undefined : Buffer.from(result.body, result.bodyEncoding === 'base64' ? 'base64' : 'utf8'));
}

function text(res: ServerResponse, status: number, body: string, route?: 'ai' | 'store'): void {
  res.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Cache-Control': 'no-store',
    ...(route ? { [EDGE_ROUTE_HEADER]: route } : {}),
  });
  res.end(body);
}
