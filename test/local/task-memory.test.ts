/**
 * Lambda gives a task the memory its function is configured with (TASK_MEMORY_MB), and its Node
 * runtime sets the heap to about 90% of it; a task that needs more dies with
 * Runtime.OutOfMemory. The local runtime's task workers get the same heap, so a task that could
 * not run on AWS does not run locally either. Here with a small function to keep the test light.
 */
import { join } from 'node:path';
import { loadConfig } from '../../functions/config';
import { TASK_MEMORY_MB } from '../../functions/core/workflows';
import { createTaskWorkers, oldGenerationMbOf } from '../../functions/local/runtime/task-workers';

const ALLOCATING = join(__dirname, '..', 'support', 'tasks', 'allocating-task.ts');
const engine = { start: async () => undefined, describe: async () => null, instanceId: 'task-memory-test' };

test('a task within its function\'s memory runs; one past it fails as Lambda\'s does, and the next runs on a fresh worker', async () => {
  const workers = createTaskWorkers({ config: loadConfig({}), engine, memoryMb: 128 });
  try {
    await expect(workers.invoke(ALLOCATING, { mb: 16 })).resolves.toBe(16);
    await expect(workers.invoke(ALLOCATING, { mb: 400 })).rejects.toMatchObject({ name: 'Runtime.OutOfMemory', message: expect.stringMatching(/memory/i) });
    await expect(workers.invoke(ALLOCATING, { mb: 16 })).resolves.toBe(16);
    expect(workers.started).toBe(2);
  } finally {
    await workers.close();
  }
}, 60_000);

test('the default is the task Lambdas\' memory: 90% of it for the heap', () => {
  expect(TASK_MEMORY_MB).toBe(2048);
  expect(oldGenerationMbOf(TASK_MEMORY_MB)).toBe(1843);
});
