/**
 * Parallel's Task API on the platform_5 fake (the client: adapters/external/platforms/
 * platform-5-parallel-task.ts, D228), beside its Responses route: `x-api-key` credentials,
 * POST /v1/tasks/runs answering 202 with a queued run, GET .../result blocking until the run
 * completes (here: at once), GET /v1/tasks/runs/{id} for its status. Errors use the API's
 * ErrorResponse envelope `{"type": "error", "error": {"ref_id", "message"}}`.
 *
 * A deferred answer keeps its run active through the first result read (408, as the API
 * answers when `timeout` passes first); an empty answer makes the run fail: its result is
 * 404 and its status names the error. A run without a text output schema answers the
 * API's auto (JSON) output. Unknown body fields and processors are refused (422).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { isObject, type FakeAnswer, type Json, type VendorFormat, type VendorReply } from './server';

const RUNS_PATH = '/v1/tasks/runs';
const RUN_FIELDS = new Set(['input', 'processor', 'task_spec', 'metadata', 'source_policy', 'advanced_settings', 'previous_interaction_id', 'mcp_servers', 'enable_events', 'webhook']);
const PROCESSOR = /^(lite|base|core|core2x|pro|ultra|ultra2x|ultra4x|ultra8x)(-fast)?$/;

interface StoredRun {
  run_id: string;
  processor: string;
  text: boolean;
  answer: FakeAnswer | null;
  created_at: string;
  resultReads: number;
}

const taskError = (status: number, message: string) => ({ type: 'error', error: { ref_id: randomUUID(), message } });
const reply = (status: number, body: unknown): VendorReply => ({ status, body });

function failed(run: StoredRun): boolean {
  return !run.answer?.text;
}

function runBody(run: StoredRun, status: string): Json {
  return {
    run_id: run.run_id, interaction_id: run.run_id, status, is_active: status === 'queued' || status === 'running',
    processor: run.processor, metadata: null, warnings: null, taskgroup_id: null,
    error: status === 'failed' ? { ref_id: randomUUID(), message: 'The run could not produce an output for this input' } : null,
    created_at: run.created_at, modified_at: new Date().toISOString(),
  };
}

function resultBody(run: StoredRun): Json {
  const answer = run.answer!;
  const citations = answer.citations.map((url, i) => ({ title: `Source ${i + 1}`, url, excerpts: [`An excerpt of source ${i + 1}.`] }));
  const basis = [{ field: 'output', citations, reasoning: 'Read the cited pages and summarised what they say.', confidence: null }];
  return {
    run: runBody(run, 'completed'),
    output: run.text ? { type: 'text', content: answer.text, basis } : { type: 'json', content: { answer: answer.text }, basis: basis.map((b) => ({ ...b, field: 'answer' })) },
  };
}

function createRun(body: unknown, state: Map<string, unknown>, answerFor: (prompt: string) => FakeAnswer | null): VendorReply {
  if (!isObject(body)) return reply(422, taskError(422, 'Unprocessable content: the body must be a JSON object'));
  const unknown = Object.keys(body).find((k) => !RUN_FIELDS.has(k));
  if (unknown) return reply(422, taskError(422, `Unprocessable content: unknown field '${unknown}'`));
  if (typeof body.input !== 'string' || !body.input.trim()) return reply(422, taskError(422, "Unprocessable content: 'input' is required"));
  if (typeof body.processor !== 'string' || !PROCESSOR.test(body.processor)) return reply(422, taskError(422, `Unprocessable content: unknown processor '${String(body.processor)}'`));
  const spec = body.task_spec;
  if (spec !== undefined && spec !== null && (!isObject(spec) || spec.output_schema === undefined)) {
    return reply(422, taskError(422, "Unprocessable content: task_spec.output_schema is required"));
  }
  const schema = isObject(spec) ? spec.output_schema : undefined;
  const text = typeof schema === 'string' || (isObject(schema) && schema.type === 'text');
  const run: StoredRun = { run_id: `trun_${randomBytes(16).toString('hex')}`, processor: body.processor, text, answer: answerFor(body.input), created_at: new Date().toISOString(), resultReads: 0 };
  state.set(`task:${run.run_id}`, run);
  return reply(202, runBody(run, 'queued'));
}

export function parallelTaskRoutes(inner: VendorFormat): VendorFormat {
  return {
    basePath: inner.basePath,
    error: inner.error,
    handle(req, ctx) {
      if (req.path !== RUNS_PATH && !req.path.startsWith(`${RUNS_PATH}/`)) return inner.handle(req, ctx);
      if (req.headers['x-api-key'] !== ctx.key) return reply(401, taskError(401, 'Unauthorized: invalid or missing credentials'));
      if (req.path === RUNS_PATH) {
        if (req.method !== 'POST') return reply(405, taskError(405, 'Method Not Allowed'));
        return createRun(req.body, ctx.state, (prompt) => ctx.answerFor(prompt, ctx.platform));
      }
      const [id, tail, ...rest] = req.path.slice(RUNS_PATH.length + 1).split('/');
      const run = ctx.state.get(`task:${id}`) as StoredRun | undefined;
      if (req.method !== 'GET' || rest.length || (tail !== undefined && tail !== 'result')) return reply(404, taskError(404, `no route ${req.method} ${req.path}`));
      if (tail === undefined) {
        if (!run) return reply(404, taskError(404, 'Run id not found'));
        return reply(200, runBody(run, failed(run) ? 'failed' : run.answer?.deferred && run.resultReads === 0 ? 'running' : 'completed'));
      }
      if (!run || failed(run)) return reply(404, taskError(404, 'Run failed or run id not found'));
      run.resultReads++;
      if (run.answer!.deferred && run.resultReads === 1) return reply(408, taskError(408, 'Request timed out; run still active'));
      return reply(200, resultBody(run));
    },
  };
}
