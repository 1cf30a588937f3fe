/**
 * The Gemini API's Batch Mode on the platform_3 fake (the client: adapters/external/
 * platforms/batch/gemini-batch.ts): models.batchGenerateContent with inline requests (or an input file, below) and
 * batches.get, as documented (https://ai.google.dev/gemini-api/docs/batch-api,
 * https://ai.google.dev/api/batch-mode). Each request is answered, when its batch ends, by
 * the fake's own generateContent handler, so a batch answer is exactly the synchronous one
 * (a non-2xx reply becomes that request's `error`). A batch is BATCH_STATE_PENDING when
 * created, BATCH_STATE_RUNNING while the server holds batches (HOLD_BATCHES), and, released,
 * BATCH_STATE_SUCCEEDED (done, with its inlined responses) at its next read.
 *
 * Input files too (D223): the Files API's resumable upload (start → a session URL on this
 * server; upload, finalize → the stored `files/<id>`), a batch created from `file_name` whose
 * JSONL lines are `{"key", "request"}`, and, when it ends, a responses file of
 * `{"key", "response"|"error"}` lines named by `responsesFile`, read through
 * `GET /download/v1beta/files/<id>:download?alt=media`.
 *
 * Simplifications: no cancel/delete/list, no expiry, no file expiry; an upload is taken in
 * one `upload, finalize` request at offset 0; a wrong key is 401 like the synchronous fake
 * (the real API answers 400 API_KEY_INVALID).
 */
import { randomUUID } from 'node:crypto';
import { HOLD_BATCHES, isObject, type RecordedRequest, type VendorContext, type VendorFormat, type VendorReply, type Json } from './server';


interface InlinedRequest {
  request: Json;
  metadata?: Json;
}

interface StoredBatch {
  name: string;
  /** The input file the requests came from, when created from one. */
  inputFile: string | null;
  /** The model segment of the create path, as sent. */
  model: string;
  displayName: string;
  requests: InlinedRequest[];
  state: 'BATCH_STATE_PENDING' | 'BATCH_STATE_RUNNING' | 'BATCH_STATE_SUCCEEDED';
  createTime: string;
  updateTime: string;
  endTime: string | null;
  /** The responses (inlined, or the lines of the responses file), once ended. */
  responses: Json[] | null;
}

interface StoredFile {
  name: string;
  displayName: string;
  mimeType: string;
  content: string | null;
  createTime: string;
}

const BATCHES = 'gemini:batches';
const FILES = 'gemini:files';
const UPLOAD_PATH = '/upload/v1beta/files';
const DOWNLOAD_PATH = /^\/download\/v1beta\/files\/([^/:]+):download$/;
const CREATE_PATH = /^\/v1beta\/models\/([^/:]+):batchGenerateContent$/;
const GET_PATH = /^\/v1beta\/batches\/([^/]+)$/;
const BATCH_TYPE = 'type.googleapis.com/google.ai.generativelanguage.v1main.GenerateContentBatch';
const OUTPUT_TYPE = 'type.googleapis.com/google.ai.generativelanguage.v1main.GenerateContentBatchOutput';

