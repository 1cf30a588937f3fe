/**
 * Distributed Map states in the local runtime. aws-local-stepfunctions 3 validates a Map's
 * ItemReader, ItemBatcher and ResultWriter but does not run them, so the runner hands each
 * top-level Distributed Map to this module instead, as Step Functions runs one: the items are
 * read from the (local) S3 object the ItemReader names, grouped by the ItemBatcher into
 * `{Items, BatchInput}`, each item or batch runs as a child execution of the ItemProcessor
 * (its own engine run, at most MaxConcurrency at once), failures beyond the tolerated share
 * fail the Map with States.ExceedToleratedFailureThreshold, and the ResultWriter's files
 * (manifest.json, SUCCEEDED_0.json, FAILED_0.json) are written to the bucket as AWS writes
 * them; the state's result is then `{MapRunArn, ResultWriterDetails}`, not the children's outputs.
 * Field values (`Bucket.$`, `BatchInput`) are resolved by the engine itself (a Pass state), so
 * JSONPath means here what it means everywhere else in the file.
 */
import { randomUUID } from 'node:crypto';
import pLimit from 'p-limit';
import type { LocalBuckets } from '../../adapters/local/fs-buckets';
import { StateMachine } from './local-stepfunctions';

/** The Resource of the Task a Distributed Map is swapped for; its handler runs the map. */
export const LOCAL_DISTRIBUTED_MAP = 'arn:aws:states:::local:distributedMap';

/**
 * In effect no timeout, as a Map state has none: the longest the engine's timer can wait (Node
 * fires a longer setTimeout at once: 2^31 - 1 ms, about 24.8 days).
 */
export const MAP_RUN_TIMEOUT_SECONDS = Math.floor((2 ** 31 - 1) / 1000);
/** Step Functions' default MaxConcurrency for a Distributed Map is 10,000; locally the same bound applies. */
const DEFAULT_MAX_CONCURRENCY = 10_000;
/** The fields a Task shares with a Map (they stay on the swapped-in Task, so the engine applies them). */
const TASK_FIELDS = ['Comment', 'InputPath', 'OutputPath', 'ResultPath', 'ResultSelector', 'Retry', 'Catch', 'Next', 'End'] as const;
/** What this module runs; anything else on a Distributed Map is refused when the file is loaded. */
const MAP_FIELDS = new Set<string>([...TASK_FIELDS, 'Type', 'ItemReader', 'ItemBatcher', 'ResultWriter', 'ItemsPath', 'MaxConcurrency', 'ToleratedFailurePercentage', 'ToleratedFailureCount', 'ItemProcessor', 'Label']);

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any
export interface DistributedMapState {
  Type: 'Map';
  ItemReader?: { Resource: string; ReaderConfig?: { InputType?: string; MaxItems?: number }; Parameters: Json };
  ItemBatcher?: { MaxItemsPerBatch?: number; MaxInputBytesPerBatch?: number; BatchInput?: Json };
  ResultWriter?: { Resource: string; Parameters: Json; WriterConfig?: unknown };
  ItemsPath?: string;
  MaxConcurrency?: number;
  ToleratedFailurePercentage?: number;
  ToleratedFailureCount?: number;
  ItemProcessor: { ProcessorConfig?: { Mode?: string }; StartAt: string; States: Record<string, Json> };
  [field: string]: unknown;
}

export const isDistributedMap = (state: Json): state is DistributedMapState =>
  state?.Type === 'Map' && state.ItemProcessor?.ProcessorConfig?.Mode === 'DISTRIBUTED';

/**
 * The definition with each top-level Distributed Map swapped for a Task whose Resource is
 * LOCAL_DISTRIBUTED_MAP (same paths, Retry, Catch and transitions), and those maps by state name.
 */
export function swapDistributedMaps(definition: { States: Record<string, Json> }): { definition: Json; maps: Map<string, DistributedMapState> } {
  const maps = new Map<string, DistributedMapState>();
  const states: Record<string, Json> = {};
  for (const [name, state] of Object.entries(definition.States)) {
    if (!isDistributedMap(state)) { states[name] = state; continue; }
    const unsupported = Object.keys(state).filter((f) => !MAP_FIELDS.has(f));
    if (unsupported.length > 0) throw new Error(`Distributed Map ${name}: ${unsupported.join(', ')} not supported by the local runtime`);
    if (state.ItemReader && (state.ItemReader.Resource !== 'arn:aws:states:::s3:getObject' || state.ItemReader.ReaderConfig?.InputType !== 'JSON')) {
      throw new Error(`Distributed Map ${name}: the local runtime reads only a JSON array from S3 (s3:getObject, InputType JSON)`);
    }
    if (state.ResultWriter && (state.ResultWriter.Resource !== 'arn:aws:states:::s3:putObject' || state.ResultWriter.WriterConfig)) {
      throw new Error(`Distributed Map ${name}: the local runtime writes results only as s3:putObject without WriterConfig (Transformation NONE, JSON)`);
    }
    maps.set(name, state);
    states[name] = {
      Type: 'Task',
      Resource: LOCAL_DISTRIBUTED_MAP,
      // A Map state has no timeout of its own (its run ends when its children end); the engine
      // would cut a Task off after 60 s without one.
      TimeoutSeconds: MAP_RUN_TIMEOUT_SECONDS,
      ...Object.fromEntries(TASK_FIELDS.filter((f) => f in state).map((f) => [f, state[f]])),
    };
  }
  return { definition: { ...definition, States: states }, maps };
}

