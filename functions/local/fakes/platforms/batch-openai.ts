/**
 * OpenAI's Batch API in front of platform_1's fake Responses endpoint (adapters/external/
 * platforms/batch/openai-batch.ts names the documentation): files are uploaded as
 * multipart/form-data, a batch runs every line of its `.jsonl` input file through the wrapped
 * format's own handler, so a batch answer is the synchronous answer, and its results are read
 * back as JSONL files.
 *
 *   POST /v1/files                   multipart: purpose, file        → File object
 *   GET  /v1/files/{id}              → File object
 *   GET  /v1/files/{id}/content      → the file as uploaded or written (JSONL)
 *   POST /v1/batches                 {input_file_id, endpoint, completion_window, metadata?} → Batch (validating)
 *   GET  /v1/batches/{id}            → Batch; see below
 *   POST /v1/batches/{id}/cancel     → Batch (cancelling)
 *
 * Like the real API, an upload only checks the form (purpose, a `.jsonl` file name): the lines
 * are validated by the batch, which then `failed` with `errors.data[]` naming each bad line
 * (invalid_json_line, missing_required_parameter, url_mismatch, duplicate_custom_id,
 * model_mismatch...). A batch ends at its first status read while the server's batches are not
 * held (`holdBatches(true)`: every batch stays `validating`/`in_progress`/`cancelling`):
 * `completed` with the 2xx answers in the output file and the others (`{"response":
 * {"status_code": 400, "body": {"error": ...}}, "error": null}`) in the error file;
 * `cancelled` with every request in the error file as `batch_cancelled`. Any other request
 * goes to the wrapped format.
 *
 * Simplifications: no file expiry, no `expired` batches, no usage block, results in input
 * order (the real output is in no particular order).
 */
import { randomUUID } from 'node:crypto';
import { bearerOf, HOLD_BATCHES, isObject, type RecordedRequest, type VendorContext, type VendorFormat, type VendorReply, type Json } from './server';


const FILE_PURPOSES = new Set(['assistants', 'batch', 'fine-tune', 'vision', 'user_data', 'evals']);
/** The only batch endpoint this fake answers (the wrapped format is platform_1's Responses API). */
const ENDPOINT = '/v1/responses';
const MAX_REQUESTS = 50_000;

interface StoredFile {
  id: string;
  filename: string;
  purpose: string;
  created_at: number;
  content: string;
}

interface BatchLine {
  custom_id: string;
  url: string;
  body: Json;
}

interface BatchError {
  code: string;
  message: string;
  param: string | null;
  line: number | null;
}

interface StoredBatch {
  /** The Batch object as served. */
  batch: Json & { id: string; status: string };
  lines: BatchLine[];
  /** Why validation fails (empty: the input is valid). */
  invalid: BatchError[];
}

const FILES = 'openai-batch:files';
const BATCHES = 'openai-batch:batches';

function store<T>(ctx: VendorContext, key: string): Map<string, T> {
  let map = ctx.state.get(key) as Map<string, T> | undefined;
  if (!map) {
    map = new Map();
    ctx.state.set(key, map);
  }
  return map;
}

const now = () => Math.floor(Date.now() / 1000);

function fileObject(f: StoredFile): Json {
  return { id: f.id, object: 'file', bytes: Buffer.byteLength(f.content), created_at: f.created_at, filename: f.filename, purpose: f.purpose, status: 'processed', expires_at: null, status_details: null };
}

interface Part {
  name: string;
  filename?: string;
  body: string;
}

/** The parts of a multipart/form-data body, or null when it is not one. */
export function parseMultipart(raw: string, contentType: string): Part[] | null {
  const m = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  if (!/^multipart\/form-data/i.test(contentType) || !m) return null;
  const chunks = raw.split(`--${m[1] ?? m[2]}`);
  if (chunks.length < 2) return null;
  const parts: Part[] = [];
  for (const chunk of chunks.slice(1)) {
    if (chunk.startsWith('--')) return parts;
    const c = chunk.replace(/^\r?\n/, '');
    const sep = /\r?\n\r?\n/.exec(c);
    if (!sep) return null;
    const head = c.slice(0, sep.index);
    const body = c.slice(sep.index + sep[0].length).replace(/\r?\n$/, '');
    const disposition = /content-disposition:\s*form-data;([^\r\n]*)/i.exec(head)?.[1] ?? '';
    const name = /\bname="([^"]*)"/i.exec(disposition)?.[1];
    if (name === undefined) return null;
    const filename = /\bfilename="([^"]*)"/i.exec(disposition)?.[1];
    parts.push({ name, ...(filename !== undefined ? { filename } : {}), body });
  }
  return null; // no closing delimiter
}

