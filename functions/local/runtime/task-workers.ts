/**
 * The local stand-in for Lambda's isolation of task invocations: state-machine tasks run on
 * worker threads (task-worker.ts), never on the event loop that serves the API, so a status
 * poll answers while a 20,000-product step computes (issue 34). Like Lambda instances, a
 * worker is started when every running one is busy (up to `max`; past that the least busy
 * one takes the invocation too), keeps its modules warm between invocations, shares no
 * memory with the API, and is retired once idle with a heap past RECYCLE_HEAP_BYTES. An
 * invocation past the task Lambdas' timeout fails with Lambda's `Sandbox.Timedout` and its
 * thread is ended, so it does no more work: a retry never runs beside it (D232).
 */
import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import type { Config } from '../../config';
import { relayLogLine } from '../../logger';
import type { WorkflowStarter } from '../../ports';
import { TASK_MEMORY_MB, TASK_TIMEOUT_SECONDS } from '../../core/workflows';
import type { FromWorker, ToWorker, WorkerError } from './task-messages';

/**
 * A thread idle with a heap larger than this is ended (as Lambda retires instances), so the
 * memory a big step grew to goes back before the next one runs; a new thread costs ~1 s.
 */
const RECYCLE_HEAP_BYTES = 256 * 1024 * 1024;

/** The worker's entry is TypeScript: it loads through tsx's require hook, as `npm start` loads everything. */
// The main thread has printed the AWS SDK's Node-version notice once already.
const BOOTSTRAP = `process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const { workerData } = require('node:worker_threads');
require(workerData.tsx).register();
require(workerData.entry);`;
const ENTRY = join(__dirname, 'task-worker.ts');
// Resolved here: an eval'd worker would resolve bare names from the process's working directory.
const TSX = require.resolve('tsx/cjs/api');

export interface TaskWorkersOptions {
  /** The settings every worker builds its container from (the stack's own). */
  config: Config;
  /** The workflow engine a task's `start` and `describe` reach (the local runner). */
  engine: Required<Pick<WorkflowStarter, 'start' | 'describe' | 'instanceId'>>;
  /** Workers at most (default 4). */
  max?: number;
  /** Each worker's memory, as a task Lambda's (default TASK_MEMORY_MB). */
  memoryMb?: number;
  /** An invocation's time, as a task Lambda's (default TASK_TIMEOUT_SECONDS). */
  timeoutSeconds?: number;
}

/**
 * The old generation Lambda's Node runtime gives a function of `memoryMb` (its bootstrap sets
 * --max-old-space-size to about 90% of the function's memory); past it the task dies, here as there.
 */
export const oldGenerationMbOf = (memoryMb: number): number => Math.floor(memoryMb * 0.9);

export interface TaskWorkers {
  /** Runs the `handler` of the task module at `modulePath` with `payload`: its output, or its error. */
  invoke(modulePath: string, payload: unknown): Promise<unknown>;
  /** Threads started so far (tests, the bench). */
  readonly started: number;
  close(): Promise<void>;
}

interface Running {
  worker: Worker;
  inFlight: Map<number, { resolve(value: unknown): void; reject(err: Error): void }>;
}

/** The error a task threw, rebuilt on this side with the name the engine matches on. */
function rebuilt(error: WorkerError): Error {
  return Object.assign(new Error(error.message), error.fields, { name: error.name, stack: error.stack });
}

