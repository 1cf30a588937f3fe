/**
 * The shape of every onboarding task Lambda: the state machine passes
 * `{org_slug, execution_id}`; the step's progress is recorded around the work.
 */
import { runStep, type SkippedStep, type StepInput } from '../app/onboarding/runs';
import { readyContainer, type Container } from '../container';
import { InputsNotReadyError } from '../core/errors';
import type { StepId } from '../core/onboarding/steps';
import { lambdaTask } from '../invocation';
import { createLogger } from '../logger';

export function stepTask(step: StepId, work: (container: Container, orgSlug: string) => Promise<unknown>) {
  return lambdaTask(async (event: StepInput): Promise<Record<string, unknown>> => {
    const log = createLogger({ task: step, execution_id: event?.execution_id, org: event?.org_slug });
    const container = await readyContainer();
    const startedAt = Date.now();
    try {
      const result = await runStep(container, event, step, () => work(container, event.org_slug) as Promise<unknown | SkippedStep>);
      log.info('step finished', { status: result.status, duration_ms: Date.now() - startedAt });
      return result;
    } catch (err) {
      if (err instanceof InputsNotReadyError) {
        log.info('step waiting for its inputs', { reason: err.message });
        throw err;
      }
      log.warn('step failed', { error: { name: (err as Error).name, message: (err as Error).message }, duration_ms: Date.now() - startedAt });
      throw err;
    }
  });
}
