/**
 * One fake AI-platform vendor on a real `node:http` server (127.0.0.1): it records every
 * request, checks the credentials the real vendor requires (answering the vendor's 401 when
 * they are wrong), answers deterministically from the prompt through `answerFor`, and can be
 * told to fail: `failNext(429, 1, {retryAfter: 2})`, `failNext(503, 5)`, `malformedNext()`.
 * The vendor formats are in vendors.ts; this module is the shared plumbing.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { PlatformKey } from '../../../core/constants';
import { closeServer } from '../../runtime/close-server';
import { listen } from '../../runtime/listen';

/** What a fake platform answers for a prompt. */
export interface FakeAnswer {
  /** The answer text; empty: the vendor answers without text (the client reports `failed`). */
  text: string;
  /** URLs the answer cites, in order. */
  citations: string[];
  /** Other URLs the platform's search saw but the answer does not cite (tool results, source lists, search results). */
  searchResults?: string[];
  /**
   * platform_8: Google loads the overview lazily (a page_token, then a follow-up request);
   * platform_5's Task API: the run is still active at the first result read (408).
   */
  deferred?: boolean;
}

/**
 * Decides each platform's answer. `null` means the platform has nothing: the SERP shows no
 * AI overview (platform_8), the others answer with empty text.
 */
export type AnswerFor = (prompt: string, platform: PlatformKey) => FakeAnswer | null;

export interface RecordedRequest {
  method: string;
  /** Path without the query. */
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body (POST), or undefined (also for a multipart or JSON Lines body: see `raw`). */
  body: unknown;
  /** The body as sent (a multipart upload is read from here). */
  raw: string;
}

/** A JSON object in a request or reply body. */
export type Json = Record<string, unknown>;
export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface VendorReply {
  status: number;
  /** Serialized as JSON unless a string. */
  body: unknown;
  headers?: Record<string, string>;
}

export interface VendorContext {
  platform: PlatformKey;
  answerFor: AnswerFor;
  /** The key the vendor expects; undefined: none required. */
  key: string | undefined;
  /** The search API key (platform_6's search endpoint). */
  searchKey: string | undefined;
  /** The model name the fake reports when the request names none. */
  model: string;
  /** Server-side state a vendor keeps between requests (platform_8's page tokens). */
  state: Map<string, unknown>;
}

export interface VendorFormat {
  /** The path the client's base URL (PLATFORM_<n>_API_URL) ends with, e.g. `/v1`; '' for the origin. */
  basePath: string;
  /** The vendor's error body for a status. */
  error(status: number, message: string): unknown;
  /** Answers a request whose injected failures are spent. */
  handle(req: RecordedRequest, ctx: VendorContext): VendorReply;
}

export interface FakePlatformServer {
  platform: PlatformKey;
  /** The value for PLATFORM_<n>_API_URL. */
  url: string;
  /** http://127.0.0.1:<port> */
  origin: string;
  port: number;
  /** The key the fake accepts (PLATFORM_<n>_API_KEY); undefined: none required. */
  key: string | undefined;
  /** The search API key (platform_6 only; its server also speaks the search API). */
  searchKey: string | undefined;
  model: string;
  requests: RecordedRequest[];
  requestCount(): number;
  /** The next `count` requests answer `status` (vendor error body; Retry-After when given). */
  failNext(status: number, count?: number, options?: { retryAfter?: number | string }): void;
  /** The next `count` requests answer 200 with a body that is not JSON. */
  malformedNext(count?: number): void;
  /**
   * Batch interfaces (batch-*.ts): while held, every batch stays in progress; released, a
   * batch ends at its next status read. Default released.
   */
  holdBatches(hold: boolean): void;
  /** Replaces the answers (e.g. per test). */
  setAnswerFor(answerFor: AnswerFor): void;
  /** Forgets recorded requests and pending failures. */
  reset(): void;
  close(): Promise<void>;
}

