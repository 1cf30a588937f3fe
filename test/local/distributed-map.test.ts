/**
 * The local runtime's Distributed Map (functions/local/runtime/distributed-map.ts), run by the
 * engine as the runner runs it: items read from the local bucket the ItemReader names, batched
 * by the ItemBatcher, one child execution per batch at most MaxConcurrency at once, failures
 * up to the tolerated share, and the ResultWriter's files in AWS's layout.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFsBuckets, type LocalBuckets } from '../../functions/adapters/local/fs-buckets';
import { StateMachine } from '../../functions/local/runtime/local-stepfunctions';
import { LOCAL_DISTRIBUTED_MAP, MAP_RUN_TIMEOUT_SECONDS, runDistributedMap, swapDistributedMaps } from '../../functions/local/runtime/distributed-map';

let root: string;
let buckets: LocalBuckets;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'dmap-'));
  buckets = createFsBuckets(root);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const STATE_MACHINE = 'arn:aws:states:local:000000000000:stateMachine:test';

/** A workflow: the list's location in, a Distributed Map over it, its output out (or the caught error). */
function definition(map: Record<string, unknown>) {
  return {
    StartAt: 'Fan',
    States: {
      Fan: {
        Type: 'Map',
        ItemReader: { Resource: 'arn:aws:states:::s3:getObject', ReaderConfig: { InputType: 'JSON' }, Parameters: { 'Bucket.$': '$.list.bucket', 'Key.$': '$.list.key' } },
        ItemProcessor: { ProcessorConfig: { Mode: 'DISTRIBUTED', ExecutionType: 'STANDARD' }, StartAt: 'Work', States: { Work: { Type: 'Task', Resource: 'arn:aws:lambda:us-east-1:000000000000:function:work', End: true } } },
        ResultPath: '$.map_run',
        Catch: [{ ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: 'Caught' }],
        End: true,
        ...map,
      },
      Caught: { Type: 'Pass', End: true },
    },
  };
}

/** Runs the workflow with the map swapped in, as the runner does; `work` is the child's task. */
async function run(def: ReturnType<typeof definition>, work: (input: any) => Promise<unknown>, input: Record<string, any>) {
  const { definition: swapped, maps } = swapDistributedMaps(def);
  const events: Array<{ type: string; index?: number }> = [];
  const handlers: Record<string, (input: any) => Promise<any>> = { Work: work };
  const overrides = { taskResourceLocalHandlers: handlers };
  const context = { Execution: { Id: 'arn:aws:states:local:000000000000:execution:test:e1', Name: 'e1' } };
  handlers.Fan = (mapInput) => runDistributedMap('Fan', maps.get('Fan')!, mapInput, context, {
    overrides, buckets, execution: { arn: context.Execution.Id, name: 'e1', stateMachineArn: STATE_MACHINE }, onChild: () => undefined, record: (e) => events.push(e),
  });
  expect(swapped.States.Fan).toMatchObject({ Resource: LOCAL_DISTRIBUTED_MAP, TimeoutSeconds: MAP_RUN_TIMEOUT_SECONDS });
  const output = await new StateMachine(swapped, { validationOptions: { checkPaths: true, checkArn: false } }).run(input, { overrides, context }).result;
  return { output, events };
}

