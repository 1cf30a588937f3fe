/**
 * The local stand-in for the EventBridge rule: starts the daily-schedule workflow at the
 * next 14:00 UTC, then every day after (SCHEDULE_ENABLED=0 turns it off). A plain timer,
 * re-armed after each run; the workflow itself records what it did.
 */
import { randomUUID } from 'node:crypto';
import type { Container } from '../../container';
import { nextDailyRunAt } from '../../core/daily/run';
import { createLogger } from '../../logger';

export interface DailyTimer {
  next(): Date;
  stop(): void;
}

export function startDailyTimer(container: Container): DailyTimer {
  const log = createLogger({ component: 'daily-timer' });
  let next = nextDailyRunAt(container.clock.now());
  let timer: NodeJS.Timeout;
  const arm = () => {
    // setTimeout holds at most ~24.8 days; a day is far below that.
    timer = setTimeout(fire, Math.max(0, next.getTime() - Date.now()));
    timer.unref();
  };
  const fire = () => {
    const executionId = randomUUID();
    container.workflows.start('daily-schedule', executionId, { trigger: 'schedule' }).then(
      () => log.info('daily schedule started', { execution_id: executionId }),
      (err: Error) => log.error('daily schedule could not start', { error: { name: err.name, message: err.message } }),
    );
    next = nextDailyRunAt(new Date(Math.max(Date.now(), next.getTime()) + 1000));
    arm();
  };
  arm();
  return { next: () => next, stop: () => clearTimeout(timer) };
}