/** The lines of a batch input file, and every reason the batch must fail validation. */
function validate(content: string, endpoint: string): { lines: BatchLine[]; invalid: BatchError[] } {
  const lines: BatchLine[] = [];
  const invalid: BatchError[] = [];
  const err = (code: string, message: string, line: number | null, param: string | null = null) => invalid.push({ code, message, param, line });
  const rows = content.split('\n').map((text, i) => ({ text: text.trim(), n: i + 1 })).filter((r) => r.text);
  if (!rows.length) err('empty_file', 'The input file is empty.', null);
  if (rows.length > MAX_REQUESTS) err('too_many_tasks', `The input file has ${rows.length} requests; a batch takes at most ${MAX_REQUESTS}.`, null);
  const ids = new Set<string>();
  let model: unknown;
  for (const { text, n } of rows) {
    let row: unknown;
    try {
      row = JSON.parse(text);
    } catch {
      row = undefined;
    }
    if (!isObject(row)) {
      err('invalid_json_line', 'This line is not parseable as valid JSON.', n);
      continue;
    }
    const missing = (['custom_id', 'method', 'url', 'body'] as const).find((k) => row[k] === undefined);
    if (missing) {
      err('missing_required_parameter', `Missing required parameter: '${missing}'.`, n, missing);
      continue;
    }
    if (typeof row.custom_id !== 'string') {
      err('invalid_value', "'custom_id' must be a string.", n, 'custom_id');
      continue;
    }
    if (row.method !== 'POST') {
      err('invalid_value', "Only the 'POST' method is supported.", n, 'method');
      continue;
    }
    if (row.url !== endpoint) {
      err('url_mismatch', `The url ${JSON.stringify(row.url)} does not match the batch endpoint ${endpoint}.`, n, 'url');
      continue;
    }
    if (!isObject(row.body)) {
      err('invalid_value', "'body' must be an object.", n, 'body');
      continue;
    }
    if (ids.has(row.custom_id)) {
      err('duplicate_custom_id', `The custom_id ${row.custom_id} appears on more than one line.`, n, 'custom_id');
      continue;
    }
    if (lines.length && row.body.model !== model) {
      err('model_mismatch', 'Every request of a batch must use the same model.', n, 'body.model');
      continue;
    }
    ids.add(row.custom_id);
    model = row.body.model;
    lines.push({ custom_id: row.custom_id, url: row.url, body: row.body });
  }
  return { lines, invalid };
}

/** The wrapped format's answer to one line, as the line of an output or error file. */
function answerLine(inner: VendorFormat, req: RecordedRequest, ctx: VendorContext, line: BatchLine): { ok: boolean; json: Json } {
  let reply: VendorReply;
  try {
    reply = inner.handle({ ...req, method: 'POST', path: line.url, query: {}, body: line.body, raw: JSON.stringify(line.body) }, ctx);
  } catch (e) {
    reply = { status: 500, body: inner.error(500, `fake vendor error: ${(e as Error).message}`) };
  }
  let body = reply.body;
  if (typeof body === 'string') {
    try {
      body = JSON.parse(body);
    } catch {
      /* kept as the text it is */
    }
  }
  return {
    ok: reply.status >= 200 && reply.status < 300,
    json: { id: `batch_req_${randomUUID().replace(/-/g, '')}`, custom_id: line.custom_id, response: { status_code: reply.status, request_id: `req_${randomUUID().replace(/-/g, '')}`, body }, error: null },
  };
}

