/**
 * The shape of the daily schedule's per-business step tasks: the state machine passes
 * `{org_slug, run_date, execution_id}`; the step is recorded on the business's run record
 * around the work (app/daily/business-run.ts).
 */
import { runDailyStep, type BusinessTaskInput, type SkippedDailyStep } from '../app/daily/business-run';
import { readyContainer, type Container } from '../container';
import type { BusinessRun, DailyStepId } from '../core/daily/run';
import { lambdaTask } from '../invocation';
import { createLogger } from '../logger';

/** `work` gets the business's run record as the step found it (read once, for the step's bookkeeping). */
export function dailyTask(step: DailyStepId, work: (container: Container, input: BusinessTaskInput, run: BusinessRun) => Promise<Record<string, unknown> | SkippedDailyStep>) {
  return lambdaTask(async (event: BusinessTaskInput): Promise<Record<string, unknown>> => {
    const log = createLogger({ task: `daily ${step}`, execution_id: event?.execution_id, org: event?.org_slug });
    const container = await readyContainer();
    const startedAt = Date.now();
    const result = await runDailyStep(container, event, step, (run) => work(container, event, run));
    log.info('daily step finished', { status: result.status, duration_ms: Date.now() - startedAt });
    return result;
  });
}
