import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

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
