/**
 * Firecrawl batch-scrape adapter (web-protocols.md §9): submit the URLs, poll the batch until
 * it is completed/failed, read every result page (`next`), fetch the per-URL error list, and
 * map Documents to ScrapedPages. The fingerprint is computed by OUR core from `rawHtml` (the
 * page as served), so it is comparable with the mapper's; only when no HTML came back is it
 * computed from the markdown (a different basis: such a page looks changed once).
 *
 * The provider URL is operator configuration, not user input, so this uses plain `fetch`
 * (injectable for tests) rather than the guarded client. The API key is only ever sent to
 * the configured origin: a `next` link pointing elsewhere is re-based onto `apiUrl`.
 *
 * Provider-level failures throw UpstreamError (submit refused with 401/402/429/5xx, a batch
 * that never finishes, an unreadable answer); per-URL problems are `failures`.
 */
import pLimit from 'p-limit';
import * as z from 'zod/mini';
import { UpstreamError } from '../../../core/errors';
import { contentFingerprint, textFingerprint } from '../../../core/crawl/fingerprint';
import { blockedReason } from '../../../core/crawl/responses';
import { normalizeUrl, pageKind } from '../../../core/crawl/url';
import type { MappedUrl, ScrapedPage } from '../../../core/site/types';
import type { Scraper, ScrapeResult } from './types';

export interface FirecrawlScraperOptions {
  /** e.g. https://api.firecrawl.dev (a self-hosted instance works the same). */
  apiUrl: string;
  apiKey: string;
  fetchImpl?: typeof fetch;
  /** Wait between status polls. */
  pollIntervalMs?: number;
  /** Deadline for one batch, submit to last result page (default 15 minutes). */
  timeoutMs?: number;
  /** URLs per batch job; larger lists are split (default 1000). */
  batchSize?: number;
  /** Deadline of each single HTTP request to the provider (default 60 s). */
  requestTimeoutMs?: number;
}

export const FIRECRAWL_DEFAULT_BATCH_SIZE = 1000;
const DEFAULT_TIMEOUT_MS = 15 * 60_000;
const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
/** Consecutive failed polls (network, 429, 5xx) tolerated before giving up. */
const MAX_POLL_FAILURES = 3;
/** Result pages followed at most per batch (each is up to 10 MB). */
const MAX_RESULT_PAGES = 1000;

const text = z.optional(z.nullable(z.union([z.string(), z.array(z.string())])));
const documentSchema = z.looseObject({
  markdown: z.optional(z.nullable(z.string())),
  rawHtml: z.optional(z.nullable(z.string())),
  metadata: z.optional(
    z.looseObject({
      title: text,
      description: text,
      sourceURL: text,
      url: text,
      statusCode: z.optional(z.nullable(z.number())),
      error: z.optional(z.nullable(z.string())),
    }),
  ),
});
type FirecrawlDocument = z.infer<typeof documentSchema>;

const submitSchema = z.looseObject({
  success: z.optional(z.boolean()),
  id: z.string().check(z.minLength(1)),
  invalidURLs: z.optional(z.nullable(z.array(z.string()))),
});
const statusSchema = z.looseObject({
  status: z.string(),
  next: z.optional(z.nullable(z.string())),
  data: z.optional(z.nullable(z.array(z.unknown()))),
});
const errorsSchema = z.looseObject({
  errors: z.optional(z.array(z.looseObject({ url: z.optional(z.string()), error: z.optional(z.nullable(z.string())) }))),
  robotsBlocked: z.optional(z.array(z.string())),
});

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