export interface FakePlatformOptions {
  answerFor: AnswerFor;
  key?: string;
  searchKey?: string;
  model: string;
  /** Default 0 (any free port). */
  port?: number;
  host?: string;
}

type Injected = { kind: 'status'; status: number; retryAfter?: string } | { kind: 'malformed' };

const MAX_BODY = 8 * 1024 * 1024;

/** The `ctx.state` key batch fakes read: true while batches must stay in progress. */
export const HOLD_BATCHES = 'holdBatches';

export async function startFakeVendor(platform: PlatformKey, format: VendorFormat, options: FakePlatformOptions): Promise<FakePlatformServer> {
  const requests: RecordedRequest[] = [];
  const injected: Injected[] = [];
  const ctx: VendorContext = { platform, answerFor: options.answerFor, key: options.key, searchKey: options.searchKey, model: options.model, state: new Map() };

  const send = (res: ServerResponse, reply: VendorReply) => {
    const body = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
    res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers }).end(body);
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    });
    req.on('end', () => {
      // Decoded once: a character split across two chunks stays whole.
      const raw = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', 'http://fake');
      let body: unknown;
      let badJson = false;
      // A multipart form or a JSON Lines file is read by its handler from `raw`.
      const notJson = /^(multipart\/form-data|application\/jsonl)/i.test(String(req.headers['content-type'] ?? ''));
      if (raw && !notJson) {
        try {
          body = JSON.parse(raw);
        } catch {
          badJson = true;
        }
      }
      const recorded: RecordedRequest = { method: req.method ?? 'GET', path: url.pathname, query: Object.fromEntries(url.searchParams), headers: req.headers, body, raw };
      requests.push(recorded);
      const next = injected.shift();
      if (next?.kind === 'malformed') return send(res, { status: 200, body: '<html>upstream proxy error</html>', headers: { 'content-type': 'text/html' } });
      if (next?.kind === 'status') {
        return send(res, { status: next.status, body: format.error(next.status, `injected failure (HTTP ${next.status})`), headers: next.retryAfter !== undefined ? { 'retry-after': next.retryAfter } : {} });
      }
      if (size > MAX_BODY) return send(res, { status: 413, body: format.error(413, 'request body too large') });
      if (badJson) return send(res, { status: 400, body: format.error(400, 'request body is not valid JSON') });
      try {
        send(res, format.handle(recorded, ctx));
      } catch (err) {
        send(res, { status: 500, body: format.error(500, `fake vendor error: ${(err as Error).message}`) });
      }
    });
  });
  const port = await listen(server, options.port ?? 0, options.host ?? '127.0.0.1');
  const origin = `http://${options.host ?? '127.0.0.1'}:${port}`;
  return {
    platform,
    url: origin + format.basePath,
    origin,
    port,
    key: options.key,
    searchKey: options.searchKey,
    model: options.model,
    requests,
    requestCount: () => requests.length,
    failNext(status, count = 1, opts = {}) {
      for (let i = 0; i < count; i++) injected.push({ kind: 'status', status, retryAfter: opts.retryAfter === undefined ? undefined : String(opts.retryAfter) });
    },
    malformedNext(count = 1) {
      for (let i = 0; i < count; i++) injected.push({ kind: 'malformed' });
    },
    holdBatches(hold) {
      ctx.state.set(HOLD_BATCHES, hold);
    },
    setAnswerFor(answerFor) {
      ctx.answerFor = answerFor;
    },
    reset() {
      requests.length = 0;
      injected.length = 0;
      ctx.state.clear();
    },
    close: () => closeServer(server, 500),
  };
}

/** Rough token count of a text (4 characters a token), for the fakes' usage fields. */
export function tokensOf(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

export function bearerOf(headers: IncomingHttpHeaders): string | undefined {
  const value = headers.authorization;
  const m = typeof value === 'string' ? /^Bearer\s+(.+)$/i.exec(value) : null;
  return m?.[1];
}

export function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return url;
  }
}
