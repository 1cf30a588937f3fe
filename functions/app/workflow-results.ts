/**
 * Results of workflows that answer an HTTP request (D20): a route starts a state-machine
 * execution, waits a bounded time for it, and answers with the operation's own response
 * when it finished, else 202 with the execution id; `GET <path>/{execution_id}` reads it
 * back later. The execution's last task stores that response (its HTTP status and body)
 * as an artifact per execution, because the engine's own record (DescribeExecution) is
 * only a status: this module is the one place that key and the wait live.
 */
import { NotFoundError } from '../core/errors';
import { artifactPath } from '../core/artifacts';
import type { Container } from '../container';
import type { ExecutionDescription, WorkflowName } from '../ports';

/** What a workflow's task stores for the route to answer with. */
/** D20: how long a POST waits for its execution before answering 202 (API Gateway cuts at 29 s). */
export const WORKFLOW_WAIT_MS = 20_000;

export interface WorkflowResult<T = unknown> {
  workflow: WorkflowName;
  execution_id: string;
  http_status: number;
  body: T;
  finished_at: string;
  /** What the task handed on to the rest of its execution, so a repeated delivery hands on the same (never part of the response). */
  next?: Record<string, unknown> | null;
}

/** Execution ids this service makes (UUIDs) and accepts on read-back: one safe artifact-key segment. */
export const EXECUTION_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,79}$/;

/** `workflow-results/regenerate-prompts/<execution id>`. */
function workflowResultKey(workflow: WorkflowName, executionId: string): string {
  return artifactPath(`workflow-results/${workflow}/${executionId}`);
}

export async function saveWorkflowResult<T>(
  container: Container, workflow: WorkflowName, executionId: string, httpStatus: number, body: T, next?: Record<string, unknown> | null,
): Promise<WorkflowResult<T>> {
  const result: WorkflowResult<T> = { workflow, execution_id: executionId, http_status: httpStatus, body, finished_at: container.clock.now().toISOString(), ...(next !== undefined ? { next } : {}) };
  await container.artifacts.put(workflowResultKey(workflow, executionId), result);
  return result;
}

export async function readWorkflowResult<T>(container: Container, workflow: WorkflowName, executionId: string): Promise<WorkflowResult<T> | null> {
  if (!EXECUTION_ID.test(executionId)) return null;
  return container.artifacts.get<WorkflowResult<T>>(workflowResultKey(workflow, executionId));
}

export type WorkflowOutcome<T> =
  /** The task stored its response. */
  | { state: 'finished'; result: WorkflowResult<T> }
  /** Still running (or not yet started by the engine). */
  | { state: 'running'; startedAt: string | null }
  /** Ended without storing a response: the engine's status says how (FAILED, TIMED_OUT, ABORTED). */
  | { state: 'ended'; engineStatus: ExecutionDescription['status']; stoppedAt: string | null }
  /** No such execution of this workflow. */
  | { state: 'unknown' };

/** One look at an execution: its stored response first, else what the engine says. */
export async function workflowOutcome<T>(container: Container, workflow: WorkflowName, executionId: string): Promise<WorkflowOutcome<T>> {
  if (!EXECUTION_ID.test(executionId)) return { state: 'unknown' };
  const stored = await readWorkflowResult<T>(container, workflow, executionId);
  if (stored) return { state: 'finished', result: stored };
  const described = await container.workflows.describe?.(workflow, executionId) ?? null;
  if (!described) return { state: 'unknown' };
  if (described.status === 'RUNNING') return { state: 'running', startedAt: described.startedAt || null };
  // It ended between the two reads: its response may have landed meanwhile.
  const late = await readWorkflowResult<T>(container, workflow, executionId);
  if (late) return { state: 'finished', result: late };
  return { state: 'ended', engineStatus: described.status, stoppedAt: described.stoppedAt };
}

export interface WaitOptions {
  /** How long to wait at most, in ms (0: look once). */
  budgetMs: number;
  /** First pause between looks; doubles up to `maxIntervalMs`. */
  initialIntervalMs?: number;
  maxIntervalMs?: number;
  /**
   * The caller started it just now: an engine that does not list it yet (eventual
   * consistency) means not started yet, not unknown.
   */
  started?: boolean;
  /** Tests: a fake clock. */
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Looks at an execution until it finished or ended, or the budget is spent (then it is
 * `running`), with backoff: 100 ms, 200 ms, ... up to 2 s between looks.
 */
export async function awaitWorkflowOutcome<T>(container: Container, workflow: WorkflowName, executionId: string, options: WaitOptions): Promise<WorkflowOutcome<T>> {
  const sleep = options.sleep ?? realSleep;
  const now = options.now ?? Date.now;
  const deadline = now() + Math.max(0, options.budgetMs);
  let interval = options.initialIntervalMs ?? 100;
  const maxInterval = options.maxIntervalMs ?? 2_000;
  for (;;) {
    let outcome = await workflowOutcome<T>(container, workflow, executionId);
    if (outcome.state === 'unknown' && options.started) outcome = { state: 'running', startedAt: null };
    if (outcome.state !== 'running') return outcome;
    const left = deadline - now();
    if (left <= 0) return outcome;
    await sleep(Math.min(interval, left));
    interval = Math.min(interval * 2, maxInterval);
  }
}

/** What a task's Catch received, as text: Lambda puts the thrown error as JSON into Cause; locally it is plain text. */
export function workflowErrorText(error?: { Error?: string; Cause?: string }): string {
  if (!error) return 'failed';
  try {
    const parsed = JSON.parse(error.Cause ?? '');
    if (parsed?.errorMessage) return `${parsed.errorType ?? error.Error}: ${parsed.errorMessage}`;
  } catch {
    // plain text cause
  }
  return [error.Error, error.Cause].filter(Boolean).join(': ') || 'failed';
}

/** The HTTP status a task's Catch stores: 504 for a timeout, else 500. */
export const caughtStatus = (error?: { Error?: string }): 504 | 500 => (/Timeout|Timedout/i.test(error?.Error ?? '') ? 504 : 500);

/**
 * The HTTP answer of a D20 route for an execution's outcome: the stored response once it
 * finished, 202 while it runs, 500 with `errorBody` when the engine ended it without one,
 * 404 when there is no such execution. `belongs` hides another organization's result.
 */
export function workflowAnswer<B extends object>(
  outcome: WorkflowOutcome<B>,
  ids: { workflow: string; executionId: string; statusUrl: string },
  errorBody: (message: string) => object,
  belongs: (body: B) => boolean = () => true,
): { statusCode: number; body: Record<string, unknown> } {
  const { workflow, executionId, statusUrl } = ids;
  switch (outcome.state) {
    case 'finished':
      if (!belongs(outcome.result.body)) throw new NotFoundError(`no ${workflow} execution ${executionId}`);
      return { statusCode: outcome.result.http_status, body: { ...outcome.result.body, execution_id: executionId } };
    case 'running':
      return { statusCode: 202, body: { status: 'running', execution_id: executionId, status_url: statusUrl } };
    case 'ended':
      return { statusCode: 500, body: { ...errorBody(`the ${workflow} operation ended without a result: the workflow engine reports ${outcome.engineStatus}`), execution_id: executionId } };
    case 'unknown':
      throw new NotFoundError(`no ${workflow} execution ${executionId}`);
  }
}

