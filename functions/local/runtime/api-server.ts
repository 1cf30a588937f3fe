/**
 * The local stand-in for API Gateway: serves the route manifest by turning each request
 * into a REST (v1) proxy event and calling the very handler module CDK deploys.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { serveApiDocs } from './api-docs';
import { join } from 'node:path';
import type { APIGatewayProxyResult, Context } from 'aws-lambda';
import type { ApiHandler } from '../../http/endpoint';
import { ROUTES } from '../../routes';
import { toApiGatewayEvent } from './apigw-event';
import { createRouteMatcher } from './route-matcher';
import { closeServer } from './close-server';
import { listen } from './listen';
import { readBody } from './read-body';

/** API Gateway's and Lambda's synchronous payload limit. */
const MAX_BODY_BYTES = 6 * 1024 * 1024;
const DEFAULT_TIMEOUT_SECONDS = 29;

/** Local-only extras (the dev identity provider's JWKS), answered before the manifest. */
export type ExtraRoute = (req: IncomingMessage, res: ServerResponse) => boolean;

export interface RunningServer {
  server: Server;
  url: string;
  port: number;
  close(): Promise<void>;
}

export interface ApiServerOptions {
  port?: number;
  host?: string;
  extra?: ExtraRoute[];
  /**
   * Settles when the stack behind the handlers is installed. The socket is bound earlier (the
   * dev identity provider's JWKS URL needs the port), but no request is answered before it:
   * a request that arrives early waits, so `GET /health` answering 200 means ready.
   */
  ready?: Promise<unknown>;
}

export async function startApiServer(options: ApiServerOptions = {}): Promise<RunningServer> {
  const match = createRouteMatcher(ROUTES);
  const modules = new Map<string, ApiHandler>();
  const load = (module: string): ApiHandler => {
    let handler = modules.get(module);
    if (!handler) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      handler = require(join(__dirname, '..', '..', module)).handler as ApiHandler;
      modules.set(module, handler);
    }
    return handler;
  };

  const server = createServer(async (req, res) => {
    try {
      await options.ready;
    } catch (err) {
      return send(res, 503, { status: 'error', error: `the local stack failed to start: ${(err as Error).message}` });
    }
    try {
      if (options.extra?.some((route) => route(req, res))) return;
      const path = new URL(req.url ?? '/', 'http://local').pathname;
      // The published contract and its reference page (GET /openapi.json, GET /docs).
      if (serveApiDocs(req, res, path)) return;
      const { match: found, allowed } = match(req.method ?? 'GET', path);
      if (!found) {
        if (allowed.length) return send(res, 405, { status: 'error', error: `method ${req.method} not allowed on ${path}` }, { Allow: allowed.join(', ') });
        return send(res, 404, { status: 'error', error: `no route for ${req.method} ${path}` });
      }
      const body = await readBody(req, MAX_BODY_BYTES);
      if (body === null) return send(res, 413, { status: 'error', error: `request body larger than ${MAX_BODY_BYTES} bytes` });
      const event = toApiGatewayEvent({ req, body, resource: found.route.path, pathParameters: found.pathParameters });
      const result = await load(found.route.handler)(event, lambdaContext(found.route.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS, event.requestContext.requestId));
      write(res, result);
    } catch (err) {
      // A handler must never throw past its error middleware; if one does, API Gateway answers 502.
      process.stderr.write(`local api: handler crashed: ${(err as Error).stack}\n`);
      send(res, 502, { message: 'Internal server error' });
    }
  });
  server.keepAliveTimeout = 5000;
  const port = await listen(server, options.port, options.host);
  return {
    server,
    port,
    url: `http://localhost:${port}`,
    close: () => closeServer(server),
  };
}

function lambdaContext(timeoutSeconds: number, requestId: string): Context {
  const deadline = Date.now() + timeoutSeconds * 1000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: 'local',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:local:000000000000:function:local',
    memoryLimitInMB: '1024',
    awsRequestId: requestId,
    logGroupName: 'local',
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

function write(res: ServerResponse, result: APIGatewayProxyResult): void {
  const headers: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(result.headers ?? {})) headers[k] = String(v);
  for (const [k, v] of Object.entries(result.multiValueHeaders ?? {})) headers[k] = v.map(String);
  res.writeHead(result.statusCode, headers);
  res.end(result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body);
}

export function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}
