/**
 * platform_5 through Parallel's Task API (D228): one task run per prompt, when
 * PLATFORM_5_MODEL names a Task processor (`lite`, `base-fast`, ...). The Task API publishes
 * its rate (2,000 task runs created a minute, GETs not counted), where the Responses API
 * publishes none, and its processors cost $5-$10 per 1,000 runs at the low end against the
 * Responses API's $50 at its default effort.
 * Sources: https://docs.parallel.ai/getting-started/rate-limits,
 * https://docs.parallel.ai/getting-started/pricing,
 * https://docs.parallel.ai/task-api/guides/execute-task-run and the public OpenAPI document
 * (POST /v1/tasks/runs, GET /v1/tasks/runs/{run_id}/result, GET /v1/tasks/runs/{run_id},
 * TaskRunTextOutput, FieldBasis, Citation, ErrorResponse).
 *
 *   PLATFORM_5_API_URL  https://api.parallel.ai (or .../v1, as for the Responses API)
 *   PLATFORM_5_API_KEY  required (the `x-api-key` header)
 *   PLATFORM_5_MODEL    a processor: lite, base, core, core2x, pro, ultra, ultra2x/4x/8x, each with -fast
 *
 * 1. POST {url}/v1/tasks/runs  {"input": "<prompt>", "processor": "<processor>",
 *      "task_spec": {"output_schema": {"type": "text", "description": "..."}}}
 *    202 {"run_id": "trun_...", "status": "queued", "is_active": true, "processor": "...", ...}
 * 2. GET {url}/v1/tasks/runs/{run_id}/result?timeout=<s>  blocks until the run completes:
 *    200 {"run": {...}, "output": {"type": "text", "content": "<markdown>",
 *         "basis": [{"field": "output", "citations": [{"url": "...", "title": "...", "excerpts": [...]}], "reasoning": "..."}]}}
 *    408 while the run is still active after `timeout` seconds (asked again: the run is not
 *    created twice), 404 when the run failed: its status (GET {url}/v1/tasks/runs/{run_id})
 *    then names the error.
 *
 * The text output schema asks for an answer as an assistant gives one; its description
 * names no store, so the answer is not steered. Cited: the basis' citations, in order.
 * Retrieved: none (the basis holds only what supports the answer). Cost unit: task runs.
 */
import * as z from 'zod/mini';
import { endpointUrl, parseBody, PlatformStop, type AnswerParts, type ConfiguredSettings, type PlatformContext } from './shared';

/** Parallel's Task processors (the pricing page's two tabs): a PLATFORM_5_MODEL among them picks the Task API. */
const PROCESSOR = /^(lite|base|core|core2x|pro|ultra|ultra2x|ultra4x|ultra8x)(-fast)?$/;
const RUNS_PATH = '/v1/tasks/runs';
/** What the text output is asked to be: the question answered the way an assistant would, sources kept. */
const OUTPUT_DESCRIPTION = 'A direct answer to the question, as an AI assistant would give it to the person asking.';
/** Seconds the result request leaves before the HTTP attempt's own timeout, so the vendor's 408 arrives first. */
const TIMEOUT_HEADROOM_S = 5;

const runSchema = z.object({
  run_id: z.string(),
  status: z.string(),
  processor: z.optional(z.nullable(z.string())),
  error: z.optional(z.nullable(z.object({ message: z.optional(z.string()) }))),
});
const resultSchema = z.object({
  run: z.object({ run_id: z.string(), processor: z.optional(z.nullable(z.string())) }),
  output: z.object({
    type: z.string(),
    content: z.unknown(),
    basis: z.optional(z.nullable(z.array(z.object({
      citations: z.optional(z.nullable(z.array(z.object({ url: z.optional(z.nullable(z.string())) })))),
    })))),
  }),
});

/** True when the configured model is a Task processor (the Task API), false for the Responses API's `parallel`. */
export function isTaskProcessor(model: string | null): boolean {
  return model !== null && PROCESSOR.test(model);
}

export async function askParallelTask(prompt: string, ctx: PlatformContext, s: ConfiguredSettings): Promise<AnswerParts> {
  const runs = endpointUrl(s.apiUrl, RUNS_PATH);
  const headers = { 'x-api-key': s.apiKey! };
  const created = await ctx.request(
    {
      url: runs,
      method: 'POST',
      headers,
      body: { input: prompt, processor: s.model, task_spec: { output_schema: { type: 'text', description: OUTPUT_DESCRIPTION } } },
    },
    parseBody(runSchema, 'not a Task run'),
  );
  const run = `${runs}/${encodeURIComponent(created.run_id)}`;
  const waitSeconds = Math.max(1, Math.floor(ctx.timeoutMs / 1000) - TIMEOUT_HEADROOM_S);
  let result: z.infer<typeof resultSchema>;
  try {
    result = await ctx.request({ url: `${run}/result?timeout=${waitSeconds}`, method: 'GET', headers }, parseBody(resultSchema, 'not a Task run result'));
  } catch (err) {
    // A failed run answers 404 here; the run itself says why.
    const status = await ctx.request({ url: run, method: 'GET', headers }, parseBody(runSchema, 'not a Task run')).catch(() => null);
    if (status?.status === 'failed' || status?.status === 'cancelled') {
      throw new PlatformStop('failed', `platform_5: the task run ${status.status}${status.error?.message ? ` (${status.error.message})` : ''}`);
    }
    throw err;
  }
  if (result.output.type !== 'text' || typeof result.output.content !== 'string') {
    throw new PlatformStop('failed', `platform_5: the task run answered ${result.output.type} output, not text`);
  }
  return {
    text: result.output.content,
    citations: (result.output.basis ?? []).flatMap((b) => (b.citations ?? []).map((c) => c.url ?? '')),
    retrieved: [],
    model: result.run.processor ?? s.model,
    costUnits: 1,
    costUnit: 'task runs',
    obtainedVia: 'Task API run (text output, live web research)',
  };
}
