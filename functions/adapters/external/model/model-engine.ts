/**
 * The model engine: an OpenAI-compatible chat-completions client that writes a narrative
 * with the spec's 3 parallel calls (daily schedule, batch 1a): (a) overview, (b) FAQs,
 * (c) product summaries (chunked for big catalogues, so (c) may be several calls).
 *
 * Each call is retried with exponential backoff and jitter on 429, 408, 5xx, network
 * errors, timeouts and invalid output; 401/403 (and other 4xx) are not retried. A part
 * that still fails falls back to the same part of the fallback (offline) engine, and
 * `engine.fallbackReason` says which part and why. The API key is sent only in the
 * Authorization header: it is never logged and never part of a reason.
 */
import type { Logger } from '../../../logger';
import type { CatalogProduct, FaqEntry, SiteNarrative, StoreSnapshot } from '../../../core/site/types';
import type { NarrativeOverview, SiteGenerator } from '../../../core/generate/types';
import {
  DEFAULT_PRODUCTS_PER_CALL,
  DEFAULT_PROMPT_BUDGET,
  faqMessages,
  overviewMessages,
  productChunks,
  productMessages,
  type ChatMessage,
} from '../../../core/generate/model-prompts';
import { storeName } from '../../../core/generate/evidence';
import { parseFaqs, parseOverview, parseProductSummaries, type Parsed } from '../../../core/generate/model-output';

export const DEFAULT_MODEL = 'gpt-4o-mini';

export type FetchLike = (url: string, init: { method: string; headers: Record<string, string>; body: string; signal?: AbortSignal }) => Promise<{
  status: number;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
}>;

export interface ModelGeneratorOptions {
  /** e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1; `/chat/completions` is appended. */
  baseUrl: string;
  /** Optional: local servers often need none. */
  apiKey?: string;
  model: string;
  fallback: SiteGenerator;
  log: Logger;
  fetchImpl?: FetchLike;
  /** Per attempt, covering the whole response. Default 60 000. */
  timeoutMs?: number;
  /** Retries after the first attempt. Default 2. */
  maxRetries?: number;
  /** First backoff delay; doubles per retry, with jitter. Default 1000. */
  retryBaseMs?: number;
  /** Cap of one backoff delay (also of a Retry-After). Default 20 000. */
  retryMaxMs?: number;
  /** Characters of store content per call. Default 12 000. */
  promptBudgetChars?: number;
  /** Products per product-summary call. Default 200. */
  productsPerCall?: number;
  /** Calls in flight at once for one narrative (at least 3, so (a), (b) and (c) run together). Default 4. */
  maxConcurrency?: number;
  /** Jitter source, [0, 1). Default Math.random. */
  random?: () => number;
  temperature?: number;
}

export interface ModelGeneratorStats {
  /** HTTP requests sent to the model API (attempts, retries included). */
  calls: number;
  /** Attempts that failed: HTTP error, network error, timeout or invalid output. */
  failures: number;
  /** Parts (or product chunks) that fell back to the offline engine. */
  fallbacks: number;
}

export interface ModelGenerator extends SiteGenerator {
  readonly name: 'model';
  readonly model: string;
  stats(): ModelGeneratorStats;
}

interface CallFailure {
  reason: string;
  retryable: boolean;
  retryAfterMs?: number;
}

class CallError extends Error {
  constructor(readonly failure: CallFailure) {
    super(failure.reason);
  }
}

const MAX_RESPONSE_CHARS = 4 * 1024 * 1024;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A tiny concurrency gate: tasks beyond `max` wait for a slot, in submission order. */
function createGate(max: number) {
  let active = 0;
  const queue: Array<() => void> = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (active >= max) await new Promise<void>((resolve) => queue.push(resolve));
    active++;
    try {
      return await task();
    } finally {
      active--;
      queue.shift()?.();
    }
  };
}

function parseRetryAfter(value: string | null): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : undefined;
}

