/**
 * D231: the listing after the fan-out reads each open job's businesses, not its members. A
 * shard's job of 1,000 checks (100 businesses) is recorded through the real repository on the
 * embedded database; the listing returns its businesses and state, reads a fraction of the
 * item, and still lists a job recorded before D231 (no business list) from its members.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { createVisibilityBatchRepository } from '../../functions/adapters/dynamodb/visibility-batch-repo';
import type { VisibilityBatchJob } from '../../functions/ports';
import { useEmbeddedTable } from '../support/embedded-table';

const RUN_DATE = '2026-11-29';
const table = useEmbeddedTable('visibility-batch-listing-test');

const itemBytes = (item: Record<string, unknown>) => Buffer.byteLength(JSON.stringify(item, (_k, v) => (v instanceof Set ? [...v] : v)));

/** A shard's job: 100 businesses × 10 prompts, as submitQueuedChecks records it. */
function shardJob(jobId: string, withSlugs: boolean): VisibilityBatchJob {
  const orgs = Array.from({ length: 100 }, (_, i) => `fleet-store-${String(i).padStart(3, '0')}`);
  const members = orgs.flatMap((org) => Array.from({ length: 10 }, (_, p) => ({ org_slug: org, prompt_id: `prompt-${org}-${p}`, custom_id: `c_${jobId.slice(0, 8)}${org}${p}`.padEnd(42, '0') })));
  return {
    run_date: RUN_DATE, platform: 'platform_1', job_id: jobId, execution_id: 'exec-listing', status: 'in_progress', vendor_batch_id: 'batch_1', vendor_status: 'in_progress',
    created_at: '2026-11-29T15:00:00.000Z', submitted_at: '2026-11-29T15:00:01.000Z', ended_at: null,
    member_orgs: orgs.length, ...(withSlugs ? { member_org_slugs: orgs } : {}), members,
  };
}

test('a 1,000-check job is listed by its 100 businesses, reading a fraction of its item; a job recorded before D231 is listed from its members', async () => {
  const jobs = createVisibilityBatchRepository(table.db, table.name);
  const current = shardJob('a'.repeat(32), true);
  const older = shardJob('b'.repeat(32), false);
  expect(await jobs.create(current)).toBe(true);
  expect(await jobs.create(older)).toBe(true);
  await jobs.markCollected(current, ['fleet-store-000']);

  const listed = await jobs.listOpen(RUN_DATE, '2026-11-29T00:00:00.000Z');
  expect(listed.map((j) => j.job_id).sort()).toEqual([current.job_id, older.job_id]);
  for (const job of listed) {
    expect(job.org_slugs).toEqual(current.member_org_slugs);
    expect(job).not.toHaveProperty('members');
    expect(job).toMatchObject({ platform: 'platform_1', status: 'in_progress', member_orgs: 100 });
  }
  expect(listed.find((j) => j.job_id === current.job_id)!.collected_orgs).toEqual(['fleet-store-000']);

  // What one listing reads per job: the projected attributes, against the whole item.
  const whole = (await table.db.send(new GetCommand({ TableName: table.name, Key: { PK: `VISBATCH#${RUN_DATE}`, SK: `platform_1#${current.job_id}` } }))).Item!;
  const projected = { ...listed[0] };
  const ratio = itemBytes(whole) / itemBytes(projected);
  expect(itemBytes(whole)).toBeGreaterThan(80 * 1024);
  expect(itemBytes(projected)).toBeLessThan(4 * 1024);
  expect(ratio).toBeGreaterThan(20);
});
