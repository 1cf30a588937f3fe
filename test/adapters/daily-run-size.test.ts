/**
 * D39 for the daily run record: a day on which every page of a 5,000-page store changed (long
 * URLs) is recorded through the real repository on the embedded database; the run's own item
 * stays small, its URLs read back whole, a retry adds none twice, a takeover carries them over.
 */
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { createDailyRunRepository } from '../../functions/adapters/dynamodb/daily-run-repo';
import { keys } from '../../functions/adapters/dynamodb/keys';
import { newBusinessRun } from '../../functions/core/daily/run';
import { useEmbeddedTable } from '../support/embedded-table';

const TABLE = 'daily-run-size-test';
const table = useEmbeddedTable(TABLE);

const itemBytes = (item: Record<string, unknown>) => Buffer.byteLength(JSON.stringify(item, (_k, v) => (v instanceof Set ? [...v] : v)));

test('5,000 changed pages: every item under 350 KB, the URLs read back whole, retries and takeovers add none twice', async () => {
  const runs = createDailyRunRepository(table.db, TABLE);
  const urls = Array.from({ length: 5_000 }, (_, i) => `https://big-store.example/collections/outdoor-living/products/generated-garden-product-${i}-with-a-long-handle?variant=${4000000000 + i}`);
  await runs.claimBusinessRun(newBusinessRun('big', '2026-11-28', 'exec-1', '2026-11-28T14:00:00Z'));
  await runs.addChangedUrls('exec-1', 'big', urls);
  await runs.addChangedUrls('exec-1', 'big', urls.slice(0, 100)); // a retried 1a
  const run = (await runs.getBusinessRun('exec-1', 'big'))!;
  expect(run.changed_urls).toEqual([...urls].sort());

  const record = (await table.db.send(new GetCommand({ TableName: TABLE, Key: keys.dailyBusinessRun('exec-1', 'big') }))).Item!;
  expect(itemBytes(record)).toBeLessThan(10 * 1024);
  const buckets = (await table.db.send(new QueryCommand({ TableName: TABLE, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': keys.dailyExecution('exec-1').PK } }))).Items!;
  for (const item of buckets) expect(itemBytes(item)).toBeLessThan(350 * 1024);

  // Listed with the execution's runs (the buckets are not runs).
  const listed = await runs.listBusinessRuns('exec-1', { limit: 10 });
  expect(listed.runs.map((r) => [r.org_slug, r.changed_urls.length])).toEqual([['big', 5_000]]);

  // A takeover carries the stopped run's URLs over (D162).
  await runs.claimBusinessRun(newBusinessRun('big', '2026-11-28', 'exec-2', '2026-11-28T15:00:00Z'));
  await runs.resumeBusinessRun('exec-2', 'big', { steps: run.steps, changed_urls: run.changed_urls, resumed_from: 'exec-1' });
  expect((await runs.getBusinessRun('exec-2', 'big'))!.changed_urls).toHaveLength(5_000);
}, 60_000);

test('a run never claimed takes no URLs', async () => {
  await expect(createDailyRunRepository(table.db, TABLE).addChangedUrls('exec-none', 'big', ['https://x.example/'])).rejects.toThrow(/no daily run record/);
});