test('reads the list from the bucket, runs a child per batch of MaxItemsPerBatch with the BatchInput, at most MaxConcurrency at once, and writes the results to S3', async () => {
  await buckets.putJson('workflow-objects', 'runs/d1/list.json', Array.from({ length: 7 }, (_, i) => ({ org_slug: `b${i}` })));
  let running = 0;
  let most = 0;
  const seen: unknown[] = [];
  const work = async (input: { Items: Array<{ org_slug: string }>; BatchInput: unknown }) => {
    running += 1;
    most = Math.max(most, running);
    seen.push(input);
    await new Promise((r) => setTimeout(r, 20));
    running -= 1;
    return { done: input.Items.map((i) => i.org_slug) };
  };
  const { output, events } = await run(definition({
    ItemBatcher: { MaxItemsPerBatch: 3, BatchInput: { 'run_date.$': '$.run_date' } },
    MaxConcurrency: 2,
    ResultWriter: { Resource: 'arn:aws:states:::s3:putObject', Parameters: { 'Bucket.$': '$.list.bucket', Prefix: 'runs/results' } },
  }), work, { list: { bucket: 'workflow-objects', key: 'runs/d1/list.json' }, run_date: '2026-11-29' });

  expect(seen.map((s: any) => s.Items.length).sort()).toEqual([1, 3, 3]);
  expect(seen.every((s: any) => s.BatchInput.run_date === '2026-11-29')).toBe(true);
  expect(most).toBe(2);
  // The state holds where the results are, not the results.
  const { map_run: mapRun } = output as { map_run: { MapRunArn: string; ResultWriterDetails: { Bucket: string; Key: string } } };
  expect(mapRun.MapRunArn).toMatch(/^arn:aws:states:local:000000000000:mapRun:test\/Fan:/);
  expect(mapRun.ResultWriterDetails).toEqual({ Bucket: 'workflow-objects', Key: expect.stringMatching(/^runs\/results\/[0-9a-f-]+\/manifest\.json$/) });
  const manifest = await buckets.getJson<any>('workflow-objects', mapRun.ResultWriterDetails.Key);
  expect(manifest.ResultFiles.FAILED).toEqual([]);
  const succeeded = await buckets.getJson<any[]>('workflow-objects', manifest.ResultFiles.SUCCEEDED[0].Key);
  expect(succeeded).toHaveLength(3);
  expect(succeeded!.map((r) => JSON.parse(r.Output).done).flat().sort()).toEqual(['b0', 'b1', 'b2', 'b3', 'b4', 'b5', 'b6']);
  expect(succeeded![0]).toMatchObject({ Status: 'SUCCEEDED', StateMachineArn: STATE_MACHINE, InputDetails: { Included: true } });
  expect(events.filter((e) => e.type === 'ChildExecutionStarted')).toHaveLength(3);
});

test('failed children within ToleratedFailurePercentage leave the Map succeeded, with their errors in FAILED_0.json; beyond it the Map fails (caught)', async () => {
  await buckets.putJson('workflow-objects', 'list.json', [{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }]);
  const work = async (input: { n: number }) => {
    if (input.n === 3) throw Object.assign(new Error('item 3 broke'), { name: 'Broken' });
    return input;
  };
  const writer = { Resource: 'arn:aws:states:::s3:putObject', Parameters: { 'Bucket.$': '$.list.bucket', Prefix: 'results' } };
  const input = { list: { bucket: 'workflow-objects', key: 'list.json' } };

  const tolerated = await run(definition({ ToleratedFailurePercentage: 25, ResultWriter: writer }), work, input);
  const key = (tolerated.output as any).map_run.ResultWriterDetails.Key;
  const manifest = await buckets.getJson<any>('workflow-objects', key);
  const failed = await buckets.getJson<any[]>('workflow-objects', manifest.ResultFiles.FAILED[0].Key);
  expect(failed!.map((r) => [JSON.parse(r.Input), r.Status, r.Error])).toEqual([[{ n: 3 }, 'FAILED', 'Broken']]);

  const strict = await run(definition({ ToleratedFailurePercentage: 20, ResultWriter: writer }), work, input);
  expect((strict.output as any).error.Error).toBe('States.ExceedToleratedFailureThreshold');
  expect(strict.events.map((e) => e.type)).toContain('MapRunFailed');
});

test('a missing item list fails the Map with States.ItemReaderFailed', async () => {
  const { output } = await run(definition({}), async (x) => x, { list: { bucket: 'workflow-objects', key: 'nowhere.json' } });
  expect((output as any).error).toMatchObject({ Error: 'States.ItemReaderFailed', Cause: expect.stringContaining('s3://workflow-objects/nowhere.json does not exist') });
});

test('fields the local runtime does not run are refused when the file is loaded, not ignored', () => {
  expect(() => swapDistributedMaps(definition({ ItemSelector: { 'x.$': '$' } }))).toThrow(/ItemSelector not supported by the local runtime/);
  expect(() => swapDistributedMaps(definition({ ItemReader: { Resource: 'arn:aws:states:::s3:listObjectsV2', Parameters: { Bucket: 'b' } } }))).toThrow(/only a JSON array/);
  expect(() => swapDistributedMaps(definition({ ResultWriter: { Resource: 'arn:aws:states:::s3:putObject', Parameters: { Bucket: 'b' }, WriterConfig: { Transformation: 'COMPACT' } } }))).toThrow(/without WriterConfig/);
});

test('bucket names and keys stay inside the bucket directory', async () => {
  await expect(buckets.putJson('workflow-objects', '../../escape.json', {})).rejects.toThrow(/leaves its bucket/);
  await expect(buckets.getJson('Bad_Bucket', 'k')).rejects.toThrow(/not a valid S3 bucket name/);
});
