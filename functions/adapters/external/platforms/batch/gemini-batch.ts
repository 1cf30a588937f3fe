/**
 * platform_3's daily checks through the Gemini API's Batch Mode (50% of the generateContent
 * price), with inline requests or an input file (D223): each request is exactly the synchronous generateContent body
 * (platform3Body), its result parsed by the same code as the synchronous answer.
 * Sources checked: https://ai.google.dev/gemini-api/docs/batch-mode (now
 * https://ai.google.dev/gemini-api/docs/batch-api: inline requests for batches whose total
 * request stays under 20 MB; target turnaround 24 hours; a batch running or pending for more
 * than 48 hours expires, without results) and https://ai.google.dev/api/batch-mode
 * (models.batchGenerateContent, batches.get, GenerateContentBatch, InlinedRequest,
 * InlinedResponse, BatchState). The guide's REST example writes the body in snake_case, as
 * here; the `@type` values and the copy of the output under `metadata.output` are from
 * recorded API answers, not from the reference pages.
 *
 *   POST {url}/v1beta/models/{model}:batchGenerateContent   x-goog-api-key
 *   {"batch": {"display_name": "<label>", "input_config": {"requests": {"requests": [
 *     {"request": {<generateContent body>}, "metadata": {"key": "<customId>"}}, ...]}}}}
 *   200 {"name": "batches/<id>", "metadata": {"@type": "type.googleapis.com/google.ai.generativelanguage.v1main.GenerateContentBatch",
 *        "model": "models/<model>", "displayName": "<label>", "state": "BATCH_STATE_PENDING", ...}}
 *
 *   GET {url}/v1beta/batches/<id>   → the long-running Operation:
 *   {"name": "batches/<id>", "metadata": {..., "state": "BATCH_STATE_PENDING | _RUNNING | _SUCCEEDED | _FAILED | _CANCELLED | _EXPIRED",
 *                                         "output": {"inlinedResponses": {"inlinedResponses": [...]}}},
 *    "done": true,
 *    "response": {"@type": "type.googleapis.com/google.ai.generativelanguage.v1main.GenerateContentBatchOutput",
 *                 "inlinedResponses": {"inlinedResponses": [
 *                   {"response": {<GenerateContentResponse>}, "metadata": {"key": "<customId>"}},
 *                   {"error": {"code": 400, "message": "...", "status": "INVALID_ARGUMENT"}, "metadata": {"key": "<customId>"}}]}}}
 *
 * The batch id is the operation's name, `batches/<id>`. Results are read from `response`
 * (from `metadata.output` when an answer has only that copy); an entry without its key
 * cannot be placed and is left out (the caller records its prompt as failed), as is every
 * prompt of a batch that failed or expired without results.
 *
 * Size: a finished inline batch comes back whole in one GET, every answer twice
 * (metadata.output and response), and a grounded answer is some 10-20 KB (text, grounding
 * chunks with their redirect links, supports repeating the text, the search entry point's
 * HTML). So up to GEMINI_INLINE_MAX_PROMPTS a batch goes inline (one request, one GET of
 * 5-10 MB); above it, as documented for larger batches, as a JSONL input file, and its
 * answers come back as a JSONL responses file, each answer once, read with its own cap (D223):
 *
 *   POST {url}/upload/v1beta/files   (Files API, resumable upload, two requests)
 *     x-goog-upload-protocol: resumable, x-goog-upload-command: start,
 *     x-goog-upload-header-content-length: <bytes>, x-goog-upload-header-content-type: application/jsonl
 *     {"file": {"display_name": "<label>"}}
 *   200, header x-goog-upload-url: <session URL on the same host>
 *   POST <session URL>   x-goog-upload-command: upload, finalize, x-goog-upload-offset: 0
 *     one line a request: {"key": "<customId>", "request": {<generateContent body>}}
 *   200 {"file": {"name": "files/<id>", "mimeType": "application/jsonl", "state": "ACTIVE", ...}}
 *   POST {url}/v1beta/models/{model}:batchGenerateContent
 *     {"batch": {"display_name": "<label>", "input_config": {"file_name": "files/<id>"}}}
 *   ended: "response": {"@type": "...GenerateContentBatchOutput", "responsesFile": "files/<id>"}
 *   GET {url}/download/v1beta/files/<id>:download?alt=media
 *     one line a request: {"key": "<customId>", "response": {<GenerateContentResponse>}}
 *                      or {"key": "<customId>", "error": {<google.rpc.Status>}}
 * Sources: https://ai.google.dev/gemini-api/docs/batch-api (input file, output file),
 * https://ai.google.dev/api/files (media.upload) and the Files API's resumable protocol as
 * the SDKs speak it; the download route as the SDKs' files.download calls it.
 * The session URL is used only on the configured API's origin, so a vendor answer cannot
 * send the file (or the key) elsewhere.
 */
