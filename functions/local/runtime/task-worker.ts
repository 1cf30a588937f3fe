/**
 * One local "Lambda instance" for state-machine tasks: a worker thread with its own module
 * state and its own container, built from the stack's settings, that runs the task modules
 * it is handed (functions/tasks/; task-workers.ts starts it). As on Lambda, a task shares nothing in
 * memory with the API: it reaches the API's process only through what it would reach on AWS
 * (the table, the file stores, the vendors) and the workflow engine, whose `start` and
 * `describe` it calls over the thread's message port. Its log lines are relayed to the main
 * thread, so they reach the same output (and a test's sink) as every other line.
 */
import { basename } from 'node:path';
import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import type { Config } from '../../config';
import { buildContainer, setContainer } from '../../container';
import { createLogger, setLogSink } from '../../logger';
import type { ExecutionDescription, WorkflowName, WorkflowStarter } from '../../ports';
import type { FromWorker, ToWorker, WorkerError } from './task-messages';

interface WorkerSetup {
  config: Config;
  instanceId: string;
}

const port = parentPort!;
const { config, instanceId } = workerData as WorkerSetup;
const post = (message: FromWorker) => port.postMessage(message);

setLogSink((line) => post({ type: 'log', line }));
const log = createLogger({ component: 'task-worker' });

// Calls to the workflow engine wait for its answer on the main thread.
const pending = new Map<number, { resolve(value: unknown): void; reject(err: Error): void }>();
let nextCall = 0;
function callEngine(method: 'start' | 'describe', args: unknown[]): Promise<unknown> {
  const id = nextCall++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    post({ type: 'engine', id, method, args });
  });
}
const workflows: WorkflowStarter = {
  start: async (workflow: WorkflowName, executionId: string, input: Record<string, unknown>) => { await callEngine('start', [workflow, executionId, input]); },
  describe: (workflow: WorkflowName, executionId: string) => callEngine('describe', [workflow, executionId]) as Promise<ExecutionDescription | null>,
  instanceId,
};
setContainer(buildContainer(config, { workflows }));

/** What crosses the thread: the name Step Functions' Retry and Catch match on, the message, own fields. */
function asWorkerError(err: unknown): WorkerError {
  if (!(err instanceof Error)) return { name: 'Error', message: String(err), fields: {} };
  const fields: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(err)) {
    try {
      fields[k] = structuredClone(v);
    } catch {
      // a field that cannot cross the thread stays behind
    }
  }
  return { name: err.name, message: err.message, stack: err.stack, fields };
}

port.on('message', (message: ToWorker) => {
  if (message.type === 'engine-answer') {
    const call = pending.get(message.id);
    pending.delete(message.id);
    if (message.error) call?.reject(Object.assign(new Error(message.error.message), { name: message.error.name }));
    else call?.resolve(message.value);
    return;
  }
  const { id, module, payload } = message;
  const startedAt = performance.now();
  // What Lambda's REPORT line says of an invocation: how long, and how much memory this thread holds.
  const report = (): number => {
    const heap = getHeapStatistics();
    log.debug('task report', { task: basename(module).replace(/\.ts$/, ''), duration_ms: Math.round(performance.now() - startedAt), heap_used_mb: Math.round(heap.used_heap_size / 1048576), heap_total_mb: Math.round(heap.total_heap_size / 1048576) });
    return heap.total_heap_size;
  };
  void (async () => {
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const handler = require(module).handler as (payload: unknown) => Promise<unknown>;
      const output = await handler(payload);
      // Lambda serializes results to JSON; so do we, so nothing local-only slips through.
      post({ type: 'result', id, output: JSON.stringify(output ?? null), heapBytes: report() });
    } catch (err) {
      post({ type: 'result', id, error: asWorkerError(err), heapBytes: report() });
    }
  })();
});
