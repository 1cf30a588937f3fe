/**
 * platform_1's daily checks through OpenAI's Batch API (50% of the synchronous price; each
 * request line's `body` is exactly the synchronous Responses body, platform1Body, and each
 * answer is parsed by the synchronous parser, responses-api.ts).
 * Sources checked: https://developers.openai.com/api/reference/cli/resources/batches/methods/create
 * (limits: 50,000 requests and 200 MB per input file; completion_window only `24h`; metadata
 * up to 16 pairs, values up to 512 characters),
 * https://developers.openai.com/api/reference/go/resources/batches (the Batch object and its
 * statuses), https://developers.openai.com/api/reference/cli/resources/files/methods/content,
 * and the OpenAPI spec's CreateFileRequest (multipart `file` + `purpose`; the Batch API takes
 * `.jsonl` files only), BatchRequestInput and BatchRequestOutput (the per-line objects of the
 * input, output and error files; error codes batch_expired, batch_cancelled, request_timeout),
 * as published for https://platform.openai.com/docs/api-reference/files/create,
 * https://platform.openai.com/docs/api-reference/batch/request-input and
 * https://platform.openai.com/docs/api-reference/batch/request-output.
 *
 *   PLATFORM_1_API_URL  https://api.openai.com/v1      (`/files`, `/batches` are appended)
 *   PLATFORM_1_API_KEY  required (Authorization: Bearer), the synchronous client's settings
 *
 *   POST {url}/files   multipart/form-data: purpose=batch, file=<name>.jsonl, one line a request:
 *     {"custom_id": "<id>", "method": "POST", "url": "/v1/responses", "body": {<Responses body>}}
 *   200 {"id": "file-...", "object": "file", "purpose": "batch", "bytes": 123, ...}
 *
 *   POST {url}/batches {"input_file_id": "file-...", "endpoint": "/v1/responses", "completion_window": "24h", "metadata": {"label": "..."}}
 *   200 {"id": "batch_...", "object": "batch", "status": "validating", ...}
 *
 *   GET {url}/batches/{id} → the Batch: status validating | in_progress | finalizing | cancelling
 *     (in progress), completed | failed | expired | cancelled (ended); output_file_id (the
 *     successful requests), error_file_id (the others), errors.data[] (why validation failed),
 *     request_counts {total, completed, failed}
 *
 *   GET {url}/files/{file_id}/content → JSONL, one line per request, in no particular order:
 *     {"id": "batch_req_...", "custom_id": "<id>", "response": {"status_code": 200, "request_id": "...", "body": {<Responses body>}}, "error": null}
 *     {"id": "...", "custom_id": "<id>", "response": {"status_code": 400, "body": {"error": {...}}}, "error": null}
 *     {"id": "...", "custom_id": "<id>", "response": null, "error": {"code": "batch_expired" | "batch_cancelled" | ..., "message": "..."}}
 *
 * A batch that failed validation has no output: its prompts are absent from `results` (the
 * caller records them as failed); its `errors` are logged. A line that cannot be read fails
 * only its own prompt (or, without a readable custom_id, leaves it absent).
 */
import { randomUUID } from 'node:crypto';
import * as z from 'zod/mini';
import type { PlatformOutcome } from '../../../../core/visibility/platform-answer';
import { BATCH_CUSTOM_ID, type BatchPrompt, type BatchProgress, type PlatformBatchClient } from '../../../../core/visibility/platform-batch';
import { AttemptError } from '../../vendor-request';
import { PLATFORM_1, platform1Body } from '../platform-1-openai-responses';
import { answerFromResponses, parseResponsesBody } from '../responses-api';
import { answerOf, configuredSettings, endpointUrl, failureOf, hostOf, parseBody, platformContext, PlatformStop, type PlatformDeps, type PlatformSettings } from '../shared';

/** Documented per-batch limits: requests per input file, and its size (200 MB, taken as 200 × 10^6 bytes to stay clear of it). */
export const OPENAI_BATCH_MAX_REQUESTS = 50_000;
export const OPENAI_BATCH_MAX_BYTES = 200_000_000;
/** The one relative URL (and batch endpoint) every line asks. */
export const OPENAI_BATCH_ENDPOINT = '/v1/responses';
/** An output or error file is read whole: up to this many characters (the synchronous 4 MiB cap would bind at about a thousand answers). */
const MAX_RESULT_FILE_CHARS = 256 * 1024 * 1024;
const OBTAINED_VIA = 'responses API (batch) + web_search tool';

const IN_PROGRESS = new Set(['validating', 'in_progress', 'finalizing', 'cancelling']);
const ENDED = new Set(['completed', 'failed', 'expired', 'cancelled']);

