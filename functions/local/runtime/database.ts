/**
 * The embedded DynamoDB-compatible server (dynalite), spoken to through the same AWS SDK
 * client as on AWS. With a directory it persists to disk (LevelDB); without, in memory. It
 * runs on a thread of its own, as DynamoDB is a service of its own: a task writing 100,000
 * prompts keeps the database busy, not the API's event loop.
 */
import { CreateTableCommand, DescribeTableCommand, DynamoDBClient, ResourceNotFoundException } from '@aws-sdk/client-dynamodb';
import { mkdirSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { TABLE_SCHEMA } from '../../adapters/dynamodb/table-schema';

/** The database thread: dynalite listening on 127.0.0.1, its port sent back; 'close' closes it. */
const DATABASE_THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const server = require(workerData.dynalite)({ path: workerData.path, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
server.once('error', (err) => parentPort.postMessage({ error: err.message }));
server.listen(workerData.port, '127.0.0.1', () => parentPort.postMessage({ port: server.address().port }));
parentPort.on('message', (message) => {
  if (message === 'close') server.close(() => parentPort.postMessage({ closed: true }));
});`;

export interface EmbeddedDatabase {
  endpoint: string;
  close(): Promise<void>;
}

export async function startEmbeddedDatabase(options: { path?: string; port?: number } = {}): Promise<EmbeddedDatabase> {
  if (options.path) mkdirSync(options.path, { recursive: true });
  const thread = new Worker(DATABASE_THREAD, { eval: true, workerData: { dynalite: require.resolve('dynalite'), path: options.path, port: options.port ?? 0 } });
  const port = await new Promise<number>((resolve, reject) => {
    thread.once('message', (m: { port?: number; error?: string }) => (m.port ? resolve(m.port) : reject(new Error(`the embedded database could not listen: ${m.error}`))));
    thread.once('error', reject);
  }).catch(async (err) => { await thread.terminate(); throw err; });
  return {
    endpoint: `http://127.0.0.1:${port}`,
    close: async () => {
      const closed = new Promise<void>((resolve) => thread.once('message', () => resolve()));
      thread.postMessage('close');
      await closed;
      await thread.terminate();
    },
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
