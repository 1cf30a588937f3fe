import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';

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