export function createTaskWorkers(options: TaskWorkersOptions): TaskWorkers {
  const max = options.max ?? 4;
  const pool: Running[] = [];
  let nextId = 0;
  let started = 0;
  let closed = false;

  const answerEngine = async (worker: Worker, message: Extract<FromWorker, { type: 'engine' }>) => {
    const send = (answer: ToWorker) => { if (pool.some((r) => r.worker === worker)) worker.postMessage(answer); };
    try {
      const [workflow, executionId, input] = message.args as [never, string, Record<string, unknown>];
      const value = message.method === 'start'
        ? await options.engine.start(workflow, executionId, input)
        : await options.engine.describe(workflow, executionId);
      send({ type: 'engine-answer', id: message.id, value });
    } catch (err) {
      send({ type: 'engine-answer', id: message.id, error: { name: (err as Error).name, message: (err as Error).message } });
    }
  };

  const spawn = (): Running => {
    const worker = new Worker(BOOTSTRAP, {
      eval: true,
      workerData: { entry: ENTRY, tsx: TSX, config: options.config, instanceId: options.engine.instanceId },
      resourceLimits: { maxOldGenerationSizeMb: oldGenerationMbOf(options.memoryMb ?? TASK_MEMORY_MB) },
    });
    worker.unref();
    const running: Running = { worker, inFlight: new Map() };
    worker.on('message', (message: FromWorker) => {
      if (message.type === 'log') relayLogLine(message.line);
      else if (message.type === 'engine') void answerEngine(worker, message);
      else {
        const call = running.inFlight.get(message.id);
        running.inFlight.delete(message.id);
        if (message.error) call?.reject(rebuilt(message.error));
        else call?.resolve(JSON.parse(message.output ?? 'null'));
        if (running.inFlight.size === 0 && message.heapBytes > RECYCLE_HEAP_BYTES) recycle(running);
      }
    });
    // A thread that dies takes its invocations with it, as a Lambda instance's crash does.
    const lost = (reason: string, name = 'Runtime.ExitError') => {
      const at = pool.indexOf(running);
      if (at >= 0) pool.splice(at, 1);
      for (const call of running.inFlight.values()) call.reject(Object.assign(new Error(reason), { name }));
      running.inFlight.clear();
    };
    // Lambda's name for an invocation that ran out of memory.
    worker.on('error', (err: NodeJS.ErrnoException) => lost(`the task's worker failed: ${err.message}`, err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'Runtime.OutOfMemory' : 'Runtime.ExitError'));
    worker.on('exit', (code) => lost(`the task's worker exited with code ${code}`));
    pool.push(running);
    started++;
    return running;
  };

  // An idle thread whose heap grew past the bound is replaced by a fresh one when next needed:
  // V8 keeps a grown heap while idle, so without this the process would hold every big
  // step's heap at once (the next day's steps on top of the onboarding's).
  const recycle = (running: Running) => {
    const at = pool.indexOf(running);
    if (at < 0) return;
    pool.splice(at, 1);
    void running.worker.terminate();
  };

  const pick = (): Running => {
    const idle = pool.find((r) => r.inFlight.size === 0);
    if (idle) return idle;
    if (pool.length < max) return spawn();
    return pool.reduce((a, b) => (b.inFlight.size < a.inFlight.size ? b : a));
  };

  return {
    invoke(modulePath, payload) {
      if (closed) return Promise.reject(new Error('the task workers are closed'));
      const running = pick();
      const id = nextId++;
      const timeoutSeconds = options.timeoutSeconds ?? TASK_TIMEOUT_SECONDS;
      return new Promise((resolve, reject) => {
        // As Lambda ends an invocation at its timeout: the thread goes (with anything else it ran), so the task does no more work.
        const timer = setTimeout(() => {
          const call = running.inFlight.get(id);
          running.inFlight.delete(id);
          call?.reject(Object.assign(new Error(`Task timed out after ${timeoutSeconds.toFixed(2)} seconds`), { name: 'Sandbox.Timedout' }));
          recycle(running);
        }, timeoutSeconds * 1000);
        timer.unref();
        const settle = <T>(then: (value: T) => void) => (value: T) => { clearTimeout(timer); then(value); };
        running.inFlight.set(id, { resolve: settle(resolve), reject: settle(reject) });
        running.worker.postMessage({ type: 'invoke', id, module: modulePath, payload } satisfies ToWorker);
      });
    },
    get started() { return started; },
    async close() {
      closed = true;
      const all = pool.splice(0);
      await Promise.all(all.map((r) => r.worker.terminate()));
    },
  };
}
