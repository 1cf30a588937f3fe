/**
 * FinishDailyRun's first job (D217): the businesses of a Map child that failed outright (its
 * own error, not one a business caught) are read from the ResultWriter's FAILED files and
 * closed as failed with that error; a business already closed is left as it is, and a repeat
 * closes nothing twice.
 */
import { settleFailedBatches } from '../../functions/app/daily/business-list';
import { finishBusinessRun, startBusinessRun } from '../../functions/app/daily/business-run';
import { deploySite } from '../../functions/app/site/deploy';
import { getContainer } from '../../functions/container';
import { workflowObjectsOf } from '../../functions/engines/workflow-objects';
import { startTestStack, type TestStack } from '../support/stack';

const RUN_DATE = '2026-11-25';
const EXECUTION = 'exec-failed-child';
const ORGS = ['child-a', 'child-b'];
let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack({ LOG_LEVEL: 'error' });
  const container = getContainer();
  for (const org of ORGS) {
    const token = await stack.token(org);
    expect((await stack.call('POST', '/api/business', { token, body: { name: `Shop ${org}`, url: `https://${org}.example` } })).status).toBe(201);
    await deploySite(container, { orgSlug: org, files: [{ path: '/llms.txt', content: `# ${org}\n`, contentType: 'text/plain' }] });
  }
  await container.dailyRuns.createExecution({
    execution_id: EXECUTION, run_date: RUN_DATE, status: 'running', trigger: 'manual', org_slugs: ORGS, started_at: new Date().toISOString(),
    finished_at: null, reason: null, counts: { succeeded: 0, partial: 0, failed: 0, skipped: 0 },
  });
  for (const org of ORGS) expect(await startBusinessRun(container, { org_slug: org, run_date: RUN_DATE, execution_id: EXECUTION })).toMatchObject({ run: 'go' });
}, 60_000);
afterAll(() => stack.close());

test('the businesses a failed child left running are closed as failed with its error; a closed one is kept; a repeat closes none', async () => {
  const container = getContainer();
  const objects = workflowObjectsOf(container);
  // child-b finished its day before the child failed.
  await finishBusinessRun(container, { org_slug: 'child-b', run_date: RUN_DATE, execution_id: EXECUTION });
  const failedKey = 'daily-runs/results/run-1/FAILED_0.json';
  await objects.putJson(failedKey, [{
    Name: 'run-1_0', Status: 'FAILED', Error: 'States.Runtime', Cause: 'the ProcessBatch map could not read its items',
    Input: JSON.stringify({ Items: ORGS.map((org_slug) => ({ org_slug })), BatchInput: { run_date: RUN_DATE, execution_id: EXECUTION } }),
  }]);
  await objects.putJson('daily-runs/results/run-1/manifest.json', { ResultFiles: { FAILED: [{ Key: failedKey, Size: 1 }], SUCCEEDED: [], PENDING: [] } });
  const mapRun = { MapRunArn: 'arn:aws:states:local:0:mapRun:daily/ProcessBusinesses:run-1', ResultWriterDetails: { Bucket: objects.bucket, Key: 'daily-runs/results/run-1/manifest.json' } };

  expect(await settleFailedBatches(container, objects, { execution_id: EXECUTION, run_date: RUN_DATE }, mapRun)).toBe(1);
  const a = await container.dailyRuns.getBusinessRun(EXECUTION, 'child-a');
  expect(a).toMatchObject({ status: 'failed', reason: expect.stringContaining('States.Runtime: the ProcessBatch map could not read its items') });
  expect((await container.dailyRuns.getBusinessRun(EXECUTION, 'child-b'))!.status).not.toBe('failed');
  expect(await settleFailedBatches(container, objects, { execution_id: EXECUTION, run_date: RUN_DATE }, mapRun)).toBe(0);
  // Results said to be in another bucket are refused, not read from this one.
  await expect(settleFailedBatches(container, objects, { execution_id: EXECUTION, run_date: RUN_DATE }, { ResultWriterDetails: { ...mapRun.ResultWriterDetails, Bucket: 'elsewhere' } }))
    .rejects.toThrow(/bucket elsewhere/);
});