export interface ChildRunOptions {
  /** The parent's task handlers and retry overrides (every task state of the file, children's included). */
  overrides: Json;
  buckets?: LocalBuckets;
  /** The parent execution's ARN and name, for the Map run's and the children's. */
  execution: { arn: string; name: string; stateMachineArn: string };
  /** Registers a child's abort, so aborting the parent stops its children. */
  onChild(abort: () => void): void;
  /** History events of the Map run (for the runner's `history`). */
  record(event: { type: string; index?: number }): void;
}

interface ChildResult {
  index: number;
  name: string;
  input: Json;
  status: 'SUCCEEDED' | 'FAILED';
  output?: Json;
  error?: string;
  cause?: string;
  startDate: string;
  stopDate: string;
  items: number;
}

/** Resolves a payload template (`"Key.$": "$.list.key"`) against the input, as the engine does. */
async function resolveTemplate(template: Json, input: Json, context: Json): Promise<Json> {
  const pass = new StateMachine({ StartAt: 'Resolve', States: { Resolve: { Type: 'Pass', Parameters: template, End: true } } }, { validationOptions: { noValidate: true } });
  return pass.run(input, { context }).result;
}

const fail = (name: string, message: string) => Object.assign(new Error(message), { name });

async function readItems(name: string, state: DistributedMapState, input: Json, context: Json, buckets: LocalBuckets | undefined): Promise<Json[]> {
  if (!state.ItemReader) {
    const items = state.ItemsPath ? await resolveTemplate({ 'items.$': state.ItemsPath }, input, context).then((r) => r.items) : input;
    if (!Array.isArray(items)) throw fail('States.Runtime', `Distributed Map ${name}: its items are not an array`);
    return items;
  }
  if (!buckets) throw fail('States.ItemReaderFailed', `Distributed Map ${name}: no local buckets to read its ItemReader from`);
  const { Bucket, Key } = await resolveTemplate(state.ItemReader.Parameters, input, context);
  const items = await buckets.getJson<Json>(Bucket, Key);
  if (items === null) throw fail('States.ItemReaderFailed', `Distributed Map ${name}: s3://${Bucket}/${Key} does not exist`);
  if (!Array.isArray(items)) throw fail('States.ItemReaderFailed', `Distributed Map ${name}: s3://${Bucket}/${Key} is not a JSON array`);
  const max = state.ItemReader.ReaderConfig?.MaxItems;
  return typeof max === 'number' ? items.slice(0, max) : items;
}

/** Items grouped as the ItemBatcher says (by count, and by bytes when MaxInputBytesPerBatch is set). */
async function batchesOf(state: DistributedMapState, items: Json[], input: Json, context: Json): Promise<Array<{ input: Json; items: number }>> {
  const batcher = state.ItemBatcher;
  if (!batcher) return items.map((item) => ({ input: item, items: 1 }));
  const batchInput = batcher.BatchInput === undefined ? undefined : await resolveTemplate(batcher.BatchInput, input, context);
  const maxItems = batcher.MaxItemsPerBatch ?? Infinity;
  const maxBytes = batcher.MaxInputBytesPerBatch ?? Infinity;
  const out: Array<{ input: Json; items: number }> = [];
  let current: Json[] = [];
  let bytes = 0;
  const flush = () => {
    if (current.length === 0) return;
    out.push({ input: { Items: current, ...(batchInput === undefined ? {} : { BatchInput: batchInput }) }, items: current.length });
    current = [];
    bytes = 0;
  };
  for (const item of items) {
    const size = Buffer.byteLength(JSON.stringify(item));
    if (current.length >= maxItems || (current.length > 0 && bytes + size > maxBytes)) flush();
    current.push(item);
    bytes += size;
  }
  flush();
  return out;
}

