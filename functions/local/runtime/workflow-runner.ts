/**
 * Runs the state machines of `state-machines/` in-process with aws-local-stepfunctions:
 * the very ASL files CDK deploys, with each Lambda task resolved to its module under
 * functions/tasks/ (`${ScrapeWebsiteFunctionArn}` → tasks/scrape-website.ts) and invoked on a
 * worker thread (task-workers.ts) or, for tests that need it, on this one.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ExecutionDescription, WorkflowExecutionRecords, WorkflowName, WorkflowStarter } from '../../ports';
import type { Config } from '../../config';
import { createLogger } from '../../logger';
import type { LocalBuckets } from '../../adapters/local/fs-buckets';
import { runDistributedMap, swapDistributedMaps } from './distributed-map';
import { StateMachine } from './local-stepfunctions';
import { kebab } from './task-messages';
import { createTaskWorkers, type TaskWorkers } from './task-workers';

const STATE_MACHINES_DIR = join(__dirname, '..', '..', '..', 'state-machines');
const TASKS_DIR = join(__dirname, '..', '..', 'tasks');
const FUNCTION_ARN = /^\$\{([A-Z][A-Za-z0-9]*)FunctionArn\}$/;

type TaskHandler = (payload: unknown) => Promise<unknown>;
type Retrier = { ErrorEquals: string[] };
type State = { Type: string; Resource?: string; Retry?: Retrier[]; Parameters?: { FunctionName?: string }; Branches?: Array<{ States: Record<string, State> }>; ItemProcessor?: { States: Record<string, State> }; Iterator?: { States: Record<string, State> } };

/** Every Lambda task state of a definition (Parallel branches and Map processors included) → its function name. */
export function taskStates(states: Record<string, State>, out = new Map<string, { fn: string; retry: Retrier[] }>()): Map<string, { fn: string; retry: Retrier[] }> {
  for (const [name, state] of Object.entries(states)) {
    if (state.Type === 'Task' && state.Resource === 'arn:aws:states:::lambda:invoke') {
      const match = FUNCTION_ARN.exec(state.Parameters?.FunctionName ?? '');
      if (!match) throw new Error(`task state ${name} has no \${<Name>FunctionArn} placeholder`);
      out.set(name, { fn: match[1], retry: state.Retry ?? [] });
    }
    for (const branch of state.Branches ?? []) taskStates(branch.States, out);
    const processor = state.ItemProcessor ?? state.Iterator;
    if (processor) taskStates(processor.States, out);
  }
  return out;
}

/** One event of an execution's history (states by name; no data). */
export interface ExecutionEvent {
  type: string;
  /** The state entered, exited, retried, caught or failed; for a Map iteration or Parallel branch, the Map or Parallel state. */
  state?: string;
  stateType?: string;
  /** A Map iteration's index. */
  index?: number;
}

export interface LocalWorkflowOptions {
  /**
   * Tests: replace a task's handler (fault injection) by function name (`ScrapeWebsite`): a
   * function runs on this thread; a module's path runs its `handler` where tasks run.
   */
  taskOverrides?: Record<string, TaskHandler | string>;
  /** Tests: no waiting between retries. */
  retryWithoutDelay?: boolean;
  /**
   * Tests: at-least-once delivery made visible (issue 36). `twice`: every task runs twice
   * with the same input, one after the other, and the state gets the second result (the first
   * response was lost). `failAfter`: these tasks (function names) run, then their invocation
   * fails once per execution, state and input with a transient Lambda error, as a response
   * lost after the side effects would, so the state's Retry runs them again (`every-task`: all of them).
   */
  delivery?: { twice?: boolean; failAfter?: readonly string[] | 'every-task' };
  /** Where executions are recorded durably (the embedded database), so `describe` answers after a restart too. */
  records?: WorkflowExecutionRecords;
  /**
   * Run tasks on worker threads (task-workers.ts), each building its container from these
   * settings, as Lambda isolates invocations from the API; without, tasks run on this thread
   * with this process's container (tests that give the container a clock of their own).
   * A task override given as a function always runs here.
   */
  workers?: { config: Config; max?: number };
  /** The local S3 stand-in a Distributed Map's ItemReader reads and its ResultWriter writes. */
  buckets?: LocalBuckets;
}

