import { runPromptRegeneration } from '../app/prompts/regenerate';
import { REGENERATE_WORKFLOW, type RegenerateExecutionInput } from '../app/prompts/regenerate-run';
import { oncePerExecution } from '../app/once-per-execution';
import { readyContainer } from '../container';
import { lambdaTask } from '../invocation';

/**
 * The regenerate-prompts workflow's task (POST /api/manual-trigger/regenerate-prompts and
 * /api/cron/generate-prompts): maps and scrapes the given URL, adds the new prompts, and
 * stores the spec response for the route that waits on it (D20). A failure of the work is
 * that response (status `error`); only a failure to store it fails the task. A repeated
 * delivery finds the response stored and adds no prompts again (D196).
 */
export const handler = lambdaTask(async (event: RegenerateExecutionInput & { execution_id: string }): Promise<Record<string, unknown>> => {
  const container = await readyContainer();
  const { http_status: httpStatus, body } = await oncePerExecution(container, REGENERATE_WORKFLOW, event.execution_id, () => runPromptRegeneration(container, event));
  return { execution_id: event.execution_id, http_status: httpStatus, status: body.status, prompts_generated: body.prompts_generated, prompts_saved: body.prompts_saved };
});
