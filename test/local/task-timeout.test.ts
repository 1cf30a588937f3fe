/**
 * D232: Lambda ends a task invocation at its function's timeout (TASK_TIMEOUT_SECONDS), and
 * Step Functions' retry then runs alone. The local task workers do the same: an invocation
 * past the timeout fails with Lambda's `Sandbox.Timedout` and its thread is ended, so its work
 * stops there (before, it ran on while the state's own timeout retried it beside it). Here
 * with a one-second timeout to keep the test light.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../functions/config';
import { TASK_TIMEOUT_SECONDS } from '../../functions/core/workflows';
import { createTaskWorkers } from '../../functions/local/runtime/task-workers';

const SLEEPING = join(__dirname, '..', 'support', 'tasks', 'sleeping-task.ts');
const engine = { start: async () => undefined, describe: async () => null, instanceId: 'task-timeout-test' };
const dir = mkdtempSync(join(tmpdir(), 'task-timeout-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('a task past its timeout fails as Lambda\'s does and does no more work; the next runs on a fresh worker', async () => {
  const workers = createTaskWorkers({ config: loadConfig({}), engine, timeoutSeconds: 1 });
  try {
    const within = join(dir, 'within');
    await expect(workers.invoke(SLEEPING, { ms: 10, marker: within })).resolves.toBe('done');
    expect(existsSync(within)).toBe(true);

    const past = join(dir, 'past');
    await expect(workers.invoke(SLEEPING, { ms: 2_500, marker: past })).rejects.toMatchObject({ name: 'Sandbox.Timedout', message: 'Task timed out after 1.00 seconds' });
    // its thread was ended: the write it would have made after 2.5 s never comes
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(existsSync(past)).toBe(false);

    await expect(workers.invoke(SLEEPING, { ms: 10, marker: join(dir, 'next') })).resolves.toBe('done');
    expect(workers.started).toBe(2);
  } finally {
    await workers.close();
  }
}, 60_000);

test('the default is the task Lambdas\' timeout', () => {
  expect(TASK_TIMEOUT_SECONDS).toBe(300);
});
