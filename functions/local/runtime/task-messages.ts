/** What the local task workers (task-worker.ts) and their pool (task-workers.ts) say to each other. */

/** `ScrapeWebsite` → `scrape-website`: a task state's function name → its module under functions/tasks/. */
export const kebab = (pascal: string): string => pascal.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();

/** An error as it crosses the thread: Step Functions matches Retry and Catch on its name. */
export interface WorkerError {
  name: string;
  message: string;
  stack?: string;
  /** The error's own enumerable fields (a vendor's status, a Retry-After). */
  fields: Record<string, unknown>;
}

export type ToWorker =
  /** `module`: the task's module (its path); the worker calls its `handler`. */
  | { type: 'invoke'; id: number; module: string; payload: unknown }
  | { type: 'engine-answer'; id: number; value?: unknown; error?: { name: string; message: string } };

export type FromWorker =
  | { type: 'log'; line: string }
  /** The task's output as JSON (what Lambda returns), or its error; `heapBytes`: the thread's heap when it ended. */
  | { type: 'result'; id: number; output?: string; error?: WorkerError; heapBytes: number }
  | { type: 'engine'; id: number; method: 'start' | 'describe'; args: unknown[] };
