/**
 * Anthropic's Message Batches on the platform_2 fake (the client: adapters/external/
 * platforms/batch/anthropic-batch.ts): create, retrieve and results, as documented. Each
 * request is answered, when its batch ends, by the fake's own Messages handler, so a batch
 * answer is exactly the synchronous one. While the server holds batches (HOLD_BATCHES) a
 * batch stays in_progress; released, it ends at its next retrieval.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { bearerOf, HOLD_BATCHES, type RecordedRequest, type VendorContext, type VendorFormat, type VendorReply } from './server';

/**
 * The Claude API's credentials (`x-api-key`), or Claude Platform on AWS's (D235): the workspace
 * API key as a bearer token with the `anthropic-workspace-id` it targets. The refusal's status
 * and message, or null.
 */
export function anthropicCredentialsRefusal(headers: IncomingHttpHeaders, key: string | undefined): { status: number; message: string } | null {
  // Each scheme on its own: the one the request chose is the one checked.
  if (headers.authorization === undefined) return headers['x-api-key'] === key ? null : { status: 401, message: 'invalid x-api-key' };
  if (bearerOf(headers) !== key) return { status: 401, message: 'invalid bearer token' };
  return headers['anthropic-workspace-id'] ? null : { status: 400, message: 'anthropic-workspace-id: header is required' };
}

interface StoredBatch {
  id: string;
  requests: Array<{ custom_id: string; params: unknown }>;
  created_at: string;
  ended_at: string | null;
  /** The JSONL results, once ended. */
  results: string | null;
}

const BATCHES = 'anthropic:batches';
const BATCH_PATH = /^\/v1\/messages\/batches\/([^/]+)(\/results)?$/;
const CUSTOM_ID = /^[a-zA-Z0-9_-]{1,64}$/;

export function anthropicBatchRoutes(inner: VendorFormat): VendorFormat {
  const batchesOf = (ctx: VendorContext): Map<string, StoredBatch> => {
    let batches = ctx.state.get(BATCHES) as Map<string, StoredBatch> | undefined;
    if (!batches) ctx.state.set(BATCHES, (batches = new Map()));
    return batches;
  };
  const error = (status: number, message: string): VendorReply => ({ status, body: inner.error(status, message) });

  const view = (req: RecordedRequest, batch: StoredBatch) => {
    const ended = batch.results !== null;
    const origin = `http://${req.headers.host}`;
    return {
      id: batch.id,
      type: 'message_batch',
      processing_status: ended ? 'ended' : 'in_progress',
      request_counts: ended ? countsOf(batch.results!) : { processing: batch.requests.length, succeeded: 0, errored: 0, canceled: 0, expired: 0 },
      ended_at: batch.ended_at,
      created_at: batch.created_at,
      expires_at: new Date(Date.parse(batch.created_at) + 24 * 3600_000).toISOString(),
      cancel_initiated_at: null,
      results_url: ended ? `${origin}/v1/messages/batches/${batch.id}/results` : null,
    };
  };

  /** Answers every request through the Messages handler and keeps the results file. */
  const end = (req: RecordedRequest, ctx: VendorContext, batch: StoredBatch) => {
    const lines = batch.requests.map(({ custom_id, params }) => {
      const reply = inner.handle({ ...req, method: 'POST', path: '/v1/messages', body: params, raw: JSON.stringify(params) }, ctx);
      const result = reply.status >= 200 && reply.status < 300
        ? { type: 'succeeded', message: reply.body }
        : { type: 'errored', error: reply.body };
      return JSON.stringify({ custom_id, result });
    });
    batch.results = `${lines.join('\n')}\n`;
    batch.ended_at = new Date().toISOString();
  };

  return {
    basePath: inner.basePath,
    error: inner.error,
    handle(req, ctx) {
      const isBatchPath = req.path === '/v1/messages/batches' || BATCH_PATH.test(req.path);
      if (!isBatchPath) return inner.handle(req, ctx);
      const refused = anthropicCredentialsRefusal(req.headers, ctx.key);
      if (refused) return error(refused.status, refused.message);
      if (!req.headers['anthropic-version']) return error(400, 'anthropic-version: header is required');
      const batches = batchesOf(ctx);
      if (req.path === '/v1/messages/batches') {
        if (req.method !== 'POST') return error(405, `${req.method} not allowed`);
        const requests = (req.body as { requests?: unknown } | undefined)?.requests;
        if (!Array.isArray(requests) || requests.length === 0) return error(400, 'requests: at least one request is required');
        const seen = new Set<string>();
        for (const r of requests as Array<{ custom_id?: unknown; params?: unknown }>) {
          if (typeof r?.custom_id !== 'string' || !CUSTOM_ID.test(r.custom_id)) return error(400, 'requests.custom_id: must match ^[a-zA-Z0-9_-]{1,64}$');
          if (seen.has(r.custom_id)) return error(400, `requests: custom_id ${r.custom_id} is not unique`);
          seen.add(r.custom_id);
          if (typeof r.params !== 'object' || r.params === null) return error(400, 'requests.params: an object is required');
        }
        const batch: StoredBatch = { id: `msgbatch_${randomUUID().replace(/-/g, '')}`, requests: requests as StoredBatch['requests'], created_at: new Date().toISOString(), ended_at: null, results: null };
        batches.set(batch.id, batch);
        return { status: 200, body: view(req, batch) };
      }
      const [, id, results] = BATCH_PATH.exec(req.path)!;
      const batch = batches.get(id!);
      if (!batch) return error(404, `batch ${id} not found`);
      if (req.method !== 'GET') return error(405, `${req.method} not allowed`);
      if (results) {
        if (batch.results === null) return error(400, `batch ${id} has not ended; its results are not ready`);
        return { status: 200, body: batch.results, headers: { 'content-type': 'application/x-jsonl' } };
      }
      if (batch.results === null && ctx.state.get(HOLD_BATCHES) !== true) end(req, ctx, batch);
      return { status: 200, body: view(req, batch) };
    },
  };
}

function countsOf(jsonl: string) {
  const counts = { processing: 0, succeeded: 0, errored: 0, canceled: 0, expired: 0 };
  for (const line of jsonl.split('\n').filter(Boolean)) {
    const type = (JSON.parse(line) as { result: { type: keyof typeof counts } }).result.type;
    counts[type] += 1;
  }
  return counts;
}