import * as z from 'zod/mini';
import type { PlatformOutcome } from '../../../../core/visibility/platform-answer';
import { BATCH_CUSTOM_ID, type BatchPrompt, type PlatformBatchClient } from '../../../../core/visibility/platform-batch';
import { parsePlatform3Response, platform3Answer, PLATFORM_3, platform3Body } from '../platform-3-gemini';
import { answerOf, configuredSettings, endpointUrl, failureOf, hostOf, malformed, parseBody, platformContext, PlatformStop, sameOrigin, type PlatformDeps, type PlatformSettings } from '../shared';

/** Prompts sent inline: bounded by the size of the finished batch's one GET (see the header). */
export const GEMINI_INLINE_MAX_PROMPTS = 500;
/**
 * Prompts per batch (file input): the responses file is read whole, and 2,000 grounded answers
 * are some 20-40 MB, well inside a collecting Lambda's memory. The jobs' own cap (1,000 checks) binds first.
 */
export const GEMINI_BATCH_MAX_PROMPTS = 2000;
/** The most a responses file may hold (2,000 answers at an unusually large 64 KB each). */
const GEMINI_RESPONSES_FILE_MAX_CHARS = 128 * 1024 * 1024;
/** Documented: inline requests for batches whose total request size stays under 20 MB. */
const GEMINI_INLINE_MAX_BYTES = 20_000_000;
/** The most a batch's GET may return (the default cap of a vendor answer is 4 MiB). */
const GEMINI_BATCH_MAX_RESPONSE_CHARS = 64 * 1024 * 1024;
/** Documented: a batch running or pending for more than 48 hours expires (24 hours is only the target turnaround). */
const GEMINI_BATCH_EXPIRY_HOURS = 48;

const ENDED_STATES = new Set(['SUCCEEDED', 'FAILED', 'CANCELLED', 'EXPIRED']);
const BATCH_NAME = /^batches\/([A-Za-z0-9_-]+)$/;

const outputSchema = z.object({
  inlinedResponses: z.optional(z.object({ inlinedResponses: z.optional(z.array(z.unknown())) })),
  responsesFile: z.optional(z.string()),
});
const uploadedSchema = z.object({ file: z.object({ name: z.string() }) });
const FILE_NAME = /^files\/([A-Za-z0-9_-]+)$/;
const statusSchema = z.object({ code: z.optional(z.number()), message: z.optional(z.string()), status: z.optional(z.string()) });
const operationSchema = z.object({
  name: z.optional(z.string()),
  done: z.optional(z.boolean()),
  metadata: z.optional(z.object({ state: z.optional(z.string()), output: z.optional(outputSchema) })),
  response: z.optional(outputSchema),
  error: z.optional(statusSchema),
});
const entrySchema = z.object({
  /** An inlined response carries its key in metadata; a responses file line, as `key`. */
  key: z.optional(z.unknown()),
  metadata: z.optional(z.object({ key: z.optional(z.unknown()) })),
  response: z.optional(z.unknown()),
  /** A google.rpc.Status ({code, message, status}); read leniently, its words only name the failure. */
  error: z.optional(z.unknown()),
});
type Operation = z.infer<typeof operationSchema>;
type Entry = z.infer<typeof entrySchema>;

/** `BATCH_STATE_SUCCEEDED` (the REST state) or `JOB_STATE_SUCCEEDED` (the SDKs' word) → `SUCCEEDED`. */
const stateWord = (state: string | undefined) => (state ?? '').replace(/^(BATCH|JOB)_STATE_/, '');
const hasEnded = (op: Operation) => op.done === true || ENDED_STATES.has(stateWord(op.metadata?.state));
const vendorStatusOf = (op: Operation) => op.metadata?.state ?? (op.done ? 'done' : 'unknown');

/** The batch's display name (required by the API). */
const batchLabel = (label: string) => label.trim() || 'visibility checks';

/** The API's root: the configured URL without a trailing version (the Files API's upload and download paths start above it). */
const apiRoot = (apiUrl: string) => apiUrl.trim().replace(/\/+$/, '').replace(/\/v1(beta)?$/, '');

