import { REGENERATE_WORKFLOW, regenerateError } from '../app/prompts/regenerate-run';
import { caughtStatus, saveWorkflowResult, workflowErrorText } from '../app/workflow-results';
import { readyContainer } from '../container';
import { lambdaTask } from '../invocation';

/**
 * The Catch of the RegeneratePrompts task (it timed out, ran out of memory, or could not
 * store its response): stores the spec's failure body, so the route and the read-back answer
 * with the reason instead of only the engine's status.
 */
export const handler = lambdaTask(async (event: { execution_id: string; error?: { Error?: string; Cause?: string } }): Promise<Record<string, unknown>> => {
  const container = await readyContainer();
  const body = regenerateError(`the regeneration task failed: ${workflowErrorText(event.error)}`);
  await saveWorkflowResult(container, REGENERATE_WORKFLOW, event.execution_id, caughtStatus(event.error), body);
  return { execution_id: event.execution_id, http_status: caughtStatus(event.error), status: 'error' };
});
