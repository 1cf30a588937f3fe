/**
 * A daily-schedule execution whose process stopped (the local runtime killed mid-run, D194):
 * nothing of it can still be running, so it gives up what it held at once instead of after
 * its lease runs out. Each business run it left `running` is closed as failed with the reason,
 * its unfinished steps marked, and its day lease is ended, so the next trigger the same day
 * takes the day at once and resumes from the settled steps (business-run.ts, resumeAbandoned).
 * The execution's own record is closed as failed. Safe to repeat: closing a closed run, ending
 * a lease another holds, or finishing a finished execution changes nothing.
 */
import { closeUnfinishedSteps } from '../../core/daily/run';
import type { Container } from '../../container';
import { createLogger } from '../../logger';

const log = createLogger({ component: 'daily-recovery' });
const PAGE = 100;

export const INTERRUPTED_REASON = 'interrupted: the process running the execution stopped';

export async function settleInterruptedDailyExecution(container: Container, executionId: string): Promise<{ businesses: number }> {
  const at = container.clock.now();
  const now = at.toISOString();
  // Renewed to a moment before now (only while this execution holds it): the lease reads as
  // run out to whoever asks next, who takes the day and resumes the settled steps.
  const expired = new Date(at.getTime() - 1).toISOString();
  let businesses = 0;
  let cursor: string | null = null;
  do {
    const page = await container.dailyRuns.listBusinessRuns(executionId, { cursor, limit: PAGE });
    for (const run of page.runs) {
      if (run.status !== 'running') continue;
      const closed = await container.dailyRuns.finishBusinessRun(executionId, run.org_slug, {
        status: 'failed', reason: `${INTERRUPTED_REASON}; the next run today resumes from its settled steps`, finished_at: now, steps: closeUnfinishedSteps(run.steps, now),
      });
      if (closed) await container.dailyRuns.countBusiness(executionId, 'failed');
      await container.dailyRuns.renewDayLease(run.run_date, run.org_slug, executionId, expired);
      businesses++;
    }
    cursor = page.nextCursor;
  } while (cursor);
  const execution = await container.dailyRuns.getExecution(executionId);
  if (execution?.status === 'running') await container.dailyRuns.finishExecution(executionId, { status: 'failed', finished_at: now, reason: INTERRUPTED_REASON });
  log.warn('interrupted daily execution settled', { execution_id: executionId, businesses });
  return { businesses };
}
