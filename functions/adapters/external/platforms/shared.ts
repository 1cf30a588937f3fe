/**
 * What the eight platform clients share: the dependencies, one retried vendor call
 * (vendor-request.ts), the `ask` wrapper that measures latency and turns every error into
 * a PlatformOutcome, citation clean-up and the unconfigured client.
 *
 * Failure policy (all platforms): 429 (Retry-After honoured), 408, 5xx, network errors,
 * timeouts, non-JSON bodies and bodies that fail the vendor schema are retried with
 * backoff + jitter (default 2 retries); 401/403 and other 4xx are not. After the last
 * attempt the outcome is `{ok:false, failure:{kind:'failed', reason}}` where the reason
 * names the platform key and the HTTP status, never the key. A well-formed answer without
 * text is `failed` at once (not retried: the vendor answered, it just said nothing), or
 * `no_answer` where the vendor legitimately has none (the SERP without an AI overview).
 */
import type * as z from 'zod/mini';
import type { PlatformKey } from '../../../core/constants';
import type { PlatformAnswer, PlatformClient, PlatformFailure, PlatformOutcome } from '../../../core/visibility/platform-answer';
import type { Logger } from '../../../logger';
import type { ProviderFetch } from '../provider-fetch';
import { AttemptError, createScrubber, requestJson, requestText, withRetries, type JsonRequest, type RawRequest, type RetryPolicy } from '../vendor-request';

export interface PlatformDeps {
  fetchImpl?: ProviderFetch;
  log: Logger;
  /** Jitter source, [0, 1). Default Math.random. */
  random?: () => number;
  /** Default: a real timer. */
  sleep?: (ms: number) => Promise<void>;
  /** Clock for latencyMs. Default Date.now. */
  now?: () => number;
  /** Per HTTP attempt. Default 90 000 (search-backed answers take tens of seconds). */
  timeoutMs?: number;
  /** Retries after the first attempt, per vendor request. Default 2. */
  maxRetries?: number;
  /** First backoff delay. Default 1000. */
  retryBaseMs?: number;
  /** Cap of one backoff delay and of a honoured Retry-After. Default 20 000. */
  retryMaxMs?: number;
}

const DEFAULT_PLATFORM_TIMEOUT_MS = 90_000;

/** Ends an `ask` with a failure outcome (thrown inside a platform's `run`). */
export class PlatformStop extends Error {
  constructor(readonly kind: PlatformFailure['kind'], readonly reason: string) {
    super(reason);
  }
}

/** A schema mismatch or missing field in a 2xx body: retried like a malformed body. */
export function malformed(what: string): AttemptError {
  return new AttemptError({ reason: `unexpected response shape: ${what}`, retryable: true });
}

/** A 2xx body → the vendor schema's data, or `malformed(what)`: each platform's `ctx.request` parser. */
export function parseBody<S extends z.ZodMiniType>(schema: S, what: string): (json: unknown) => z.output<S> {
  return (json) => {
    const parsed = schema.safeParse(json);
    if (!parsed.success) throw malformed(what);
    return parsed.data;
  };
}

/**
 * What a platform's `run` returns: `citations` what the answer cites, `retrieved` what its
 * search step returned (cited ones may be repeated there); both are cleaned (cleanCitations)
 * afterwards and the cited ones are dropped from `retrieved`.
 */
export type AnswerParts = Omit<PlatformAnswer, 'platform' | 'latencyMs' | 'citations' | 'retrieved'> & { citations: unknown[]; retrieved: unknown[] };

export interface PlatformContext {
  /** One vendor request with retries; `parse` turns the JSON into a value or throws (malformed → retried). */
  request<T>(req: Omit<JsonRequest, 'timeoutMs'>, parse: (json: unknown) => T): Promise<T>;
  /**
   * One vendor request whose body or answer is not JSON (a multipart upload, a JSONL file), with
   * retries; the answer's text. `maxChars` raises the 4 MiB cap for a batch's results.
   */
  requestText(req: Omit<RawRequest, 'timeoutMs'>, options?: { maxChars?: number }): Promise<string>;
  /** One vendor request answered by a header (a resumable upload's session URL): its value, or null. */
  requestHeader(req: Omit<RawRequest, 'timeoutMs'>, name: string): Promise<string | null>;
  /** Retries any operation under the same policy (e.g. the search API of platform_6). */
  retry<T>(what: string, attempt: () => Promise<T>): Promise<T>;
  scrub(text: string): string;
  readonly timeoutMs: number;
}

