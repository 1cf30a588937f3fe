import { checkVerification } from '../app/domain/verification';
import { outputOncePerExecution } from '../app/once-per-execution';
import { readyContainer } from '../container';
import { searchNotifyEnginesOf } from '../engines/search-notify';
import { lambdaTask } from '../invocation';

/**
 * domain-connect: one webmaster verification poll (`attempt` 1..12, D18); the 12th failure
 * sets FAILED. `done` ends the polling.
 */
export const handler = lambdaTask(async (event: { org_slug: string; attempt: number; execution_id: string }): Promise<Record<string, unknown>> => {
  const container = await readyContainer();
  // A repeated delivery of a poll asks the webmaster console no second time (D198).
  const check = await outputOncePerExecution(container, event.execution_id, `check-verification-${event.attempt}`,
    () => checkVerification(container, searchNotifyEnginesOf(container).webmaster, event.org_slug, event.attempt));
  return { org_slug: event.org_slug, attempt: event.attempt, ...check };
});