const fileSchema = z.object({ id: z.string() });
const batchSchema = z.object({
  id: z.string(),
  status: z.string(),
  output_file_id: z.optional(z.nullable(z.string())),
  error_file_id: z.optional(z.nullable(z.string())),
  errors: z.optional(z.nullable(z.object({
    data: z.optional(z.nullable(z.array(z.object({
      code: z.optional(z.nullable(z.string())),
      message: z.optional(z.nullable(z.string())),
      line: z.optional(z.nullable(z.number())),
    })))),
  }))),
});
const lineSchema = z.object({
  custom_id: z.string(),
  response: z.optional(z.nullable(z.object({ status_code: z.number(), body: z.optional(z.unknown()) }))),
  error: z.optional(z.nullable(z.object({ code: z.optional(z.nullable(z.string())), message: z.optional(z.nullable(z.string())) }))),
});
type Line = z.infer<typeof lineSchema>;

const clip = (text: string, max = 300): string => (text.length > max ? `${text.slice(0, max)}…` : text);

/** `code: message` of an OpenAI error object (`{error: {message, type, code}}` or the line's `{code, message}`), or ''. */
function describeError(error: unknown): string {
  if (typeof error !== 'object' || error === null) return typeof error === 'string' ? clip(error) : '';
  const e = error as { code?: unknown; type?: unknown; message?: unknown };
  const code = typeof e.code === 'string' ? e.code : typeof e.type === 'string' ? e.type : '';
  const message = typeof e.message === 'string' ? clip(e.message) : '';
  return code && message ? `${code}: ${message}` : code || message;
}

/** The multipart/form-data body of the upload: `purpose` then the JSONL `file`, with a boundary the content does not contain. */
function multipartUpload(jsonl: string, filename: string): { body: string; contentType: string } {
  let boundary: string;
  do boundary = `----platform-batch-${randomUUID()}`; while (jsonl.includes(boundary));
  const body = [
    `--${boundary}`,
    'Content-Disposition: form-data; name="purpose"',
    '',
    'batch',
    `--${boundary}`,
    `Content-Disposition: form-data; name="file"; filename="${filename}"`,
    'Content-Type: application/octet-stream',
    '',
    jsonl,
    `--${boundary}--`,
    '',
  ].join('\r\n');
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

/** The batch's label as a file name: `[A-Za-z0-9._-]`, `.jsonl` (the Batch API takes `.jsonl` files only). */
function fileNameOf(label: string): string {
  const safe = label.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '').slice(0, 100);
  return `${safe || 'batch'}.jsonl`;
}