function writeFile(ctx: VendorContext, filename: string, purpose: string, lines: Json[]): string | null {
  if (!lines.length) return null;
  const f: StoredFile = { id: `file-${randomUUID().replace(/-/g, '')}`, filename, purpose, created_at: now(), content: lines.map((l) => JSON.stringify(l)).join('\n') + '\n' };
  store<StoredFile>(ctx, FILES).set(f.id, f);
  return f.id;
}

/** What a status read does to a batch: nothing while held (beyond validating → in_progress), else it ends. */
function advance(inner: VendorFormat, req: RecordedRequest, ctx: VendorContext, stored: StoredBatch): void {
  const b = stored.batch;
  if (!['validating', 'in_progress', 'cancelling'].includes(b.status)) return;
  const t = now();
  if (ctx.state.get(HOLD_BATCHES) === true) {
    if (b.status === 'validating' && !stored.invalid.length) Object.assign(b, { status: 'in_progress', in_progress_at: t });
    return;
  }
  if (b.status === 'cancelling') {
    const errors = stored.lines.map((l) => ({ id: `batch_req_${randomUUID().replace(/-/g, '')}`, custom_id: l.custom_id, response: null, error: { code: 'batch_cancelled', message: 'This request was not executed because the batch was cancelled.' } }));
    Object.assign(b, {
      status: 'cancelled',
      cancelled_at: t,
      error_file_id: writeFile(ctx, `${b.id}_error.jsonl`, 'batch_output', errors),
      request_counts: { total: stored.lines.length, completed: 0, failed: stored.lines.length },
    });
    return;
  }
  if (stored.invalid.length) {
    Object.assign(b, { status: 'failed', failed_at: t, errors: { object: 'list', data: stored.invalid }, request_counts: { total: 0, completed: 0, failed: 0 } });
    return;
  }
  const answered = stored.lines.map((line) => answerLine(inner, req, ctx, line));
  const good = answered.filter((a) => a.ok).map((a) => a.json);
  const bad = answered.filter((a) => !a.ok).map((a) => a.json);
  Object.assign(b, {
    status: 'completed',
    in_progress_at: b.in_progress_at ?? t,
    finalizing_at: t,
    completed_at: t,
    output_file_id: writeFile(ctx, `${b.id}_output.jsonl`, 'batch_output', good),
    error_file_id: writeFile(ctx, `${b.id}_error.jsonl`, 'batch_output', bad),
    request_counts: { total: stored.lines.length, completed: good.length, failed: bad.length },
  });
}