/** Runs one Distributed Map state on its (already InputPath-filtered) input; the state's result. */
export async function runDistributedMap(name: string, state: DistributedMapState, input: Json, context: Json, options: ChildRunOptions): Promise<Json> {
  const items = await readItems(name, state, input, context, options.buckets);
  const batches = await batchesOf(state, items, input, context);
  const mapRunId = randomUUID();
  const mapRunArn = `${options.execution.stateMachineArn.replace(':stateMachine:', ':mapRun:')}/${name}:${mapRunId}`;
  const processor = { StartAt: state.ItemProcessor.StartAt, States: state.ItemProcessor.States };
  const child = new StateMachine(processor, { validationOptions: { noValidate: true } });
  const limit = pLimit(state.MaxConcurrency || DEFAULT_MAX_CONCURRENCY);
  // Failing items beyond either threshold that is set (none set: beyond 0) fail the Map run.
  const beyondTolerance = (failed: number) => {
    const share = state.ToleratedFailurePercentage;
    const count = state.ToleratedFailureCount;
    if (share === undefined && count === undefined) return failed > 0;
    return (share !== undefined && (100 * failed) / Math.max(items.length, 1) > share) || (count !== undefined && failed > count);
  };
  let failedItems = 0;
  let exceeded: Error | null = null;
  const aborts: Array<() => void> = [];
  options.record({ type: 'MapRunStarted' });

  const runChild = (batch: { input: Json; items: number }, index: number) => limit(async (): Promise<ChildResult | null> => {
    if (exceeded) return null;
    const childName = `${mapRunId}_${index}`;
    const startDate = new Date().toISOString();
    options.record({ type: 'ChildExecutionStarted', index });
    const execution = child.run(batch.input, {
      overrides: options.overrides,
      context: { Execution: { Id: `${mapRunArn}:${childName}`, Name: childName, Input: batch.input, StartTime: startDate } },
    });
    aborts.push(execution.abort);
    options.onChild(execution.abort);
    const base = { index, name: childName, input: batch.input, startDate, items: batch.items };
    try {
      const output = await execution.result;
      options.record({ type: 'ChildExecutionSucceeded', index });
      return { ...base, status: 'SUCCEEDED', output, stopDate: new Date().toISOString() };
    } catch (err) {
      options.record({ type: 'ChildExecutionFailed', index });
      failedItems += batch.items;
      // Step Functions fails the Map run as soon as more items failed than it tolerates.
      if (!exceeded && beyondTolerance(failedItems)) {
        exceeded = fail('States.ExceedToleratedFailureThreshold', `Distributed Map ${name}: ${failedItems} of ${items.length} items failed, more than it tolerates`);
        for (const abort of aborts) abort();
      }
      // The engine wraps the child's own error (its name is the States error, as in FAILED_0.json on AWS).
      const e = ((err as Error).name === 'ExecutionError' && (err as Error).cause instanceof Error ? (err as Error).cause : err) as Error;
      return { ...base, status: 'FAILED', error: e.name, cause: e.message, stopDate: new Date().toISOString() };
    }
  });
  const results = (await Promise.all(batches.map(runChild))).filter((r): r is ChildResult => r !== null);
  if (exceeded) {
    options.record({ type: 'MapRunFailed' });
    throw exceeded;
  }
  options.record({ type: 'MapRunSucceeded' });
  if (!state.ResultWriter) {
    // Without a ResultWriter the children's outputs come back in order (a failed child's as its error).
    return results.sort((a, b) => a.index - b.index).map((r) => (r.status === 'SUCCEEDED' ? r.output : { Error: r.error, Cause: r.cause }));
  }
  return writeResults(state.ResultWriter, input, context, { mapRunArn, mapRunId, results, stateMachineArn: options.execution.stateMachineArn }, options.buckets);
}

/** The ResultWriter's files, in AWS's layout: `<Prefix>/<map run id>/{manifest,SUCCEEDED_0,FAILED_0}.json`. */
async function writeResults(
  writer: NonNullable<DistributedMapState['ResultWriter']>, input: Json, context: Json,
  run: { mapRunArn: string; mapRunId: string; results: ChildResult[]; stateMachineArn: string }, buckets: LocalBuckets | undefined,
): Promise<Json> {
  if (!buckets) throw fail('States.ResultWriterFailed', 'no local buckets to write the Map run\'s results to');
  const { Bucket, Prefix } = await resolveTemplate(writer.Parameters, input, context);
  const base = `${Prefix ? `${String(Prefix).replace(/\/$/, '')}/` : ''}${run.mapRunId}`;
  const record = (r: ChildResult) => ({
    ExecutionArn: `${run.mapRunArn}:${r.name}`,
    Input: JSON.stringify(r.input),
    InputDetails: { Included: true },
    Name: r.name,
    ...(r.status === 'SUCCEEDED' ? { Output: JSON.stringify(r.output ?? null), OutputDetails: { Included: true } } : { Error: r.error, Cause: r.cause }),
    RedriveCount: 0,
    RedriveStatus: 'NOT_REDRIVABLE',
    StartDate: r.startDate,
    StateMachineArn: run.stateMachineArn,
    Status: r.status,
    StopDate: r.stopDate,
  });
  const files: Record<'SUCCEEDED' | 'FAILED' | 'PENDING', Array<{ Key: string; Size: number }>> = { SUCCEEDED: [], FAILED: [], PENDING: [] };
  for (const status of ['SUCCEEDED', 'FAILED'] as const) {
    const records = run.results.filter((r) => r.status === status).sort((a, b) => a.index - b.index).map(record);
    if (records.length === 0) continue;
    const key = `${base}/${status}_0.json`;
    await buckets.putJson(Bucket, key, records);
    files[status].push({ Key: key, Size: Buffer.byteLength(JSON.stringify(records)) });
  }
  const manifestKey = `${base}/manifest.json`;
  await buckets.putJson(Bucket, manifestKey, { DestinationBucket: Bucket, MapRunArn: run.mapRunArn, ResultFiles: files });
  return { MapRunArn: run.mapRunArn, ResultWriterDetails: { Bucket, Key: manifestKey } };
}
