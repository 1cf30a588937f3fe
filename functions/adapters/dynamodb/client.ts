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

/** Writes the item unless one with its key exists; true when it was written (retry-safe inserts). */
export async function putIfAbsent(db: DynamoDBDocumentClient, table: string, item: Record<string, unknown>): Promise<boolean> {
  try {
    await db.send(new PutCommand({ TableName: table, Item: item, ConditionExpression: 'attribute_not_exists(PK)' }));
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}
