/**
 * D238: every task whose module runs its work under a step claim (the daily steps through
 * `dailyTask`, the request workflows' work through `oncePerExecution`/`outputOncePerExecution`,
 * 2a's article items, D240)
 * is retried on `StepClaimed` in every state machine that runs it; a copy's StepClaimed would
 * otherwise fail the execution while the holder's work goes on.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { taskStates } from '../../functions/local/runtime/workflow-runner';
import { STATE_MACHINES_DIR } from '../../lib/paths';

const TASKS_DIR = join(__dirname, '../../functions/tasks');
const pascal = (file: string) => file.replace(/\.ts$/, '').split('-').map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');

test('every task under a step claim retries StepClaimed wherever it runs', () => {
  const claimed = readdirSync(TASKS_DIR).filter((f) => f.endsWith('.ts') && f !== 'daily-task.ts')
    .filter((f) => /from '\.\/daily-task'|from '\.\.\/app\/once-per-execution'/.test(readFileSync(join(TASKS_DIR, f), 'utf8')))
    .map(pascal)
    // 2a's items claim their work inside app/articles/daily.ts (D240)
    .concat(['CreateArticleBatch']);
  expect(claimed.length).toBeGreaterThanOrEqual(18);
  const seen = new Set<string>();
  for (const file of readdirSync(STATE_MACHINES_DIR).filter((f) => f.endsWith('.asl.json'))) {
    const definition = JSON.parse(readFileSync(join(STATE_MACHINES_DIR, file), 'utf8'));
    for (const [state, { fn, retry }] of taskStates(definition.States)) {
      if (!claimed.includes(fn)) continue;
      seen.add(fn);
      expect({ file, state, retriesStepClaimed: retry.some((r) => r.ErrorEquals.includes('StepClaimed')) }).toEqual({ file, state, retriesStepClaimed: true });
    }
  }
  expect([...seen].sort()).toEqual([...claimed].sort());
});
