/**
 * The embedded DynamoDB-compatible server (dynalite), spoken to through the same AWS SDK
 * client as on AWS. With a directory it persists to disk (LevelDB); without, in memory.
 */
import { CreateTableCommand, DescribeTableCommand, DynamoDBClient, ResourceNotFoundException } from '@aws-sdk/client-dynamodb';
import { mkdirSync } from 'node:fs';
import { TABLE_SCHEMA } from '../../adapters/dynamodb/table-schema';
import { listen } from './listen';

// dynalite ships no types.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const dynalite = require('dynalite') as (options: Record<string, unknown>) => import('node:http').Server;

export interface EmbeddedDatabase {
  endpoint: string;
  close(): Promise<void>;
}

export async function startEmbeddedDatabase(options: { path?: string; port?: number } = {}): Promise<EmbeddedDatabase> {
  if (options.path) mkdirSync(options.path, { recursive: true });
  const server = dynalite({ path: options.path, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  const port = await listen(server, options.port);
  return {
    endpoint: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Creates the table from TABLE_SCHEMA unless it exists (the CDK data stack uses the same constant). */
export async function ensureTable(endpoint: string, tableName: string, region = 'us-east-1'): Promise<void> {
  const client = new DynamoDBClient({ endpoint, region, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
    client.destroy();
    return;
  } catch (err) {
    if (!(err instanceof ResourceNotFoundException)) throw err;
  }
  const s = TABLE_SCHEMA;
  const attributes = new Set<string>([s.partitionKey, s.sortKey, ...s.globalSecondaryIndexes.flatMap((g) => [g.partitionKey, g.sortKey])]);
  await client.send(new CreateTableCommand({
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [...attributes].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
    KeySchema: [{ AttributeName: s.partitionKey, KeyType: 'HASH' }, { AttributeName: s.sortKey, KeyType: 'RANGE' }],
    GlobalSecondaryIndexes: s.globalSecondaryIndexes.map((g) => ({
      IndexName: g.indexName,
      KeySchema: [{ AttributeName: g.partitionKey, KeyType: 'HASH' }, { AttributeName: g.sortKey, KeyType: 'RANGE' }],
      Projection: { ProjectionType: 'ALL' },
    })),
  }));
  client.destroy();
}
