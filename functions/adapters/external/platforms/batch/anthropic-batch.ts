/**
 * platform_2's daily checks through Anthropic's Message Batches API (50% of the Messages
 * price; each request's `params` is exactly the synchronous Messages body, platform2Body).
 * Sources checked: https://docs.anthropic.com/en/api/creating-message-batches,
 * https://docs.anthropic.com/en/api/retrieving-message-batches,
 * https://docs.anthropic.com/en/api/retrieving-message-batch-results and
 * https://docs.anthropic.com/en/docs/build-with-claude/batch-processing (limits: 100,000
 * requests or 256 MB per batch; a batch not ended within 24 hours expires).
 *
 *   POST {url}/v1/messages/batches   x-api-key (or Claude Platform on AWS's bearer key and workspace: anthropicHeaders), anthropic-version: 2023-06-01
 *   {"requests": [{"custom_id": "<id>", "params": {<Messages body>}}]}
 *   200 {"id": "msgbatch_...", "type": "message_batch", "processing_status": "in_progress", "results_url": null, ...}
 *
 *   GET {url}/v1/messages/batches/{id}   → the batch; processing_status in_progress | canceling | ended
 *   GET {results_url}                    → JSONL, one line per request:
 *   {"custom_id": "<id>", "result": {"type": "succeeded", "message": {<Messages body>}}}
 *   {"custom_id": "<id>", "result": {"type": "errored", "error": {"type": "error", "error": {"type": "...", "message": "..."}}}}
 *   {"custom_id": "<id>", "result": {"type": "canceled" | "expired"}}
 *
 * The key goes only to the configured API origin: a results_url elsewhere is not followed
 * (the results are read from the batch's own path on the configured origin instead).
 */
import * as z from 'zod/mini';
import type { PlatformOutcome } from '../../../../core/visibility/platform-answer';
import type { BatchPrompt, PlatformBatchClient } from '../../../../core/visibility/platform-batch';
import { anthropicHeaders, parsePlatform2Message, platform2Answer, PLATFORM_2, platform2Body } from '../platform-2-anthropic-messages';
import { answerOf, configuredSettings, endpointUrl, failureOf, hostOf, parseBody, platformContext, PlatformStop, sameOrigin, type PlatformDeps, type PlatformSettings } from '../shared';

/** Documented per-batch limits. */
export const ANTHROPIC_BATCH_MAX_REQUESTS = 100_000;
const ANTHROPIC_BATCH_MAX_BYTES = 256 * 1024 * 1024;

const batchSchema = z.object({
  id: z.string(),
  processing_status: z.string(),
  results_url: z.optional(z.nullable(z.string())),
});
const lineSchema = z.object({
  custom_id: z.string(),
  result: z.object({
    type: z.string(),
    message: z.optional(z.unknown()),
    error: z.optional(z.unknown()),
  }),
});

export function createAnthropicBatchClient(settings: PlatformSettings | undefined, deps: PlatformDeps): PlatformBatchClient | null {
  const s = configuredSettings(PLATFORM_2, settings);
  if (!s) return null;
  const platform = 'platform_2' as const;
  const ctx = platformContext(platform, [s.apiKey], hostOf(s.apiUrl), deps);
  const headers = anthropicHeaders(s.apiKey!, settings?.workspaceId);
  const batchUrl = (id: string) => endpointUrl(s.apiUrl, `/v1/messages/batches/${encodeURIComponent(id)}`);
  const parseBatch = parseBody(batchSchema, 'not a message batch');

  const outcomeOf = (line: z.infer<typeof lineSchema>): PlatformOutcome => {
    try {
      const { result } = line;
      if (result.type === 'succeeded') return { ok: true, answer: answerOf(platform, platform2Answer(parsePlatform2Message(result.message), 'message batches API'), 0) };
      const error = (result.error as { error?: { type?: string; message?: string } } | undefined)?.error;
      const why = result.type === 'errored' ? `errored${error?.type ? ` (${error.type}${error.message ? `: ${error.message}` : ''})` : ''}` : result.type;
      throw new PlatformStop('failed', `${platform}: the batch request ${why}`);
    } catch (err) {
      return { ok: false, failure: failureOf(platform, err, ctx.scrub) };
    }
  };

  return {
    platform,
    maxPrompts: ANTHROPIC_BATCH_MAX_REQUESTS,
    completionWindowHours: 24,
    async submit(prompts: readonly BatchPrompt[]) {
      const body = { requests: prompts.map((p) => ({ custom_id: p.customId, params: platform2Body(p.prompt, s.model) })) };
      if (Buffer.byteLength(JSON.stringify(body)) > ANTHROPIC_BATCH_MAX_BYTES) throw new Error(`${platform}: ${prompts.length} requests exceed the 256 MB batch limit`);
      const batch = await ctx.request({ url: endpointUrl(s.apiUrl, '/v1/messages/batches'), method: 'POST', headers, body }, parseBatch);
      return { id: batch.id };
    },
    async progress(id) {
      const batch = await ctx.request({ url: batchUrl(id), method: 'GET', headers }, parseBatch);
      return { state: batch.processing_status === 'ended' ? 'ended' : 'in_progress', vendorStatus: batch.processing_status };
    },
    async results(id) {
      const batch = await ctx.request({ url: batchUrl(id), method: 'GET', headers }, parseBatch);
      if (batch.processing_status !== 'ended') throw new Error(`${platform}: batch ${id} has not ended (${batch.processing_status})`);
      const resultsUrl = batch.results_url && sameOrigin(batch.results_url, s.apiUrl) ? batch.results_url : `${batchUrl(id)}/results`;
      const text = await ctx.requestText({ url: resultsUrl, method: 'GET', headers, accept: 'application/x-jsonl' });
      const out = new Map<string, PlatformOutcome>();
      for (const raw of text.split('\n')) {
        if (!raw.trim()) continue;
        let line: z.infer<typeof lineSchema>;
        try {
          line = lineSchema.parse(JSON.parse(raw));
        } catch {
          continue; // a line without its custom_id cannot be placed; its prompt is recorded as missing
        }
        out.set(line.custom_id, outcomeOf(line));
      }
      return out;
    },
  };
}