export interface LocalWorkflows extends WorkflowStarter {
  /** Settles when the execution ends (for tests and `npm start`'s progress display). */
  finished(executionId: string): Promise<unknown>;
  /** Every execution still running. */
  running(): Promise<void>;
  /**
   * Tests: stops every execution where it is, as a killed process would (no Catch, no
   * FinishOnboarding, no retry). A task already working is not interrupted, but its result
   * goes nowhere.
   */
  abortAll(): void;
  describe(workflow: WorkflowName, executionId: string): Promise<ExecutionDescription | null>;
  /**
   * Tests: the execution's history as far as it got (what GetExecutionHistory lists on AWS:
   * states entered and exited, Map iterations, retries, catches), without inputs and outputs;
   * kept for a minute after the execution ends. Empty for an unknown execution.
   */
  history(executionId: string): ExecutionEvent[];
  /** One id per runner (per process): executions recorded with another id cannot be running. */
  readonly instanceId: string;
  /**
   * The executions a previous runner (a process that stopped) left recorded as running: each
   * is recorded ABORTED now and returned, so what it held can be released (D194).
   */
  settleInterrupted(): Promise<Array<{ workflow: WorkflowName; executionId: string; startedAt: string }>>;
  /** Worker threads started for tasks so far (0 when tasks run on this thread). */
  readonly taskThreads: number;
  /** Task invocations so far, by function name (a delivery test's repeats included). */
  readonly taskInvocations: Readonly<Record<string, number>>;
  /**
   * Of those, the ones that did no work and asked to be asked again (InputsNotReady: another
   * step's output not ready yet; StepClaimed: another invocation holds the step): how many
   * there are depends on timing, not on what the task did.
   */
  readonly taskWaits: Readonly<Record<string, number>>;
  /** Stops the task workers (after `running()`). */
  close(): Promise<void>;
}