/** platform_1's fake (`inner`) with OpenAI's Files and Batch endpoints in front. */
export function openAiBatchRoutes(inner: VendorFormat): VendorFormat {
  const base = inner.basePath;
  const error = inner.error;
  const fail = (status: number, message: string): VendorReply => ({ status, body: error(status, message) });

  return {
    basePath: base,
    error,
    handle(req, ctx) {
      const rel = req.path.startsWith(`${base}/`) ? req.path.slice(base.length) : null;
      const fileRoute = rel ? /^\/files(?:\/([^/]+)(\/content)?)?$/.exec(rel) : null;
      const batchRoute = rel ? /^\/batches(?:\/([^/]+)(\/cancel)?)?$/.exec(rel) : null;
      if (!fileRoute && !batchRoute) return inner.handle(req, ctx);
      if (bearerOf(req.headers) !== ctx.key) return fail(401, 'Incorrect API key provided.');
      const files = store<StoredFile>(ctx, FILES);
      const batches = store<StoredBatch>(ctx, BATCHES);

      if (fileRoute) {
        const [, id, content] = fileRoute;
        if (!id) {
          if (req.method !== 'POST') return fail(405, `${req.method} is not allowed on ${req.path}`);
          const parts = parseMultipart(req.raw, String(req.headers['content-type'] ?? ''));
          if (!parts) return fail(400, 'The request body must be multipart/form-data.');
          const purpose = parts.find((p) => p.name === 'purpose' && p.filename === undefined)?.body.trim();
          const file = parts.find((p) => p.name === 'file' && p.filename !== undefined);
          if (!purpose) return fail(400, "Missing required parameter: 'purpose'.");
          if (!FILE_PURPOSES.has(purpose)) return fail(400, `Invalid value for 'purpose': ${JSON.stringify(purpose)}.`);
          if (!file) return fail(400, "Missing required parameter: 'file'.");
          if (purpose === 'batch' && !file.filename!.toLowerCase().endsWith('.jsonl')) return fail(400, 'Invalid file format for Batch API. Must be .jsonl');
          const f: StoredFile = { id: `file-${randomUUID().replace(/-/g, '')}`, filename: file.filename!, purpose, created_at: now(), content: file.body };
          files.set(f.id, f);
          return { status: 200, body: fileObject(f) };
        }
        if (req.method !== 'GET') return fail(405, `${req.method} is not allowed on ${req.path}`);
        const f = files.get(decodeURIComponent(id));
        if (!f) return fail(404, `No such File object: ${decodeURIComponent(id)}`);
        return content ? { status: 200, body: f.content, headers: { 'content-type': 'application/octet-stream' } } : { status: 200, body: fileObject(f) };
      }

      const [, id, cancel] = batchRoute!;
      if (!id) {
        if (req.method !== 'POST') return fail(405, `${req.method} is not allowed on ${req.path}`);
        const body = req.body;
        if (!isObject(body)) return fail(400, 'The request body must be a JSON object.');
        for (const k of ['input_file_id', 'endpoint', 'completion_window'] as const) {
          if (typeof body[k] !== 'string') return fail(400, `Missing required parameter: '${k}'.`);
        }
        if (body.endpoint !== ENDPOINT) return fail(400, `Invalid value for 'endpoint': this fake serves ${ENDPOINT} only.`);
        if (body.completion_window !== '24h') return fail(400, "Invalid value for 'completion_window': only '24h' is supported.");
        if (body.metadata !== undefined && body.metadata !== null) {
          const m = body.metadata;
          const ok = isObject(m) && Object.keys(m).length <= 16 && Object.entries(m).every(([k, v]) => k.length <= 64 && typeof v === 'string' && v.length <= 512);
          if (!ok) return fail(400, "Invalid 'metadata': at most 16 string values of at most 512 characters, keys of at most 64.");
        }
        const input = files.get(body.input_file_id as string);
        if (!input) return fail(404, `No such File object: ${body.input_file_id as string}`);
        if (input.purpose !== 'batch') return fail(400, `The input file must have purpose 'batch', not '${input.purpose}'.`);
        const { lines, invalid } = validate(input.content, ENDPOINT);
        const t = now();
        const batch = {
          id: `batch_${randomUUID().replace(/-/g, '')}`,
          object: 'batch',
          endpoint: ENDPOINT,
          errors: null,
          input_file_id: input.id,
          completion_window: '24h',
          status: 'validating',
          output_file_id: null,
          error_file_id: null,
          created_at: t,
          in_progress_at: null,
          expires_at: t + 24 * 3600,
          finalizing_at: null,
          completed_at: null,
          failed_at: null,
          expired_at: null,
          cancelling_at: null,
          cancelled_at: null,
          request_counts: { total: lines.length, completed: 0, failed: 0 },
          metadata: isObject(body.metadata) ? body.metadata : null,
        };
        batches.set(batch.id, { batch, lines, invalid });
        return { status: 200, body: batch };
      }
      const stored = batches.get(decodeURIComponent(id));
      if (!stored) return fail(404, `No such Batch object: ${decodeURIComponent(id)}`);
      if (cancel) {
        if (req.method !== 'POST') return fail(405, `${req.method} is not allowed on ${req.path}`);
        const b = stored.batch;
        if (b.status === 'validating' || b.status === 'in_progress') Object.assign(b, { status: 'cancelling', cancelling_at: now() });
        else if (b.status !== 'cancelling') return fail(409, `Cannot cancel a batch with status ${b.status}.`);
        return { status: 200, body: b };
      }
      if (req.method !== 'GET') return fail(405, `${req.method} is not allowed on ${req.path}`);
      advance(inner, req, ctx, stored);
      return { status: 200, body: stored.batch };
    },
  };
}
