import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import pLimit from 'p-limit';

export interface DocumentClientSettings {
  region: string;
  /** The embedded local server; unset on AWS. */
  endpoint?: string;
}

export function createDocumentClient(settings: DocumentClientSettings): DynamoDBDocumentClient {
  const client = new DynamoDBClient({
    region: settings.region,
    ...(settings.endpoint
      ? { endpoint: settings.endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
      : {}),
  });
  return DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
}

export const isConditionFailure = (err: unknown): boolean =>
  (err as { name?: string })?.name === 'ConditionalCheckFailedException';

/**
 * Runs a write that carries a ConditionExpression: true when it was applied, false when its
 * condition refused it (the expected outcome of a claim, slot or counter that is taken);
 * any other error is thrown.
 */
export async function conditionalWrite(write: () => Promise<unknown>): Promise<boolean> {
  try {
    await write();
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}

/** Writes the item unless one with its key exists; true when it was written (retry-safe inserts). */
export function putIfAbsent(db: DynamoDBDocumentClient, table: string, item: Record<string, unknown>): Promise<boolean> {
  return conditionalWrite(() => db.send(new PutCommand({ TableName: table, Item: item, ConditionExpression: 'attribute_not_exists(PK)' })));
}

/** Conditional puts in flight at once: 100,000 prompts one after another took minutes. */
const PUTS_IN_FLIGHT = 16;

/**
 * Writes each item unless its key exists (putIfAbsent), several at a time; how many were
 * new. BatchWriteItem takes no condition, so a concurrent writer's item would be overwritten.
 */
export async function putAllIfAbsent(db: DynamoDBDocumentClient, table: string, items: readonly Record<string, unknown>[]): Promise<number> {
  const limit = pLimit(PUTS_IN_FLIGHT);
  const written = await Promise.all(items.map((item) => limit(() => putIfAbsent(db, table, item))));
  return written.filter(Boolean).length;
}

/** BatchGetItem's limit per call. */
const BATCH_GET_KEYS = 100;
const UNPROCESSED_TRIES = 8;

export interface BatchGetOptions {
  consistent?: boolean;
  projection?: { expression: string; names: Record<string, string> };
  /** Tests: no waiting before a retry of unprocessed keys. */
  sleep?: (ms: number) => Promise<void>;
}

/**
 * The items of these keys, in one BatchGetItem per 100 keys; keys DynamoDB leaves
 * unprocessed (throttling) are asked again with backoff. Missing items are simply absent;
 * the order is DynamoDB's.
 */
export async function batchGetAll(db: DynamoDBDocumentClient, table: string, itemKeys: readonly Record<string, unknown>[], options: BatchGetOptions = {}): Promise<Record<string, any>[]> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const found: Record<string, any>[] = [];
  for (let i = 0; i < itemKeys.length; i += BATCH_GET_KEYS) {
    let pending: Record<string, unknown>[] = itemKeys.slice(i, i + BATCH_GET_KEYS);
    for (let attempt = 1; pending.length > 0; attempt++) {
      if (attempt > UNPROCESSED_TRIES) throw new Error(`DynamoDB left ${pending.length} reads unprocessed ${UNPROCESSED_TRIES} times`);
      if (attempt > 1) await sleep(Math.min(50 * 2 ** attempt, 2_000));
      const res = await db.send(new BatchGetCommand({
        RequestItems: {
          [table]: {
            Keys: pending,
            ...(options.consistent ? { ConsistentRead: true } : {}),
            ...(options.projection ? { ProjectionExpression: options.projection.expression, ExpressionAttributeNames: options.projection.names } : {}),
          },
        },
      }));
      found.push(...(res.Responses?.[table] ?? []));
      pending = (res.UnprocessedKeys?.[table]?.Keys ?? []) as Record<string, unknown>[];
    }
  }
  return found;
}