export function createFirecrawlScraper(options: FirecrawlScraperOptions): Scraper {
  const base = options.apiUrl.replace(/\/+$/, '');
  const apiOrigin = new URL(base).origin;
  const fetchImpl = options.fetchImpl ?? fetch;
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const batchSize = Math.max(1, options.batchSize ?? FIRECRAWL_DEFAULT_BATCH_SIZE);
  const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const headers = { authorization: `Bearer ${options.apiKey}`, accept: 'application/json' };

  async function call(url: string, init: { method?: string; body?: unknown } = {}): Promise<{ status: number; body: unknown }> {
    let res: Response;
    try {
      res = await fetchImpl(url, {
        method: init.method ?? 'GET',
        headers: init.body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        signal: AbortSignal.timeout(requestTimeoutMs),
      });
    } catch (err) {
      throw new UpstreamError(`firecrawl: could not reach ${apiOrigin} (${(err as Error).message})`);
    }
    const raw = await res.text();
    let body: unknown = undefined;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      body = undefined;
    }
    return { status: res.status, body };
  }

  /** Keeps the key on the configured origin: a foreign `next` is re-based onto apiUrl. */
  function sameProvider(next: string): string {
    const url = new URL(next, `${base}/`);
    if (url.origin === apiOrigin) return url.href;
    const v1 = url.pathname.indexOf('/v1/');
    return `${base}${v1 >= 0 ? url.pathname.slice(v1) : url.pathname}${url.search}`;
  }

  async function submit(urls: string[]): Promise<{ id: string; invalid: string[] }> {
    const res = await call(`${base}/v1/batch/scrape`, {
      method: 'POST',
      body: { urls, formats: ['markdown', 'rawHtml'], onlyMainContent: true, maxAge: 0, ignoreInvalidURLs: true },
    });
    if (res.status < 200 || res.status >= 300) throw new UpstreamError(`firecrawl batch submit failed: ${describeStatus(res.status, res.body)}`);
    const parsed = submitSchema.safeParse(res.body);
    if (!parsed.success) throw new UpstreamError('firecrawl batch submit: the answer has no batch id');
    return { id: parsed.data.id, invalid: parsed.data.invalidURLs ?? [] };
  }

  async function waitForBatch(id: string, deadline: number): Promise<z.infer<typeof statusSchema>> {
    const statusUrl = `${base}/v1/batch/scrape/${encodeURIComponent(id)}`;
    let failures = 0;
    for (;;) {
      let res: { status: number; body: unknown } | null = null;
      try {
        res = await call(statusUrl);
      } catch (err) {
        if (++failures >= MAX_POLL_FAILURES) throw err;
      }
      if (res) {
        if (res.status === 429 || res.status >= 500) {
          if (++failures >= MAX_POLL_FAILURES) throw new UpstreamError(`firecrawl batch ${id} status: ${describeStatus(res.status, res.body)}`);
        } else if (res.status < 200 || res.status >= 300) {
          throw new UpstreamError(`firecrawl batch ${id} status: ${describeStatus(res.status, res.body)}`);
        } else {
          const parsed = statusSchema.safeParse(res.body);
          if (!parsed.success) throw new UpstreamError(`firecrawl batch ${id} status: unreadable answer`);
          failures = 0;
          if (TERMINAL.has(parsed.data.status)) return parsed.data;
        }
      }
      if (Date.now() + pollIntervalMs > deadline) {
        void call(statusUrl, { method: 'DELETE' }).catch(() => undefined); // best effort: stop spending credits
        throw new UpstreamError(`firecrawl batch ${id} did not finish within ${timeoutMs} ms`);
      }
      await sleep(pollIntervalMs);
    }
  }

  async function runBatch(chunk: MappedUrl[]): Promise<ScrapeResult> {
    const deadline = Date.now() + timeoutMs;
    const byUrl = new Map<string, MappedUrl>();
    for (const mapped of chunk) byUrl.set(normalizeUrl(mapped.url) ?? mapped.url, mapped);
    const done = new Set<string>();
    const result: ScrapeResult = { pages: [], failures: [] };
    const fail = (url: string, reason: string) => {
      const key = normalizeUrl(url) ?? url;
      const mapped = byUrl.get(key);
      const name = mapped?.url ?? url;
      if (done.has(name)) return;
      done.add(name);
      result.failures.push({ url: name, reason });
    };

    const { id, invalid } = await submit(chunk.map((m) => m.url));
    for (const url of invalid) fail(url, 'rejected by the provider as an invalid URL');

    const final = await waitForBatch(id, deadline);
    const take = (data: unknown[] | null | undefined) => {
      for (const raw of data ?? []) {
        const parsed = documentSchema.safeParse(raw);
        if (!parsed.success) continue;
        const outcome = toPage(parsed.data, byUrl);
        if (!outcome.url) continue; // a document that names no URL cannot be attributed
        if ('reason' in outcome) fail(outcome.url, outcome.reason);
        else if (!done.has(outcome.url)) {
          done.add(outcome.url);
          result.pages.push(outcome);
        }
      }
    };
    take(final.data);
    // Follow `next` result pages (each up to 10 MB); pages are mapped and dropped as we go.
    const seenNext = new Set<string>();
    let next = final.next ?? null;
    while (next && seenNext.size < MAX_RESULT_PAGES) {
      const url = sameProvider(next);
      if (seenNext.has(url)) break;
      seenNext.add(url);
      if (Date.now() > deadline) throw new UpstreamError(`firecrawl batch ${id} results not read within ${timeoutMs} ms`);
      const res = await call(url);
      if (res.status < 200 || res.status >= 300) throw new UpstreamError(`firecrawl batch ${id} results: ${describeStatus(res.status, res.body)}`);
      const parsed = statusSchema.safeParse(res.body);
      if (!parsed.success) throw new UpstreamError(`firecrawl batch ${id} results: unreadable answer`);
      take(parsed.data.data);
      next = parsed.data.next ?? null;
    }

    // Per-URL errors the provider keeps apart from the documents (non-fatal if unavailable).
    try {
      const res = await call(`${base}/v1/batch/scrape/${encodeURIComponent(id)}/errors`);
      const parsed = res.status === 200 ? errorsSchema.safeParse(res.body) : null;
      if (parsed?.success) {
        for (const e of parsed.data.errors ?? []) if (e.url) fail(e.url, e.error || 'scrape failed at the provider');
        for (const url of parsed.data.robotsBlocked ?? []) fail(url, 'blocked by robots.txt (provider)');
      }
    } catch {
      // the documents already tell most of it
    }

    const why = final.status === 'completed' ? 'no result returned by the provider' : `batch ${final.status} at the provider`;
    for (const mapped of chunk) if (!done.has(mapped.url)) fail(mapped.url, why);
    return result;
  }

  return {
    name: 'firecrawl',
    async scrape(urls: MappedUrl[], callOptions = {}): Promise<ScrapeResult> {
      const chunks: MappedUrl[][] = [];
      for (let i = 0; i < urls.length; i += batchSize) chunks.push(urls.slice(i, i + batchSize));
      const limit = pLimit(Math.max(1, callOptions.concurrency ?? 1));
      const results = await Promise.all(chunks.map((chunk) => limit(() => runBatch(chunk))));
      return {
        pages: results.flatMap((r) => r.pages),
        failures: results.flatMap((r) => r.failures),
      };
    },
  };
}