export function createModelGenerator(options: ModelGeneratorOptions): ModelGenerator {
  const {
    apiKey,
    model,
    fallback,
    log,
    timeoutMs = 60_000,
    maxRetries = 2,
    retryBaseMs = 1000,
    retryMaxMs = 20_000,
    promptBudgetChars = DEFAULT_PROMPT_BUDGET,
    productsPerCall = DEFAULT_PRODUCTS_PER_CALL,
    random = Math.random,
    temperature = 0.2,
  } = options;
  const fetchImpl: FetchLike = options.fetchImpl ?? ((url, init) => fetch(url, init));
  const endpoint = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  let host = '';
  try { host = new URL(options.baseUrl).host; } catch { host = '(invalid base url)'; }
  const maxConcurrency = Math.max(3, options.maxConcurrency ?? 4);
  const counters: ModelGeneratorStats = { calls: 0, failures: 0, fallbacks: 0 };

  /** Never let the key into a message, whatever a server or runtime echoes. */
  const scrub = (text: string) => (apiKey && apiKey.length >= 4 ? text.split(apiKey).join('[redacted]') : text);

  function backoff(retry: number, retryAfterMs?: number): number {
    const exp = Math.min(retryMaxMs, retryBaseMs * 2 ** (retry - 1));
    const jittered = exp / 2 + random() * (exp / 2); // "equal jitter"
    return Math.min(retryMaxMs, Math.max(jittered, retryAfterMs ?? 0));
  }

  /** One HTTP attempt: the message content, or a CallError. */
  async function requestOnce(messages: ChatMessage[]): Promise<string> {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (apiKey) headers.authorization = `Bearer ${apiKey}`;
    const body = JSON.stringify({ model, messages, temperature, response_format: { type: 'json_object' } });
    let status: number;
    let text: string;
    let retryAfter: string | null = null;
    try {
      const res = await fetchImpl(endpoint, { method: 'POST', headers, body, signal: AbortSignal.timeout(timeoutMs) });
      status = res.status;
      retryAfter = res.headers.get('retry-after');
      text = await res.text();
    } catch (err) {
      const e = err as Error;
      const timedOut = e?.name === 'TimeoutError' || e?.name === 'AbortError';
      const cause = (e as { cause?: { code?: string; message?: string } })?.cause;
      const detail = timedOut ? `timed out after ${timeoutMs} ms` : `network error: ${cause?.code ?? cause?.message ?? e?.message ?? String(err)}`;
      throw new CallError({ reason: scrub(detail), retryable: true });
    }
    if (status === 401 || status === 403) throw new CallError({ reason: `HTTP ${status} from the model API (credentials rejected; not retried)`, retryable: false });
    if (status === 429 || status === 408 || status >= 500) {
      throw new CallError({ reason: `HTTP ${status} from the model API`, retryable: true, retryAfterMs: parseRetryAfter(retryAfter) });
    }
    if (status < 200 || status >= 300) throw new CallError({ reason: `HTTP ${status} from the model API (not retried)`, retryable: false });
    if (text.length > MAX_RESPONSE_CHARS) throw new CallError({ reason: 'model response too large', retryable: true });
    let content: unknown;
    try {
      const json = JSON.parse(text) as { choices?: Array<{ message?: { content?: unknown } }> };
      content = json?.choices?.[0]?.message?.content;
    } catch {
      throw new CallError({ reason: 'model API response is not JSON', retryable: true });
    }
    if (typeof content !== 'string' || !content.trim()) throw new CallError({ reason: 'model response has no choices[0].message.content', retryable: true });
    return content;
  }

  /** Attempts until valid output, a non-retryable error, or maxRetries retries. */
  async function callWithRetry<T>(label: string, messages: ChatMessage[], parse: (content: string) => Parsed<T>, gate: ReturnType<typeof createGate>): Promise<Parsed<T>> {
    let last: CallFailure = { reason: 'no attempt made', retryable: false };
    for (let attempt = 0; attempt <= maxRetries; attempt++) {
      if (attempt > 0) {
        const delay = backoff(attempt, last.retryAfterMs);
        log.debug('model call retrying', { part: label, attempt: attempt + 1, delayMs: Math.round(delay), reason: last.reason, model, host });
        await sleep(delay);
      }
      counters.calls++;
      try {
        const content = await gate(() => requestOnce(messages));
        const parsed = parse(content);
        if (parsed.ok) return parsed;
        counters.failures++;
        last = { reason: parsed.error, retryable: true };
      } catch (err) {
        counters.failures++;
        last = err instanceof CallError ? err.failure : { reason: scrub(`unexpected error: ${(err as Error)?.message ?? String(err)}`), retryable: true };
        if (!last.retryable) break;
      }
    }
    const tries = maxRetries + 1;
    return { ok: false, error: last.retryable ? `${last.reason} (after ${tries} attempt${tries === 1 ? '' : 's'})` : last.reason };
  }

  async function generateNarrative(snapshot: StoreSnapshot): Promise<SiteNarrative> {
    const gate = createGate(maxConcurrency);
    const name = storeName(snapshot);
    const chunks = productChunks(snapshot.products, promptBudgetChars, productsPerCall);

    // (a), (b) and every (c) chunk start together; the gate only bounds very big catalogues.
    const overviewP = callWithRetry('overview', overviewMessages(snapshot, promptBudgetChars), (c) => parseOverview(c, name), gate);
    const faqsP = callWithRetry('faqs', faqMessages(snapshot, promptBudgetChars), (c) => parseFaqs(c, name), gate);
    const chunkPs = chunks.map((chunk, i) => {
      const ids = new Set(chunk.map((p) => p.productId));
      const label = chunks.length > 1 ? `productSummaries (chunk ${i + 1} of ${chunks.length})` : 'productSummaries';
      return callWithRetry(label, productMessages(snapshot, chunk), (c) => parseProductSummaries(c, name, ids), gate).then((r) => ({ r, chunk, label }));
    });
    const [overview, faqs, chunkResults] = await Promise.all([overviewP, faqsP, Promise.all(chunkPs)]);

    let offline: Promise<SiteNarrative> | null = null;
    const offlineNarrative = () => (offline ??= fallback.generateNarrative(snapshot));
    const reasons: string[] = [];
    let modelParts = 0;
    const fellBack = (part: string, reason: string) => {
      counters.fallbacks++;
      reasons.push(`${part}: ${reason}`);
      log.warn('model generation part fell back to the offline engine', { part, reason, model, host, orgSlug: snapshot.business.orgSlug });
    };

    let overviewValue: NarrativeOverview;
    if (overview.ok) {
      overviewValue = overview.value;
      modelParts++;
    } else {
      fellBack('overview', overview.error);
      const o = await offlineNarrative();
      overviewValue = { summary: o.summary, description: o.description, industry: o.industry, audience: o.audience, categories: o.categories, keyFacts: o.keyFacts };
    }

    let faqsValue: FaqEntry[];
    if (faqs.ok) {
      faqsValue = faqs.value;
      modelParts++;
    } else {
      fellBack('faqs', faqs.error);
      faqsValue = (await offlineNarrative()).faqs;
    }

    const productSummaries: Record<string, string> = {};
    let productsFromModel = false;
    const missing: CatalogProduct[] = [];
    for (const { r, chunk, label } of chunkResults) {
      if (!r.ok) {
        fellBack(label, r.error);
        missing.push(...chunk);
        continue;
      }
      productsFromModel = true;
      if (r.notes?.length) log.info('model product summaries adjusted', { part: label, notes: r.notes, model });
      Object.assign(productSummaries, r.value);
      const omitted = chunk.filter((p) => !(p.productId in r.value));
      if (omitted.length) {
        reasons.push(`${label}: model omitted ${omitted.length} of ${chunk.length} products; offline summaries used for them`);
        missing.push(...omitted);
      }
    }
    if (productsFromModel) modelParts++;
    if (missing.length) {
      const o = await offlineNarrative();
      for (const p of missing) {
        const summary = o.productSummaries[p.productId];
        if (summary !== undefined) productSummaries[p.productId] = summary;
      }
    }

    const fallbackReason = reasons.length ? reasons.join('; ') : undefined;
    const engine: SiteNarrative['engine'] = modelParts > 0
      ? { name: 'model', model, ...(fallbackReason ? { fallbackReason } : {}) }
      : { name: 'offline', ...(fallbackReason ? { fallbackReason } : {}) };
    return { ...overviewValue, faqs: faqsValue, productSummaries, engine };
  }

  return {
    name: 'model',
    model,
    generateNarrative,
    stats: () => ({ ...counters }),
  };
}
