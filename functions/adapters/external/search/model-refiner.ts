/**
 * Optional model step of competitor discovery (LLM_BASE_URL, LLM_API_KEY, LLM_MODEL): one
 * OpenAI-compatible chat-completions call that keeps and orders the direct competitors
 * among the search candidates (prompt and validation: core/competitors/refine.ts). Same
 * request shape as the narrative engine (adapters/external/model/model-engine.ts): JSON
 * response format, Bearer key only in its header. One retry on 429/408/5xx, network errors,
 * timeouts and invalid output; 4xx are not retried. A failure is never fatal: discovery
 * then keeps the search ranking, and the reason is logged.
 */
import { DEFAULT_MODEL, type FetchLike } from '../model/model-engine';
import { parseRefinement, refineMessages } from '../../../core/competitors/refine';
import type { BusinessContext, Candidate } from '../../../core/competitors/candidates';
import type { Logger } from '../../../logger';

export interface CandidateRefiner {
  /** The candidates to keep, closest first; null when the model could not say (use the search order). */
  refine(business: BusinessContext & { description?: string }, candidates: Candidate[]): Promise<Candidate[] | null>;
}

export interface ModelRefinerOptions {
  baseUrl: string;
  apiKey?: string;
  model?: string;
  log: Logger;
  fetchImpl?: FetchLike;
  /** Per attempt. Default 20 000. */
  timeoutMs?: number;
  /** Retries after the first attempt. Default 1. */
  maxRetries?: number;
  retryDelayMs?: number;
}

export function createModelRefiner(options: ModelRefinerOptions): CandidateRefiner {
  const endpoint = `${options.baseUrl.trim().replace(/\/+$/, '')}/chat/completions`;
  const model = options.model?.trim() || DEFAULT_MODEL;
  const timeoutMs = options.timeoutMs ?? 20_000;
  const maxRetries = options.maxRetries ?? 1;
  const retryDelayMs = options.retryDelayMs ?? 500;
  const fetchImpl: FetchLike = options.fetchImpl ?? ((url, init) => fetch(url, init));
  const apiKey = options.apiKey?.trim();
  const scrub = (text: string) => (apiKey && apiKey.length >= 4 ? text.split(apiKey).join('[redacted]') : text);

  async function attempt(body: string, candidates: Candidate[]): Promise<{ value: Candidate[] | null; retryable: boolean; reason?: string }> {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (apiKey) headers.authorization = `Bearer ${apiKey}`;
    let status: number;
    let text: string;
    try {
      const res = await fetchImpl(endpoint, { method: 'POST', headers, body, signal: AbortSignal.timeout(timeoutMs) });
      status = res.status;
      text = await res.text();
    } catch (err) {
      const e = err as Error;
      const timedOut = e?.name === 'TimeoutError' || e?.name === 'AbortError';
      return { value: null, retryable: true, reason: timedOut ? `timed out after ${timeoutMs} ms` : scrub(`network error: ${e?.message ?? String(err)}`) };
    }
    if (status === 429 || status === 408 || status >= 500) return { value: null, retryable: true, reason: `HTTP ${status} from the model API` };
    if (status < 200 || status >= 300) return { value: null, retryable: false, reason: `HTTP ${status} from the model API (not retried)` };
    let content: unknown;
    try {
      content = (JSON.parse(text) as { choices?: Array<{ message?: { content?: unknown } }> })?.choices?.[0]?.message?.content;
    } catch {
      return { value: null, retryable: true, reason: 'model API response is not JSON' };
    }
    if (typeof content !== 'string') return { value: null, retryable: true, reason: 'model response has no choices[0].message.content' };
    const kept = parseRefinement(content, candidates);
    return kept ? { value: kept, retryable: false } : { value: null, retryable: true, reason: 'model output names none of the candidates' };
  }

  return {
    async refine(business, candidates) {
      if (candidates.length === 0) return null;
      const body = JSON.stringify({ model, messages: refineMessages(business, candidates), temperature: 0, response_format: { type: 'json_object' } });
      let reason = 'no attempt made';
      for (let i = 0; i <= maxRetries; i++) {
        if (i > 0) await new Promise((resolve) => setTimeout(resolve, retryDelayMs * i));
        const result = await attempt(body, candidates);
        if (result.value) return result.value;
        reason = result.reason ?? reason;
        if (!result.retryable) break;
      }
      options.log.warn('competitor refinement by the model failed; keeping the search ranking', { reason, model });
      return null;
    },
  };
}
