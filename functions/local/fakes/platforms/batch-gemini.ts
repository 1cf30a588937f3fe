/**
 * The Gemini API's Batch Mode on the platform_3 fake (the client: adapters/external/
 * platforms/batch/gemini-batch.ts): models.batchGenerateContent with inline requests and
 * batches.get, as documented (https://ai.google.dev/gemini-api/docs/batch-api,
 * https://ai.google.dev/api/batch-mode). Each request is answered, when its batch ends, by
 * the fake's own generateContent handler, so a batch answer is exactly the synchronous one
 * (a non-2xx reply becomes that request's `error`). A batch is BATCH_STATE_PENDING when
 * created, BATCH_STATE_RUNNING while the server holds batches (HOLD_BATCHES), and, released,
 * BATCH_STATE_SUCCEEDED (done, with its inlined responses) at its next read.
 *
 * Simplifications: no input files (`file_name`), no cancel/delete/list, no expiry; a wrong
 * key is 401 like the synchronous fake (the real API answers 400 API_KEY_INVALID).
 */
import { randomUUID } from 'node:crypto';
import { HOLD_BATCHES, type RecordedRequest, type VendorContext, type VendorFormat, type VendorReply } from './server';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

interface InlinedRequest {
  request: Json;
  metadata?: Json;
}

interface StoredBatch {
  name: string;
  /** The model segment of the create path, as sent. */
  model: string;
  displayName: string;
  requests: InlinedRequest[];
  state: 'BATCH_STATE_PENDING' | 'BATCH_STATE_RUNNING' | 'BATCH_STATE_SUCCEEDED';
  createTime: string;
  updateTime: string;
  endTime: string | null;
  /** The inlined responses, once ended. */
  responses: Json[] | null;
}

const BATCHES = 'gemini:batches';
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
  const error = (status: number, message: string): VendorReply => ({ status, body: inner.error(status, message) });

  /** The long-running Operation of a batch, as batches.get and batchGenerateContent answer it. */
  const operation = (batch: StoredBatch) => {
    const ended = batch.responses !== null;
    const failed = ended ? batch.responses!.filter((r) => r.error !== undefined).length : 0;
    const output = ended ? { inlinedResponses: { inlinedResponses: batch.responses } } : undefined;
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
    const requests = isObject(input.requests) ? input.requests.requests : undefined;
    if (!Array.isArray(requests) || requests.length === 0) return error(400, '* InputConfig.requests: requests is required (the fake takes inline requests only)');
    for (const [i, entry] of requests.entries()) {
      if (!isObject(entry) || !isObject(entry.request)) return error(400, `* InlinedRequests.requests[${i}].request: request is required`);
      if (!Array.isArray(entry.request.contents) || entry.request.contents.length === 0) return error(400, `* GenerateContentRequest.contents: contents is not specified (requests[${i}])`);
      if (entry.metadata !== undefined && !isObject(entry.metadata)) return error(400, `Invalid value at 'batch.input_config.requests.requests[${i}].metadata' (type.googleapis.com/google.protobuf.Struct)`);
    }
    const now = new Date().toISOString();
    const stored: StoredBatch = {
      name: `batches/${randomUUID().replace(/-/g, '')}`,
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

  return {
    basePath: inner.basePath,
    error: inner.error,
    handle(req, ctx) {
      const created = req.method === 'POST' ? CREATE_PATH.exec(req.path) : null;
      const read = req.method === 'GET' ? GET_PATH.exec(req.path) : null;
      if (!created && !read) return inner.handle(req, ctx);
      const key = (req.headers['x-goog-api-key'] as string | undefined) ?? req.query.key;
      if (key !== ctx.key) return error(401, 'API key not valid. Please pass a valid API key.');
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
