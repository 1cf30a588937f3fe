/**
 * What one daily run uses, counted in the daily bench's child process (the local stack runs
 * the same handlers, workflow definitions and data code as AWS), for the cost model:
 * - task invocations and their duration, by function (the runner's task overrides wrap the
 *   real handlers);
 * - state transitions: the states the execution entered (its history), Map iterations
 *   included;
 * - DynamoDB request units, estimated from the items each command moved (on-demand rules:
 *   a read unit per 4 KB strongly consistent, half that eventually consistent, per item read
 *   or per Query's total; a write unit per 1 KB of the item written; an update or delete
 *   whose item is not returned counted as 1);
 * - object-store requests: every file of a published release and every artifact written is a
 *   PUT (on S3's prefix layout a release also writes the `/ai/` fallback copies,
 *   `withAiFallbackCopies`; on its manifest layout, D179, only the objects the previous
 *   release does not hold, plus the manifest); every artifact or release file read a GET;
 *   every listing a LIST.
 * The local stand-ins report no consumed capacity, so these are estimates by the published
 * billing rules, not bills.
 */
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { aiFallbackCopyPaths } from '../functions/core/site/release';
import { addToManifest, emptyManifest, manifestOf, objectsToUpload } from '../functions/core/site/release-manifest';
import type { Container } from '../functions/container';

type TaskHandler = (payload: unknown) => Promise<unknown>;

export interface TaskUsage {
  invocations: number;
  durationMs: number;
}

export interface UsageCounts {
  tasks: Record<string, TaskUsage>;
  dynamo: { readUnits: number; writeUnits: number; requests: number };
  objects: {
    releaseFilesWritten: number; releaseObjectsWrittenOnS3: number; releaseObjectsWrittenOnS3Manifest: number;
    releaseBytesWritten: number; artifactsWritten: number; reads: number; lists: number;
  };
  /** Reads by what was read: `release` (whole releases, file by file) or an artifact key's first segment. */
  readsByKind: Record<string, number>;
}

const emptyCounts = (): UsageCounts => ({
  tasks: {},
  dynamo: { readUnits: 0, writeUnits: 0, requests: 0 },
  objects: { releaseFilesWritten: 0, releaseObjectsWrittenOnS3: 0, releaseObjectsWrittenOnS3Manifest: 0, releaseBytesWritten: 0, artifactsWritten: 0, reads: 0, lists: 0 },
  readsByKind: {},
});

const sizeOf = (item: unknown) => Buffer.byteLength(JSON.stringify(item ?? {}, (_, v) => (v instanceof Set ? [...v] : v)));
const readUnits = (bytes: number, consistent: boolean) => Math.max(1, Math.ceil(bytes / 4096)) * (consistent ? 1 : 0.5);
const writeUnits = (bytes: number) => Math.max(1, Math.ceil(bytes / 1024));

/** Request units of one DocumentClient command, from its input and output. */
function dynamoUnits(command: string, input: Record<string, any>, output: Record<string, any>): { read: number; write: number } {
  const consistent = input.ConsistentRead === true;
  switch (command) {
    case 'GetCommand':
      return { read: readUnits(sizeOf(output.Item), consistent), write: 0 };
    case 'QueryCommand':
    case 'ScanCommand':
      // A Query is billed on the total size of the items it read, filtered out ones included;
      // the stand-in does not say what it filtered, so what came back is the floor.
      return { read: readUnits((output.Items ?? []).reduce((n: number, i: unknown) => n + sizeOf(i), 0), consistent), write: 0 };
    case 'BatchGetCommand':
      return { read: Object.values<unknown[]>(output.Responses ?? {}).flat().reduce((n: number, i) => n + readUnits(sizeOf(i), consistent), 0), write: 0 };
    case 'PutCommand':
      return { read: 0, write: writeUnits(sizeOf(input.Item)) };
    case 'UpdateCommand':
      return { read: 0, write: output.Attributes ? writeUnits(sizeOf(output.Attributes)) : 1 };
    case 'DeleteCommand':
      return { read: 0, write: 1 };
    case 'BatchWriteCommand':
      return { read: 0, write: Object.values<any[]>(input.RequestItems ?? {}).flat().reduce((n: number, r) => n + (r.PutRequest ? writeUnits(sizeOf(r.PutRequest.Item)) : 1), 0) };
    default:
      return { read: 0, write: 0 };
  }
}

/**
 * Starts counting: DynamoDB commands process-wide (DocumentClient.send), task invocations
 * through the returned `taskOverrides` (pass them to the local stack's workflows), and the
 * object store once `attach(container)` is called. `take()` returns the counts so far and
 * starts over.
 */