export interface PlatformDefinition {
  platform: PlatformKey;
  kind: string;
  model: string | null;
  /** Every secret this client sends, to scrub from reasons and logs. */
  secrets: Array<string | undefined>;
  /** The host asked, for logs. */
  host: string;
  deps: PlatformDeps;
  run(prompt: string, ctx: PlatformContext): Promise<AnswerParts>;
}

/**
 * The vendor-call context of one platform: every request retried under the platform policy,
 * every reason scrubbed of its secrets. Shared by the synchronous client and the batch client.
 */
export function platformContext(platform: PlatformKey, secrets: Array<string | undefined>, host: string, deps: PlatformDeps): PlatformContext {
  const timeoutMs = deps.timeoutMs ?? DEFAULT_PLATFORM_TIMEOUT_MS;
  const scrub = createScrubber(...secrets);
  const policy: RetryPolicy = { maxRetries: deps.maxRetries ?? 2, retryBaseMs: deps.retryBaseMs, retryMaxMs: deps.retryMaxMs, random: deps.random, sleep: deps.sleep };
  const log = deps.log;

  async function retry<T>(what: string, attempt: () => Promise<T>): Promise<T> {
    const outcome = await withRetries(attempt, policy, {
      onRetry: ({ attempt: n, delayMs, failure }) => log.debug('platform call retrying', { platform, what, attempt: n, delayMs: Math.round(delayMs), reason: scrub(failure.reason), host }),
      describe: (err) => `unexpected error: ${(err as Error)?.message ?? String(err)}`,
    });
    if (outcome.ok) return outcome.value;
    throw new PlatformStop('failed', `${platform}: ${outcome.reason}`);
  }
  const label = { fetchImpl: deps.fetchImpl, label: 'the platform API', scrub };
  return {
    timeoutMs,
    scrub,
    retry,
    request: (req, parse) => retry(`${req.method} ${pathOf(req.url)}`, async () => parse(await requestJson({ ...req, timeoutMs }, label))),
    requestText: (req, options = {}) => retry(`${req.method} ${pathOf(req.url)}`, async () => (await requestText({ ...req, timeoutMs }, { ...label, ...options })).text),
    requestHeader: (req, name) => retry(`${req.method} ${pathOf(req.url)}`, async () => (await requestText({ ...req, timeoutMs }, label)).headers.get(name)),
  };
}

/** The answer parts as the PlatformAnswer every client returns: text required, citations cleaned, the cited ones out of `retrieved`. */
export function answerOf(platform: PlatformKey, parts: AnswerParts, latencyMs: number): PlatformAnswer {
  const text = parts.text.trim();
  if (!text) throw new PlatformStop('failed', `${platform}: the answer has no text`);
  const citations = cleanCitations(parts.citations);
  const cited = new Set(citations);
  const retrieved = cleanCitations(parts.retrieved).filter((url) => !cited.has(url));
  const sourceHosts = parts.sourceHosts && Object.keys(parts.sourceHosts).length ? { sourceHosts: normalizedKeys(parts.sourceHosts) } : {};
  const { sourceHosts: _raw, ...rest } = parts;
  return { platform, ...rest, text, citations, retrieved, ...sourceHosts, latencyMs };
}

/** Any error of a platform's work as its failure: a PlatformStop's kind, else `failed`; the reason scrubbed. */
export function failureOf(platform: PlatformKey, err: unknown, scrub: (text: string) => string): PlatformFailure {
  return err instanceof PlatformStop
    ? { platform, kind: err.kind, reason: scrub(err.reason) }
    : { platform, kind: 'failed', reason: scrub(`${platform}: unexpected error: ${(err as Error)?.message ?? String(err)}`) };
}

