/**
 * An execution's work done once however often its task is delivered (Step Functions runs a
 * task at least once, issue 36): a delivery after the work was recorded returns the record and
 * does nothing again, and a delivery while another invocation does the work waits for it and
 * returns what it recorded (the execution's claim, D237). Only the tasks import this (the claims
 * stay out of the routes' bundles).
 */
import { artifactPath } from '../core/artifacts';
import type { Container } from '../container';
import { executionClaimsOf } from '../engines/step-claims';
import type { WorkflowName } from '../ports';
import { runClaimed } from './step-claim';
import { EXECUTION_ID, readWorkflowResult, saveWorkflowResult, type WorkflowResult } from './workflow-results';

/** `work` once under the execution's claim on `step`; what `recorded` finds when it was done (one read after the claim: a repeated delivery is rare). */
async function once<T>(container: Container, scope: string, executionId: string, step: string, recorded: () => Promise<T | null>, work: () => Promise<T>): Promise<T> {
  const outcome = await runClaimed(container, executionClaimsOf(container), scope, executionId, step, recorded, work);
  return 'settled' in outcome ? outcome.settled : outcome.result;
}

/**
 * The execution's one piece of work and its response (D20): stored once; a repeated delivery
 * returns the stored response. The work must store nothing else that a second run would
 * duplicate before its response is saved.
 */
export async function oncePerExecution<T>(
  container: Container, workflow: WorkflowName, executionId: string, work: () => Promise<{ httpStatus: number; body: T; next?: Record<string, unknown> | null }>,
): Promise<WorkflowResult<T>> {
  return once(container, workflow, executionId, 'response', () => readWorkflowResult<T>(container, workflow, executionId), async () => {
    const { httpStatus, body, next } = await work();
    return saveWorkflowResult(container, workflow, executionId, httpStatus, body, next);
  });
}

/**
 * A task's output, computed once per execution and `step`: for the tasks inside an execution
 * whose side effects are calls out (a search engine notified, a verification asked), where the
 * execution's response is not theirs to store.
 */
export async function outputOncePerExecution<T extends object>(container: Container, executionId: string, step: string, work: () => Promise<T>): Promise<T> {
  if (!EXECUTION_ID.test(executionId)) throw new Error(`not an execution id: ${JSON.stringify(executionId)}`);
  const key = artifactPath(`task-outputs/${executionId}/${step}`);
  return once(container, 'task-output', executionId, step, async () => (await container.artifacts.get<T>(key)) ?? null, async () => {
    const output = await work();
    await container.artifacts.put(key, output);
    return output;
  });
}