export function startUsageMeter(taskNames: readonly string[], loadHandler: (fn: string) => TaskHandler) {
  let counts = emptyCounts();
  const proto = DynamoDBDocumentClient.prototype as unknown as { send: (command: any, ...rest: unknown[]) => Promise<any> };
  const send = proto.send;
  proto.send = async function meteredSend(this: unknown, command: any, ...rest: unknown[]) {
    const output = await send.call(this, command, ...rest);
    const units = dynamoUnits(command?.constructor?.name ?? '', command?.input ?? {}, output ?? {});
    counts.dynamo.readUnits += units.read;
    counts.dynamo.writeUnits += units.write;
    counts.dynamo.requests++;
    return output;
  };

  const taskOverrides: Record<string, TaskHandler> = {};
  for (const fn of taskNames) {
    taskOverrides[fn] = async (payload) => {
      const started = performance.now();
      try {
        return await loadHandler(fn)(payload);
      } finally {
        const usage = (counts.tasks[fn] ??= { invocations: 0, durationMs: 0 });
        usage.invocations++;
        usage.durationMs += performance.now() - started;
      }
    };
  }

  return {
    taskOverrides,
    /** Wraps the container's site store and artifact store (in place: the task handlers share this container). */
    attach(container: Container) {
      const site = container.siteStore;
      const publish = site.publish.bind(site);
      const unmeteredReadCurrent = site.readCurrent.bind(site);
      site.publish = async (orgSlug, files) => {
        // The manifest layout's uploads: the objects the current release does not hold, and the manifest.
        const previous = await unmeteredReadCurrent(orgSlug);
        const held = new Set(Object.values(manifestOf(previous?.files ?? []).files));
        const next = emptyManifest();
        const paths: string[] = [];
        // Counted as the publish reads them: the stream stays a stream.
        async function* metered() {
          for await (const file of files) {
            paths.push(file.path);
            addToManifest(next, file);
            counts.objects.releaseBytesWritten += Buffer.byteLength(file.content);
            yield file;
          }
        }
        const release = await publish(orgSlug, metered());
        counts.objects.releaseFilesWritten += paths.length;
        counts.objects.releaseObjectsWrittenOnS3 += paths.length + aiFallbackCopyPaths(paths).length;
        counts.objects.releaseObjectsWrittenOnS3Manifest += objectsToUpload(next, held).length + 1;
        return release;
      };
      // A release read file by file: one read per file.
      const openRelease = site.openRelease.bind(site);
      site.openRelease = async (orgSlug, releaseId) => {
        const reader = await openRelease(orgSlug, releaseId);
        return reader && {
          paths: () => {
            counts.objects.lists++;
            return reader.paths();
          },
          read: (path: string) => {
            counts.objects.reads++;
            counts.readsByKind.release = (counts.readsByKind.release ?? 0) + 1;
            return reader.read(path);
          },
        };
      };
      // A release is read file by file after one listing (the S3 store's readRelease).
      const countRelease = (release: { files: unknown[] } | null) => {
        const objects = (release?.files.length ?? 0) + 1;
        counts.objects.reads += objects;
        counts.readsByKind.release = (counts.readsByKind.release ?? 0) + objects;
        counts.objects.lists++;
        return release;
      };
      // Each store's readCurrent reads through its own readRelease, so neither counts twice.
      const readCurrent = site.readCurrent.bind(site);
      site.readCurrent = async (orgSlug) => countRelease(await readCurrent(orgSlug)) as Awaited<ReturnType<typeof readCurrent>>;
      const readRelease = site.readRelease.bind(site);
      site.readRelease = async (orgSlug, releaseId) => countRelease(await readRelease(orgSlug, releaseId)) as Awaited<ReturnType<typeof readRelease>>;
      const artifacts = container.artifacts;
      const put = artifacts.put.bind(artifacts);
      const get = artifacts.get.bind(artifacts);
      const list = artifacts.list.bind(artifacts);
      artifacts.put = async (key, value) => { counts.objects.artifactsWritten++; return put(key, value); };
      artifacts.get = async <T>(key: string) => {
        counts.objects.reads++;
        const kind = key.split('/')[0];
        counts.readsByKind[kind] = (counts.readsByKind[kind] ?? 0) + 1;
        return get<T>(key);
      };
      artifacts.list = async (prefix) => { counts.objects.lists++; return list(prefix); };
    },
    take(): UsageCounts {
      const taken = counts;
      counts = emptyCounts();
      return taken;
    },
    stop() {
      proto.send = send;
    },
  };
}
