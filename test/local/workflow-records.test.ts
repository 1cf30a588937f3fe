/**
 * The local workflow runner's durable execution records: describe() answers from them, and
 * an execution recorded as running by another runner instance (a previous process on the
 * same DATA_DIR) reads as ABORTED instead of running forever.
 */
import { createLocalWorkflows } from '../../functions/local/runtime/workflow-runner';
import type { WorkflowExecutionRecords } from '../../functions/ports';

function memoryRecords(): WorkflowExecutionRecords & { rows: Map<string, any> } {
  const rows = new Map<string, any>();
  return {
    rows,
    async put(record) { rows.set(record.executionId, { ...record }); },
    async get(workflow, id) {
      const r = rows.get(id);
      return r && r.workflow === workflow ? { status: r.status, startedAt: r.startedAt, stoppedAt: r.stoppedAt, runner: r.runner } : null;
    },
    async listRunning() {
      return [...rows.values()].filter((r) => r.status === 'RUNNING').map((r) => ({ workflow: r.workflow, executionId: r.executionId, startedAt: r.startedAt, runner: r.runner }));
    },
  };
}

test('an execution is recorded running, then with how it ended', async () => {
  const records = memoryRecords();
  const workflows = createLocalWorkflows({
    records,
    retryWithoutDelay: true,
    taskOverrides: { PrepareDailyRun: async () => { throw Object.assign(new Error('database down'), { name: 'UpstreamError' }); } },
  });
  await workflows.start('daily-schedule', 'exec-1', {});
  expect((await workflows.describe('daily-schedule', 'exec-1'))?.status).toBe('RUNNING');
  await workflows.finished('exec-1');
  expect(await workflows.describe('daily-schedule', 'exec-1')).toEqual({ status: 'FAILED', startedAt: expect.any(String), stoppedAt: expect.any(String) });
  expect(await workflows.describe('onboarding', 'exec-1')).toBeNull();
  expect(await workflows.describe('daily-schedule', 'unknown')).toBeNull();
});

test('a running record of another runner instance is ABORTED; this runner\'s own is RUNNING', async () => {
  const records = memoryRecords();
  const startedAt = new Date().toISOString();
  await records.put({ workflow: 'daily-schedule', executionId: 'old', runner: 'previous-process', status: 'RUNNING', startedAt, stoppedAt: null });
  const workflows = createLocalWorkflows({ records });
  await records.put({ workflow: 'daily-schedule', executionId: 'mine', runner: workflows.instanceId, status: 'RUNNING', startedAt, stoppedAt: null });
  expect((await workflows.describe('daily-schedule', 'old'))?.status).toBe('ABORTED');
  expect((await workflows.describe('daily-schedule', 'mine'))?.status).toBe('RUNNING');
});

test('at start, the executions another runner left running are recorded ABORTED and named; this runner\'s own are left alone', async () => {
  const records = memoryRecords();
  await records.put({ workflow: 'daily-schedule', executionId: 'dead-1', runner: 'previous-process', status: 'RUNNING', startedAt: '2026-11-28T14:00:00.000Z', stoppedAt: null });
  await records.put({ workflow: 'onboarding', executionId: 'done-1', runner: 'previous-process', status: 'SUCCEEDED', startedAt: '2026-11-28T13:00:00.000Z', stoppedAt: '2026-11-28T13:01:00.000Z' });
  const workflows = createLocalWorkflows({ records, retryWithoutDelay: true, taskOverrides: { PrepareDailyRun: () => new Promise(() => undefined) } });
  await workflows.start('daily-schedule', 'live-1', {});
  expect(await workflows.settleInterrupted()).toEqual([{ workflow: 'daily-schedule', executionId: 'dead-1', startedAt: '2026-11-28T14:00:00.000Z' }]);
  expect(records.rows.get('dead-1')).toMatchObject({ status: 'ABORTED', runner: 'previous-process', stoppedAt: expect.any(String) });
  expect(records.rows.get('live-1')).toMatchObject({ status: 'RUNNING' });
  expect(await workflows.settleInterrupted()).toEqual([]);
  workflows.abortAll();
});
