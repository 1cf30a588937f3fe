/**
 * The admin API (admin.ts) as JSON over HTTP, on a loopback port of its own (never the
 * storefront's, so a crawler of the store can not find it):
 *
 *   GET    /state                 summary: counts, page handles, version, changes since start
 *   POST   /products              add a product            201 | 400 | 409
 *   PATCH  /products/<handle>     edit a product           200 | 400 | 404
 *   DELETE /products/<handle>     remove a product         200 | 404
 *   PUT    /pages/<handle>        edit or create a page    200 | 201 | 400
 *   DELETE /pages/<handle>        remove a page            200 | 404
 *   POST   /reset                 back to the generated catalogue
 *
 * Errors are `{ "error": "<what is wrong>" }`. Requests from a browser page (an `Origin`
 * header) or addressed to a non-loopback host name are refused, so a web page can not drive it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DemoStoreAdminError, type DemoStoreAdmin, type PageInput, type ProductInput, type ProductPatch } from './admin';

const MAX_BODY = 1024 * 1024;

interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

const ROUTES = [
  'GET /state',
  'POST /products',
  'PATCH /products/<handle>',
  'DELETE /products/<handle>',
  'PUT /pages/<handle>',
  'DELETE /pages/<handle>',
  'POST /reset',
];

const LOOPBACK_HOST = /^(?:127\.0\.0\.1|localhost|\[::1\])(?::\d+)?$/i;
const LOOPBACK_PEER = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        reject(new HttpError(413, `request body is larger than ${MAX_BODY} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** The parsed body; admin.ts validates it whatever its shape, hence the unchecked type. */
async function jsonBody<T>(req: IncomingMessage): Promise<T> {
  const raw = await readBody(req);
  if (!raw.trim()) throw new HttpError(400, 'a JSON object body is required');
  try {
    return JSON.parse(raw) as T;
  } catch (err) {
    throw new HttpError(400, `request body is not valid JSON: ${(err as Error).message}`);
  }
}

function methodNotAllowed(method: string, path: string, allowed: string[]): never {
  throw new HttpError(405, `${method} is not allowed on ${path} (allowed: ${allowed.join(', ')})`, { Allow: allowed.join(', ') });
}

async function route(admin: DemoStoreAdmin, req: IncomingMessage, method: string, path: string): Promise<Reply> {
  if (path === '/') {
    if (method !== 'GET') methodNotAllowed(method, path, ['GET']);
    return { status: 200, body: { routes: ROUTES } };
  }
  if (path === '/state') {
    if (method !== 'GET') methodNotAllowed(method, path, ['GET']);
    return { status: 200, body: admin.state() };
  }
  if (path === '/reset') {
    if (method !== 'POST') methodNotAllowed(method, path, ['POST']);
    return { status: 200, body: admin.reset() };
  }
  if (path === '/products') {
    if (method !== 'POST') methodNotAllowed(method, path, ['POST']);
    return { status: 201, body: admin.addProduct(await jsonBody<ProductInput>(req)) };
  }
  const product = /^\/products\/([^/]+)$/.exec(path);
  if (product) {
    if (method === 'PATCH') return { status: 200, body: admin.editProduct(product[1], await jsonBody<ProductPatch>(req)) };
    if (method === 'DELETE') return { status: 200, body: admin.removeProduct(product[1]) };
    methodNotAllowed(method, path, ['PATCH', 'DELETE']);
  }
  const page = /^\/pages\/([^/]+)$/.exec(path);
  if (page) {
    if (method === 'PUT') {
      const result = admin.editPage(page[1], await jsonBody<PageInput>(req));
      return { status: result.created ? 201 : 200, body: result };
    }
    if (method === 'DELETE') return { status: 200, body: admin.removePage(page[1]) };
    methodNotAllowed(method, path, ['PUT', 'DELETE']);
  }
  throw new HttpError(404, `no admin route ${method} ${path} (routes: ${ROUTES.join(', ')})`);
}

/** Refuses anything but a local client talking to this port directly (curl, tests). */
function guard(req: IncomingMessage): void {
  if (!LOOPBACK_PEER.has(req.socket.remoteAddress ?? '')) throw new HttpError(403, 'the admin endpoint only answers loopback clients');
  const host = req.headers.host ?? '';
  if (!LOOPBACK_HOST.test(host)) throw new HttpError(403, `the admin endpoint only answers requests addressed to 127.0.0.1 or localhost (Host was "${host}")`);
  if (req.headers.origin !== undefined) throw new HttpError(403, `requests from web pages are refused (Origin: ${req.headers.origin})`);
}

export function createAdminHandler(admin: DemoStoreAdmin) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const method = req.method ?? 'GET';
    const send = ({ status, body, headers }: Reply) => {
      const bytes = Buffer.from(`${JSON.stringify(body, null, 2)}\n`);
      res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(bytes.length), 'Cache-Control': 'no-store', ...headers });
      res.end(bytes);
    };
    const fail = (err: unknown) => {
      if (err instanceof DemoStoreAdminError || err instanceof HttpError) {
        send({ status: err.status, body: { error: err.message }, headers: err instanceof HttpError ? err.headers : undefined });
      } else {
        send({ status: 500, body: { error: `internal error: ${(err as Error).message}` } });
      }
    };
    let path: string;
    try {
      guard(req);
      const raw = new URL(req.url ?? '/', 'http://admin.local').pathname;
      try {
        path = decodeURIComponent(raw);
      } catch {
        throw new HttpError(400, `malformed path ${raw}`);
      }
      if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
    } catch (err) {
      // Drain the body first so the client reads the answer instead of a reset.
      req.resume();
      fail(err);
      return;
    }
    route(admin, req, method, path).then(send, (err) => {
      req.resume();
      fail(err);
    });
  };
}
