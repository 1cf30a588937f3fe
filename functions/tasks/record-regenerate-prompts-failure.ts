import { REGENERATE_WORKFLOW, regenerateError } from '../app/regenerate-prompts-run';
import { saveWorkflowResult } from '../app/workflow-results';
import { readyContainer } from '../container';

/** Lambda puts the thrown error as JSON into Cause (`{"errorType","errorMessage",...}`); locally it is plain text. */
function causeText(error?: { Error?: string; Cause?: string }): string {
  if (!error) return 'failed';
  try {
    const parsed = JSON.parse(error.Cause ?? '');
    if (parsed?.errorMessage) return `${parsed.errorType ?? error.Error}: ${parsed.errorMessage}`;
  } catch {
    // plain text cause
  }
  return [error.Error, error.Cause].filter(Boolean).join(': ') || 'failed';
}

/**
 * The Catch of the RegeneratePrompts task (it timed out, ran out of memory, or could not
 * store its response): stores the spec's failure body, so the route and the read-back answer
 * with the reason instead of only the engine's status.
 */
export const handler = async (event: { execution_id: string; error?: { Error?: string; Cause?: string } }): Promise<Record<string, unknown>> => {
  const container = await readyContainer();
  const timedOut = /Timeout|Timedout/i.test(event.error?.Error ?? '');
  const body = regenerateError(`the regeneration task failed: ${causeText(event.error)}`);
  await saveWorkflowResult(container, REGENERATE_WORKFLOW, event.execution_id, timedOut ? 504 : 500, body);
  return { execution_id: event.execution_id, http_status: timedOut ? 504 : 500, status: 'error' };
};