/** One Document → a page, or the reason it is not one. */
function toPage(doc: FirecrawlDocument, byUrl: Map<string, MappedUrl>): ScrapedPage | { url: string; reason: string } {
  const meta = doc.metadata ?? {};
  const source = first(meta.sourceURL) ?? first(meta.url) ?? '';
  const finalUrl = first(meta.url) ?? source;
  const mapped = byUrl.get(normalizeUrl(source) ?? source) ?? byUrl.get(normalizeUrl(finalUrl) ?? finalUrl);
  const url = mapped?.url ?? source;
  const statusCode = meta.statusCode ?? 200;
  if (meta.error) return { url, reason: meta.error };
  if (statusCode >= 400) return { url, reason: `HTTP ${statusCode}` };
  const rawHtml = doc.rawHtml ?? '';
  const blocked = blockedReason({ status: statusCode, url: finalUrl, headers: {}, body: rawHtml });
  if (blocked) return { url, reason: `blocked: ${blocked}` };
  const markdown = (doc.markdown ?? '').trim();
  if (!rawHtml.trim() && !markdown) return { url, reason: 'empty result from the provider' };
  return {
    url,
    kind: mapped?.kind ?? pageKind(url),
    title: first(meta.title) ?? '',
    description: first(meta.description) ?? '',
    markdown,
    fingerprint: rawHtml.trim() ? contentFingerprint(rawHtml) : textFingerprint(markdown),
    statusCode,
    ...(mapped?.lastmod ? { lastmod: mapped.lastmod } : {}),
  };
}

function first(value: string | string[] | null | undefined): string | undefined {
  const candidate = Array.isArray(value) ? value[0] : value;
  const trimmed = candidate?.trim();
  return trimmed ? trimmed : undefined;
}

const STATUS_MEANING: Record<number, string> = {
  400: 'request rejected',
  401: 'API key rejected',
  402: 'payment required: the account is out of credits',
  403: 'the provider refuses to scrape this site',
  404: 'batch not found or expired',
  408: 'provider timed out',
  429: 'rate limited by the provider',
};

function describeStatus(status: number, body: unknown): string {
  const meaning = STATUS_MEANING[status] ?? (status >= 500 ? 'provider server error' : 'unexpected answer');
  const detail = body && typeof body === 'object' && typeof (body as { error?: unknown }).error === 'string'
    ? `: ${((body as { error: string }).error).slice(0, 200)}`
    : '';
  return `HTTP ${status} (${meaning})${detail}`;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