export function geminiBatchRoutes(inner: VendorFormat): VendorFormat {
  const batchesOf = (ctx: VendorContext): Map<string, StoredBatch> => {
    let batches = ctx.state.get(BATCHES) as Map<string, StoredBatch> | undefined;
    if (!batches) ctx.state.set(BATCHES, (batches = new Map()));
    return batches;
  };
  const filesOf = (ctx: VendorContext): Map<string, StoredFile> => {
    let files = ctx.state.get(FILES) as Map<string, StoredFile> | undefined;
    if (!files) ctx.state.set(FILES, (files = new Map()));
    return files;
  };
  const error = (status: number, message: string): VendorReply => ({ status, body: inner.error(status, message) });
  const fileResource = (f: StoredFile) => ({
    name: f.name, displayName: f.displayName, mimeType: f.mimeType, sizeBytes: String(Buffer.byteLength(f.content ?? '')),
    createTime: f.createTime, updateTime: f.createTime, state: 'ACTIVE', source: f.name.startsWith('files/batch-') ? 'GENERATED' : 'UPLOADED',
  });

  /** The long-running Operation of a batch, as batches.get and batchGenerateContent answer it. */
  const operation = (batch: StoredBatch) => {
    const ended = batch.responses !== null;
    const failed = ended ? batch.responses!.filter((r) => r.error !== undefined).length : 0;
    const output = !ended ? undefined : batch.inputFile ? { responsesFile: responsesFileOf(batch) } : { inlinedResponses: { inlinedResponses: batch.responses } };
    const n = String(batch.requests.length);
    return {
      name: batch.name,
      metadata: {
        '@type': BATCH_TYPE,
        model: `models/${decodeURIComponent(batch.model)}`,
        displayName: batch.displayName,
        ...(output ? { output } : {}),
        createTime: batch.createTime,
        ...(batch.endTime ? { endTime: batch.endTime } : {}),
        updateTime: batch.updateTime,
        batchStats: ended
          ? { requestCount: n, successfulRequestCount: String(batch.requests.length - failed), ...(failed ? { failedRequestCount: String(failed) } : {}) }
          : { requestCount: n, pendingRequestCount: n },
        state: batch.state,
        name: batch.name,
      },
      ...(ended ? { done: true, response: { '@type': OUTPUT_TYPE, ...output } } : {}),
    };
  };

  const responsesFileOf = (batch: StoredBatch) => `files/batch-${batch.name.slice('batches/'.length)}`;

  /** Answers every request through the generateContent handler. */
  const end = (req: RecordedRequest, ctx: VendorContext, batch: StoredBatch) => {
    batch.responses = batch.requests.map(({ request, metadata }) => {
      let reply: VendorReply;
      try {
        reply = inner.handle({ ...req, method: 'POST', path: `/v1beta/models/${batch.model}:generateContent`, body: request, raw: JSON.stringify(request) }, ctx);
      } catch (err) {
        reply = error(500, `fake vendor error: ${(err as Error).message}`);
      }
      const result = reply.status >= 200 && reply.status < 300
        ? { response: reply.body }
        : { error: isObject(reply.body) && isObject(reply.body.error) ? reply.body.error : { code: reply.status, message: `HTTP ${reply.status}` } };
      return { ...result, ...(metadata !== undefined ? { metadata } : {}) };
    });
    if (batch.inputFile) {
      // File input answers as a file: one line a request, its key beside the response or error.
      const lines = batch.responses.map(({ metadata, ...result }) => JSON.stringify({ ...(isObject(metadata) && 'key' in metadata ? { key: metadata.key } : {}), ...result }));
      const name = responsesFileOf(batch);
      filesOf(ctx).set(name, { name, displayName: name, mimeType: 'application/jsonl', content: lines.join('\n') + '\n', createTime: new Date().toISOString() });
    }
    batch.state = 'BATCH_STATE_SUCCEEDED';
    batch.endTime = batch.updateTime = new Date().toISOString();
  };

  const create = (req: RecordedRequest, ctx: VendorContext, model: string): VendorReply => {
    const batch = isObject(req.body) ? req.body.batch : undefined;
    if (!isObject(batch)) return error(400, '* BatchGenerateContentRequest.batch: batch is required');
    const displayName = batch.display_name ?? batch.displayName;
    if (typeof displayName !== 'string' || !displayName) return error(400, '* GenerateContentBatch.display_name: display_name is required');
    const input = batch.input_config ?? batch.inputConfig;
    if (!isObject(input)) return error(400, '* GenerateContentBatch.input_config: input_config is required');
    const fileName = input.file_name ?? input.fileName;
    let requests: unknown;
    if (typeof fileName === 'string') {
      const file = filesOf(ctx).get(fileName);
      if (!file || file.content === null) return error(404, `File ${fileName} not found.`);
      const lines = file.content.split('\n').filter((l) => l.trim());
      try {
        // A file line carries its key beside the request; stored as an inlined request's metadata.
        requests = lines.map((l) => {
          const { key, request } = JSON.parse(l) as Json;
          return { request, ...(key !== undefined ? { metadata: { key } } : {}) };
        });
      } catch {
        return error(400, `* InputConfig.file_name: ${fileName} is not a JSON Lines file`);
      }
    } else {
      requests = isObject(input.requests) ? input.requests.requests : undefined;
    }
    if (!Array.isArray(requests) || requests.length === 0) return error(400, '* InputConfig: requests or file_name is required');
    for (const [i, entry] of requests.entries()) {
      if (!isObject(entry) || !isObject(entry.request)) return error(400, `* InlinedRequests.requests[${i}].request: request is required`);
      if (!Array.isArray(entry.request.contents) || entry.request.contents.length === 0) return error(400, `* GenerateContentRequest.contents: contents is not specified (requests[${i}])`);
      if (entry.metadata !== undefined && !isObject(entry.metadata)) return error(400, `Invalid value at 'batch.input_config.requests.requests[${i}].metadata' (type.googleapis.com/google.protobuf.Struct)`);
    }
    const now = new Date().toISOString();
    const stored: StoredBatch = {
      name: `batches/${randomUUID().replace(/-/g, '')}`,
      inputFile: typeof fileName === 'string' ? fileName : null,
      model,
      displayName,
      requests: requests as InlinedRequest[],
      state: 'BATCH_STATE_PENDING',
      createTime: now,
      updateTime: now,
      endTime: null,
      responses: null,
    };
    batchesOf(ctx).set(stored.name, stored);
    return { status: 200, body: operation(stored) };
  };

  /** media.upload, resumable: `start` opens a session (its URL in x-goog-upload-url), `upload, finalize` stores the bytes. */
  const upload = (req: RecordedRequest, ctx: VendorContext): VendorReply => {
    const command = String(req.headers['x-goog-upload-command'] ?? '').toLowerCase();
    const files = filesOf(ctx);
    if (command === 'start') {
      if (String(req.headers['x-goog-upload-protocol'] ?? '').toLowerCase() !== 'resumable') return error(400, 'the fake takes resumable uploads only');
      const meta = isObject(req.body) && isObject(req.body.file) ? req.body.file : {};
      const id = randomUUID().replace(/-/g, '').slice(0, 12);
      const name = `files/${id}`;
      const displayName = typeof (meta.display_name ?? meta.displayName) === 'string' ? String(meta.display_name ?? meta.displayName) : name;
      files.set(name, { name, displayName, mimeType: String(req.headers['x-goog-upload-header-content-type'] ?? 'application/octet-stream'), content: null, createTime: new Date().toISOString() });
      const origin = `http://${String(req.headers.host)}`;
      return { status: 200, body: '', headers: { 'x-goog-upload-url': `${origin}${UPLOAD_PATH}?upload_id=${id}&upload_protocol=resumable`, 'x-goog-upload-status': 'active' } };
    }
    const file = files.get(`files/${req.query.upload_id ?? ''}`);
    if (!file || file.content !== null) return error(404, 'upload session not found');
    if (command !== 'upload, finalize' || req.headers['x-goog-upload-offset'] !== '0') return error(400, 'the fake takes one `upload, finalize` at offset 0');
    file.content = req.raw;
    return { status: 200, body: { file: fileResource(file) }, headers: { 'x-goog-upload-status': 'final' } };
  };

  const download = (ctx: VendorContext, id: string, alt: string | undefined): VendorReply => {
    const file = filesOf(ctx).get(`files/${id}`);
    if (!file || file.content === null) return error(404, 'Requested entity was not found.');
    if (alt !== 'media') return { status: 200, body: fileResource(file) };
    return { status: 200, body: file.content, headers: { 'content-type': file.mimeType } };
  };

  return {
    basePath: inner.basePath,
    error: inner.error,
    handle(req, ctx) {
      const created = req.method === 'POST' ? CREATE_PATH.exec(req.path) : null;
      const read = req.method === 'GET' ? GET_PATH.exec(req.path) : null;
      const uploading = req.method === 'POST' && req.path === UPLOAD_PATH;
      const downloading = req.method === 'GET' ? DOWNLOAD_PATH.exec(req.path) : null;
      if (!created && !read && !uploading && !downloading) return inner.handle(req, ctx);
      const key = (req.headers['x-goog-api-key'] as string | undefined) ?? req.query.key;
      if (key !== ctx.key) return error(401, 'API key not valid. Please pass a valid API key.');
      if (uploading) return upload(req, ctx);
      if (downloading) return download(ctx, downloading[1]!, req.query.alt);
      if (created) return create(req, ctx, created[1]!);
      const batch = batchesOf(ctx).get(`batches/${read![1]}`);
      if (!batch) return error(404, 'Requested entity was not found.');
      if (batch.responses === null) {
        if (ctx.state.get(HOLD_BATCHES) === true) {
          if (batch.state === 'BATCH_STATE_PENDING') {
            batch.state = 'BATCH_STATE_RUNNING';
            batch.updateTime = new Date().toISOString();
          }
        } else {
          end(req, ctx, batch);
        }
      }
      return { status: 200, body: operation(batch) };
    },
  };
}