/** Builds a PlatformClient around a `run` that returns the answer parts or throws. */
function definePlatformClient(def: PlatformDefinition): PlatformClient {
  const { platform, deps } = def;
  const now = deps.now ?? Date.now;
  const ctx = platformContext(platform, def.secrets, def.host, deps);
  const log = deps.log;
  return {
    platform,
    kind: def.kind,
    model: def.model,
    unconfigured: null,
    async ask(prompt: string): Promise<PlatformOutcome> {
      const started = now();
      let failure: PlatformFailure;
      try {
        return { ok: true, answer: answerOf(platform, await def.run(prompt, ctx), Math.max(0, now() - started)) };
      } catch (err) {
        failure = failureOf(platform, err, ctx.scrub);
      }
      const fields = { platform, kind: failure.kind, reason: failure.reason, host: def.host, latencyMs: Math.max(0, now() - started) };
      if (failure.kind === 'failed') log.warn('platform answer failed', fields);
      else log.info('platform gave no answer', fields);
      return { ok: false, failure };
    },
  };
}

/** A client for a platform that is not configured: never calls anything, never makes up an answer. */
export function unconfiguredClient(platform: PlatformKey, kind: string, model: string | null, reason: string): PlatformClient {
  return {
    platform,
    kind,
    model,
    unconfigured: reason,
    ask: async () => ({ ok: false, failure: { platform, kind: 'unconfigured', reason } }),
  };
}

/** `PLATFORM_3_API_URL is not set`, `PLATFORM_3_API_URL and PLATFORM_3_API_KEY are not set`. */
export function missingReason(names: string[]): string {
  if (names.length <= 1) return `${names[0]} is not set`;
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]} are not set`;
}

/** Absolute http(s) URLs only, de-duplicated (after URL normalization), first occurrence kept. */
function cleanCitations(urls: Iterable<unknown>): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of urls) {
    if (typeof raw !== 'string') continue;
    let url: URL;
    try {
      url = new URL(raw.trim());
    } catch {
      continue;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') continue;
    if (seen.has(url.href)) continue;
    seen.add(url.href);
    out.push(url.href);
  }
  return out;
}

/** Link → host, keyed by the link as cleanCitations writes it. */
function normalizedKeys(hosts: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [link, host] of Object.entries(hosts)) {
    const [clean] = cleanCitations([link]);
    const h = host.trim().toLowerCase();
    if (clean && h) out[clean] = h;
  }
  return out;
}

/**
 * The 0-based indexes of a numbered source list (`n` entries) that a text refers to by
 * `[n]` or `[1, 3]`, in order of first reference.
 */
export function referencedIndexes(text: string, n: number): number[] {
  const out: number[] = [];
  for (const m of text.matchAll(/\[(\d+(?:\s*,\s*\d+)*)\]/g)) {
    for (const k of m[1].split(',')) {
      const i = Number(k.trim()) - 1;
      if (i >= 0 && i < n && !out.includes(i)) out.push(i);
    }
  }
  return out;
}

/**
 * `{base}{path}`, without doubling a version segment the operator already put in the base
 * (`https://api.anthropic.com/v1` + `/v1/messages` → `.../v1/messages`).
 */
export function endpointUrl(base: string, path: string): string {
  const trimmed = base.trim().replace(/\/+$/, '');
  const first = /^\/[^/]+/.exec(path)?.[0];
  if (first && first !== path && trimmed.endsWith(first)) return trimmed + path.slice(first.length);
  return trimmed + path;
}

/** True when `url` is an absolute URL on the same scheme, host and port as `base`: a URL a vendor answered is followed only there. */
export function sameOrigin(url: string, base: string): boolean {
  try {
    return new URL(url).origin === new URL(base).origin;
  } catch {
    return false;
  }
}

export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '(invalid URL)';
  }
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return '(invalid URL)';
  }
}

/** Reasoning models (some answer engines, open models) prefix their answer with `<think>…</think>`. */
export function stripThinking(text: string): string {
  return text.replace(/<think>[\s\S]*?<\/think>/gi, '').trim();
}

export const sum = (...values: Array<number | undefined | null>): number => values.reduce<number>((acc, v) => acc + (typeof v === 'number' && Number.isFinite(v) ? v : 0), 0);