export function createGeminiBatchClient(settings: PlatformSettings | undefined, deps: PlatformDeps): PlatformBatchClient | null {
  // On Gemini on Vertex AI (D239) batch inference reads and writes Cloud Storage: not built, so platform_3 stays synchronous.
  if (settings?.vertexProject) return null;
  const s = configuredSettings(PLATFORM_3, settings);
  if (!s) return null;
  const platform = 'platform_3' as const;
  const ctx = platformContext(platform, [s.apiKey], hostOf(s.apiUrl), deps);
  const headers = { 'x-goog-api-key': s.apiKey! };
  const parseOperation = parseBody(operationSchema, 'not a batch operation');

  const batchPath = (id: string): string => {
    const m = BATCH_NAME.exec(id.startsWith('batches/') ? id : `batches/${id}`);
    if (!m) throw new Error(`${platform}: not a Gemini batch id: ${JSON.stringify(id.slice(0, 80))}`);
    return `/v1beta/batches/${m[1]}`;
  };

  /** The batch's operation, read with a cap that fits a finished batch's inline answers. */
  const readOperation = async (id: string): Promise<Operation> => {
    const path = batchPath(id);
    const text = await ctx.requestText({ url: endpointUrl(s.apiUrl, path), method: 'GET', headers }, { maxChars: GEMINI_BATCH_MAX_RESPONSE_CHARS });
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new PlatformStop('failed', `${platform}: the batch ${id} answer is not JSON`);
    }
    return parseOperation(json);
  };

  const inlineInput = (prompts: readonly BatchPrompt[]) => ({
    requests: { requests: prompts.map((p) => ({ request: platform3Body(p.prompt), metadata: { key: p.customId } })) },
  });

  /**
   * The prompts as a JSONL file through the Files API's resumable upload; its `files/<id>` name.
   * A failed upload is tried once more in a fresh session: a retried `upload, finalize` may
   * meet a session the first attempt already finalized (its answer lost).
   */
  const uploadInput = async (prompts: readonly BatchPrompt[], label: string): Promise<string> => {
    const jsonl = prompts.map((p) => JSON.stringify({ key: p.customId, request: platform3Body(p.prompt) })).join('\n') + '\n';
    try {
      return await uploadSession(jsonl, label);
    } catch (err) {
      deps.log.warn('platform batch upload failed; retrying in a fresh session', { platform, reason: ctx.scrub((err as Error).message) });
      return uploadSession(jsonl, label);
    }
  };

  const uploadSession = async (jsonl: string, label: string): Promise<string> => {
    const bytes = Buffer.byteLength(jsonl);
    const session = await ctx.requestHeader({
      url: `${apiRoot(s.apiUrl)}/upload/v1beta/files`,
      method: 'POST',
      headers: {
        ...headers,
        'content-type': 'application/json',
        'x-goog-upload-protocol': 'resumable',
        'x-goog-upload-command': 'start',
        'x-goog-upload-header-content-length': String(bytes),
        'x-goog-upload-header-content-type': 'application/jsonl',
      },
      body: JSON.stringify({ file: { display_name: batchLabel(label) } }),
    }, 'x-goog-upload-url');
    if (!session) throw new PlatformStop('failed', `${platform}: the Files API started no upload session (no x-goog-upload-url header)`);
    if (!sameOrigin(session, s.apiUrl)) throw new PlatformStop('failed', `${platform}: the Files API's upload session is not on ${hostOf(s.apiUrl)}; not sent`);
    const text = await ctx.requestText({
      url: session,
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/jsonl', 'x-goog-upload-command': 'upload, finalize', 'x-goog-upload-offset': '0' },
      body: jsonl,
    });
    let name: string;
    try {
      name = uploadedSchema.parse(JSON.parse(text)).file.name;
    } catch {
      throw new PlatformStop('failed', `${platform}: the Files API's upload answer names no file`);
    }
    if (!FILE_NAME.test(name)) throw new PlatformStop('failed', `${platform}: the Files API answered an unexpected file name ${JSON.stringify(name.slice(0, 80))}`);
    return name;
  };

  /** The lines of a responses file, downloaded once. */
  const readResponsesFile = async (file: string): Promise<unknown[]> => {
    const m = FILE_NAME.exec(file);
    if (!m) throw new PlatformStop('failed', `${platform}: not a Gemini file name: ${JSON.stringify(file.slice(0, 80))}`);
    const text = await ctx.requestText(
      { url: `${apiRoot(s.apiUrl)}/download/v1beta/files/${m[1]}:download?alt=media`, method: 'GET', headers, accept: 'application/jsonl, application/json, */*' },
      { maxChars: GEMINI_RESPONSES_FILE_MAX_CHARS },
    );
    const lines: unknown[] = [];
    for (const raw of text.split('\n')) {
      if (!raw.trim()) continue;
      try {
        lines.push(JSON.parse(raw));
      } catch {
        // a line that cannot be read cannot be placed: its prompt is recorded as missing
      }
    }
    return lines;
  };

  const outcomeOf = (entry: Entry): PlatformOutcome => {
    try {
      if (entry.error !== undefined && entry.error !== null) {
        const e = (typeof entry.error === 'object' ? entry.error : { message: String(entry.error) }) as Record<string, unknown>;
        const words = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');
        const what = [words(e.code), words(e.status)].filter(Boolean).join(' ');
        const detail = [what, words(e.message).slice(0, 300)].filter(Boolean).join(': ');
        throw new PlatformStop('failed', `${platform}: the batch request failed${detail ? ` (${detail})` : ''}`);
      }
      if (entry.response === undefined) throw new PlatformStop('failed', `${platform}: the batch sent neither a response nor an error for the request`);
      return { ok: true, answer: answerOf(platform, platform3Answer(parsePlatform3Response(entry.response), 'generateContent (batch)'), 0) };
    } catch (err) {
      return { ok: false, failure: failureOf(platform, err, ctx.scrub) };
    }
  };

  return {
    platform,
    maxPrompts: GEMINI_BATCH_MAX_PROMPTS,
    completionWindowHours: GEMINI_BATCH_EXPIRY_HOURS,
    async submit(prompts: readonly BatchPrompt[], label: string) {
      if (prompts.length === 0) throw new Error(`${platform}: a batch needs at least one prompt`);
      if (prompts.length > GEMINI_BATCH_MAX_PROMPTS) throw new Error(`${platform}: ${prompts.length} prompts exceed the ${GEMINI_BATCH_MAX_PROMPTS} of one batch`);
      const seen = new Set<string>();
      for (const p of prompts) {
        if (!BATCH_CUSTOM_ID.test(p.customId)) throw new Error(`${platform}: invalid batch customId ${JSON.stringify(p.customId.slice(0, 80))}`);
        if (seen.has(p.customId)) throw new Error(`${platform}: duplicate batch customId ${p.customId}`);
        seen.add(p.customId);
      }
      const inputConfig = prompts.length <= GEMINI_INLINE_MAX_PROMPTS
        ? inlineInput(prompts)
        : { file_name: await uploadInput(prompts, label) };
      const body = { batch: { display_name: batchLabel(label), input_config: inputConfig } };
      if (Buffer.byteLength(JSON.stringify(body)) >= GEMINI_INLINE_MAX_BYTES) throw new Error(`${platform}: ${prompts.length} requests exceed the 20 MB of an inline batch`);
      const op = await ctx.request(
        { url: endpointUrl(s.apiUrl, `/v1beta/models/${encodeURIComponent(s.model!)}:batchGenerateContent`), method: 'POST', headers, body },
        (json) => {
          const name = parseOperation(json).name;
          if (!name || !BATCH_NAME.test(name)) throw malformed('the batch operation has no batches/<id> name');
          return name;
        },
      );
      return { id: op };
    },
    async progress(id) {
      const op = await readOperation(id);
      return { state: hasEnded(op) ? 'ended' : 'in_progress', vendorStatus: vendorStatusOf(op) };
    },
    async results(id) {
      const op = await readOperation(id);
      if (!hasEnded(op)) throw new Error(`${platform}: batch ${id} has not ended (${vendorStatusOf(op)})`);
      const file = op.response?.responsesFile ?? op.metadata?.output?.responsesFile;
      const entries = file ? await readResponsesFile(file) : (op.response?.inlinedResponses?.inlinedResponses ?? op.metadata?.output?.inlinedResponses?.inlinedResponses ?? []);
      if (entries.length === 0 && (op.error || stateWord(op.metadata?.state) !== 'SUCCEEDED')) {
        deps.log.warn('platform batch ended without results', {
          platform,
          batch: id,
          vendorStatus: vendorStatusOf(op),
          reason: op.error ? ctx.scrub(`${op.error.code ?? ''} ${op.error.message ?? ''}`.trim()) : undefined,
        });
      }
      const out = new Map<string, PlatformOutcome>();
      for (const raw of entries) {
        const parsed = entrySchema.safeParse(raw);
        if (!parsed.success) continue; // cannot be placed; its prompt is recorded as missing
        const key = parsed.data.key ?? parsed.data.metadata?.key;
        if (typeof key !== 'string' || !key) continue;
        out.set(key, outcomeOf(parsed.data));
      }
      return out;
    },
  };
}