export function createLocalWorkflows(options: LocalWorkflowOptions = {}): LocalWorkflows {
  const log = createLogger({ component: 'local-workflows' });
  const executions = new Map<string, { done: Promise<unknown>; abort: () => void; history: ExecutionEvent[] }>();
  const instanceId = randomUUID();
  let workers: TaskWorkers | undefined;
  /** The handler of the task module at `modulePath`, on a worker thread or on this one. */
  const taskHandler = (modulePath: string): TaskHandler => {
    const onWorkers = options.workers;
    if (!onWorkers) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      return require(modulePath).handler as TaskHandler;
    }
    return (payload) => {
      workers ??= createTaskWorkers({ config: onWorkers.config, max: onWorkers.max, engine: runner });
      return workers.invoke(modulePath, payload);
    };
  };
  const record = (workflow: WorkflowName, executionId: string, description: ExecutionDescription) =>
    options.records?.put({ workflow, executionId, runner: instanceId, ...description }).catch((err: Error) => {
      log.warn('could not record the execution', { workflow, execution_id: executionId, error: { name: err.name, message: err.message } });
    });

  const invocations: Record<string, number> = {};
  const waitCounts: Record<string, number> = {};
  const WAIT_ERRORS = new Set(['InputsNotReady', 'StepClaimed']);
  const failedOnce = new Set<string>();
  /** True the first time for a key: the delivery test fails each invocation once. */
  const failOnce = (key: string) => !failedOnce.has(key) && Boolean(failedOnce.add(key));

  interface Run { workflow: WorkflowName; context: { Execution: Record<string, unknown> }; aborted: Promise<never>; isAborted: () => boolean; history: ExecutionEvent[]; childAborts: Set<() => void> }
  const load = ({ workflow, context, aborted, isAborted, history, childAborts }: Run) => {
    // Distributed Maps run here (distributed-map.ts): the engine validates their S3 fields but does not run them.
    const { definition, maps } = swapDistributedMaps(JSON.parse(readFileSync(join(STATE_MACHINES_DIR, `${workflow}.asl.json`), 'utf8')));
    const tasks = taskStates(definition.States);
    for (const map of maps.values()) taskStates(map.ItemProcessor.States, tasks);
    const handlers: Record<string, (input: any) => Promise<any>> = {};
    for (const [stateName, { fn }] of tasks) {
      handlers[stateName] = async (input: { Payload: unknown }) => {
        // An aborted execution invokes nothing more, and stops waiting for the task at
        // hand (the engine would otherwise time it out after 60 s and retry it).
        if (isAborted()) return aborted;
        const override = options.taskOverrides?.[fn];
        const onThisThread = typeof override === 'function' || !options.workers;
        const handler = typeof override === 'function' ? override : taskHandler(override ?? join(TASKS_DIR, kebab(fn)));
        const invoke = () => {
          invocations[fn] = (invocations[fn] ?? 0) + 1;
          return Promise.race([handler(input.Payload), aborted]).catch((err: unknown) => {
            if (WAIT_ERRORS.has((err as { name?: string })?.name ?? '')) waitCounts[fn] = (waitCounts[fn] ?? 0) + 1;
            throw err;
          });
        };
        let output = await invoke();
        if (options.delivery?.twice) output = await invoke();
        const failAfter = options.delivery?.failAfter;
        if ((failAfter === 'every-task' || failAfter?.includes(fn)) && failOnce(`${stateName}:${JSON.stringify(input.Payload)}`)) {
          throw Object.assign(new Error(`${fn} ran, then its response was lost (at-least-once delivery test)`), { name: 'Lambda.SdkClientException' });
        }
        // Lambda serializes results to JSON; so do we, so nothing local-only slips through (a
        // worker's result already crossed its thread as JSON).
        return { Payload: onThisThread ? JSON.parse(JSON.stringify(output ?? null)) : output };
      };
    }
    // Without delays, except a short one for steps waiting on another step or invocation.
    const waits = (r: { ErrorEquals: string[] }) => r.ErrorEquals.includes('InputsNotReady') || r.ErrorEquals.includes('StepClaimed');
    const retryOverrides = options.retryWithoutDelay
      ? Object.fromEntries([...tasks].map(([name, { retry }]) => [name, retry.map((r) => (waits(r) ? 50 : 0))]))
      : undefined;
    const overrides = { taskResourceLocalHandlers: handlers, retryIntervalOverrides: retryOverrides };
    const executionArn = String(context.Execution.Id);
    for (const [stateName, map] of maps) {
      handlers[stateName] = (input: unknown) => {
        if (isAborted()) return aborted;
        return Promise.race([aborted, runDistributedMap(stateName, map, input, context, {
          overrides,
          buckets: options.buckets,
          execution: { arn: executionArn, name: String(context.Execution.Name), stateMachineArn: executionArn.replace(/:execution:([^:]+):.*$/, ':stateMachine:$1') },
          onChild: (abort) => childAborts.add(abort),
          record: (event) => history.push({ ...event, state: stateName, stateType: 'Map' }),
        })]);
      };
    }
    return { definition, overrides };
  };

  const runner: LocalWorkflows = {
    async start(workflow, executionId, input) {
      let abortExecution!: (err: Error) => void;
      const aborted = new Promise<never>((_, reject) => { abortExecution = reject; });
      aborted.catch(() => undefined);
      let isAborted = false;
      const startedAt = new Date().toISOString();
      const context = { Execution: { Id: `arn:aws:states:local:000000000000:execution:${workflow}:${executionId}`, Name: executionId, Input: input as never, StartTime: startedAt } };
      const history: ExecutionEvent[] = [];
      const childAborts = new Set<() => void>();
      const { definition, overrides } = load({ workflow, context, aborted, isAborted: () => isAborted, history, childAborts });
      const machine = new StateMachine(definition, { validationOptions: { checkPaths: true, checkArn: false } });
      await record(workflow, executionId, { status: 'RUNNING', startedAt, stoppedAt: null });
      const execution = machine.run(input as Parameters<typeof machine.run>[0], { overrides, context });
      void (async () => {
        for await (const event of execution.eventLogs) {
          // A Map iteration or Parallel branch event names its Map or Parallel state as the parent.
          const e = event as { type: string; state?: { name: string; type: string }; parentState?: { name: string; type: string }; index?: number };
          const state = e.state ?? e.parentState;
          history.push({ type: e.type, ...(state ? { state: state.name, stateType: state.type } : {}), ...(typeof e.index === 'number' ? { index: e.index } : {}) });
        }
      })().catch(() => undefined);
      const ended = async (status: ExecutionDescription['status']) => { await record(workflow, executionId, { status, startedAt, stoppedAt: new Date().toISOString() }); };
      const done = execution.result.then(
        async (output) => {
          log.info('execution succeeded', { workflow, execution_id: executionId });
          await ended('SUCCEEDED');
          return output;
        },
        async (err: Error) => {
          log.error('execution failed', { workflow, execution_id: executionId, error: { name: err.name, message: err.message } });
          await ended(isAborted ? 'ABORTED' : 'FAILED');
          return { error: err.name, cause: err.message };
        },
      );
      const abort = () => {
        isAborted = true;
        execution.abort();
        for (const abortChild of childAborts) abortChild();
        abortExecution(Object.assign(new Error(`execution ${executionId} was aborted`), { name: 'ExecutionAborted' }));
      };
      executions.set(executionId, { done, abort, history });
      void done.finally(() => setTimeout(() => executions.delete(executionId), 60_000).unref());
    },
    finished: (executionId) => executions.get(executionId)?.done ?? Promise.resolve(undefined),
    history: (executionId) => [...(executions.get(executionId)?.history ?? [])],
    running: async () => { await Promise.all([...executions.values()].map((e) => e.done)); },
    abortAll: () => { for (const e of executions.values()) e.abort(); },
    async describe(workflow, executionId) {
      const found = await options.records?.get(workflow, executionId);
      if (!found) return null;
      const { runner, ...description } = found;
      // Recorded as running by a runner that is gone (a previous process): it was cut off.
      if (description.status === 'RUNNING' && runner !== instanceId) return { ...description, status: 'ABORTED' };
      return description;
    },
    instanceId,
    async settleInterrupted() {
      const dead = (await options.records?.listRunning() ?? []).filter((e) => e.runner !== instanceId);
      const stoppedAt = new Date().toISOString();
      for (const e of dead) {
        await options.records!.put({ workflow: e.workflow, executionId: e.executionId, runner: e.runner, status: 'ABORTED', startedAt: e.startedAt, stoppedAt });
        log.warn('execution interrupted: the process running it stopped', { workflow: e.workflow, execution_id: e.executionId });
      }
      return dead.map(({ workflow, executionId, startedAt }) => ({ workflow, executionId, startedAt }));
    },
    get taskThreads() { return workers?.started ?? 0; },
    get taskInvocations() { return { ...invocations }; },
    get taskWaits() { return { ...waitCounts }; },
    async close() { await workers?.close(); },
  };
  return runner;
}