export function createOpenAiBatchClient(settings: PlatformSettings | undefined, deps: PlatformDeps): PlatformBatchClient | null {
  const s = configuredSettings(PLATFORM_1, settings);
  if (!s) return null;
  const platform = 'platform_1' as const;
  const ctx = platformContext(platform, [s.apiKey], hostOf(s.apiUrl), deps);
  const headers = { authorization: `Bearer ${s.apiKey!}` };
  const url = (path: string) => endpointUrl(s.apiUrl, path);
  const parseBatch = parseBody(batchSchema, 'not a Batch object');

  const getBatch = (id: string) => ctx.request({ url: url(`/batches/${encodeURIComponent(id)}`), method: 'GET', headers }, parseBatch);

  /** A whole output or error file (retried like every vendor call; larger than a synchronous answer may be). */
  const readFile = (fileId: string): Promise<string> => ctx.requestText(
    { url: url(`/files/${encodeURIComponent(fileId)}/content`), method: 'GET', headers, accept: 'application/octet-stream, application/jsonl, */*' },
    { maxChars: MAX_RESULT_FILE_CHARS },
  );

  const outcomeOf = (line: Line): PlatformOutcome => {
    try {
      const { response, error } = line;
      if (error) throw new PlatformStop('failed', `${platform}: the batch request failed${describeError(error) ? ` (${describeError(error)})` : ''}`);
      if (!response) throw new PlatformStop('failed', `${platform}: the batch result has no response`);
      if (response.status_code < 200 || response.status_code >= 300) {
        const why = describeError((response.body as { error?: unknown } | undefined)?.error ?? response.body);
        throw new PlatformStop('failed', `${platform}: the batch request answered HTTP ${response.status_code}${why ? ` (${why})` : ''}`);
      }
      let body: ReturnType<typeof parseResponsesBody>;
      try {
        body = parseResponsesBody(response.body);
      } catch (err) {
        throw err instanceof AttemptError ? new PlatformStop('failed', `${platform}: ${err.failure.reason}`) : err;
      }
      return { ok: true, answer: answerOf(platform, answerFromResponses(platform, body, OBTAINED_VIA), 0) };
    } catch (err) {
      return { ok: false, failure: failureOf(platform, err, ctx.scrub) };
    }
  };

  /** Each line of a results file into `out`; an unreadable line fails its prompt when its custom_id can be found. */
  const readLines = (text: string, out: Map<string, PlatformOutcome>) => {
    for (const raw of text.split('\n')) {
      if (!raw.trim()) continue;
      let outcome: PlatformOutcome;
      let customId: string;
      try {
        const line = lineSchema.parse(JSON.parse(raw));
        customId = line.custom_id;
        outcome = outcomeOf(line);
      } catch {
        const found = /"custom_id"\s*:\s*"([A-Za-z0-9_-]{1,64})"/.exec(raw)?.[1];
        if (!found) continue; // cannot be placed: its prompt stays absent (recorded as failed by the caller)
        customId = found;
        outcome = { ok: false, failure: { platform, kind: 'failed', reason: `${platform}: the batch result line is not readable` } };
      }
      const known = out.get(customId);
      if (!known || (!known.ok && outcome.ok)) out.set(customId, outcome);
    }
  };

  return {
    platform,
    maxPrompts: OPENAI_BATCH_MAX_REQUESTS,
    completionWindowHours: 24,

    async submit(prompts: readonly BatchPrompt[], label: string) {
      if (!prompts.length) throw new PlatformStop('failed', `${platform}: a batch needs at least one prompt`);
      if (prompts.length > OPENAI_BATCH_MAX_REQUESTS) {
        throw new PlatformStop('failed', `${platform}: ${prompts.length} prompts exceed the ${OPENAI_BATCH_MAX_REQUESTS} requests of one OpenAI batch`);
      }
      const seen = new Set<string>();
      for (const p of prompts) {
        if (!BATCH_CUSTOM_ID.test(p.customId)) throw new PlatformStop('failed', `${platform}: custom id ${JSON.stringify(clip(p.customId, 80))} is not 1-64 of [A-Za-z0-9_-]`);
        if (seen.has(p.customId)) throw new PlatformStop('failed', `${platform}: custom id ${p.customId} is given twice`);
        seen.add(p.customId);
      }
      const jsonl = prompts.map((p) => JSON.stringify({ custom_id: p.customId, method: 'POST', url: OPENAI_BATCH_ENDPOINT, body: platform1Body(p.prompt, s.model) })).join('\n') + '\n';
      const bytes = Buffer.byteLength(jsonl);
      if (bytes > OPENAI_BATCH_MAX_BYTES) {
        throw new PlatformStop('failed', `${platform}: the batch input file would be ${bytes} bytes, over the 200 MB limit of one OpenAI batch (${prompts.length} prompts); submit fewer prompts per batch`);
      }
      const upload = multipartUpload(jsonl, fileNameOf(label));
      const fileText = await ctx.requestText({ url: url('/files'), method: 'POST', headers: { ...headers, 'content-type': upload.contentType }, body: upload.body });
      let file: z.infer<typeof fileSchema>;
      try {
        file = fileSchema.parse(JSON.parse(fileText));
      } catch {
        throw new PlatformStop('failed', `${platform}: the file upload did not answer a File object`);
      }
      const batch = await ctx.request({
        url: url('/batches'),
        method: 'POST',
        headers,
        body: { input_file_id: file.id, endpoint: OPENAI_BATCH_ENDPOINT, completion_window: '24h', metadata: { label: label.slice(0, 512) } },
      }, parseBatch);
      return { id: batch.id };
    },

    async progress(id: string): Promise<BatchProgress> {
      const batch = await getBatch(id);
      // An unknown status is taken as still in progress: the caller gives up at the completion window.
      return { state: ENDED.has(batch.status) ? 'ended' : 'in_progress', vendorStatus: batch.status };
    },

    async results(id: string) {
      const batch = await getBatch(id);
      if (!ENDED.has(batch.status)) {
        throw new PlatformStop('failed', `${platform}: batch ${id} has not ended (${IN_PROGRESS.has(batch.status) ? batch.status : `status ${batch.status}`})`);
      }
      const out = new Map<string, PlatformOutcome>();
      if (batch.output_file_id) readLines(await readFile(batch.output_file_id), out);
      if (batch.error_file_id) readLines(await readFile(batch.error_file_id), out);
      const errors = batch.errors?.data ?? [];
      if (batch.status === 'failed' || errors.length) {
        deps.log.warn('platform batch failed', {
          platform,
          batch: id,
          status: batch.status,
          errors: errors.slice(0, 5).map((e) => ctx.scrub(`${e.line != null ? `line ${e.line}: ` : ''}${describeError(e)}`)),
          results: out.size,
        });
      }
      return out;
    },
  };
}