/** One platform's settings (`PLATFORM_<n>_API_URL`, `_API_KEY`, `_MODEL`), as config.platforms holds them. */
export interface PlatformSettings {
  apiUrl?: string;
  apiKey?: string;
  model?: string;
  /** platform_2 through Claude Platform on AWS (PLATFORM_2_WORKSPACE_ID, D235): the workspace its requests name. */
  workspaceId?: string;
  /** platform_3 through Gemini on Vertex AI (PLATFORM_3_VERTEX_PROJECT, D239): the Google Cloud project its calls name. */
  vertexProject?: string;
}

export type CheckedSettings =
  | { ok: true; apiUrl: string; apiKey: string | undefined; model: string | null }
  | { ok: false; reason: string };

/**
 * The settings a client needs, or the `unconfigured` reason naming what is missing: the API
 * URL (always), the key (when the vendor requires one), the model (when there is no sensible
 * default). A URL that is not absolute http(s) counts as not configured.
 */
function checkSettings(
  n: number,
  settings: PlatformSettings | undefined,
  rules: { keyRequired: boolean; defaultModel: string | null; modelRequired?: boolean },
): CheckedSettings {
  const apiUrl = settings?.apiUrl?.trim();
  const apiKey = settings?.apiKey?.trim() || undefined;
  const model = settings?.model?.trim() || rules.defaultModel;
  const missing: string[] = [];
  if (!apiUrl) missing.push(`PLATFORM_${n}_API_URL`);
  if (rules.keyRequired && !apiKey) missing.push(`PLATFORM_${n}_API_KEY`);
  if (rules.modelRequired && !model) missing.push(`PLATFORM_${n}_MODEL`);
  if (missing.length) return { ok: false, reason: missingReason(missing) };
  if (!/^https?:\/\//i.test(apiUrl!) || hostOf(apiUrl!) === '(invalid URL)') {
    return { ok: false, reason: `PLATFORM_${n}_API_URL is not an absolute http(s) URL` };
  }
  return { ok: true, apiUrl: apiUrl!, apiKey, model };
}

export interface PlatformSpec {
  n: 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8;
  /** Vendor-neutral label (PlatformClient.kind). */
  kind: string;
  keyRequired: boolean;
  /** Sent when PLATFORM_<n>_MODEL is unset; null: the platform has no model to choose. */
  defaultModel: string | null;
  modelRequired?: boolean;
}

export interface ConfiguredSettings {
  apiUrl: string;
  apiKey: string | undefined;
  model: string | null;
}

/** A platform's settings when it is configured (the synchronous client's rules), else null. */
export function configuredSettings(spec: PlatformSpec, settings: PlatformSettings | undefined): ConfiguredSettings | null {
  const s = checkSettings(spec.n, settings, spec);
  return s.ok ? { apiUrl: s.apiUrl, apiKey: s.apiKey, model: s.model } : null;
}

/**
 * The client of one platform: unconfigured (naming the missing setting) or a client that
 * runs `run` per prompt with retries, latency, scrubbing and citation clean-up.
 */
export function createPlatformClient(
  spec: PlatformSpec,
  settings: PlatformSettings | undefined,
  deps: PlatformDeps,
  run: (prompt: string, ctx: PlatformContext, settings: ConfiguredSettings) => Promise<AnswerParts>,
  /** Other secrets the client sends (platform_6: the search API key). */
  extraSecrets: Array<string | undefined> = [],
): PlatformClient {
  const platform = `platform_${spec.n}` as PlatformKey;
  const s = checkSettings(spec.n, settings, spec);
  if (!s.ok) return unconfiguredClient(platform, spec.kind, settings?.model?.trim() || spec.defaultModel, s.reason);
  const configured: ConfiguredSettings = { apiUrl: s.apiUrl, apiKey: s.apiKey, model: s.model };
  return definePlatformClient({
    platform,
    kind: spec.kind,
    model: s.model,
    secrets: [s.apiKey, ...extraSecrets],
    host: hostOf(s.apiUrl),
    deps,
    run: (prompt, ctx) => run(prompt, ctx, configured),
  });
}
